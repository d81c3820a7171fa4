"""The Follow the Arrow board as a PNG: 30 circles, their arrows, both start rows and the pawns.

Row 6 (red's start) is drawn at the top and row 1 (black's start) at the bottom, as black sees it.
Laid out for a phone (720 px wide, shown about 400 px wide): whose turn it is and both players
(with the match score) on top in key-size type, the board below with column letters and row
numbers once each. The arrows, circles and labels never change, so they are drawn once and
cached; the last move's path is drawn over that layer and the circles it crosses are drawn again
on top of it.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image

from bot.presentation.frontend import Names, display_name
from bot.presentation.render.canvas import (
    BACKGROUND,
    BODY,
    GAME_OVER,
    INK,
    KEY,
    MUTED,
    PHONE_WIDTH,
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
    seat_mark,
    text_width,
)
from games.follow_the_arrow_board import (
    ARROWS,
    BLACK_START_ROW,
    COLUMNS,
    DIRECTIONS,
    RED_START_ROW,
    ROWS,
    coordinates,
)

WIDTH = PHONE_WIDTH
HEADER_H = 104
LABEL_W = 26
CELL_X = (WIDTH - LABEL_W - 8) // len(COLUMNS)
CELL_Y = 112
BOARD_LEFT, BOARD_TOP = LABEL_W, HEADER_H + 26
HEIGHT = BOARD_TOP + CELL_Y * len(ROWS) + 8
RADIUS = 31
PAWN_RADIUS = 25

PAWN_FILL = {"black": (30, 30, 34), "red": (196, 40, 40)}
PAWN_SHAPE = {"black": 0, "red": 1}
"""Each side's mark (`SEAT_SHAPES`: black's pawns are circles, red's squares), so that the sides differ
in shape as well as colour, for colour-blind players (issue 25)."""
START_BAND = {"black": (205, 200, 192), "red": (240, 205, 200)}
CIRCLE_FILL = (255, 252, 244)
ARROW_INK = (95, 120, 150)
HIGHLIGHT = (240, 170, 0)
PALETTE = game_palette(
    [BACKGROUND, INK, MUTED, WHITE, *PAWN_FILL.values(), *START_BAND.values(), CIRCLE_FILL, ARROW_INK, HIGHLIGHT,
     *banner_palette_colours()],
    inks=[INK, MUTED, WHITE, ARROW_INK, HIGHLIGHT, *PAWN_FILL.values()],
    papers=[BACKGROUND, CIRCLE_FILL, *START_BAND.values(), *PAWN_FILL.values(), banner_palette_colours()[0]],
)


def centre(circle: str) -> tuple[float, float]:
    """Pixel centre of a circle; row 6 at the top."""
    column, row = coordinates(circle)
    x = BOARD_LEFT + CELL_X * (column + 0.5)
    y = BOARD_TOP + CELL_Y * (len(ROWS) - row + 0.5)
    return x, y


def _unit(direction: str) -> tuple[float, float, float]:
    """Pixel unit vector of a compass direction and the gap to the neighbouring circle that way."""
    d_column, d_row = DIRECTIONS[direction]
    dx, dy = d_column * CELL_X, -d_row * CELL_Y
    length = math.hypot(dx, dy)
    return dx / length, dy / length, length - 2 * RADIUS


def _draw_arrow(board: Board, origin: tuple[float, float], direction: str) -> None:
    """An arrow leaving the circle's rim, reaching less than halfway so opposite arrows never touch."""
    ux, uy, gap = _unit(direction)
    start = RADIUS + 3
    end = RADIUS + gap * 0.42
    x0, y0 = origin[0] + ux * start, origin[1] + uy * start
    x1, y1 = origin[0] + ux * end, origin[1] + uy * end
    board.draw.line([(x0, y0), (x1, y1)], fill=ARROW_INK, width=4)
    head, spread = 13, 7
    back_x, back_y = x1 - ux * head, y1 - uy * head
    board.draw.polygon([(x1, y1), (back_x - uy * spread, back_y + ux * spread),
                        (back_x + uy * spread, back_y - ux * spread)], fill=ARROW_INK)


def _draw_circle(board: Board, circle: str) -> None:
    x, y = centre(circle)
    board.draw.ellipse([x - RADIUS, y - RADIUS, x + RADIUS, y + RADIUS], fill=CIRCLE_FILL, outline=INK, width=2)


def _band_top(row: int) -> float:
    return BOARD_TOP + CELL_Y * (len(ROWS) - row) + 4


@cache
def _board() -> Image.Image:
    """Start bands, labels, arrows and circles: everything on the board that never changes."""
    board = Board.blank(WIDTH, HEIGHT)
    for colour, row in (("black", BLACK_START_ROW), ("red", RED_START_ROW)):
        top = _band_top(row)
        board.draw.rounded_rectangle([BOARD_LEFT + 2, top, BOARD_LEFT + CELL_X * len(COLUMNS) - 2, top + CELL_Y - 8],
                                     radius=18, fill=START_BAND[colour])
    for index, column in enumerate(COLUMNS):
        board.text((BOARD_LEFT + CELL_X * (index + 0.5), BOARD_TOP - 13), column, BODY, MUTED, "mm")
    for row in ROWS:
        board.text((LABEL_W / 2, BOARD_TOP + CELL_Y * (len(ROWS) - row + 0.5)), str(row), BODY, MUTED, "mm")
    for circle, arrows in ARROWS.items():
        for direction in arrows:
            _draw_arrow(board, centre(circle), direction)
    for circle in ARROWS:
        _draw_circle(board, circle)
    return board.image



