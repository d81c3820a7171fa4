"""Drawing helpers every board shares: fonts, colours, PNG output."""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

BACKGROUND = (245, 240, 228)
INK = (40, 36, 32)
MUTED = (120, 112, 100)
PLAYER_COLOURS = [(200, 50, 50), (40, 90, 200), (40, 150, 70), (200, 140, 20)]


@lru_cache(maxsize=32)
def font(size: int = 14) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font, so drawing needs no system fonts."""
    return ImageFont.load_default(size=size)


def new_canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), BACKGROUND)
    return image, ImageDraw.Draw(image)


def to_png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def centered_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int = 14,
                  fill: tuple[int, int, int] = INK) -> None:
    draw.text(xy, text, font=font(size), fill=fill, anchor="mm")
