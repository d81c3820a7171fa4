"""The John Henry board: thirteen stations, two railroads' dice and John Henry himself.

Union Pacific's die stands above the track and Central Pacific's below it, so both fit on the
shared center; John Henry's pawn stands beside his employer's die, in the box, or under his grave.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import ImageDraw

from bot.render.canvas import BACKGROUND, INK, MUTED, PLAYER_COLOURS, centered_text, font, new_canvas, to_png
from games.john_henry import CENTER, SPACE_NAMES, SPIKE_DOTS

WIDTH, HEIGHT = 1000, 470
MARGIN, BOX_W, GAP = 14, 72, 3
TRACK_TOP, TRACK_BOTTOM = 176, 276
DIE = 44
GOLD = (232, 190, 60)
SPIKE = (150, 110, 20)
TRACK_FILL = (255, 252, 244)
JOHN_HENRY = (70, 45, 25)
STONE = (150, 150, 150)
RAILROAD_NAMES = {"union-pacific": "Union Pacific", "central-pacific": "Central Pacific"}

PIPS = {
    0: [], 1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)], 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


def column_centre(space: int) -> int:
    return MARGIN + (space - 1) * (BOX_W + GAP) + BOX_W // 2


def fitted_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, width: int,
                fill: tuple[int, int, int] = INK) -> None:
    """Centred text shrunk until it fits `width`, so long station names stay inside their box."""
    while size > 8 and font(size).getlength(text) > width:
        size -= 1
    centered_text(draw, xy, text, size, fill)


def draw_die(draw: ImageDraw.ImageDraw, centre: tuple[int, int], dots: int, colour: tuple[int, int, int]) -> None:
    """A die in the railroad's colour; pips up to 6, the number itself beyond (the winning roll)."""
    x, y = centre
    half = DIE // 2
    draw.rounded_rectangle((x - half, y - half, x + half, y + half), radius=7, fill=colour, outline=INK, width=2)
    if dots > 6:
        centered_text(draw, centre, str(dots), 22, (255, 255, 255))
        return
    step = DIE // 4
    for col, row in PIPS[dots]:
        px, py = x - step + col * step, y - step + row * step
        draw.ellipse((px - 4, py - 4, px + 4, py + 4), fill=(255, 255, 255))


def draw_pawn(draw: ImageDraw.ImageDraw, centre: tuple[int, int], scale: float = 1.3) -> None:
    """John Henry: a standing figure with his hammer over his shoulder."""
    x, y = centre

    def at(dx: float, dy: float) -> tuple[float, float]:
        return x + dx * scale, y + dy * scale

    draw.polygon([at(-9, 16), at(9, 16), at(4, -4), at(-4, -4)], fill=JOHN_HENRY)
    draw.ellipse((*at(-6, -17), *at(6, -5)), fill=JOHN_HENRY)
    draw.line((*at(4, 0), *at(15, -14)), fill=JOHN_HENRY, width=3)
    draw.rectangle((*at(11, -20), *at(20, -14)), fill=(90, 90, 90))


def draw_grave(draw: ImageDraw.ImageDraw, centre: tuple[int, int]) -> None:
    x, y = centre
    draw.rounded_rectangle((x - 18, y - 24, x + 18, y + 20), radius=12, fill=STONE, outline=INK, width=2)
    draw.rectangle((x - 18, y + 8, x + 18, y + 20), fill=STONE, outline=INK, width=2)
    centered_text(draw, (x, y - 8), "R.I.P.", 11, INK)
    draw.line((x - 26, y + 21, x + 26, y + 21), fill=(90, 120, 60), width=3)


def draw_spike(draw: ImageDraw.ImageDraw, x: int, top: int) -> None:
    draw.rectangle((x - 9, top, x + 9, top + 5), fill=SPIKE)
    draw.polygon([(x - 4, top + 5), (x + 4, top + 5), (x, top + 30)], fill=SPIKE)


