"""The Crayon Rails board: terrain, rivers and cities (drawn once and cached), then track,
trains and a side panel with the players and the card pool, all from a public view.

`draw_build_preview` is the same board with a proposed build drawn over it, so a player sees
where `/build to:` would lay track before confirming it."""

from __future__ import annotations

import itertools
import math
from functools import cache

from PIL import Image, ImageDraw

from bot.render.canvas import INK, MUTED, PLAYER_COLOURS, font, new_canvas, to_png, token_labels
from games.crayon_rails.mapdata import COLUMNS, board

WIDTH, HEIGHT = 1000, 600
SPACING = 28
ORIGIN = (34, 34)
PANEL_X = 740
SEA = (170, 200, 225)
RIVER = (70, 185, 235)
LAND = {"clear": (226, 216, 180), "mountain": (186, 160, 120), "alpine": (235, 235, 240)}
PREVIEW, PREVIEW_HALO = (255, 120, 0), (255, 240, 120)
CITY_FILL = {"major": (190, 40, 40), "medium": (220, 120, 40), "small": (240, 200, 60)}


def point(milepost: str) -> tuple[float, float]:
    x, y = board().position(milepost)
    return ORIGIN[0] + x * SPACING, ORIGIN[1] + y * SPACING


def _hexagon(centre: tuple[float, float], radius: float) -> list[tuple[float, float]]:
    cx, cy = centre
    return [(cx + radius * math.cos(math.radians(90 + 60 * k)), cy + radius * math.sin(math.radians(90 + 60 * k)))
            for k in range(6)]


@cache
def terrain_layer() -> Image.Image:
    """Sea, land cells, mountains, rivers, cities and grid labels: everything that never changes."""
    the_board = board()
    image, draw = new_canvas(WIDTH, HEIGHT)
    map_bottom = ORIGIN[1] + (the_board.height - 1) * SPACING * math.sqrt(3) / 2 + 18
    draw.rectangle((ORIGIN[0] - 18, ORIGIN[1] - 18, ORIGIN[0] + (the_board.width + 0.5) * SPACING, map_bottom),
                   fill=SEA)
    cell = SPACING / math.sqrt(3) + 0.6
    for milepost, terrain in the_board.terrain.items():
        draw.polygon(_hexagon(point(milepost), cell), fill=LAND[terrain])
    for milepost, terrain in the_board.terrain.items():
        x, y = point(milepost)
        if terrain == "clear":
            draw.ellipse((x - 1.5, y - 1.5, x + 1.5, y + 1.5), fill=MUTED)
        else:
            fill = (110, 80, 50) if terrain == "mountain" else (90, 90, 110)
            draw.polygon([(x, y - 6), (x - 6, y + 4), (x + 6, y + 4)], fill=fill)
    _draw_rivers(draw)
    _draw_cities(draw)
    small = font(10)
    for col in range(the_board.width):
        draw.text((ORIGIN[0] + col * SPACING, ORIGIN[1] - 26), COLUMNS[col], font=small, fill=MUTED, anchor="mm")
    for row in range(the_board.height):
        draw.text((ORIGIN[0] - 26, ORIGIN[1] + row * SPACING * math.sqrt(3) / 2), str(row + 1), font=small,
                  fill=MUTED, anchor="mm")
    return image


def _draw_rivers(draw: ImageDraw.ImageDraw) -> None:
    for sections in board().rivers.values():
        line: list[tuple[float, float]] = []
        for a, b in sections:
            (ax, ay), (bx, by) = point(a), point(b)
            middle = ((ax + bx) / 2, (ay + by) / 2)
            if line and math.dist(line[-1], middle) > SPACING:
                draw.line(line, fill=RIVER, width=3)
                line = []
            line.append(middle)
        if len(line) > 1:
            draw.line(line, fill=RIVER, width=3)


def _draw_cities(draw: ImageDraw.ImageDraw) -> None:
    for city in board().cities.values():
        x, y = point(city.at)
        fill = CITY_FILL[city.size]
        if city.size == "major":
            draw.polygon(_hexagon((x, y), 10), fill=fill, outline=INK)
        elif city.size == "medium":
            draw.rectangle((x - 6, y - 6, x + 6, y + 6), fill=fill, outline=INK)
        else:
            draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=fill, outline=INK)
        size = 12 if city.size == "major" else 10
        draw.text((x, y + 16), city.name, font=font(size), fill=INK, anchor="mm", stroke_width=2,
                  stroke_fill=(250, 248, 240))


def draw_board(view: dict, names: dict[str, str]) -> bytes:
    return to_png(_board_image(view, names))


