"""PNG encoding of palette pictures that reuses the compressed bands it has seen before.

Deflating a board was the largest step of showing a move (issue 24: about 1.1 of 1.7 ms of a John
Henry board's encoding). From one move to the next most of a board is unchanged (margins, the track,
the legend), and boards of different games at the same stage share rows too: about four bands of
eight rows in five were seen before, in earlier pictures.

So the picture's rows (each with PNG's filter byte, "none") are cut into bands of `BAND_ROWS` rows;
each band is deflated on its own (a raw deflate stream ending on a byte boundary, without reference
to the bands before it) and kept, keyed by the band's exact bytes (no digest, so no collision can
ever swap a band; bytes, not memoryviews, whose comparison is slow); a band seen before costs a
dictionary lookup. The IDAT stream is the zlib header,
the bands' pieces in order, an empty final block and the Adler-32 of all rows (combined from each
band's own, kept with it). Any PNG decoder reads the result as one ordinary deflate stream. The
pieces are a little larger than one stream over the whole picture (no match reaches across a band),
about 15 %.

The cache holds at most `CACHE_BYTES` (least recently used bands go first) and is shared by the
drawing threads under a lock. Pictures with transparency, or not in palette mode, are left to Pillow.
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict

from PIL import Image

BAND_ROWS = 8
CACHE_BYTES = 16 * 1024 * 1024
SIGNATURE = b"\x89PNG\r\n\x1a\n"
ZLIB_HEADER = b"\x78\x01"
"""Deflate with a 32 KiB window, level "fastest"; the final empty fixed-Huffman block is FINAL_BLOCK."""
FINAL_BLOCK = b"\x03\x00"
ADLER_BASE = 65521

_bands: OrderedDict[bytes, tuple[bytes, int]] = OrderedDict()
"""A band's rows (without filter bytes) -> (its deflated piece, the Adler-32 of its filtered rows)."""
_held = 0
_lock = threading.Lock()


def palette_png(image: Image.Image, level: int) -> bytes | None:
    """`image` (mode "P") as PNG bytes at zlib `level`; None when it is not a picture this handles."""
    if image.mode != "P" or "transparency" in image.info:
        return None
    palette = image.getpalette()
    if not palette or len(palette) % 3 or len(palette) > 768:
        return None
    width, height = image.size
    rows = image.tobytes()
    band_bytes = BAND_ROWS * width
    pieces: list[bytes] = []
    adler = 1
    for start in range(0, len(rows), band_bytes):
        band = rows[start:start + band_bytes]
        piece, band_adler = _band(band, width, level)
        filtered = len(band) + len(band) // width
        adler = _adler_combine(adler, band_adler, filtered)
        pieces.append(piece)
    idat = b"".join([ZLIB_HEADER, *pieces, FINAL_BLOCK, struct.pack(">I", adler)])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join([SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", bytes(palette)), _chunk(b"IDAT", idat),
                     _chunk(b"IEND", b"")])


def _band(band: bytes, width: int, level: int) -> tuple[bytes, int]:
    """The deflated piece and Adler-32 of one band's filtered rows: kept from before, or made now."""
    global _held
    with _lock:
        known = _bands.get(band)
        if known is not None:
            _bands.move_to_end(band)
            return known
    filtered = b"".join(b"\x00" + band[row:row + width] for row in range(0, len(band), width))
    compressor = zlib.compressobj(level, zlib.DEFLATED, -15)
    made = (compressor.compress(filtered) + compressor.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(filtered))
    with _lock:
        if band not in _bands:
            _bands[band] = made
            _held += len(band) + len(made[0])
            while _held > CACHE_BYTES:
                old_key, (old_piece, _) = _bands.popitem(last=False)
                _held -= len(old_key) + len(old_piece)
    return made


def _adler_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's (zlib's adler32_combine)."""
    remainder = second_length % ADLER_BASE
    low = first & 0xFFFF
    high = (remainder * low) % ADLER_BASE
    low = (low + (second & 0xFFFF) + ADLER_BASE - 1) % ADLER_BASE
    high = (high + (first >> 16) + (second >> 16) + ADLER_BASE - remainder) % ADLER_BASE
    return low | (high << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
