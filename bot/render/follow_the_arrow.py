"""The Follow the Arrow board as a PNG: 30 circles, their arrows, both start rows and the pawns.

Row 6 (red's start) is drawn at the top and row 1 (black's start) at the bottom, as black sees it.
The arrows are printed board data, so they come from the board module; everything that changes
comes from the view.
"""

from __future__ import annotations

import math

from PIL import ImageDraw

from bot.frontend import Names
from bot.render.canvas import INK, MUTED, centered_text, font, new_canvas, to_png
from games.follow_the_arrow_board import (
    ARROWS,
    BLACK_START_ROW,
    COLUMNS,
    DIRECTIONS,
    RED_START_ROW,
    ROWS,
    coordinates,
)

WIDTH, HEIGHT = 880, 960
CELL_X, CELL_Y = 150, 125
BOARD_LEFT, BOARD_TOP = 65, 105
RADIUS = 34
PAWN_RADIUS = 25

PAWN_FILL = {"black": (30, 30, 34), "red": (196, 40, 40)}
START_BAND = {"black": (205, 200, 192), "red": (240, 205, 200)}
CIRCLE_FILL = (255, 252, 244)
ARROW_INK = (95, 120, 150)
HIGHLIGHT = (240, 170, 0)


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


def _draw_arrow(draw: ImageDraw.ImageDraw, origin: tuple[float, float], direction: str) -> None:
    """An arrow leaving the circle's rim, reaching less than halfway so opposite arrows never touch."""
    ux, uy, gap = _unit(direction)
    start = RADIUS + 3
    end = RADIUS + gap * 0.42
    x0, y0 = origin[0] + ux * start, origin[1] + uy * start
    x1, y1 = origin[0] + ux * end, origin[1] + uy * end
    draw.line([(x0, y0), (x1, y1)], fill=ARROW_INK, width=3)
    head, spread = 11, 6
    back_x, back_y = x1 - ux * head, y1 - uy * head
    draw.polygon([(x1, y1), (back_x - uy * spread, back_y + ux * spread),
                  (back_x + uy * spread, back_y - ux * spread)], fill=ARROW_INK)


def _draw_start_rows(draw: ImageDraw.ImageDraw, view: dict, names: Names) -> None:
    owners = {player["colour"]: player["id"] for player in view["players"]}
    for colour, row in (("black", BLACK_START_ROW), ("red", RED_START_ROW)):
        top = BOARD_TOP + CELL_Y * (len(ROWS) - row) + 6
        draw.rounded_rectangle([BOARD_LEFT + 4, top, BOARD_LEFT + CELL_X * len(COLUMNS) - 4, top + CELL_Y - 12],
                               radius=18, fill=START_BAND[colour])
        label = f"{colour.upper()} START · {names.get(owners.get(colour, ''), owners.get(colour, ''))}"
        label_y = top + 9 if row == RED_START_ROW else top + CELL_Y - 21
        centered_text(draw, (BOARD_LEFT + CELL_X * len(COLUMNS) / 2, label_y), label, 13, PAWN_FILL[colour])


def _draw_labels(draw: ImageDraw.ImageDraw) -> None:
    for index, column in enumerate(COLUMNS):
        x = BOARD_LEFT + CELL_X * (index + 0.5)
        centered_text(draw, (x, BOARD_TOP - 14), column, 18, MUTED)
        centered_text(draw, (x, BOARD_TOP + CELL_Y * len(ROWS) + 14), column, 18, MUTED)
    for row in ROWS:
        y = BOARD_TOP + CELL_Y * (len(ROWS) - row + 0.5)
        centered_text(draw, (BOARD_LEFT - 28, y), str(row), 18, MUTED)
        centered_text(draw, (BOARD_LEFT + CELL_X * len(COLUMNS) + 28, y), str(row), 18, MUTED)


