"""PNG encoding by bands (bot.presentation.render.png_bands): any decoder reads exactly the picture, and bands seen
before are reused, within a bounded cache, from any drawing thread."""

from __future__ import annotations

import io
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image

from bot.presentation.frontends import frontend_for
from bot.presentation.render import canvas, png_bands
from bot.presentation.render.canvas import to_png
from bot.presentation.render.john_henry import PALETTE
from games import get_game
from games.core import SeededRandomness


def decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def noise(width: int, height: int, seed: int, colours: int = 256) -> Image.Image:
    """A palette picture of random pixels (nothing repeats, so every band is new)."""
    chooser = random.Random(seed)
    image = Image.new("P", (width, height))
    image.putdata([chooser.randrange(colours) for _ in range(width * height)])
    image.putpalette([chooser.randrange(256) for _ in range(3 * colours)])
    return image


def same_picture(first: Image.Image, second: Image.Image) -> bool:
    return first.size == second.size and first.convert("RGB").tobytes() == second.convert("RGB").tobytes()


@pytest.fixture(autouse=True)
def empty_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(png_bands, "_bands", type(png_bands._bands)())
    monkeypatch.setattr(png_bands, "_held", 0)


def test_a_board_decodes_to_exactly_the_picture_pillow_encodes():
    game, frontend = get_game("john-henry"), frontend_for("john-henry")
    state = game.new_game(["1", "2"], SeededRandomness(4), None)
    captured: list[Image.Image] = []

    def pillow_instead(image: Image.Image, level: int) -> None:
        captured.append(image)

    for number in range(12):
        state, events = game.apply(state, game.to_act(state)[0], {"type": "roll"}, SeededRandomness(number))
        png = frontend.draw_board(game.view(state, None), {"1": "Ann", "2": "Bo"}, events)
        picture = decoded(png)
        assert picture.format == "PNG" and picture.mode == "P"
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(canvas, "palette_png", pillow_instead)
            pillows = decoded(frontend.draw_board(game.view(state, None), {"1": "Ann", "2": "Bo"}, events))
        assert same_picture(picture, pillows)
        assert picture.tobytes() == captured[-1].tobytes() and picture.getpalette() == captured[-1].getpalette()


@pytest.mark.parametrize("size", [(1, 1), (7, 3), (720, 9), (33, 17), (5, 64)])
def test_any_size_decodes_exactly(size: tuple[int, int]):
    image = noise(*size, seed=size[0] * 1000 + size[1])
    encoded = png_bands.palette_png(image, 1)
    assert encoded is not None
    assert decoded(encoded).tobytes() == image.tobytes()
    assert same_picture(decoded(encoded), image)


def test_a_short_palette_is_kept_as_it_is():
    image = noise(40, 20, seed=3, colours=5)
    picture = decoded(png_bands.palette_png(image, 1) or b"")
    assert picture.getpalette() == image.getpalette() and same_picture(picture, image)


def test_a_picture_that_changes_in_one_band_deflates_only_that_band(monkeypatch: pytest.MonkeyPatch):
    first = noise(64, 8 * png_bands.BAND_ROWS, seed=1)
    assert png_bands.palette_png(first, 1) is not None
    assert len(png_bands._bands) == 8
    second = first.copy()
    second.putpixel((10, 3 * png_bands.BAND_ROWS + 2), (first.getpixel((10, 3 * png_bands.BAND_ROWS + 2)) + 1) % 256)
    deflated = []
    original = png_bands.zlib.compressobj
    monkeypatch.setattr(png_bands.zlib, "compressobj", lambda *args: deflated.append(args) or original(*args))
    encoded = png_bands.palette_png(second, 1)
    assert len(deflated) == 1 and len(png_bands._bands) == 9
    assert decoded(encoded or b"").tobytes() == second.tobytes()


def test_the_cache_stays_within_its_bound(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(png_bands, "CACHE_BYTES", 20_000)
    for seed in range(12):
        image = noise(100, 40, seed=seed)
        assert decoded(png_bands.palette_png(image, 1) or b"").tobytes() == image.tobytes()
        assert png_bands._held <= 20_000
        assert png_bands._held == sum(len(key) + len(piece) for key, (piece, _) in png_bands._bands.items())


def test_drawing_threads_share_the_cache_safely():
    images = [noise(90, 50, seed=seed % 5) for seed in range(40)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        encoded = list(pool.map(lambda image: png_bands.palette_png(image, 1), images))
    assert all(decoded(data or b"").tobytes() == image.tobytes() for data, image in zip(encoded, images, strict=True))


def test_pictures_it_does_not_handle_go_to_pillow():
    assert png_bands.palette_png(Image.new("RGB", (4, 4)), 1) is None
    transparent = noise(4, 4, seed=1)
    transparent.info["transparency"] = 0
    assert png_bands.palette_png(transparent, 1) is None
    rgb = Image.new("RGB", (30, 10), (10, 200, 30))
    assert same_picture(decoded(to_png(rgb)), rgb)
    assert same_picture(decoded(to_png(rgb, PALETTE)), rgb.quantize(palette=PALETTE, dither=Image.Dither.NONE))
