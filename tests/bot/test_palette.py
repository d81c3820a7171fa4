"""Seat colours are told apart with each common colour vision deficiency (issue 25 item 2).

`colorspacious` simulates deuteranopia, protanopia and tritanopia at severity 100 (the Machado et al.
2009 model: a person who lacks the cone entirely); colours are compared in CIELab with CIEDE2000,
checked here against Sharma, Wu and Dalal's published test pairs.

Thresholds, from measurements of the palettes (`PLAYER_COLOURS`, and Follow the Arrow's black and red):

- Any two seat colours of a game, over as many seats as the game seats, in normal vision and each
  simulation: at least `SEATS_APART` = 20 (issue 42). Measured: 20.2 for Johari Bones' four seats, 25.8
  for Follow the Arrow's black and red, 47.5 for the other two-seat games; the red and green used before
  measured 5.8 under deuteranopia, and pure Okabe–Ito 12.2 under protanopia. About 10 is where coloured
  marks side by side start to be told apart at a glance (and 2.3 is merely "just noticeable"): 20 leaves
  room for a phone's screen.
- A seat colour against every paper it is drawn on (the board's background, the acting player's
  band, Crayon Rails' land under the track, the result banner): at least `ON_PAPER` = 20. Measured:
  20.6 for vermillion track on Crayon Rails' mountains under deuteranopia, 26 or more elsewhere.
Colour is never the only cue besides: every seat also has a shape or a letter (`SEAT_SHAPES`).
"""

from __future__ import annotations

import colorsys
import itertools
import math

import numpy as np
import pytest
from colorspacious import cspace_convert

from bot.presentation.render import crayon_map, follow_the_arrow, johari_bones, john_henry, two_fat_dudes
from bot.presentation.render.canvas import (
    BACKGROUND,
    BANNER,
    PLAYER_COLOURS,
    SEAT_COLOUR_NAMES,
    SEAT_SHAPES,
    seat_words,
)
from games import GAMES, get_game

Colour = tuple[int, int, int]
DEFICIENCIES = (None, "deuteranomaly", "protanomaly", "tritanomaly")
"""Normal vision, then colorspacious's names for the three deficiencies (at severity 100: -opia)."""
SEATS_APART = 20.0
ON_PAPER = 20.0

BOARDS: dict[str, tuple[list[Colour], list[Colour]]] = {
    "john-henry": (PLAYER_COLOURS[:2], [BACKGROUND, john_henry.TRACK_FILL, BANNER]),
    "two-fat-dudes": (list(two_fat_dudes.TOKEN.values()), [BACKGROUND, two_fat_dudes.TURN_BAND, BANNER]),
    "follow-the-arrow": (list(follow_the_arrow.PAWN_FILL.values()),
                         [BACKGROUND, follow_the_arrow.CIRCLE_FILL, *follow_the_arrow.START_BAND.values(), BANNER]),
    "johari-bones": (PLAYER_COLOURS[:4], [BACKGROUND, johari_bones.HIGHLIGHT, BANNER]),
    "crayon-rails": (PLAYER_COLOURS[:2], [BACKGROUND, crayon_map.HIGHLIGHT, *crayon_map.LAND.values(), BANNER]),
}
"""Each board's seat colours (as many as it seats), and the papers they are drawn on."""


