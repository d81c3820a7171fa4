"""Drawing helpers every board shares: fonts, colours, cached text, the result banner, PNG output.

Why it is shaped this way (issue 11, items 7 and 10):

- Speed. Encoding an RGB PNG was most of a board's cost. Boards are drawn in RGB (so text stays
  antialiased), then mapped onto a fixed per-game palette of at most 256 colours (`game_palette`)
  and saved as a palette ("P") PNG with light compression: several times faster to encode and
  smaller; bands of rows seen in earlier pictures are not deflated again (`png_bands`, issue 24).
  Rasterising text was the rest; `Board.text` keeps each rendered string as a mask, so a name or
  number drawn before costs one paste.
- Phones. Discord shows a picture about 400 px wide on a phone, so boards are `PHONE_WIDTH` wide
  and key text (names, scores, whose turn, the last roll) is at least `KEY` px: about 13 px on
  the phone. Nothing that matters is smaller than `SMALL`.
- Names. The bundled font draws ASCII and a little punctuation only: any other character came out as
  a box. Players' names are anything Discord allows, so every string is drawn through `drawable`:
  accents are dropped (Zoë, José: Zoe, Jose), a letter the font lacks shows as "?" (so 李小龍 is ???,
  still three letters), and emoji and other symbols are left out. The message text and the alt text
  keep the names as they are.
"""

from __future__ import annotations

import io
import threading
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.presentation.render.png_bands import palette_png

Colour = tuple[int, int, int]

BACKGROUND: Colour = (245, 240, 228)
INK: Colour = (40, 36, 32)
MUTED: Colour = (110, 102, 90)
WHITE: Colour = (255, 255, 255)
PLAYER_COLOURS: list[Colour] = [(207, 60, 0), (0, 84, 146), (0, 150, 111), (120, 30, 60)]
"""Seat colours told apart with any common colour vision (issue 25): Okabe–Ito's vermillion, blue,
bluish green and reddish purple, each shifted in lightness until every pair stays at least 20
CIEDE2000 apart under simulated deuteranopia, protanopia and tritanopia (measured 20.2; pure Okabe–Ito:
12.2; the red and green used before: 5.8), and dark enough to read as text on the cream paper (contrast 3.3 to
9). tests/bot/test_palette.py measures it. Colour is never the only cue: see `SEAT_SHAPES`."""
SEAT_SHAPES = ("circle", "square", "triangle", "diamond")
"""Each seat's mark, drawn beside its name and on its pieces, so seats differ in shape as well as colour."""
SEAT_COLOUR_NAMES = ("orange", "blue", "green", "wine")
"""`PLAYER_COLOURS` as a sighted player would call them, so the words can point to a seat on the picture."""
BANNER: Colour = (250, 214, 80)
"""The result banner's fill: no board uses this gold for anything else."""
BANNER_EDGE: Colour = (150, 105, 10)

PHONE_WIDTH = 720
GAME_OVER = "Game over"
"""A board's status line once its game has ended, however it ended (the winner is in its banner or its words)."""
TITLE, KEY, BODY, SMALL = 30, 26, 22, 18
"""Type sizes in px at PHONE_WIDTH: about 17, 14, 12 and 10 px on a 400 px wide phone picture."""
PNG_COMPRESS_LEVEL = 1
"""zlib level for palette PNGs: level 1 encodes several times faster than 6 for a few KiB more."""


@lru_cache(maxsize=32)
def pts(amount: int) -> str:
    """A score in a picture: "1 pt", "12 pts" (never "1 pts")."""
    return f"{amount} pt" if abs(amount) == 1 else f"{amount} pts"


