"""The Crayon Rails table picture, laid out for a phone (shown about 400 px wide) first.

Top to bottom: once the game is over, the gold result banner every game's final picture carries
(who won, each player's final cash); the players (cash, train, loads, goals), a close-up map around the acting player's
train or network (city names with their mileposts and the loads they supply), the card pool (one
line per card, the acting player's cards marked), and the whole map with a legend of supply codes
(its city names placed where each covers no other label, at a size a phone can read). On both maps the
city labels' letters are laid over the track, so a line of track never hides a name.

Speed: both maps' terrain, rivers and city labels never change, so they are drawn once, in full
colour with smooth text, and reduced to a fixed palette ("P" image) that every picture shares. A
picture is then a palette canvas: the cached layers pasted, track and trains drawn as palette
indices, and text stamped from cached glyph masks; PNG encoding of a palette image at a low zlib
level is what keeps drawing plus encoding within a few milliseconds.
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
    BANNER_HEIGHT,
    INK,
    MUTED,
    PLAYER_COLOURS,
    Board,
    banner_palette_colours,
    blend,
    draw_result_banner,
    drawable,
    font,
    seat_mark,
    token_labels,
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


def _colour(seat: int) -> tuple[int, int, int]:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def train_mark(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, seat: int) -> None:
    """A player's train: his seat's shape (a circle for the first seat, a square for the second: told
    apart by shape as well as colour, whatever the names); the header shows the same mark beside each name."""
    seat_mark(draw, centre, r, seat, INDEX[_colour(seat)], INDEX[INK])


def track_mark(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], seat: int,
               width: int) -> None:
    """The second seat's track carries his shape in white on the middle of each section, the first
    seat's runs solid: the two networks differ in pattern as well as colour (at phone size a dashed line
    against a solid one reads better than a small circle against a small square)."""
    if seat == 0:
        return
    seat_mark(draw, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), max(1.5, width * 0.45), seat, INDEX[WHITE], None, 0)


def track_pattern(seat: int) -> str:
    """How `track_mark` tells a seat's track apart, in words: "solid" or "dashed" (as its sample by the name)."""
    return "solid" if seat == 0 else "dashed"


def _place(milepost: str | None) -> str:
    if not milepost:
        return "not placed"
    city = board().city_at(milepost)
    return f"{city.name} ({milepost})" if city else milepost


