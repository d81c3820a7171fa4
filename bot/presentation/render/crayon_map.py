"""The Crayon Rails maps' fixed layers, and the palette every Crayon Rails picture shares.

Both maps' terrain, rivers and city labels never change, so they are drawn once, in full colour with
smooth text, and reduced to a fixed palette ("P" image). A picture (bot.presentation.render.crayon_rails) is
then a palette canvas: the cached layers pasted, track and trains drawn as palette indices, and text stamped
from cached glyph masks (`stamp`); PNG encoding of a palette image at a low zlib level (`encode`) is what
keeps drawing plus encoding within a few milliseconds. City names are placed where each covers no other label,
at a size a phone can read.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from bot.presentation.render.canvas import (
    BACKGROUND,
    INK,
    MUTED,
    PLAYER_COLOURS,
    banner_palette_colours,
    blend,
    drawable,
    font,
)
from bot.presentation.render.png_bands import palette_png
from games.crayon_rails.mapdata import COLUMNS, board

WIDTH = 600
PAD = 10
SEA = (170, 200, 225)
RIVER = (40, 150, 230)
LAND = {"clear": (226, 216, 180), "mountain": (196, 170, 130), "alpine": (235, 235, 240)}
PEAK = {"mountain": (110, 80, 50), "alpine": (90, 90, 110)}
CITY_FILL = {"major": (190, 40, 40), "medium": (220, 120, 40), "small": (240, 200, 60)}
PREVIEW, PREVIEW_HALO = (255, 120, 0), (255, 240, 120)
EVENT = (120, 0, 160)
HIGHLIGHT = (255, 243, 190)
LABEL_HALO = (250, 248, 240)
WHITE = (255, 255, 255)
SUPPLY_INK = (20, 90, 40)
BANNER_SHADES = [blend(banner_palette_colours()[0], ink, share) for ink in (INK, *PLAYER_COLOURS)
                 for share in (0.25, 0.5, 0.75)]
"""Antialiased text on the result banner keeps smooth edges with these in-between shades."""
PALETTE = [BACKGROUND, INK, MUTED, *PLAYER_COLOURS, SEA, RIVER, *LAND.values(), *PEAK.values(),
           *CITY_FILL.values(), PREVIEW, PREVIEW_HALO, EVENT, HIGHLIGHT, LABEL_HALO, WHITE,
           *banner_palette_colours(), *BANNER_SHADES]
INDEX = {colour: index for index, colour in enumerate(PALETTE)}

ZOOM_HEIGHT = 330
ZOOM_SPACING = 44
OVERVIEW_SPACING = 23
LOAD_CODES: dict[str, str] = {}
"""Load -> the short code the whole map shows beside each supplying city (filled on first use)."""


@dataclass(frozen=True)
class MapStyle:
    spacing: int
    margin: int
    track: int
    train: int
    detailed: bool
    """Detailed maps name each city with its milepost and supplies; the overview uses codes."""

    def point(self, milepost: str) -> tuple[float, float]:
        return _point(self, milepost)

    @property
    def size(self) -> tuple[int, int]:
        the_board = board()
        return (round(2 * self.margin + (the_board.width - 0.5) * self.spacing),
                round(2 * self.margin + (the_board.height - 1) * self.spacing * math.sqrt(3) / 2))


@lru_cache(maxsize=2048)
def _point(style: MapStyle, milepost: str) -> tuple[float, float]:
    """Where a milepost sits on a map of this style (cached: every picture asks for the same points)."""
    x, y = board().position(milepost)
    return style.margin + x * style.spacing, style.margin + y * style.spacing


ZOOM = MapStyle(ZOOM_SPACING, 40, 7, 13, True)
OVERVIEW = MapStyle(OVERVIEW_SPACING, (WIDTH - 23 * OVERVIEW_SPACING) // 2 + 6, 3, 7, False)


def load_codes() -> dict[str, str]:
    """Two-letter codes for the loads, unique across the shipped loads."""
    if not LOAD_CODES:
        for load in board().loads:
            code = load[:2]
            if code in LOAD_CODES.values():
                code = load[0] + load[2]
            LOAD_CODES[load] = code
    return LOAD_CODES


@cache
def palette_image() -> Image.Image:
    image = Image.new("P", (1, 1))
    flat = [channel for colour in PALETTE for channel in colour]
    image.putpalette(flat + [0] * (768 - len(flat)))
    return image


def to_palette(image: Image.Image) -> Image.Image:
    return image.quantize(palette=palette_image(), dither=Image.Dither.NONE)


def encode(image: Image.Image) -> bytes:
    encoded = palette_png(image, 1)
    if encoded is not None:
        return encoded
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def _hexagon(centre: tuple[float, float], radius: float) -> list[tuple[float, float]]:
    cx, cy = centre
    return [(cx + radius * math.cos(math.radians(90 + 60 * k)), cy + radius * math.sin(math.radians(90 + 60 * k)))
            for k in range(6)]


@cache
def map_layer(style: MapStyle) -> Image.Image:
    """Sea, land, mountains, every river crossing and the cities with their supplies, as a palette image."""
    the_board = board()
    image = Image.new("RGB", style.size, SEA)
    draw = ImageDraw.Draw(image)
    cell = style.spacing / math.sqrt(3) + 0.6
    for milepost, terrain in the_board.terrain.items():
        draw.polygon(_hexagon(style.point(milepost), cell), fill=LAND[terrain])
    dot = max(1.5, style.spacing / 16)
    for milepost, terrain in the_board.terrain.items():
        x, y = style.point(milepost)
        if terrain == "clear":
            draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=MUTED)
        else:
            size = style.spacing / 4
            draw.polygon([(x, y - size), (x - size, y + size * 0.7), (x + size, y + size * 0.7)],
                         fill=PEAK[terrain])
    _draw_cities(draw, style)
    for label in label_places(style):
        draw.text(label.xy, label.text, font=font(label.size), fill=label.fill, anchor=label.anchor,
                  stroke_width=_halo(style), stroke_fill=LABEL_HALO)
    _draw_rivers(draw, style)
    if not style.detailed:
        small = font(11)
        for col in range(the_board.width):
            draw.text((style.point(f"{COLUMNS[col]}1")[0], 2), COLUMNS[col], font=small, fill=INK, anchor="mt")
    return to_palette(image)


def crossing_segment(style: MapStyle, a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """The river's stroke across the section a-b: perpendicular to it, through its middle."""
    (ax, ay), (bx, by) = style.point(a), style.point(b)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    dx, dy = (bx - ax) / 2, (by - ay) / 2
    return (mx - dy * 0.6, my + dx * 0.6), (mx + dy * 0.6, my - dx * 0.6)