def draw_build_preview(view: dict, names: dict[str, str], path: list[str], caption: str) -> bytes:
    """The board with `path` drawn as a dashed, ringed line in a highlight colour and a caption."""
    image = _board_image(view, names)
    draw = ImageDraw.Draw(image)
    points = [point(milepost) for milepost in path]
    draw.line(points, fill=PREVIEW_HALO, width=9)
    for start, end in itertools.pairwise(points):
        _dashed(draw, start, end)
    for x, y in points:
        draw.ellipse((x - 4, y - 4, x + 4, y + 4), outline=INK, fill=PREVIEW, width=1)
    box = (ORIGIN[0] - 18, HEIGHT - 40, PANEL_X - 12, HEIGHT - 12)
    draw.rectangle(box, fill=(255, 250, 235), outline=PREVIEW)
    draw.text((box[0] + 8, (box[1] + box[3]) / 2), caption, font=font(13), fill=INK, anchor="lm")
    return to_png(image)


def _dashed(draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float]) -> None:
    length = math.dist(start, end)
    steps = max(1, int(length // 6))
    for k in range(0, steps, 2):
        a, b = k / steps, min(1.0, (k + 1) / steps)
        draw.line([(start[0] + (end[0] - start[0]) * a, start[1] + (end[1] - start[1]) * a),
                   (start[0] + (end[0] - start[0]) * b, start[1] + (end[1] - start[1]) * b)],
                  fill=PREVIEW, width=5)


def _board_image(view: dict, names: dict[str, str]) -> Image.Image:
    image = terrain_layer().copy()
    draw = ImageDraw.Draw(image)
    for seat, player in enumerate(view["players"]):
        colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
        for a, b in player["track"]:
            draw.line([point(a), point(b)], fill=colour, width=4)
    _draw_event_marks(draw, view)
    labels = token_labels([names.get(player["id"], player["id"]) for player in view["players"]])
    for seat, player in enumerate(view["players"]):
        if player["at"]:
            x, y = point(player["at"])
            x += -5 if seat == 0 else 5
            colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
            draw.ellipse((x - 8, y - 8, x + 8, y + 8), fill=colour, outline=INK, width=2)
            draw.text((x, y), labels[seat], font=font(11 if len(labels[seat]) == 1 else 8), fill=(255, 255, 255),
                      anchor="mm")
    _draw_panel(draw, view, names)
    return image


def _draw_event_marks(draw: ImageDraw.ImageDraw, view: dict) -> None:
    the_board = board()
    for event in view["active_events"]:
        if event["target"] in the_board.cities:
            x, y = point(the_board.cities[event["target"]].at)
            draw.ellipse((x - 14, y - 14, x + 14, y + 14), outline=(120, 0, 160), width=2)
            draw.text((x + 16, y - 14), event["kind"], font=font(10), fill=(120, 0, 160))
        elif event["target"] in the_board.rivers:
            for a, b in the_board.rivers[event["target"]]:
                (ax, ay), (bx, by) = point(a), point(b)
                draw.ellipse(((ax + bx) / 2 - 3, (ay + by) / 2 - 3, (ax + bx) / 2 + 3, (ay + by) / 2 + 3),
                             fill=(20, 60, 160))


def _draw_panel(draw: ImageDraw.ImageDraw, view: dict, names: dict[str, str]) -> None:
    x, y = PANEL_X, 14
    title = f"{view['phase']}  round {view['round']}  deck {view['deck']}"
    draw.text((x, y), title, font=font(14), fill=INK)
    y += 22
    seat_of = {p["id"]: seat for seat, p in enumerate(view["players"])}
    for seat, player in enumerate(view["players"]):
        colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
        marker = "> " if player["id"] in view["to_act"] else ""
        draw.text((x, y), f"{marker}{names.get(player['id'], player['id'])}", font=font(14), fill=colour)
        y += 17
        draw.text((x, y), f"${player['cash']}M  {player['train']}  moves {player['moves_left']}  "
                          f"markers {player['markers']}  majors {player['majors_joined']}", font=font(11), fill=INK)
        y += 14
        draw.text((x, y), "loads: " + (", ".join(player["loads"]) or "none"), font=font(11), fill=INK)
        y += 18
    draw.text((x, y), "Pool", font=font(14), fill=INK)
    y += 18
    for card in view["pool"]:
        owner = card["private_to"]
        head = f"#{card['id']}" + (f"  private: {names.get(owner, owner)}" if owner else "")
        draw.text((x, y), head, font=font(11), fill=MUTED)
        y += 13
        for index, demand in enumerate(card["demands"]):
            lockers = [lock["player"] for lock in card["locks"] if lock["demand"] == index]
            fill = PLAYER_COLOURS[seat_of[lockers[0]] % len(PLAYER_COLOURS)] if lockers else INK
            mark = "[" + ", ".join(names.get(p, p) for p in lockers) + "] " if lockers else ""
            draw.text((x + 8, y), f"{index}: {mark}{demand['load']} to {demand['city']} {demand['payoff']}",
                      font=font(11), fill=fill)
            y += 13
        y += 3
        if y > HEIGHT - 60:
            draw.text((x, y), "...", font=font(11), fill=MUTED)
            break
    events = [f"{e['kind']} at {e['target']}" for e in view["active_events"]]
    if events:
        draw.text((x, HEIGHT - 30), "Events: " + "; ".join(events), font=font(11), fill=(120, 0, 160))