class Table:
    """One picture being put together from a view, top to bottom."""

    def __init__(self, view: dict, names: dict[str, str]) -> None:
        self.view, self.names = view, names
        self.overview_top = 0
        self.zoom_origin = (0, 0)
        """The close-up's top left corner on the close-up map (ZOOM), and its top in the picture."""
        self.zoom_top = 0
        self.seat = {p["id"]: seat for seat, p in enumerate(view["players"])}
        acting = [p for p in view["players"] if p["id"] in view["to_act"]]
        self.acting = acting[0] if acting else None

    def name(self, player_id: str) -> str:
        return self.names.get(player_id, player_id)

    def compose(self, path: list[str] | None = None, caption: str | None = None) -> Image.Image:
        pool = self._pool_rows()
        banner = BANNER_HEIGHT + 4 if self.view.get("winners") else 0
        header = banner + 34 + 56 * len(self.view["players"]) + (30 if caption else 0)
        overview = map_layer(OVERVIEW)
        legend = 44
        height = header + ZOOM_HEIGHT + 8 + 30 + 26 * len(pool) + 8 + overview.height + legend
        image = Image.new("P", (WIDTH, height), 0)
        image.putpalette(palette_image().getpalette())
        if banner:
            image.paste(to_palette(self._banner()), (0, 0))
        y = self._header(image, caption, banner)
        self._zoom(image, y, path)
        y += ZOOM_HEIGHT + 8
        y = self._pool(image, y, pool)
        self.overview_top = y + 8
        self._overview(image, y + 8, overview, path)
        self._legend(image, y + 8 + overview.height)
        return image

    def _banner(self) -> Image.Image:
        """The gold band every game's final picture carries: who won, and each player's final cash."""
        board = Board.blank(WIDTH, BANNER_HEIGHT, BACKGROUND)
        draw_result_banner(board, 0, *result_banner(self.view, self.names))
        return board.image

    def _header(self, image: Image.Image, caption: str | None, top: int = 0) -> int:
        view = self.view
        draw = ImageDraw.Draw(image)
        events = "; ".join(f"{e['kind']} at {e['target']}" for e in view["active_events"])
        title = f"Round {view['round']} · {view['phase']} · deck {view['deck']}"
        stamp(image, (PAD, top + 6), title, 20, INK)
        if events:
            stamp(image, (WIDTH - PAD, top + 8), events[:40], 18, EVENT, "ra")
        y = top + 34
        for seat, player in enumerate(view["players"]):
            colour = _colour(seat)
            if self.acting is player:
                draw.rectangle((0, y - 2, WIDTH, y + 53), fill=INDEX[HIGHLIGHT])
                draw.polygon([(2, y + 4), (2, y + 22), (11, y + 13)], fill=INDEX[colour])
            train_mark(draw, (PAD + 22, y + 13), 9, seat)
            end = stamp(image, (PAD + 38, y), self.name(player["id"])[:16], 24, colour)
            end = stamp(image, (end + 12, y), f"${player['cash']}M", 24, INK)
            sample = ((end + 14, y + 13), (end + 58, y + 13))
            draw.line(sample, fill=INDEX[colour], width=5)
            track_mark(draw, *sample, seat, 5)
            goals = f"majors {majors_progress(view, player)} · markers {player['markers']}"
            stamp(image, (WIDTH - PAD, y + 2), goals,
                  18, INK, "ra")
            loads = ", ".join(player["loads"]) or "no loads"
            stamp(image, (PAD + 6, y + 29), f"{player['train']} · {_place(player['at'])} · {loads}", 19, INK)
            y += 56
        if caption:
            draw.rectangle((0, y - 2, WIDTH, y + 26), fill=INDEX[PREVIEW_HALO])
            stamp(image, (PAD, y + 1), caption[:60], 20, INK)
            y += 30
        return y

    def _focus(self, path: list[str] | None) -> tuple[float, float]:
        """Where the close-up looks: the proposed track, else the acting train, else his network."""
        places: list[str] = list(path or [])
        player = self.acting
        if not places and player:
            places = [player["at"]] if player["at"] else [m for section in player["track"] for m in section]
        if not places:
            size = ZOOM.size
            return size[0] / 2, size[1] / 2
        points = [ZOOM.point(m) for m in places]
        return sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)

    def _zoom(self, image: Image.Image, top: int, path: list[str] | None) -> None:
        layer = map_layer(ZOOM)
        fx, fy = self._focus(path)
        left = round(min(max(0, fx - WIDTH / 2), layer.width - WIDTH))
        upper = round(min(max(0, fy - ZOOM_HEIGHT / 2), layer.height - ZOOM_HEIGHT))
        self.zoom_origin, self.zoom_top = (left, upper), top
        close = layer.crop((left, upper, left + WIDTH, upper + ZOOM_HEIGHT))
        self._overlay(close, ZOOM, (-left, -upper), path)
        for col in range(board().width):
            x = ZOOM.point(f"{COLUMNS[col]}1")[0] - left
            if 8 < x < WIDTH - 8:
                stamp(close, (x, 2), COLUMNS[col], 15, INK, "ma")
        for row in range(board().height):
            y = ZOOM.point(f"A{row + 1}")[1] - upper
            if 20 < y < ZOOM_HEIGHT - 10:
                stamp(close, (3, y), str(row + 1), 15, INK, "lm")
        image.paste(close, (0, top))

    def _overview(self, image: Image.Image, top: int, layer: Image.Image, path: list[str] | None) -> None:
        whole = layer.copy()
        self._overlay(whole, OVERVIEW, (0, 0), path)
        image.paste(whole, (0, top))

    def _overlay(self, image: Image.Image, style: MapStyle, offset: tuple[float, float],
                 path: list[str] | None) -> None:
        """Track, event marks, trains and a proposed build, drawn on a map image shifted by `offset`."""
        draw = ImageDraw.Draw(image)
        ox, oy = offset

        def at(milepost: str) -> tuple[float, float]:
            x, y = style.point(milepost)
            return x + ox, y + oy

        for seat, player in enumerate(self.view["players"]):
            colour = INDEX[_colour(seat)]
            for a, b in player["track"]:
                draw.line([at(a), at(b)], fill=colour, width=style.track)
            for a, b in player["track"]:
                track_mark(draw, at(a), at(b), seat, style.track)
        self._event_marks(draw, at, style)
        labels, mask = map_labels(style)
        image.paste(labels, (round(ox), round(oy)), mask)
        if path:
            points = [at(m) for m in path]
            draw.line(points, fill=INDEX[PREVIEW_HALO], width=style.track + 5)
            draw.line(points, fill=INDEX[PREVIEW], width=style.track)
            r = style.track
            for x, y in points:
                draw.ellipse((x - r, y - r, x + r, y + r), fill=INDEX[PREVIEW], outline=INDEX[INK])
        labels = token_labels([self.name(player["id"]) for player in self.view["players"]])
        for seat, player in enumerate(self.view["players"]):
            if not player["at"]:
                continue
            x, y = at(player["at"])
            x += (-1 if seat == 0 else 1) * style.train * 0.6
            train_mark(draw, (x, y), style.train, seat)
            if style.detailed:
                stamp(image, (x, y), labels[seat], 15 if len(labels[seat]) < 3 else 12, WHITE, "mm")

    def _event_marks(self, draw: ImageDraw.ImageDraw, at, style: MapStyle) -> None:
        the_board = board()
        for event in self.view["active_events"]:
            if event["target"] in the_board.cities:
                x, y = at(the_board.cities[event["target"]].at)
                r = style.spacing * 0.55
                draw.ellipse((x - r, y - r, x + r, y + r), outline=INDEX[EVENT], width=3)
            elif event["target"] in the_board.rivers:
                for a, b in the_board.rivers[event["target"]]:
                    draw.line([at(a), at(b)], fill=INDEX[EVENT], width=max(2, style.track - 2))

    def _pool_rows(self) -> list[dict]:
        """The acting player's cards first (kept, locked, or matching a load aboard), then the rest."""
        mine = self.acting["id"] if self.acting else None
        loads = set(self.acting["loads"]) if self.acting else set()

        def actionable(card: dict) -> bool:
            if card["private_to"]:
                return card["private_to"] == mine
            if any(lock["player"] == mine for lock in card["locks"]):
                return True
            locked = {lock["demand"] for lock in card["locks"]}
            return any(d["load"] in loads and (not locked or i in locked) for i, d in enumerate(card["demands"]))

        cards = [c for c in self.view["pool"] if not c["private_to"] or c["private_to"] == mine] + [
            c for c in self.view["pool"] if c["private_to"] and c["private_to"] != mine]
        rows = [{"card": c, "actionable": actionable(c)} for c in cards]
        return sorted(rows, key=lambda row: not row["actionable"])

    def _pool(self, image: Image.Image, top: int, rows: list[dict]) -> int:
        draw = ImageDraw.Draw(image)
        head = "Pool: load city payoff" + (" (highlighted: yours to act on)" if any(r["actionable"] for r in rows)
                                           else "")
        stamp(image, (PAD, top + 4), head, 19, INK)
        y = top + 30
        for row in rows:
            card = row["card"]
            if row["actionable"]:
                draw.rectangle((0, y - 2, WIDTH, y + 23), fill=INDEX[HIGHLIGHT])
            x = stamp(image, (PAD, y), f"#{card['id']}", 18, MUTED) + 8
            owner = card["private_to"]
            if owner:
                x = stamp(image, (x, y), f"{self.name(owner)[:8]}'s:", 18, _colour(self.seat[owner])) + 6
            lockers: dict[int, list[str]] = {}
            for lock in card["locks"]:
                lockers.setdefault(lock["demand"], []).append(lock["player"])
            for index, demand in enumerate(card["demands"]):
                if owner and index not in lockers:
                    continue
                who = [] if owner else lockers.get(index, [])
                for player in who:  # whose lock, by shape as well as colour (both, in a race)
                    train_mark(draw, (x + 7, y + 11), 6, self.seat[player])
                    x += 17
                colour = _colour(self.seat[who[0]]) if len(who) == 1 else INK
                x = stamp(image, (x, y), f"{demand['load']} {demand['city']} {demand['payoff']}", 18, colour) + 10
            y += 26
        return y

    def _legend(self, image: Image.Image, top: int) -> None:
        codes = load_codes()
        items = [f"{code} {load}" for load, code in sorted(codes.items(), key=lambda item: item[1])]
        half = (len(items) + 1) // 2
        stamp(image, (PAD, top + 2), "Supplies: " + "  ".join(items[:half]), 15, INK)
        end = stamp(image, (PAD, top + 22), "  ".join(items[half:]), 15, INK)
        draw = ImageDraw.Draw(image)
        for seat in range(len(self.view["players"])):
            train_mark(draw, (end + 20 + 14 * seat, top + 31), 5, seat)
        stamp(image, (end + 30 + 14 * (len(self.view["players"]) - 1), top + 22), "locked by that player", 15, INK)