def _draw_rivers(draw: ImageDraw.ImageDraw, style: MapStyle) -> None:
    """Each crossing as a stroke across its section, drawn over the city labels so that no crossing
    (even a lone one, or one beside a city) goes unseen."""
    width = max(3, style.spacing // 8)
    for sections in board().rivers.values():
        for a, b in sections:
            draw.line(crossing_segment(style, a, b), fill=RIVER, width=width)


def _draw_cities(draw: ImageDraw.ImageDraw, style: MapStyle) -> None:
    scale = style.spacing / 28
    for city in board().cities.values():
        x, y = style.point(city.at)
        fill = CITY_FILL[city.size]
        if city.size == "major":
            draw.polygon(_hexagon((x, y), 10 * scale), fill=fill, outline=INK)
        elif city.size == "medium":
            r = 6 * scale
            draw.rectangle((x - r, y - r, x + r, y + r), fill=fill, outline=INK)
        else:
            r = 5 * scale
            draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK)


OVERVIEW_NAME, OVERVIEW_CODES = 16, 14
"""Type sizes on the whole map: about 11 and 9 px on a 400 px wide phone picture."""


@dataclass(frozen=True)
class Label:
    text: str
    size: int
    fill: tuple[int, int, int]
    xy: tuple[float, float]
    anchor: str
    box: tuple[float, float, float, float]


def _halo(style: MapStyle) -> int:
    """The width of the light outline around a label's letters on the map layer."""
    return 3 if style.detailed else 2


@cache
def label_places(style: MapStyle) -> tuple[Label, ...]:
    """Every city label of a map: on the close-up each city's name and milepost below it, its supplies
    under them (type a phone reads: about 11 and 10 px at 400 px wide); on the whole map, see
    `overview_label_places`."""
    if not style.detailed:
        return overview_label_places(style)
    scale = style.spacing / 28
    measure = ImageDraw.Draw(Image.new("1", (1, 1)))
    placed = []
    for city in board().cities.values():
        x, y = style.point(city.at)
        for text, size, fill, xy in ((f"{city.name} {city.at}", 17, INK, (x, y + 12 * scale)),
                                     (", ".join(city.supplies), 15, SUPPLY_INK, (x, y + 12 * scale + 19))):
            box = measure.textbbox(xy, text, font=font(size), anchor="mt", stroke_width=_halo(style))
            placed.append(Label(text, size, fill, xy, "mt", box))
    return tuple(placed)


