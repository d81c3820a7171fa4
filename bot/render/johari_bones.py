"""Johari Bones pictures: each player's four bones, the pile and the scorecard, drawn from a view.

The public board masks everything the public view may not hold before drawing, so even a
private view handed to it by mistake cannot put a hidden bone into the channel.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import ImageDraw

from bot.render.canvas import INK, MUTED, PLAYER_COLOURS, centered_text, font, new_canvas, to_png
from games.johari_scoring import BOXES

WIDTH = 960
HEADER = 74
ROW = 92
STRIP = 84
SCORE_ROW = 24
MARGIN = 20
SLOT_X = (240, 420, 600, 780)
BONE_W, BONE_H = 112, 52
POSITION_LABELS = {"up": "Face up", "down": "Face down", "in": "Face in", "out": "Face out"}
BOX_LABELS = {
    "ones": "Ones", "twos": "Twos", "threes": "Threes", "fours": "Fours", "fives": "Fives",
    "sixes": "Sixes", "full_house": "Full House", "run4": "4 Run", "run5": "5 Run", "chance": "Chance",
}
FACE = (252, 250, 244)
BACK = (36, 84, 64)
BACK_MARK = (86, 140, 112)
HIGHLIGHT = (255, 236, 179)
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


def _draw_bone(draw: ImageDraw.ImageDraw, left: float, top: float, bone: str | None) -> None:
    """A domino face with pips, or its back when the bone is not shown."""
    box = (left, top, left + BONE_W, top + BONE_H)
    if bone is None:
        draw.rounded_rectangle(box, radius=8, fill=BACK, outline=INK, width=2)
        draw.rounded_rectangle((left + 8, top + 8, left + BONE_W - 8, top + BONE_H - 8),
                               radius=5, outline=BACK_MARK, width=2)
        return
    draw.rounded_rectangle(box, radius=8, fill=FACE, outline=INK, width=2)
    half = BONE_W / 2
    draw.line((left + half, top + 6, left + half, top + BONE_H - 6), fill=INK, width=2)
    for index, end in enumerate(int(part) for part in bone.split("-")):
        origin_x = left + index * half
        for col, row in PIPS[end]:
            x = origin_x + half * (0.25 + 0.25 * col)
            y = top + BONE_H * (0.22 + 0.28 * row)
            draw.ellipse((x - 4.5, y - 4.5, x + 4.5, y + 4.5), fill=INK)


def _status(view: dict, names: Mapping[str, str]) -> str:
    to_act = [names.get(player, player) for player in view["to_act"]]
    if view["phase"] == "turns":
        return f"{to_act[0]} to play: draw or swap"
    if view["phase"] == "drawn":
        return f"{to_act[0]} is placing a drawn bone"
    if view["phase"] == "scoring":
        return "All bones revealed. Choosing a box: " + ", ".join(to_act)
    return "Game over"


def _totals(view: dict) -> dict[str, int]:
    return {player: sum(points or 0 for points in card.values())
            for player, card in view["scorecard"].items()}


def _draw_players(draw: ImageDraw.ImageDraw, view: dict, names: Mapping[str, str], top: int,
                  viewer: str | None) -> None:
    totals = _totals(view)
    for seat, entry in enumerate(view["players"]):
        player = entry["id"]
        row_top = top + seat * ROW
        if player in view["to_act"] and view["phase"] in ("turns", "drawn"):
            draw.rectangle((MARGIN - 6, row_top, WIDTH - MARGIN + 6, row_top + ROW - 6), fill=HIGHLIGHT)
        colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
        draw.rectangle((MARGIN, row_top + 10, MARGIN + 10, row_top + ROW - 16), fill=colour)
        label = names.get(player, player) + ("  (you)" if player == viewer else "")
        draw.text((MARGIN + 20, row_top + 14), label[:24], font=font(18), fill=INK)
        draw.text((MARGIN + 20, row_top + 42), f"turns left: {view['turns_left'].get(player, 0)}",
                  font=font(14), fill=MUTED)
        draw.text((MARGIN + 20, row_top + 60), f"total: {totals.get(player, 0)}", font=font(14), fill=MUTED)
        for position, left in zip(("up", "down", "in", "out"), SLOT_X, strict=True):
            centered_text(draw, (left + BONE_W / 2, row_top + 12), POSITION_LABELS[position], 13, MUTED)
            _draw_bone(draw, left, row_top + 24, entry[position])


def _draw_strip(draw: ImageDraw.ImageDraw, view: dict, top: int) -> None:
    """The pile, and the drawer's own drawn bone when the view holds it."""
    for offset in range(min(view["pile"], 4)):
        _draw_bone(draw, MARGIN + offset * 6, top + 14 - offset * 3, None)
    draw.text((MARGIN + BONE_W + 36, top + 28), f"Pile: {view['pile']} bones", font=font(16), fill=INK)
    if view.get("drawn"):
        draw.text((SLOT_X[1], top + 28), "You drew:", font=font(16), fill=INK)
        _draw_bone(draw, SLOT_X[2], top + 14, view["drawn"])


def _draw_scorecard(draw: ImageDraw.ImageDraw, view: dict, names: Mapping[str, str], top: int) -> None:
    players = [entry["id"] for entry in view["players"]]
    column = (WIDTH - 2 * MARGIN - 180) / max(len(players), 1)
    for index, player in enumerate(players):
        centre = MARGIN + 180 + column * (index + 0.5)
        colour = PLAYER_COLOURS[index % len(PLAYER_COLOURS)]
        centered_text(draw, (centre, top + 12), names.get(player, player)[:18], 15, colour)
    totals = _totals(view)
    for row, box in enumerate((*BOXES, "total")):
        row_top = top + 26 + row * SCORE_ROW
        draw.line((MARGIN, row_top, WIDTH - MARGIN, row_top), fill=MUTED, width=1)
        draw.text((MARGIN + 6, row_top + 4), BOX_LABELS.get(box, "Total"), font=font(15), fill=INK)
        for index, player in enumerate(players):
            centre = MARGIN + 180 + column * (index + 0.5)
            value = totals[player] if box == "total" else view["scorecard"][player][box]
            centered_text(draw, (centre, row_top + SCORE_ROW / 2), "·" if value is None else str(value), 15)


def _render(view: dict, names: Mapping[str, str], viewer: str | None = None) -> bytes:
    players_top = HEADER
    strip_top = players_top + ROW * len(view["players"])
    score_top = strip_top + STRIP
    height = score_top + 26 + SCORE_ROW * (len(BOXES) + 1) + MARGIN
    image, draw = new_canvas(WIDTH, height)
    draw.text((MARGIN, 14), f"Johari Bones · hand {view['hand']} of {len(BOXES)}", font=font(24), fill=INK)
    draw.text((MARGIN, 46), _status(view, names), font=font(16), fill=MUTED)
    _draw_players(draw, view, names, players_top, viewer)
    _draw_strip(draw, view, strip_top)
    _draw_scorecard(draw, view, names, score_top)
    return to_png(image)


def render_board(view: dict, names: Mapping[str, str]) -> bytes:
    """The public board: face-up bones (all bones once the hand is revealed), pile, scorecard."""
    return _render(public_part(view), names)


def render_private(view: dict, names: Mapping[str, str], viewer: str) -> bytes:
    """One player's own picture: exactly the bones his view holds, and his drawn bone."""
    return _render(view, names, viewer)
