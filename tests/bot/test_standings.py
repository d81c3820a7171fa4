"""How ratings are shown (bot.presentation.standings): the leaderboard picture a phone can read, its words and alt text,
`/stats` lines, and the final table's field."""

from __future__ import annotations

import io

import discord
from PIL import Image

from bot.discord.leaderboard import add_rating_field
from bot.play.ratings import ALL, PEOPLE, shown
from bot.presentation.alt_text import ALT_TEXT_MAX
from bot.presentation.render.canvas import INK, PHONE_WIDTH
from bot.presentation.standings import (
    BRONZE,
    MARGIN,
    PAPER,
    ROW,
    SILVER,
    STRIPE,
    alt_text,
    draw_leaderboard,
    leaderboard_text,
    ranked,
    stats_lines,
)
from bot.presentation.user_text import MESSAGE_MAX
from bot.storage.store import RatedPlayer, Rating, RatingChange, Seat, SessionRecord
from games import GAMES

PHONE = 400


def rated(name: str, mu: float, sigma: float = 4.0, games: int = 5, pool: str = PEOPLE,
          slug: str = "johari-bones") -> RatedPlayer:
    return RatedPlayer(slug=slug, pool=pool, player=name.lower(), name=name,
                       rating=Rating(mu=mu, sigma=sigma, games=games))


SECTION = [("johari-bones", [rated("Alice", 32), rated("Bartholomew Fitzwilliam-Smythe the Third", 28),
                             rated("Carol", 25), rated("Dave", 20)])]


def test_the_leaderboard_picture_is_phone_width_and_its_names_are_legible_at_400_px():
    image = Image.open(io.BytesIO(draw_leaderboard(SECTION, "Leaderboard: Johari Bones", "Games between people")))
    assert image.format == "PNG" and image.width == PHONE_WIDTH and image.height < PHONE_WIDTH
    rgb = image.convert("RGB")
    top = MARGIN + 80 + ROW  # the first entry's row, below the game's heading
    inked = [y for y in range(top, top + ROW) if any(rgb.getpixel((x, y)) == INK for x in range(MARGIN + 60, 400))]
    assert (max(inked) - min(inked) + 1) * PHONE / PHONE_WIDTH >= 9, "a name is at least 9 px tall on a phone"


def test_the_leaderboard_in_words_and_its_alt_text_name_the_top_entries_in_order():
    text = leaderboard_text(SECTION, "johari-bones", with_ai=False)
    assert text.splitlines()[0] == ("**Leaderboard: Johari Bones** on this server, games between people "
                                   "(games with Parlor (AI) apart).")
    assert text.splitlines()[1] == "1. Alice 1,400 (5 games)"
    alt = alt_text(SECTION, "johari-bones")
    assert alt.startswith("Leaderboard of Johari Bones. Johari Bones: 1. Alice 1,400 (5 games); 2. Bartholomew")
    assert len(alt) <= 1024
    assert leaderboard_text([], None, with_ai=True).startswith("No rated game on this server yet")
    empty = leaderboard_text([], "johari-bones", with_ai=False)
    assert empty == ("No rated game of Johari Bones on this server yet: a game counts once it is played to the end "
                     "or claimed. This leaderboard counts games between people; games with Parlor (AI) are rated "
                     "apart."), "said plainly, without parentheses inside parentheses"


def test_a_leaderboard_too_long_for_one_message_loses_its_last_entries_whole_and_keeps_its_footer():
    every_game = [(slug, [rated(f"Player {n} of {slug} with a rather long display name", 40 - n, slug=slug)
                          for n in range(12)]) for slug in GAMES]
    text = leaderboard_text(every_game, None, with_ai=True)
    assert len(text) <= MESSAGE_MAX
    lines = text.splitlines()
    assert lines[0].startswith("**Leaderboard: every game**") and lines[1] == "__Crayon Rails (public locking)__"
    assert lines[-2:] == ["…", leaderboard_text(SECTION, None, with_ai=True).splitlines()[-1]]
    assert all(line.startswith(("__", "…")) or line.endswith("games)") for line in lines[1:-1]), "an entry cut"
    assert not lines[-3].startswith("__"), "a game's heading without its entries"