@cache
def overview_label_places(style: MapStyle) -> tuple[Label, ...]:
    """Where each city's name and supply codes go on the whole map: on the first side of the city
    (below, above, right, left) where the label covers no other label, city or river crossing
    (failing that, no label or city), so names stay large enough for a phone where cities crowd."""
    codes = load_codes()
    scale = style.spacing / 28
    width, height = style.size
    measure = ImageDraw.Draw(Image.new("1", (1, 1)))
    radius = {"major": 9 * scale, "medium": 6 * scale, "small": 5 * scale}
    marks = [(x - radius[city.size], y - radius[city.size], x + radius[city.size], y + radius[city.size])
             for city in board().cities.values() for x, y in [style.point(city.at)]]
    crossings = [_box(*crossing_segment(style, a, b)) for sections in board().rivers.values() for a, b in sections]
    placed: list[Label] = []
    for city in sorted(board().cities.values(), key=lambda c: ({"major": 0, "medium": 1}.get(c.size, 2), c.name)):
        x, y = style.point(city.at)
        gap = radius[city.size] + 3
        for text, size, fill in ((city.name, OVERVIEW_NAME, INK),
                                 ("".join(codes[load] for load in city.supplies), OVERVIEW_CODES, SUPPLY_INK)):
            spots = [((x, y + gap), "mt"), ((x, y - gap), "mb"), ((x + gap, y), "lm"), ((x - gap, y), "rm"),
                     ((x + gap, y - gap), "lb"), ((x - gap, y - gap), "rb"), ((x + gap, y + gap), "lt"),
                     ((x - gap, y + gap), "rt")]
            if text != city.name:
                spots = spots[2:] + spots[:2]
            boxes = [Label(text, size, fill, xy, anchor,
                           measure.textbbox(xy, text, font=font(size), anchor=anchor, stroke_width=2))
                     for xy, anchor in spots]
            inside = [b for b in boxes if b.box[0] >= 0 and b.box[1] >= 0 and b.box[2] <= width and b.box[3] <= height]
            clear = [b for b in inside if not any(_overlap(b.box, other) for other in [p.box for p in placed] + marks)]
            best = [b for b in clear if not any(_overlap(b.box, other) for other in crossings)]
            placed.append((best or clear or inside or boxes)[0])
    return tuple(placed)


@cache
def map_labels(style: MapStyle) -> tuple[Image.Image, Image.Image]:
    """The letters of a map's city labels (the map layer has them with their halo), as a palette image
    and its mask pasted over the track, on the close-up as on the whole map: track still shows between
    the letters, but never hides one. On the close-up, where track is wide and the letters are thin, each
    letter keeps a one-pixel outline of the halo's colour, so that it reads on a track of any colour.
    A river crossing a label covers is drawn again over it."""
    image = Image.new("RGB", style.size, LABEL_HALO)
    mask = Image.new("L", style.size, 0)
    draw, masking = ImageDraw.Draw(image), ImageDraw.Draw(mask)
    labels = label_places(style)
    outline = 1 if style.detailed else 0
    for label in labels:
        draw.text(label.xy, label.text, font=font(label.size), fill=label.fill, anchor=label.anchor,
                  stroke_width=outline, stroke_fill=LABEL_HALO)
        masking.text(label.xy, label.text, font=font(label.size), fill=255, anchor=label.anchor,
                     stroke_width=outline)
    width = max(3, style.spacing // 8)
    for sections in board().rivers.values():
        for a, b in sections:
            stroke = crossing_segment(style, a, b)
            if any(_overlap(_box(*stroke), label.box) for label in labels):
                draw.line(stroke, fill=RIVER, width=width)
                masking.line(stroke, fill=255, width=width)
    return to_palette(image), mask.point(lambda level: 255 if level > 128 else 0).convert("1")


def _box(*points: tuple[float, float]) -> tuple[float, ...]:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs), min(ys), max(xs), max(ys)


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@lru_cache(maxsize=4096)
def _glyphs(text: str, size: int) -> tuple[Image.Image, int, int, int]:
    """A one-bit mask of `text` with its left/top offsets and advance width, drawn once per string."""
    face = font(size)
    text = drawable(text)
    left, top, right, bottom = face.getbbox(text)
    mask = Image.new("1", (max(1, right - left) + size, max(1, bottom - top) + size // 2), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=1)
    inked = mask.getbbox()
    if inked:
        mask = mask.crop((0, 0, inked[2], inked[3]))
    return mask, left, top, max(right, left + mask.width)


def stamp(image: Image.Image, xy: tuple[float, float], text: str, size: int, colour: tuple[int, int, int],
          anchor: str = "la") -> int:
    """Text on a palette image from cached masks; returns the x where it ends. Anchors: l/m/r + a/m."""
    if not text:
        return int(xy[0])
    mask, left, top, right = _glyphs(text, size)
    x, y = xy
    if anchor[0] == "m":
        x -= right / 2
    elif anchor[0] == "r":
        x -= right
    if anchor[1] == "m":
        y -= size * 0.6
    image.paste(INDEX[colour], (round(x + left), round(y + top)), mask)
    return round(x + right)


def crossing_points(style: MapStyle = OVERVIEW) -> Iterable[tuple[str, tuple[str, str], tuple[int, int]]]:
    """(river, crossing, pixel at its middle) for every crossing in the river data, on one map layer."""
    for river, sections in board().rivers.items():
        for a, b in sections:
            (ax, ay), (bx, by) = style.point(a), style.point(b)
            yield river, (a, b), (round((ax + bx) / 2), round((ay + by) / 2))