def font(size: int = 14) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font, so drawing needs no system fonts."""
    return ImageFont.load_default(size=size)


FONT_EXTRAS = "©«°±´·»‘’“”…‹›⁄™"
"""The characters beyond ASCII that the bundled font draws (tests/bot/test_drawable_names checks it)."""
_CYRILLIC = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюяіїєґ", ["a", "b", "v", "g", "d", "e", "e", "zh", "z",
    "i", "y", "k", "l", "m", "n", "o", "p", "r", "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "-", "y",
    "-", "e", "yu", "ya", "i", "yi", "ye", "g"], strict=True))
_GREEK = dict(zip("αβγδεζηθικλμνξοπρσςτυφχψω", ["a", "v", "g", "d", "e", "z", "i", "th", "i", "k", "l", "m",
    "n", "x", "o", "p", "r", "s", "s", "t", "y", "f", "ch", "ps", "o"], strict=True))
SPELLED = {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "þ": "th", "ı": "i", **_CYRILLIC,
           **_GREEK}
"""Letters the font lacks that have no decomposition to ASCII, spelled in ASCII (lower case; "-": nothing)."""


def _has_glyph(char: str) -> bool:
    return " " <= char <= "~" or char in FONT_EXTRAS


def _spelled(char: str) -> str:
    """One character the font lacks, in characters it has: "" when there is no spelling."""
    out = ""
    for part in unicodedata.normalize("NFKD", char):
        if _has_glyph(part):
            out += part
        elif (spelled := SPELLED.get(part.lower())) is not None:
            spelled = spelled.strip("-")
            out += spelled.capitalize() if part.isupper() else spelled
    return out


@lru_cache(maxsize=4096)
def drawable(text: str) -> str:
    """`text` as the bundled font can draw it (see the module docstring): never a box for a glyph it lacks."""
    if all(_has_glyph(char) for char in text):
        return text
    out = []
    for char in text:
        if _has_glyph(char):
            out.append(char)
        elif plain := _spelled(char):
            out.append(plain)
        elif unicodedata.category(char)[0] in "LN" and char.lower() not in SPELLED:
            out.append("?")  # a letter or digit the font lacks (CJK, Arabic...): still there, as "?"
    drawn = " ".join("".join(out).split()) if text.strip() else text
    return drawn or "?"


def new_canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), BACKGROUND)
    return image, ImageDraw.Draw(image)


def blend(first: Colour, second: Colour, share: float) -> Colour:
    """`share` of `second` mixed into `first`."""
    return tuple(round(a + (b - a) * share) for a, b in zip(first, second, strict=True))  # type: ignore[return-value]


def seat_colour(seat: int) -> Colour:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def seat_words(seat: int) -> str:
    """The seat's colour and mark in words, as the pictures draw them: "orange circle", "blue square"."""
    return f"{SEAT_COLOUR_NAMES[seat % len(SEAT_COLOUR_NAMES)]} {SEAT_SHAPES[seat % len(SEAT_SHAPES)]}"


def seat_mark(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, seat: int,
              fill: Colour | int, outline: Colour | int | None = None, width: int = 2) -> None:
    """The seat's shape (`SEAT_SHAPES`) around `centre`: circle, square, triangle or diamond. `fill`
    and `outline` are colours, or palette indices on a palette ("P") image."""
    x, y, r = centre[0], centre[1], radius
    shape = SEAT_SHAPES[seat % len(SEAT_SHAPES)]
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=width)
    elif shape == "square":
        r *= 0.9
        draw.rectangle((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=width)
    elif shape == "triangle":
        draw.polygon([(x, y - r * 1.1), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8)], fill=fill,
                     outline=outline, width=width)
    else:
        draw.polygon([(x, y - r * 1.2), (x + r, y), (x, y + r * 1.2), (x - r, y)], fill=fill, outline=outline,
                     width=width)


def game_palette(colours: Iterable[Colour], inks: Iterable[Colour], papers: Iterable[Colour]) -> Image.Image:
    """A fixed palette image for `to_png`: a game's colours, plus the in-between shades of every
    ink drawn on every paper, so antialiased text and lines keep smooth edges."""
    entries: list[Colour] = []
    for colour in colours:
        if colour not in entries:
            entries.append(colour)
    for ink in inks:
        for paper in papers:
            for share in (0.2, 0.4, 0.6, 0.8):
                shade = blend(paper, ink, share)
                if shade not in entries:
                    entries.append(shade)
    if len(entries) > 256:
        raise ValueError(f"a palette holds 256 colours, not {len(entries)}")
    image = Image.new("P", (1, 1))
    flat = [channel for colour in entries for channel in colour]
    image.putpalette(flat + flat[:3] * (256 - len(entries)))
    return image


