"""A replay's frames assembled into one animated picture: GIF or WebP, whichever is smaller.

Each frame is the table's own picture (bot.presentation.replay.picture), unchanged, above a band with its
move line in the boards' body type (about 12 px on a 400 px phone). Both formats are lossless here: the
boards are drawn on a palette of at most 256 colours, so a GIF loses nothing, and lossless WebP keeps every
pixel too, so "the same legibility" holds and the smaller file wins (bench/bench_replay.py measures both).

Timing: a move shows `MOVE_MS`, a frame that ends a turn of a game told per turn holds `TURN_MS`, and the last
frame holds `LAST_HOLD_MS` before the loop starts again (GIF and WebP viewers loop; a held last frame is how
"the last frame held" reads in both).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.presentation.render.canvas import BACKGROUND, BODY, INK, MUTED, Board, clip
from bot.presentation.replay import PER_TURN, Update, picture

MOVE_MS = 1200
TURN_MS = 2500
LAST_HOLD_MS = 6000
MAX_BYTES = 8 * 1024 * 1024
"""Discord's upload limit for a bot without boosts: a replay must stay under it."""
SCALES = (1, 0.75, 0.6)
LINE_HEIGHT = 30
PAD = 12
CAPTION_LINES = 2


@dataclass(frozen=True)
class Animation:
    data: bytes
    mime: str
    extension: str


def caption_lines(update: Update) -> list[str]:
    """The move line as shown under a frame: its first `CAPTION_LINES` sentences, the game's start told too."""
    lines = update.lines or (["The game begins."] if update.seq == 0 else [])
    if len(lines) > CAPTION_LINES:
        lines = [*lines[:CAPTION_LINES - 1], f"… and {len(lines) - CAPTION_LINES + 1} more"]
    return lines


def framed(board_png: bytes, update: Update, number: int, total: int) -> Image.Image:
    """The table's picture, pixel for pixel, above a band with the move number and its line."""
    with Image.open(io.BytesIO(board_png)) as board:
        board = board.convert("RGB")
    width = board.width
    band = Board.blank(width, PAD * 2 + LINE_HEIGHT * (CAPTION_LINES + 1), BACKGROUND)
    band.text((PAD, PAD), f"Update {number} of {total}" + (f" · move {update.seq}" if update.seq else ""),
              BODY - 4, MUTED)
    for row, line in enumerate(caption_lines(update), start=1):
        band.text((PAD, PAD + row * LINE_HEIGHT), clip(line, BODY, width - 2 * PAD), BODY, INK)
    whole = Image.new("RGB", (width, board.height + band.image.height), BACKGROUND)
    whole.paste(board, (0, 0))
    whole.paste(band.image, (0, board.height))
    return whole


def durations(slug: str, frames: Sequence[Update]) -> list[int]:
    held = [TURN_MS if slug in PER_TURN and update.turn_passed else MOVE_MS for update in frames]
    if held:
        held[-1] = LAST_HOLD_MS
    return held


def shared_palette(images: Sequence[Image.Image]) -> Image.Image:
    """One palette for every frame, from the first and the last (the board's colours, the result banner's), so
    that a GIF frame stores only what changed since the one before."""
    first, last = images[0], images[-1]
    both = Image.new("RGB", (max(first.width, last.width), first.height + last.height), BACKGROUND)
    both.paste(first, (0, 0))
    both.paste(last, (0, first.height))
    return both.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def encode_gif(images: Sequence[Image.Image], held: Sequence[int]) -> bytes:
    """Every frame on one palette (the boards are drawn on one of at most 256 colours), undithered."""
    palette = shared_palette(images)
    paletted = [image.quantize(palette=palette, dither=Image.Dither.NONE) for image in images]
    buffer = io.BytesIO()
    paletted[0].save(buffer, format="GIF", save_all=True, append_images=paletted[1:], duration=list(held),
                     loop=0, optimize=False, disposal=1)
    return buffer.getvalue()


def encode_webp(images: Sequence[Image.Image], held: Sequence[int]) -> bytes:
    buffer = io.BytesIO()
    images[0].save(buffer, format="WEBP", save_all=True, append_images=list(images[1:]), duration=list(held),
                   loop=0, lossless=True, quality=60, method=3, minimize_size=False)
    return buffer.getvalue()


def animated(slug: str, frames: Sequence[Update], *, formats: Sequence[str] = ("gif", "webp")) -> Animation:
    """The replay of `frames` (bot.presentation.replay.frames_of) as the smallest of `formats`. Pure and slow
    (every frame drawn and encoded): it runs in the drawing pool (bot.runtime.drawing)."""
    images = [framed(picture(slug, update), update, number, len(frames))
              for number, update in enumerate(frames, start=1)]
    return within_limit(same_size(images), durations(slug, frames), formats)


def within_limit(images: Sequence[Image.Image], held: Sequence[int], formats: Sequence[str]) -> Animation:
    """The smallest encoding, made smaller until it fits `MAX_BYTES`: first drawn at `SCALES` of its size (a
    720 px board still reads on a 400 px phone at 0.6), then with every other frame but the first and last left
    out, each kept one holding as long as the two."""
    images, held = list(images), list(held)
    while True:
        for scale in SCALES:
            made = smallest(scaled(images, scale), held, formats)
            if len(made.data) <= MAX_BYTES or len(images) <= 2:
                return made
        images, held = halved(images, held)


def scaled(images: Sequence[Image.Image], scale: float) -> list[Image.Image]:
    if scale == 1:
        return list(images)
    return [image.resize((round(image.width * scale), round(image.height * scale)), Image.Resampling.LANCZOS)
            for image in images]


def halved(images: list[Image.Image], held: list[int]) -> tuple[list[Image.Image], list[int]]:
    kept_images, kept_held = [images[0]], [held[0]]
    for index in range(1, len(images) - 1, 2):
        kept_images.append(images[index])
        kept_held.append(held[index] + (held[index + 1] if index + 1 < len(images) - 1 else 0))
    kept_images.append(images[-1])
    kept_held.append(held[-1])
    return kept_images, kept_held


def same_size(images: Sequence[Image.Image]) -> list[Image.Image]:
    """Every frame on a canvas of the largest one's size (a board may grow, as its result banner comes), each
    drawn at the top left, unchanged: an animation's frames all have one size."""
    width, height = max(image.width for image in images), max(image.height for image in images)
    sized = []
    for image in images:
        if image.size != (width, height):
            canvas = Image.new("RGB", (width, height), BACKGROUND)
            canvas.paste(image, (0, 0))
            image = canvas
        sized.append(image)
    return sized


def smallest(images: Sequence[Image.Image], held: Sequence[int], formats: Sequence[str]) -> Animation:
    made = []
    if "gif" in formats:
        made.append(Animation(encode_gif(images, held), "image/gif", "gif"))
    if "webp" in formats:
        made.append(Animation(encode_webp(images, held), "image/webp", "webp"))
    return min(made, key=lambda animation: len(animation.data))
