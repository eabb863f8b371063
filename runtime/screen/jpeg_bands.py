"""One screenshot scaled and encoded on several cores, as horizontal bands of one JPEG.

Scaling (~2.5 ms) and JPEG encoding (~2.7 ms) of a full-HD grab are each a
single-threaded pass, and both OpenCV and libjpeg-turbo release the GIL. So
the frame is cut into bands of rows, each band is scaled and encoded by its
own thread, and the band JPEGs are joined into one baseline JPEG:

- a band starts on an MCU row (16 pixel rows for 4:2:0), so no block spans two
  bands, and its source rows start at exactly ``band start x scale``, so the
  scaler computes the same weights it would over the whole frame;
- the bands share their quantisation and Huffman tables (same settings, no
  per-image optimisation; checked before joining), so the first band's headers
  serve all of them, with the image height patched in;
- a restart marker (RSTn, with a DRI segment saying every band but the last
  has the same number of MCUs) closes each band's entropy-coded data, which is
  exactly where every band's DC prediction starts again from zero.

Any JPEG decoder reads the result as one image, pixel for pixel what one
encoder over the whole scaled frame gives (tests/runtime/screen/test_jpeg_bands.py).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from math import lcm

SOF0, SOS, DRI, RST0, EOI = 0xC0, 0xDA, 0xDD, 0xD0, 0xD9
MCU_HEIGHT = {"420": 16, "422": 8, "444": 8}
MCU_WIDTH = {"420": 16, "422": 16, "444": 8}
# The bands other than the caller's; its threads start on first use, up to capture_threads' bound.
_POOL = ThreadPoolExecutor(max_workers=8, thread_name_prefix="deskact-capture")


@dataclass(frozen=True)
class Band:
    """Rows [src_top, src_bottom) of the frame scale to rows [top, bottom) of the image."""

    src_top: int
    src_bottom: int
    top: int
    bottom: int


def split(src_height: int, height: int, count: int, subsampling: str) -> list[Band] | None:
    """At most ``count`` bands of about equal height that scale exactly like the whole frame, or None
    when the sizes allow no such cut (the caller then encodes in one piece)."""
    if count < 2:
        return None
    ratio = Fraction(src_height, height)
    # A cut at image row d must fall on an MCU row and map to a whole source row.
    step = lcm(MCU_HEIGHT[subsampling], ratio.denominator)
    # Every band but the last has the restart interval's MCUs; the last may have fewer, not more.
    band = -(-height // (count * step)) * step
    cuts = list(range(band, height, band))[: count - 1]
    if not cuts:
        return None
    edges = [0, *cuts, height]
    return [Band(int(a * ratio), int(b * ratio), a, b) for a, b in pairwise(edges)]


def run_bands(bands: Sequence[Band], encode: Callable[[Band], bytes]) -> list[bytes]:
    """``encode`` each band, all but the last on the pool, the last in the calling thread."""
    futures: list[Future[bytes]] = [_POOL.submit(encode, band) for band in bands[:-1]]
    last = encode(bands[-1])
    return [future.result() for future in futures] + [last]


def join(parts: Sequence[bytes], width: int, height: int, subsampling: str) -> bytes | None:
    """One JPEG of ``height`` rows from band JPEGs encoded alike, or None if their tables differ."""
    headers = [_segments(part) for part in parts]
    first = headers[0]
    if not any(marker == SOF0 for marker, _, _ in first):
        return None  # not baseline: restart markers are only joined for baseline scans here
    tables = _tables(first, parts[0])
    if any(_tables(h, part) != tables for h, part in zip(headers[1:], parts[1:])):
        return None
    mcus_per_row = -(-width // MCU_WIDTH[subsampling])
    interval = mcus_per_row * (-(-_height(first, parts[0]) // MCU_HEIGHT[subsampling]))
    if interval > 0xFFFF:
        return None
    out = bytearray(parts[0][:2])  # SOI
    for marker, start, end in first:
        segment = parts[0][start:end]
        if marker == SOF0:
            segment = segment[:5] + struct.pack(">H", height) + segment[7:]
        elif marker == SOS:
            out += struct.pack(">BBHH", 0xFF, DRI, 4, interval)
        out += segment
    for index, (part, segments) in enumerate(zip(parts, headers)):
        if index:
            out += bytes((0xFF, RST0 + (index - 1) % 8))
        out += part[segments[-1][2]:-2]  # entropy-coded data, between SOS and EOI
    out += bytes((0xFF, EOI))
    return bytes(out)


def _segments(data: bytes) -> list[tuple[int, int, int]]:
    """(marker, start, end) of each header segment up to and including SOS."""
    segments, pos = [], 2
    while True:
        marker = data[pos + 1]
        end = pos + 2 + struct.unpack_from(">H", data, pos + 2)[0]
        segments.append((marker, pos, end))
        if marker == SOS:
            return segments
        pos = end


def _tables(segments: list[tuple[int, int, int]], data: bytes) -> bytes:
    """Every header byte that must match across bands: all but the SOF's height."""
    out = bytearray()
    for marker, start, end in segments:
        segment = data[start:end]
        out += segment[:5] + segment[7:] if marker == SOF0 else segment
    return bytes(out)


def _height(segments: list[tuple[int, int, int]], data: bytes) -> int:
    start = next(start for marker, start, _ in segments if marker == SOF0)
    return int(struct.unpack_from(">H", data, start + 5)[0])