def _draw_last_move(draw: ImageDraw.ImageDraw, last_move: dict | None) -> None:
    """The path of the last move as a line, its start as a dashed ring and its end as a bold ring."""
    if not last_move:
        return
    points = [centre(last_move["origin"])] + [centre(circle) for circle in last_move["path"]]
    draw.line(points, fill=HIGHLIGHT, width=7, joint="curve")
    x, y = points[0]
    for angle in range(0, 360, 30):
        draw.arc([x - RADIUS - 5, y - RADIUS - 5, x + RADIUS + 5, y + RADIUS + 5],
                 angle, angle + 16, fill=HIGHLIGHT, width=5)
    for circle in last_move.get("over") or []:
        ox, oy = centre(circle)
        draw.ellipse([ox - RADIUS - 4, oy - RADIUS - 4, ox + RADIUS + 4, oy + RADIUS + 4],
                     outline=HIGHLIGHT, width=2)


def _draw_pawns(draw: ImageDraw.ImageDraw, view: dict) -> None:
    last = view.get("last_move") or {}
    moved = (last.get("player"), str(last.get("pawn")))
    for player in view["players"]:
        fill = PAWN_FILL[player["colour"]]
        for number, circle in player["pawns"].items():
            if circle is None:
                continue
            x, y = centre(circle)
            if (player["id"], number) == moved:
                draw.ellipse([x - RADIUS - 6, y - RADIUS - 6, x + RADIUS + 6, y + RADIUS + 6],
                             outline=HIGHLIGHT, width=6)
            draw.ellipse([x - PAWN_RADIUS, y - PAWN_RADIUS, x + PAWN_RADIUS, y + PAWN_RADIUS],
                         fill=fill, outline=(255, 255, 255), width=2)
            centered_text(draw, (x, y), number, 24, (255, 255, 255))


def _status(view: dict, names: Names) -> str:
    def name(player_id: str) -> str:
        return names.get(player_id, player_id)

    if view["phase"] == "over":
        if view["winner"]:
            return f"{name(view['winner'])} wins {view['points']} points"
        return "Nobody can move: the game is drawn"
    waiting = ", ".join(name(who) for who in view["to_act"])
    if view["phase"] == "placing":
        return f"{waiting} places pawns"
    if view["jump_called"]:
        return f"Jump called: {waiting} must jump"
    if view["jump_callable"]:
        return f"{waiting} to move ({name(view['last_mover'])} may call Jump!)"
    return f"{waiting} to move"


def _draw_header(draw: ImageDraw.ImageDraw, view: dict, names: Names) -> None:
    match = view.get("match") or {}
    title = "Follow the Arrow" + (f" · game {match['game']}" if match.get("game", 1) > 1 else "")
    draw.text((20, 14), title, font=font(26), fill=INK)
    draw.text((20, 50), _status(view, names), font=font(18), fill=INK)
    totals = match.get("totals") or {}
    if any(totals.values()):
        text = "Match: " + ", ".join(f"{names.get(who, who)} {points}" for who, points in totals.items())
        draw.text((WIDTH - 20, 18), text, font=font(15), fill=MUTED, anchor="ra")


def draw_follow_the_arrow(view: dict, names: Names) -> bytes:
    """The public board as PNG bytes."""
    image, draw = new_canvas(WIDTH, HEIGHT)
    _draw_header(draw, view, names)
    _draw_start_rows(draw, view, names)
    _draw_labels(draw)
    for circle, arrows in ARROWS.items():
        for direction in arrows:
            _draw_arrow(draw, centre(circle), direction)
    _draw_last_move(draw, view.get("last_move"))
    for circle in ARROWS:
        x, y = centre(circle)
        draw.ellipse([x - RADIUS, y - RADIUS, x + RADIUS, y + RADIUS], fill=CIRCLE_FILL, outline=INK, width=2)
    _draw_pawns(draw, view)
    legend_y = HEIGHT - 30
    for index, player in enumerate(view["players"]):
        x = 40 + index * (WIDTH // 2)
        draw.ellipse([x - 10, legend_y - 10, x + 10, legend_y + 10], fill=PAWN_FILL[player["colour"]])
        draw.text((x + 18, legend_y), f"{player['colour']}: {names.get(player['id'], player['id'])}",
                  font=font(17), fill=INK, anchor="lm")
    return to_png(image)
