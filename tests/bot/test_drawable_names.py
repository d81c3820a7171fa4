"""Players' names in pictures (bot.presentation.render.canvas.drawable): the bundled font draws ASCII and a little
punctuation only, so any other character used to come out as a box. Every picture draws names through
`drawable`, which spells them with characters the font has."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bench.positions import random_states
from bot.presentation.frontends import frontend_for
from bot.presentation.render.canvas import FONT_EXTRAS, drawable, font
from bot.presentation.standings import draw_leaderboard
from bot.storage.store import RatedPlayer, Rating
from games import get_game

NAMES = ["Zoë", "José Ñúñez", "dave🙂", "李小龍", "Владимир", "Σωκράτης", "Straße", "👨‍👩‍👧 family", "Łukasz"]


def has_glyph(char: str, size: int = 20) -> bool:
    """Whether the font draws `char` as itself, not as its box for a missing glyph."""
    face = font(size)
    missing = face.getmask("\U0010fffd")
    mask = face.getmask(char)
    return char.isspace() or (mask.size, bytes(mask)) != (missing.size, bytes(missing))


def test_the_font_draws_ascii_and_the_extras_and_not_what_it_lacks():
    assert all(has_glyph(chr(code)) for code in range(0x20, 0x7F))
    assert all(has_glyph(char) for char in FONT_EXTRAS)
    assert not any(has_glyph(char) for char in "ëÑΩЖ李🙂")


@pytest.mark.parametrize("name", NAMES)
def test_every_name_is_drawn_with_letters_the_font_has(name):
    drawn = drawable(name)
    assert drawn and all(has_glyph(char) for char in drawn), drawn


def test_names_are_spelled_plainly_and_unknown_letters_still_count():
    assert [drawable(name) for name in NAMES] == ["Zoe", "Jose Nunez", "dave", "???", "Vladimir", "Sokratis",
                                                  "Strasse", "family", "Lukasz"]
    assert drawable("Alice · 3 pts…") == "Alice · 3 pts…" and drawable("") == "" and drawable("🎲") == "?"


def leaderboard(name: str) -> bytes:
    row = RatedPlayer(slug="johari-bones", pool="people", player="1", name=name,
                      rating=Rating(mu=30, sigma=2, games=3))
    return draw_leaderboard([("johari-bones", [row])], "Leaderboard: Johari Bones", "Games between people")


def test_the_leaderboard_draws_an_accented_name_as_its_plain_spelling_not_as_boxes():
    assert leaderboard("José Zoë") == leaderboard("Jose Zoe")


@pytest.mark.parametrize("slug", ["john-henry", "two-fat-dudes", "follow-the-arrow", "johari-bones", "crayon-rails"])
def test_every_board_draws_accented_names_as_their_plain_spelling(slug):
    players = ["p1", "p2"]
    state, events = random_states(slug, players, seed=3, max_steps=6)[-1]
    view = get_game(slug).view(state, None)
    frontend = frontend_for(slug)
    accented = Image.open(io.BytesIO(frontend.draw_board(view, {"p1": "Zoë", "p2": "Łukasz"}, events)))
    plain = Image.open(io.BytesIO(frontend.draw_board(view, {"p1": "Zoe", "p2": "Lukasz"}, events)))
    assert accented.tobytes() == plain.tobytes()