def to_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG bytes; with a `palette`, the image is first mapped onto it (no dithering)."""
    buffer = io.BytesIO()
    if palette is not None:
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
        encoded = palette_png(image, PNG_COMPRESS_LEVEL)
        if encoded is not None:
            return encoded
        image.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    else:
        image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def centered_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int = 14,
                  fill: Colour = INK) -> None:
    draw.text(xy, text, font=font(size), fill=fill, anchor="mm")


def token_labels(names: Sequence[str], longest: int = 3) -> list[str]:
    """Short labels for players' tokens that tell them apart: the shortest prefixes (up to `longest`
    letters) that differ, so Bob and Brian are "Bo" and "Br"; seat numbers when even those clash."""
    words = [(name.strip() or "?") for name in names]
    for length in range(1, longest + 1):
        labels = [word[:length].title() if length > 1 else word[:1].upper() for word in words]
        if len({label.lower() for label in labels}) == len(labels):
            return labels
    return [str(seat) for seat in range(1, len(words) + 1)]


_FREETYPE = threading.Lock()
"""One FreeType face per size is shared by the drawing threads; FreeType faces are not thread-safe,
so measuring and rasterising hold this lock (only on cache misses: the results are cached)."""


@lru_cache(maxsize=4096)
def text_width(text: str, size: int) -> float:
    with _FREETYPE:
        return font(size).getlength(drawable(text))


def fit_size(text: str, size: int, width: float, smallest: int = SMALL) -> int:
    """The largest size from `size` down to `smallest` at which `text` fits `width`."""
    while size > smallest and text_width(text, size) > width:
        size -= 1
    return size


def clip(text: str, size: int, width: float) -> str:
    """`text` cut with an ellipsis until it fits `width` (long display names)."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, anchor: str, bold: bool) -> tuple[Image.Image, int, int] | None:
    """The rendered string as an 8-bit mask and its offset from the anchor point."""
    stroke = 1 if bold else 0
    text = drawable(text)
    with _FREETYPE:
        left, top, right, bottom = font(size).getbbox(text, anchor=anchor, stroke_width=stroke)
        if right <= left or bottom <= top:
            return None
        mask = Image.new("L", (right - left, bottom - top), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, font=font(size), fill=255, anchor=anchor,
                                  stroke_width=stroke, stroke_fill=255)
    return mask, left, top


class Board:
    """An RGB picture being drawn: Pillow's ImageDraw plus cached text."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)

    @classmethod
    def blank(cls, width: int, height: int, fill: Colour = BACKGROUND) -> Board:
        return cls(Image.new("RGB", (width, height), fill))

    def text(self, xy: tuple[float, float], text: str, size: int = BODY, fill: Colour = INK,
             anchor: str = "la", bold: bool = False) -> None:
        rendered = _text_mask(text, size, anchor, bold)
        if rendered is None:
            return
        mask, left, top = rendered
        self.image.paste(fill, (round(xy[0]) + left, round(xy[1]) + top), mask)

    def png(self, palette: Image.Image) -> bytes:
        return to_png(self.image, palette)


BANNER_HEIGHT = 96


def draw_result_banner(board: Board, top: int, headline: str, scores: Sequence[tuple[str, str, Colour]]) -> None:
    """The final result across the picture: a gold band with the headline (who won) and each
    player's final score in his colour, so the last picture tells the result on its own."""
    width = board.image.width
    board.draw.rectangle((0, top, width - 1, top + BANNER_HEIGHT - 1), fill=BANNER, outline=BANNER_EDGE, width=3)
    board.text((width / 2, top + 30), headline, fit_size(headline, TITLE, width - 24), INK, "mm", bold=True)
    if not scores:
        return
    column = (width - 16) / len(scores)
    for index, (name, score, colour) in enumerate(scores):
        centre = 8 + column * (index + 0.5)
        line = f"{clip(name, KEY, column - 70)} {score}"
        board.text((centre, top + 70), line, fit_size(line, KEY, column - 8), colour, "mm", bold=True)


def banner_palette_colours() -> list[Colour]:
    """Colours the banner adds to a game's palette."""
    return [BANNER, BANNER_EDGE]