def _status(view: dict, names: Names) -> str:
    if not view["to_act"]:  # an ended game (bot.presentation.words.ended_view): claimed, abandoned, or over
        return GAME_OVER
    waiting = ", ".join(display_name(names, who) for who in view["to_act"])
    if view["phase"] == "placing":
        return f"{waiting} places pawns"
    if view["jump_called"]:
        return f"Jump called: {waiting} must jump"
    if view["jump_callable"]:
        return f"{waiting} to move ({display_name(names, view['last_mover'])} may call Jump!)"
    return f"{waiting} to move"


def _draw_header(board: Board, view: dict, names: Names) -> None:
    """Whose turn it is, then both players in their colours with the match score."""
    status = _status(view, names)
    board.text((8, 22), status, fit_size(status, KEY, WIDTH - 16), INK, "lm", bold=True)
    match = view.get("match") or {}
    totals = match.get("totals") or {}
    in_match = match.get("game", 1) > 1 or any(totals.values())
    note = f"game {match.get('game', 1)}" if in_match else "Follow the Arrow"
    board.text((WIDTH - 8, 70), note, SMALL, MUTED, "rm")
    room = (WIDTH - 16 - text_width(note, SMALL) - 20) / 2
    to_act = set(view["to_act"])
    for index, player in enumerate(view["players"]):
        x = 8 + index * room
        fill = PAWN_FILL[player["colour"]]
        seat_mark(board.draw, (x + 12, 70), 12, PAWN_SHAPE[player["colour"]], fill,
                  outline=HIGHLIGHT if player["id"] in to_act else fill, width=3)
        score = f" {totals.get(player['id'], 0)}" if in_match else ""
        label = clip(display_name(names, player["id"]), BODY, room - 40 - text_width(score, BODY)) + score
        board.text((x + 32, 70), label, BODY, fill, "lm", bold=player["id"] in to_act)


def _draw_band_labels(board: Board, view: dict, names: Names) -> None:
    owners = {player["colour"]: player["id"] for player in view["players"]}
    for colour, row in (("black", BLACK_START_ROW), ("red", RED_START_ROW)):
        top = _band_top(row)
        label_y = top + 9 if row == RED_START_ROW else top + CELL_Y - 20
        owner = owners.get(colour, "")
        label = f"{colour.upper()} START · {clip(display_name(names, owner), 15, 200)}"
        board.text((BOARD_LEFT + CELL_X * len(COLUMNS) / 2, label_y), label, 15, PAWN_FILL[colour], "mm")


def _draw_last_move(board: Board, last_move: dict | None) -> None:
    """The path of the last move as a line, its start as a dashed ring and its end as a bold ring."""
    if not last_move:
        return
    circles = [last_move["origin"], *last_move["path"]]
    points = [centre(circle) for circle in circles]
    board.draw.line(points, fill=HIGHLIGHT, width=7, joint="curve")
    for circle in circles:
        _draw_circle(board, circle)
    x, y = points[0]
    for angle in range(0, 360, 30):
        board.draw.arc([x - RADIUS - 5, y - RADIUS - 5, x + RADIUS + 5, y + RADIUS + 5],
                       angle, angle + 16, fill=HIGHLIGHT, width=5)
    for circle in last_move.get("over") or []:
        ox, oy = centre(circle)
        board.draw.ellipse([ox - RADIUS - 4, oy - RADIUS - 4, ox + RADIUS + 4, oy + RADIUS + 4],
                           outline=HIGHLIGHT, width=3)


def _draw_pawns(board: Board, view: dict) -> None:
    last = view.get("last_move") or {}
    moved = (last.get("player"), str(last.get("pawn")))
    for player in view["players"]:
        fill = PAWN_FILL[player["colour"]]
        for number, circle in player["pawns"].items():
            if circle is None:
                continue
            x, y = centre(circle)
            if (player["id"], number) == moved:
                board.draw.ellipse([x - RADIUS - 6, y - RADIUS - 6, x + RADIUS + 6, y + RADIUS + 6],
                                   outline=HIGHLIGHT, width=6)
            seat_mark(board.draw, (x, y), PAWN_RADIUS, PAWN_SHAPE[player["colour"]], fill, outline=WHITE)
            board.text((x, y), number, KEY, WHITE, "mm", bold=True)


def result_banner(view: dict, names: Names) -> tuple[str, list[tuple[str, str, Colour]]]:
    """The banner's headline and, per player, his points (match totals once a match has begun)."""
    winner = view["winner"]
    headline = (f"{display_name(names, winner)} wins {view['points']} points!" if winner
                else "Nobody can move: the game is drawn")
    match = view.get("match") or {}
    totals = match.get("totals") or {}
    scores = []
    for player in view["players"]:
        won = view["points"] if player["id"] == winner else 0
        text = pts(won) + (f" (match {totals.get(player['id'], 0)})" if match.get("game", 1) > 1 else "")
        scores.append((display_name(names, player["id"]), text, PAWN_FILL[player["colour"]]))
    return headline, scores


def draw_follow_the_arrow(view: dict, names: Names) -> bytes:
    """The public board as PNG bytes."""
    board = Board(_board().copy())
    if view["phase"] == "over":
        draw_result_banner(board, 4, *result_banner(view, names))
    else:
        _draw_header(board, view, names)
    _draw_band_labels(board, view, names)
    _draw_last_move(board, view.get("last_move"))
    _draw_pawns(board, view)
    return board.png(PALETTE)
