"""Johari Bones pictures: each player's four bones and the scorecard, drawn from a view.

The public board masks everything the public view may not hold before drawing, so even a
private view handed to it by mistake cannot put a hidden bone into the channel.

Laid out for a phone (720 px wide, shown about 400 px wide): the hand, the pile and whose turn
it is on top in key-size type, one row per player (name and total in his colour, his four bones
under the four position headings printed once), and the scorecard. A player's own picture adds
a row with the bone he drew. The headings and the scorecard's grid depend only on the number of
players, so they are drawn once per count and cached.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from PIL import Image, ImageDraw

from bot.presentation.frontend import display_name
from bot.presentation.render.canvas import (
    BACKGROUND,
    BANNER_HEIGHT,
    BODY,
    GAME_OVER,
    INK,
    KEY,
    MUTED,
    PHONE_WIDTH,
    PLAYER_COLOURS,
    SMALL,
    WHITE,
    Board,
    Colour,
    banner_palette_colours,
    clip,
    draw_result_banner,
    fit_size,
    game_palette,
    pts,
    seat_colour,
    seat_mark,
    text_width,
)
from games.johari_scoring import BOXES

WIDTH = PHONE_WIDTH
MARGIN = 8
HEADER = 100
HEADINGS = 24
ROW = 72
STRIP = 72
SCORE_HEAD = 34
SCORE_ROW = 28
NAME_W = 196
SLOT_X = tuple(NAME_W + 8 + index * 128 for index in range(4))
BONE_W, BONE_H = 116, 56
POSITION_LABELS = {"up": "Face up", "down": "Face down", "in": "Face in", "out": "Face out"}
BOX_LABELS = {
    "ones": "Ones", "twos": "Twos", "threes": "Threes", "fours": "Fours", "fives": "Fives",
    "sixes": "Sixes", "full_house": "Full House", "run4": "4 Run", "run5": "5 Run", "chance": "Chance",
}
FACE = (252, 250, 244)
BACK = (36, 84, 64)
BACK_MARK = (86, 140, 112)
HIGHLIGHT = (255, 236, 179)
PALETTE = game_palette(
    [BACKGROUND, INK, MUTED, WHITE, *PLAYER_COLOURS, FACE, BACK, BACK_MARK, HIGHLIGHT, *banner_palette_colours()],
    inks=[INK, MUTED, *PLAYER_COLOURS],
    papers=[BACKGROUND, FACE, HIGHLIGHT, banner_palette_colours()[0]],
)
PIPS = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
}
OPEN_PHASES = ("scoring", "over")


def public_part(view: dict) -> dict:
    """The view with every bone the public may not see set to None, and no drawn bone."""
    revealed = view["phase"] in OPEN_PHASES
    players = [
        {key: value if key in ("id", "up") or revealed else None for key, value in entry.items()}
        for entry in view["players"]
    ]
    return {**view, "players": players, "drawn": None}


@cache
def _bone_tile(bone: str | None) -> tuple[Image.Image, Image.Image]:
    """A domino face with pips, or its back when the bone is not shown, with its shape as a mask:
    28 faces and a back, drawn once each."""
    tile = Board.blank(BONE_W + 1, BONE_H + 1)
    shape = Image.new("L", tile.image.size, 0)
    box = (0, 0, BONE_W, BONE_H)
    ImageDraw.Draw(shape).rounded_rectangle(box, radius=8, fill=255)
    if bone is None:
        tile.draw.rounded_rectangle(box, radius=8, fill=BACK, outline=INK, width=2)
        tile.draw.rounded_rectangle((8, 8, BONE_W - 8, BONE_H - 8), radius=5, outline=BACK_MARK, width=2)
        return tile.image, shape
    tile.draw.rounded_rectangle(box, radius=8, fill=FACE, outline=INK, width=2)
    half = BONE_W / 2
    tile.draw.line((half, 6, half, BONE_H - 6), fill=INK, width=2)
    for index, end in enumerate(int(part) for part in bone.split("-")):
        origin_x = index * half
        for col, row in PIPS[end]:
            x = origin_x + half * (0.25 + 0.25 * col)
            y = BONE_H * (0.22 + 0.28 * row)
            tile.draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=INK)
    return tile.image, shape


def _draw_bone(board: Board, left: float, top: float, bone: str | None) -> None:
    tile, shape = _bone_tile(bone)
    board.image.paste(tile, (round(left), round(top)), shape)


def _players_top() -> int:
    return HEADER + HEADINGS


def _score_top(count: int, with_strip: bool) -> int:
    return _players_top() + ROW * count + (STRIP if with_strip else 0) + 6


def _height(count: int, with_strip: bool) -> int:
    return _score_top(count, with_strip) + SCORE_HEAD + SCORE_ROW * (len(BOXES) + 1) + MARGIN


def _score_column(count: int) -> float:
    return (WIDTH - 2 * MARGIN - 150) / max(count, 1)


@cache
def _layer(count: int, with_strip: bool) -> Image.Image:
    """Position headings and the scorecard's grid and box names, for `count` players."""
    board = Board.blank(WIDTH, _height(count, with_strip))
    for position, left in zip(("up", "down", "in", "out"), SLOT_X, strict=True):
        board.text((left + BONE_W / 2, HEADER + HEADINGS / 2), POSITION_LABELS[position], SMALL, MUTED, "mm")
    top = _score_top(count, with_strip)
    for row, box in enumerate((*BOXES, "total")):
        row_top = top + SCORE_HEAD + row * SCORE_ROW
        board.draw.line((MARGIN, row_top, WIDTH - MARGIN, row_top), fill=MUTED, width=1)
        board.text((MARGIN + 4, row_top + SCORE_ROW / 2), BOX_LABELS.get(box, "Total"), BODY, INK, "lm",
                   bold=box == "total")
    return board.image