def draw_track(draw: ImageDraw.ImageDraw, center_count: int) -> None:
    for space, name in enumerate(SPACE_NAMES, start=1):
        x = column_centre(space)
        box = (x - BOX_W // 2, TRACK_TOP, x + BOX_W // 2, TRACK_BOTTOM)
        is_center = space == CENTER
        draw.rectangle(box, fill=GOLD if is_center else TRACK_FILL, outline=SPIKE if is_center else INK,
                       width=3 if is_center else 1)
        centered_text(draw, (x, TRACK_TOP + 11), str(space), 12, MUTED if not is_center else INK)
        words = name.split()
        first_line = TRACK_TOP + (34 if is_center else 50) - 7 * (len(words) - 1)
        for index, word in enumerate(words):
            fitted_text(draw, (x, first_line + 14 * index), word, 12, BOX_W - 4)
        if is_center:
            draw_spike(draw, x, TRACK_TOP + 52)
            centered_text(draw, (x, TRACK_BOTTOM - 10), f"{center_count} / {SPIKE_DOTS}", 13, INK)
    draw.line((MARGIN, TRACK_BOTTOM + 4, WIDTH - MARGIN, TRACK_BOTTOM + 4), fill=MUTED, width=2)


def draw_railroads(draw: ImageDraw.ImageDraw, view: dict) -> None:
    """Each railroad's die on its space, with John Henry on the outer side of his holder's die."""
    for seat, player in enumerate(view["players"]):
        x = column_centre(player["space"])
        above = seat == 0
        die_y = TRACK_TOP - 10 - DIE // 2 if above else TRACK_BOTTOM + 10 + DIE // 2
        draw_die(draw, (x, die_y), player["dots"], PLAYER_COLOURS[seat])
        if view["john_henry"] == player["id"]:
            draw_pawn(draw, (x, die_y - 48 if above else die_y + 50))


def draw_legend(draw: ImageDraw.ImageDraw, view: dict, names: Mapping[str, str]) -> None:
    centered_text(draw, (WIDTH // 2, 18), "John Henry: the race to the golden spike", 22, INK)
    first, second = view["players"]
    draw.text((MARGIN, 40), f"Union Pacific: {names.get(first['id'], first['id'])}  (from Omaha) >",
              font=font(16), fill=PLAYER_COLOURS[0])
    draw.text((WIDTH - MARGIN, 40), f"< (from Sacramento)  Central Pacific: {names.get(second['id'], second['id'])}",
              font=font(16), fill=PLAYER_COLOURS[1], anchor="ra")


def draw_box(draw: ImageDraw.ImageDraw, view: dict, names: Mapping[str, str]) -> None:
    """Where John Henry waits before anyone calls him, or where he lies after his last roll."""
    left, top, right, bottom = MARGIN, 392, MARGIN + 190, HEIGHT - 12
    centre = ((left + right) // 2, (top + bottom) // 2 - 6)
    holder = view["john_henry"]
    if holder == "dead":
        draw_grave(draw, centre)
        centered_text(draw, (centre[0], bottom - 6), "John Henry's grave", 12, INK)
        return
    draw.rectangle((left, top, right, bottom), outline=INK, width=2, fill=BACKGROUND)
    centered_text(draw, (centre[0], bottom - 9), "the box", 12, MUTED)
    if holder is None:
        draw_pawn(draw, centre)
    else:
        centered_text(draw, centre, f"(with {names.get(holder, holder)})", 12, MUTED)


def status_lines(view: dict, names: Mapping[str, str], center_count: int) -> list[str]:
    def name(player_id: str) -> str:
        return names.get(player_id, player_id)

    lines: list[str] = []
    if view["phase"] == "over":
        lines.append(f"{name(view['winner'])} drives the golden spike!")
    elif view["phase"] == "roll-off":
        lines.append("Roll-off for first player: " + " and ".join(map(name, view["to_act"])) + " to roll.")
    elif view["awaiting_bonus"]:
        lines.append(f"{name(view['to_act'][0])} called John Henry with a 6: roll the bonus die or keep the 6.")
    else:
        lines.append(f"{name(view['to_act'][0])} to roll.")
    lines.append(f"Promontory Point: {center_count} of {SPIKE_DOTS} dots for the spike.")
    holder = view["john_henry"]
    if holder == "dead":
        lines.append("John Henry died with his hammer in his hand.")
    elif holder is None:
        lines.append("John Henry waits in the box for the first 6.")
    else:
        lines.append(f"John Henry works for {name(holder)}.")
    return lines


def render(view: dict, names: Mapping[str, str]) -> bytes:
    image, draw = new_canvas(WIDTH, HEIGHT)
    center_count = sum(player["dots"] for player in view["players"] if player["space"] == CENTER)
    draw_legend(draw, view, names)
    draw_track(draw, center_count)
    draw_railroads(draw, view)
    draw_box(draw, view, names)
    for index, line in enumerate(status_lines(view, names, center_count)):
        draw.text((MARGIN + 215, 398 + 22 * index), line, font=font(16 if index == 0 else 14),
                  fill=INK if index == 0 else MUTED)
    return to_png(image)
