"""How ratings are shown (bot.standings): the leaderboard picture a phone can read, its words and alt text,
`/stats` lines, and the final table's field."""

from __future__ import annotations

import io

import discord
from PIL import Image

from bot.ratings import ALL, PEOPLE
from bot.render.canvas import INK, PHONE_WIDTH
from bot.standings import (
    MARGIN,
    ROW,
    add_rating_field,
    alt_text,
    draw_leaderboard,
    leaderboard_text,
    stats_lines,
)
from bot.store import RatedPlayer, Rating, RatingChange, Seat, SessionRecord

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


def test_stats_show_each_rating_and_its_last_change_and_the_one_with_ai_games_if_it_differs():
    ratings = [rated("Alice", 30, games=3), rated("Alice", 29, games=4, pool=ALL)]
    last = {("johari-bones", PEOPLE): RatingChange(pool=PEOPLE, player="alice", name="Alice",
                                                   before=Rating(mu=28, sigma=4, games=2),
                                                   after=Rating(mu=30, sigma=4, games=3)),
            ("johari-bones", ALL): RatingChange(pool=ALL, player="alice", name="Alice",
                                                before=Rating(mu=30, sigma=4, games=3),
                                                after=Rating(mu=29, sigma=4, games=4))}
    assert stats_lines(ratings, last) == [
        "**Ratings** (1000 for a newcomer):",
        "• Johari Bones: rating **1,360** (+40 in the last game)",
        "• Johari Bones, games with Parlor (AI) counted too: rating **1,340** (−20 in the last game)"]
    same = [rated("Alice", 30, games=3), rated("Alice", 30, games=3, pool=ALL)]
    assert len(stats_lines(same, last)) == 2, "no second line when no game with the AI was played"
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
