"""Table pictures for phones (issue 11, items 5, 7 and 10), for the four games drawn in bot/presentation/render.

Every picture of a seeded random game is a palette PNG of phone width and bounded height; the
gold result banner appears on the final picture, and only there, naming the winner and every
player's final score; John Henry's picture shows the dice just rolled.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from bench.positions import random_states
from bot.presentation.frontends import frontend_for
from bot.presentation.render import follow_the_arrow, johari_bones, john_henry, two_fat_dudes
from bot.presentation.render.canvas import BANNER, PHONE_WIDTH, Board, fit_size, text_width
from games import get_game
from games.core import ScriptedRandomness

GAMES = ["john-henry", "two-fat-dudes", "follow-the-arrow", "johari-bones"]
RENDERERS = {"john-henry": john_henry, "two-fat-dudes": two_fat_dudes, "follow-the-arrow": follow_the_arrow,
             "johari-bones": johari_bones}
NAMES = {"p1": "Alice", "p2": "Bartholomew Fitzwilliam-Smythe", "p3": "Carol", "p4": "Dmitri"}


def players(slug: str, count: int = 3) -> list[str]:
    return list(NAMES)[: count if slug == "johari-bones" else 2]


def picture(slug: str, view: dict, events: list | tuple = ()) -> Image.Image:
    image = Image.open(io.BytesIO(frontend_for(slug).draw_board(view, NAMES, events)))
    image.load()
    return image


def banner_pixels(image: Image.Image) -> int:
    return sum(count for count, colour in image.convert("RGB").getcolors(1 << 20) if colour == BANNER)


def finished(slug: str, seed: int = 4) -> tuple[object, list]:
    for attempt in range(seed, seed + 20):
        states = random_states(slug, players(slug), seed=attempt, max_steps=800)
        if get_game(slug).result(states[-1][0]) is not None:
            return states[-1]
    raise AssertionError(f"no random {slug} game finished")


@pytest.mark.parametrize("slug", GAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000))
def test_every_picture_is_a_phone_sized_palette_png(slug, seed):
    game = get_game(slug)
    states = random_states(slug, players(slug, 4), seed=seed, max_steps=300)
    for state, events in states[:: max(1, len(states) // 8)]:
        image = picture(slug, game.view(state, None), events)
        assert image.format == "PNG" and image.mode == "P"
        assert image.width == PHONE_WIDTH and image.height <= 1.2 * PHONE_WIDTH


@pytest.mark.parametrize("slug", GAMES)
def test_the_banner_is_on_the_final_picture_only(slug):
    game = get_game(slug)
    state, events = finished(slug)
    final = picture(slug, game.view(state, None), events)
    assert banner_pixels(final) > 0.5 * PHONE_WIDTH * 80, "a gold band across the picture"
    earlier = random_states(slug, players(slug), seed=4, max_steps=6)
    for state, events in earlier:
        assert banner_pixels(picture(slug, game.view(state, None), events)) == 0


@pytest.mark.parametrize("slug", GAMES)
def test_the_banner_names_the_winner_and_every_final_score(slug):
    game = get_game(slug)
    state, _ = finished(slug)
    result = game.result(state)
    headline, scores = RENDERERS[slug].result_banner(game.view(state, None), NAMES)
    assert any(NAMES[winner] in headline for winner in result["winners"]) or "draw" in headline
    assert [name for name, _, _ in scores] == [NAMES[p] for p in players(slug)]
    if slug in ("two-fat-dudes", "johari-bones"):
        assert [int(text.split()[0]) for _, text, _ in scores] == [result["scores"][p] for p in players(slug)]


def test_john_henry_shows_the_dice_just_rolled():
    game = get_game("john-henry")
    state, events = next((s, e) for s, e in random_states("john-henry", ["p1", "p2"], seed=9)
                         if any(event["type"] == "rolled" for event in e))
    view = game.view(state, None)
    roller, dice, _ = john_henry.last_roll(events)
    rolled = next(event for event in events if event["type"] == "rolled")
    assert (roller, dice) == (rolled["player"], rolled["dice"])
    panel = (0, john_henry.PANEL_TOP, PHONE_WIDTH // 2, john_henry.PANEL_TOP + 100)
    with_dice = picture("john-henry", view, events).convert("RGB").crop(panel)
    without = picture("john-henry", view).convert("RGB").crop(panel)
    assert with_dice.tobytes() != without.tobytes()


def test_john_henry_last_roll_reads_bonus_and_roll_off_dice():
    assert john_henry.last_roll([{"type": "bonus-rolled", "player": "a", "die": 3},
                                 {"type": "moved", "player": "a", "steps": 9}]) == ("a", [6, 3], "moves 9")
    assert john_henry.last_roll([{"type": "roll-off", "player": "b", "die": 4}])[:2] == ("b", [4])
    assert john_henry.last_roll([]) is None
    lost = [{"type": "roll-off", "player": "b", "die": 2}, {"type": "first-player", "player": "a", "die": 5},
            {"type": "moved", "player": "a", "steps": 5}]
    assert john_henry.last_roll(lost) == ("b", [2], "loses the roll-off")
    two_moves = [{"type": "rolled", "player": "a", "dice": [6]}, {"type": "john-henry-taken", "player": "a"},
                 {"type": "bonus-rolled", "player": "a", "die": 4}, {"type": "moved", "player": "a", "steps": 10}]
    assert john_henry.last_roll(two_moves) == ("a", [6, 4], "calls John Henry, moves 10")


def test_two_fat_dudes_last_roll_is_the_latest():
    events = [{"type": "roll_off", "player": "a", "roll": 2}, {"type": "roll_off", "player": "b", "roll": 4},
              {"type": "rolled", "player": "b", "roll": 3}]
    assert two_fat_dudes.last_roll(events) == ("b", 3, "")
    assert two_fat_dudes.last_roll(events[:1]) == ("a", 2, " for the start")
    assert two_fat_dudes.last_roll([{"type": "passed", "player": "a"}]) is None


def test_long_names_are_clipped_or_shrunk_to_fit():
    assert fit_size("x" * 200, 26, 300) == 18
    assert text_width("Bartholomew", fit_size("Bartholomew", 26, 120, 8)) <= 120


def test_board_text_is_drawn_where_asked():
    board = Board.blank(200, 60, (255, 255, 255))
    board.text((100, 30), "Alice", 26, (0, 0, 0), "mm")
    left, top, right, bottom = board.image.convert("L").point(lambda v: 255 - v).getbbox()
    assert left < 100 < right and top < 30 < bottom


def test_john_henry_last_roll_gives_the_roll_off_loser_no_john_henry_of_the_winner():
    """Bob's roll-off 2 loses to Alice's 6, which calls John Henry for her: the panel beside Bob's die said
    "loses the roll-off, calls John Henry", as if Bob had called him."""
    game = get_game("john-henry")
    state, _ = game.apply(game.new_game(["a", "b"], ScriptedRandomness()), "a", {"type": "roll"},
                          ScriptedRandomness(rolls=[6]))
    _, events = game.apply(state, "b", {"type": "roll"}, ScriptedRandomness(rolls=[2]))
    assert {"type": "john-henry-taken", "player": "a", "from": None} in events
    assert john_henry.last_roll(events) == ("b", [2], "loses the roll-off")


@pytest.mark.parametrize("outcome", ["doubles: John Henry dies, moves 12", "a 1: John Henry changes sides, moves 1",
                                     "calls John Henry, moves 10", "loses the roll-off"])
def test_john_henry_last_roll_words_are_never_cut_beside_two_dice(outcome):
    """Beside two dice "doubles: John Henry dies, moves 12" was drawn as "doubles: John Henry di…": what
    came of the roll now goes over two smaller lines when it does not fit one."""
    _, width = john_henry.last_roll_words_box(2)
    lines, size = john_henry.outcome_lines(outcome, width)
    assert ", ".join(lines) == outcome and len(lines) <= 2
    assert all(text_width(line, size) <= width for line in lines)


@pytest.mark.parametrize("module,slug", [(john_henry, "john-henry"), (two_fat_dudes, "two-fat-dudes"),
                                         (follow_the_arrow, "follow-the-arrow"), (johari_bones, "johari-bones")])
def test_a_game_ended_mid_play_says_game_over_on_its_board(module, slug):
    """A claimed or abandoned game is drawn as it ended, waiting on nobody (bot.discord.replies.ended_view): its
    status line says so instead of naming someone to act (John Henry's and Johari Bones' failed outright)."""
    state, _ = next((s, e) for i, (s, e) in enumerate(random_states(slug, ["p1", "p2"], seed=5)) if i == 5)
    view = {**get_game(slug).view(state, None), "to_act": []}
    assert module._status(view, {"p1": "Alice", "p2": "Bob"}) == "Game over"
    assert picture(slug, view).size[0] == PHONE_WIDTH
