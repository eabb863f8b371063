"""A screenshot encoded in bands on several threads decodes, with any decoder, to exactly the
pixels of one encode of the whole scaled frame, pointer included."""

from __future__ import annotations

import io

import cv2
import numpy as np
import pytest
import simplejpeg
from deskact.runtime.config import ObservationConfig
from deskact.runtime.screen import frames, jpeg_bands
from PIL import Image


def _desktop(height: int = 1080, width: int = 1920) -> np.ndarray:
    """A screen-like BGRX frame: flat panels, thin coloured strokes and noise (every band differs)."""
    rng = np.random.default_rng(7)
    frame = np.full((height, width, 4), 240, np.uint8)
    frame[::7, :, :3] = rng.integers(0, 255, (len(range(0, height, 7)), width, 3), dtype=np.uint8)
    frame[:, ::11, 2] = 20
    frame[height // 3: height // 2, width // 4: width // 2, :3] = rng.integers(0, 255, (1, 1, 3), dtype=np.uint8)
    return frame


def _pointer(top: int) -> frames.Sprite:
    pixels = np.zeros((32, 20, 4), np.uint8)
    pixels[:, :, 0], pixels[:, :, 3] = 200, 255
    return frames.Sprite(left=900, top=top, pixels=pixels)


def _decoders(data: bytes) -> list[np.ndarray]:
    return [
        simplejpeg.decode_jpeg(data, colorspace="RGB"),
        np.asarray(Image.open(io.BytesIO(data)).convert("RGB")),
        cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)[:, :, ::-1],
    ]


@pytest.mark.parametrize("subsampling", ["420", "422", "444"])
@pytest.mark.parametrize(("screen", "size"), [
    ((1920, 1080), (1280, 720)),   # bilinear, 3:2
    ((1920, 1080), (960, 540)),    # area, 2:1
    ((1920, 1080), (1920, 1080)),  # not scaled
    ((1280, 800), (1152, 720)),    # 10:9
])
@pytest.mark.parametrize("threads", [2, 3])
def test_bands_decode_to_the_pixels_of_one_encode(subsampling: str, screen: tuple[int, int],
                                                  size: tuple[int, int], threads: int) -> None:
    frame = _desktop(screen[1], screen[0])
    bands = jpeg_bands.split(screen[1], size[1], threads, subsampling)
    assert bands is not None and len(bands) == threads
    # The pointer straddles the first cut, so both bands draw a part of it.
    sprite = _pointer(top=round(bands[0].bottom * screen[1] / size[1]) - 16)
    one = frames.scale_and_encode(frame, size, ObservationConfig(capture_threads=1, jpeg_subsampling=subsampling),
                                  sprite)
    banded = frames.scale_and_encode(frame, size, ObservationConfig(capture_threads=threads,
                                                                    jpeg_subsampling=subsampling), sprite)
    assert banded.data != one.data  # really joined from bands (restart markers), not one encode
    assert bytes((0xFF, jpeg_bands.RST0)) in banded.data
    for mine, reference in zip(_decoders(banded.data), _decoders(one.data)):
        assert mine.shape == (size[1], size[0], 3)
        assert np.array_equal(mine, reference)


def test_cuts_fall_on_mcu_rows_and_whole_source_rows() -> None:
    bands = jpeg_bands.split(1080, 720, 2, "420")
    assert bands == [jpeg_bands.Band(0, 552, 0, 368), jpeg_bands.Band(552, 1080, 368, 720)]
    # 768 -> 720 is 16:15: a cut must be a multiple of 16 rows that maps to a whole source row.
    for band in jpeg_bands.split(768, 720, 2, "420") or []:
        assert band.top % 16 == 0 and band.src_top * 15 == band.top * 16
    assert jpeg_bands.split(1080, 720, 1, "420") is None
    assert jpeg_bands.split(1080, 16, 2, "420") is None  # one MCU row: nothing to cut


def test_bands_encoded_differently_are_not_joined() -> None:
    frame = np.ascontiguousarray(_desktop(64, 64))
    parts = [simplejpeg.encode_jpeg(frame[:32], quality=q, colorspace="BGRA", colorsubsampling="420")
             for q in (85, 60)]
    assert jpeg_bands.join(parts, 64, 64, "420") is None


def test_png_and_single_thread_take_the_one_piece_path() -> None:
    frame = _desktop()
    png = frames.scale_and_encode(frame, (1280, 720), ObservationConfig(format="png"))
    assert png.media_type == "image/png"
    single = frames.scale_and_encode(frame, (1280, 720), ObservationConfig(capture_threads=1))
    assert jpeg_bands.DRI not in [marker for marker, _, _ in jpeg_bands._segments(single.data)]