def test_stats_show_each_rating_and_its_last_change_and_the_one_with_ai_games_if_it_differs():
    """Each line's change is its pool's last game: Bob won a game the AI stood in for him, after losing one
    between people, and read '−54 in the last game' beside '+56 in the last game'."""
    ratings = [rated("Alice", 30, games=3), rated("Alice", 29, games=4, pool=ALL)]
    last = {("johari-bones", PEOPLE): RatingChange(pool=PEOPLE, player="alice", name="Alice",
                                                   before=Rating(mu=28, sigma=4, games=2),
                                                   after=Rating(mu=30, sigma=4, games=3)),
            ("johari-bones", ALL): RatingChange(pool=ALL, player="alice", name="Alice",
                                                before=Rating(mu=30, sigma=4, games=3),
                                                after=Rating(mu=29, sigma=4, games=4))}
    assert stats_lines(ratings, last) == [
        "**Ratings** (1000 for a newcomer):",
        "• Johari Bones: rating **1,360** (+40 in the last game between people)",
        "• Johari Bones, games with Parlor (AI) counted too: rating **1,340** (−20 in the last game)"]
    same = [rated("Alice", 30, games=3), rated("Alice", 30, games=3, pool=ALL)]
    assert stats_lines(same, last)[1:] == ["• Johari Bones: rating **1,360** (+40 in the last game)"], \
        "no second line when no game with the AI was played, and the last game is the last game"
    assert stats_lines([], {}) == []


def test_the_final_table_lists_each_players_rating_change_best_first():
    session = SessionRecord(id=1, guild_id="1", channel_id="9", slug="john-henry", status="finished", creator="1",
                            players=[Seat(id="1", name="Alice"), Seat(id="2", name="Bob")], invited=[], options={},
                            setup_outcomes=None, state=None, version=9, result=None, end_reason="played out",
                            created_at=0, updated_at=0)
    changes = [RatingChange(pool=pool, player=player, name=name, before=None, after=Rating(mu=mu, sigma=8, games=1))
               for pool in (PEOPLE, ALL) for player, name, mu in (("1", "Alice", 23), ("2", "Bob", 27))]
    embed = discord.Embed()
    add_rating_field(embed, session, changes)
    [field] = embed.fields
    assert field.name == "Ratings" and field.value == "Bob: 1,060 (+60)\nAlice: 980 (−20)"


TIED = [("johari-bones", [rated("Alice", 32), rated("Carol", 28.01), rated("Bob", 28), rated("Dave", 20)])]
"""Carol and Bob differ in rating only below what is shown (both show 1,320): they share second place."""


def rank_marks(image: Image.Image, row: int, colour: tuple[int, int, int] | None = None) -> set[tuple[int, int]]:
    """Where the rank of the `row`-th entry (0: the first) is drawn, relative to its row: in `colour`, or in any
    colour but the paper's and the stripe's."""
    rgb = image.convert("RGB")
    top = MARGIN + 80 + ROW * (row + 1)
    inked = (lambda pixel: pixel == colour) if colour else (lambda pixel: pixel not in (PAPER, STRIPE))
    return {(x, y - top) for x in range(MARGIN, MARGIN + 46) for y in range(top + 2, top + ROW - 2)
            if inked(rgb.getpixel((x, y)))}


def test_equal_shown_ratings_share_a_rank_in_the_words_the_alt_text_and_the_picture():
    assert shown(TIED[0][1][1].rating) == shown(TIED[0][1][2].rating) == 1320
    assert [rank for rank, _ in ranked(TIED[0][1])] == [1, 2, 2, 4], "standard competition ranking"
    assert leaderboard_text(TIED, "johari-bones", with_ai=False).splitlines()[1:5] == [
        "1. Alice 1,400 (5 games)", "2. Carol 1,320 (5 games)", "2. Bob 1,320 (5 games)", "4. Dave 1,160 (5 games)"]
    assert "; 2. Carol 1,320 (5 games); 2. Bob 1,320 (5 games); 4. Dave" in alt_text(TIED, "johari-bones")
    image = Image.open(io.BytesIO(draw_leaderboard(TIED, "Leaderboard: Johari Bones", "Games between people")))
    assert rank_marks(image, 1, SILVER) and rank_marks(image, 2, SILVER), "both ranks drawn in silver"
    second, also_second = rank_marks(image, 1), rank_marks(image, 2)
    assert len(second ^ also_second) < len(second) // 10, "both drawn as 2. (on a stripe or not)"
    assert not rank_marks(image, 3, BRONZE) and not rank_marks(image, 2, BRONZE), "nobody is third"


def test_a_long_alt_text_ends_with_an_ellipsis_after_its_last_whole_entry():
    games = ["johari-bones", "john-henry", "two-fat-dudes", "follow-the-arrow", "crayon-rails"]
    sections = [(slug, [rated(f"Player {slug} number {n} with a long display name", 30 - n, slug=slug)
                        for n in range(10)]) for slug in games]
    alt = alt_text(sections, None)
    assert len(alt) <= ALT_TEXT_MAX and alt.endswith(" games)…"), alt[-60:]
    assert alt.startswith("Leaderboard of every game. Johari Bones: 1. Player johari-bones number 0 ")