def result_banner(view: dict, names: dict[str, str]) -> tuple[str, list[tuple[str, str, tuple[int, int, int]]]]:
    """The banner's headline (the winner, or the players sharing the victory) and each player's final cash."""
    winners = [names.get(player, player) for player in view.get("winners") or []]
    cash = {player["id"]: player["cash"] for player in view["players"]}
    best = max((cash[player] for player in view.get("winners") or []), default=0)
    headline = (f"{winners[0]} wins with ${best}M!" if len(winners) == 1
                else "Shared victory: " + " and ".join(winners) + f" at ${best}M")
    scores = [(names.get(player["id"], player["id"]), f"${player['cash']}M", _colour(seat))
              for seat, player in enumerate(view["players"])]
    return headline, scores


def draw_board(view: dict, names: dict[str, str]) -> bytes:
    return encode(Table(view, names).compose())


def draw_build_preview(view: dict, names: dict[str, str], path: list[str], caption: str) -> bytes:
    """The table with `path` drawn in a highlight colour, the close-up centred on it, and a caption."""
    return encode(Table(view, names).compose(path, caption))


def board_image(view: dict, names: dict[str, str]) -> Image.Image:
    """The decoded picture (for tests and benches that look at pixels)."""
    return Table(view, names).compose()


def crossing_points(style: MapStyle = OVERVIEW) -> Iterable[tuple[str, tuple[str, str], tuple[int, int]]]:
    """(river, crossing, pixel at its middle) for every crossing in the river data, on one map layer."""
    for river, sections in board().rivers.items():
        for a, b in sections:
            (ax, ay), (bx, by) = style.point(a), style.point(b)
            yield river, (a, b), (round((ax + bx) / 2), round((ay + by) / 2))


def majors_needed(view: dict) -> int:
    """How many major cities a player must join to win (the game's option; 3 in games recorded before it)."""
    return view.get("options", {}).get("major_cities", 3)


def majors_progress(view: dict, player: dict) -> str:
    """A player's majors toward the goal, as the picture, the table's words and the alt text all say it:
    "2/3", and "3/3" once the goal is met, even with all four joined ("4/3" read as a miscount)."""
    needed = majors_needed(view)
    return f"{min(player['majors_joined'], needed)}/{needed}"