def ciede2000(lab1: np.ndarray, lab2: np.ndarray) -> float:
    """CIEDE2000 colour difference (Sharma, Wu and Dalal 2005), kL = kC = kH = 1."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    mean_c = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(mean_c**7 / (mean_c**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    if c1 * c2 and abs(h2 - h1) == 180:
        dh = 180.0 if h2 > h1 else -180.0
    big_dh = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    mean_l, mean_c = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        mean_h = h1 + h2
    elif abs(h1 - h2) <= 180:
        mean_h = (h1 + h2) / 2
    else:
        mean_h = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(mean_h - 30)) + 0.24 * math.cos(math.radians(2 * mean_h))
         + 0.32 * math.cos(math.radians(3 * mean_h + 6)) - 0.20 * math.cos(math.radians(4 * mean_h - 63)))
    rotation = 30 * math.exp(-(((mean_h - 275) / 25) ** 2))
    rc = 2 * math.sqrt(mean_c**7 / (mean_c**7 + 25**7))
    sl = 1 + 0.015 * (mean_l - 50) ** 2 / math.sqrt(20 + (mean_l - 50) ** 2)
    sc, sh = 1 + 0.045 * mean_c, 1 + 0.015 * mean_c * t
    rt = -math.sin(math.radians(2 * rotation)) * rc
    dl, dc = (l2 - l1) / sl, (c2 - c1) / sc
    return math.sqrt(dl**2 + dc**2 + (big_dh / sh) ** 2 + rt * dc * (big_dh / sh))


def seen(colour: Colour, deficiency: str | None) -> np.ndarray:
    """How `colour` looks with `deficiency` (None: normal vision), in CIELab."""
    rgb = np.array(colour) / 255
    if deficiency is not None:
        space = {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100}
        rgb = np.clip(cspace_convert(rgb, space, "sRGB1"), 0, 1)
    return cspace_convert(rgb, "sRGB1", "CIELab")


@pytest.mark.parametrize(("lab1", "lab2", "expected"), [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 2.5, 0.0), (50.0, 0.0, -2.5), 4.3065),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
])
def test_ciede2000_matches_the_published_test_pairs(lab1, lab2, expected):
    assert ciede2000(np.array(lab1), np.array(lab2)) == pytest.approx(expected, abs=1e-4)


def test_the_old_red_and_green_fail_the_check_under_deuteranopia():
    """The check can fail: the seat colours before issue 25 were red and green a deuteranope confuses."""
    red, green = (200, 50, 50), (40, 150, 70)
    assert ciede2000(seen(red, "deuteranomaly"), seen(green, "deuteranomaly")) < SEATS_APART / 2


@pytest.mark.parametrize("deficiency", DEFICIENCIES)
@pytest.mark.parametrize("slug", sorted(BOARDS))
def test_every_two_seats_differ_and_each_stands_out_from_its_paper(slug, deficiency):
    seats, papers = BOARDS[slug]
    for (one, first), (other, second) in itertools.combinations(enumerate(seats), 2):
        apart = ciede2000(seen(first, deficiency), seen(second, deficiency))
        assert apart >= SEATS_APART, f"{slug}: seats {one} and {other} are {apart:.1f} apart ({deficiency})"
    for seat, colour in enumerate(seats):
        for paper in papers:
            apart = ciede2000(seen(colour, deficiency), seen(paper, deficiency))
            assert apart >= ON_PAPER, f"{slug}: seat {seat} is {apart:.1f} from {paper} ({deficiency})"


def test_every_game_is_checked_over_all_the_seats_it_has():
    """A game added, or one seating more players, must have its seat colours measured here too."""
    assert sorted(BOARDS) == sorted(GAMES)
    for slug, (seats, _papers) in BOARDS.items():
        assert len(seats) == get_game(slug).max_players, slug


def test_each_seat_has_a_shape_of_its_own():
    assert len(set(SEAT_SHAPES)) >= len(PLAYER_COLOURS) == len(set(PLAYER_COLOURS))


HUES = {"orange": (10, 45), "blue": (190, 250), "green": (90, 175), "wine": (310, 360)}
"""The hue angles (degrees) a sighted player would call by each of `SEAT_COLOUR_NAMES`."""


def test_each_seat_colour_is_named_as_it_looks():
    """The texts name a seat's colour ("the orange circle"): the name must fit the colour drawn."""
    assert len(SEAT_COLOUR_NAMES) == len(PLAYER_COLOURS) == len(set(SEAT_COLOUR_NAMES))
    for colour, name in zip(PLAYER_COLOURS, SEAT_COLOUR_NAMES, strict=True):
        hue = colorsys.rgb_to_hsv(*(channel / 255 for channel in colour))[0] * 360
        low, high = HUES[name]
        assert low <= hue <= high, f"{colour} has hue {hue:.0f}, not {name}"
    assert [seat_words(seat) for seat in range(4)] == [
        "orange circle", "blue square", "green triangle", "wine diamond"]