def _status(view: dict, names: Mapping[str, str]) -> str:
    if not view["to_act"]:  # an ended game (bot.presentation.words.ended_view): claimed, abandoned, or over
        return GAME_OVER
    to_act = [display_name(names, player) for player in view["to_act"]]
    if view["phase"] == "turns":
        return f"{to_act[0]} to play: draw or swap"
    if view["phase"] == "drawn":
        return f"{to_act[0]} is placing a drawn bone"
    if view["phase"] == "scoring":
        return "Bones revealed. To choose a box: " + ", ".join(to_act)
    return GAME_OVER


def _totals(view: dict) -> dict[str, int]:
    return {player: sum(points or 0 for points in card.values())
            for player, card in view["scorecard"].items()}


def _draw_header(board: Board, view: dict, names: Mapping[str, str]) -> None:
    board.text((MARGIN, 24), f"Hand {view['hand']} of {len(BOXES)} · pile {view['pile']} bones", BODY, MUTED, "lm")
    status = _status(view, names)
    board.text((MARGIN, 66), status, fit_size(status, KEY, WIDTH - 2 * MARGIN), INK, "lm", bold=True)


def _draw_players(board: Board, view: dict, names: Mapping[str, str], viewer: str | None) -> None:
    totals = _totals(view)
    for seat, entry in enumerate(view["players"]):
        player = entry["id"]
        row_top = _players_top() + seat * ROW
        if player in view["to_act"] and view["phase"] in ("turns", "drawn"):
            board.draw.rectangle((0, row_top, WIDTH - 1, row_top + ROW - 4), fill=HIGHLIGHT)
        colour = seat_colour(seat)
        seat_mark(board.draw, (MARGIN + 9, row_top + 20), 9, seat, colour, INK)
        board.text((MARGIN + 24, row_top + 20), clip(display_name(names, player), KEY, NAME_W - 32), KEY, colour, "lm",
                   bold=True)
        turns = view["turns_left"].get(player, 0)
        detail = f"{pts(totals.get(player, 0))} · {turns} turn{'' if turns == 1 else 's'} left"
        if player == viewer:
            detail = f"you · {detail}"
        board.text((MARGIN + 16, row_top + 50), detail, fit_size(detail, SMALL, NAME_W - 24, 14), INK, "lm")
        for position, left in zip(("up", "down", "in", "out"), SLOT_X, strict=True):
            _draw_bone(board, left, row_top + (ROW - 4 - BONE_H) / 2, entry[position])


def _draw_drawn(board: Board, view: dict) -> None:
    """The bone the viewer drew (private pictures only)."""
    top = _players_top() + ROW * len(view["players"])
    board.text((SLOT_X[1] - 16, top + STRIP / 2), "You drew:", KEY, INK, "rm", bold=True)
    _draw_bone(board, SLOT_X[1], top + (STRIP - BONE_H) / 2, view["drawn"])


def _draw_scorecard(board: Board, view: dict, names: Mapping[str, str], top: int) -> None:
    players = [entry["id"] for entry in view["players"]]
    column = _score_column(len(players))
    totals = _totals(view)
    for index, player in enumerate(players):
        centre = MARGIN + 150 + column * (index + 0.5)
        colour = seat_colour(index)
        name = clip(display_name(names, player), BODY, column - 24)
        half = text_width(name, BODY) / 2
        seat_mark(board.draw, (centre - half - 10, top + SCORE_HEAD / 2), 6, index, colour, INK, 1)
        board.text((centre + 4, top + SCORE_HEAD / 2), name, BODY, colour, "mm", bold=True)
        for row, box in enumerate((*BOXES, "total")):
            value = totals[player] if box == "total" else view["scorecard"][player][box]
            board.text((centre, top + SCORE_HEAD + row * SCORE_ROW + SCORE_ROW / 2),
                       "·" if value is None else str(value), BODY, INK, "mm", bold=box == "total")


def result_banner(view: dict, names: Mapping[str, str]) -> tuple[str, list[tuple[str, str, Colour]]]:
    totals = _totals(view)
    best = max(totals.values(), default=0)
    winners = [display_name(names, player) for player, total in totals.items() if total == best]
    headline = (f"{winners[0]} wins with {best}!" if len(winners) == 1
                else f"Shared win at {best}: " + " and ".join(winners))
    scores = [(display_name(names, entry["id"]), str(totals.get(entry["id"], 0)),
               seat_colour(seat)) for seat, entry in enumerate(view["players"])]
    return headline, scores


def _render(view: dict, names: Mapping[str, str], viewer: str | None = None) -> bytes:
    count = len(view["players"])
    with_strip = bool(view.get("drawn"))
    board = Board(_layer(count, with_strip).copy())
    if view["phase"] == "over":
        draw_result_banner(board, (HEADER - BANNER_HEIGHT) // 2, *result_banner(view, names))
    else:
        _draw_header(board, view, names)
    _draw_players(board, view, names, viewer)
    if with_strip:
        _draw_drawn(board, view)
    _draw_scorecard(board, view, names, _score_top(count, with_strip))
    return board.png(PALETTE)


def render_board(view: dict, names: Mapping[str, str]) -> bytes:
    """The public board: face-up bones (all bones once the hand is revealed), pile, scorecard."""
    return _render(public_part(view), names)


def render_private(view: dict, names: Mapping[str, str], viewer: str) -> bytes:
    """One player's own picture: exactly the bones his view holds, and his drawn bone."""
    return _render(view, names, viewer)
