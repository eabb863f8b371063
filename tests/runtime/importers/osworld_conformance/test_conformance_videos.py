"""OSWorld's compare_videos (desktop-env's metrics/vlc.py: OpenCV 4 and imagehash in the conformance
venv) and video.same_frames, the judge the importer translates it to (OpenCV 5 in deskact's venv),
agree on the right video and on near misses: flipped, mirrored, re-encoded, cut short, a few
frames or one too many spoiled, shifted by a frame, not a video at all."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytestmark = pytest.mark.conformance

GOLD_URL = "https://example.invalid/gold.mp4"
RESULT = "/home/user/1984_Apple_Macintosh_Commercial.mp4"
EVALUATOR = {"func": "compare_videos",
             "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "1984_gold.mp4"},
             "result": {"type": "vm_file", "path": "1984_Apple_Macintosh_Commercial.mp4",
                        "dest": "1984_Apple_Macintosh_Commercial.mp4"}}
FRAMES = 120
"""More than the metric's 100: only those are compared."""


def frame(i: int) -> np.ndarray:
    """A 160x120 RGB frame: diagonal ramps, a block that walks across, a bar that grows."""
    y, x = np.mgrid[0:120, 0:160]
    image = np.stack([(x + 2 * i) % 256, (y * 2) % 256, ((x + y) // 2) % 256], axis=-1).astype(np.uint8)
    left = (i * 3) % 130
    image[20:60, left:left + 30] = (250, 240, 30)
    image[90:110, 10:10 + (i % 100) + 20] = (20, 30, 200)
    return image


def encode(path: Path, frames: list[np.ndarray], bit_rate: int = 2_000_000) -> None:
    import av

    with av.open(str(path), "w", format="mp4") as container:
        stream = container.add_stream("mpeg4", rate=25)
        height, width = frames[0].shape[:2]
        stream.width, stream.height, stream.pix_fmt, stream.bit_rate = width, height, "yuv420p", bit_rate
        for pixels in frames:
            for packet in stream.encode(av.VideoFrame.from_ndarray(np.ascontiguousarray(pixels), format="rgb24")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


def spoiled(count: int) -> Callable[[int, np.ndarray], np.ndarray]:
    """The first ``count`` frames of every tenth replaced by a flat grey one."""
    return lambda i, f: np.full_like(f, 128) if i % 10 == 0 and i // 10 < count else f


CASES: list[tuple[str, Callable[[], list[np.ndarray]], int, bool | None]] = [
    ("the same video", lambda: [frame(i) for i in range(FRAMES)], 2_000_000, True),
    ("re-encoded at a tenth of the bit rate", lambda: [frame(i) for i in range(FRAMES)], 200_000, True),
    ("still upside down", lambda: [np.flipud(frame(i)) for i in range(FRAMES)], 2_000_000, False),
    ("mirrored instead", lambda: [np.fliplr(frame(i)) for i in range(FRAMES)], 2_000_000, False),
    ("five frames spoiled", lambda: [spoiled(5)(i, frame(i)) for i in range(FRAMES)], 2_000_000, True),
    ("six frames spoiled", lambda: [spoiled(6)(i, frame(i)) for i in range(FRAMES)], 2_000_000, False),
    ("cut short at 60 frames", lambda: [frame(i) for i in range(60)], 2_000_000, False),
    ("the same past frame 100", lambda: [frame(i) if i < 100 else np.flipud(frame(i)) for i in range(FRAMES)],
     2_000_000, True),
    ("a frame late", lambda: [frame(i + 1) for i in range(FRAMES)], 2_000_000, None),
    ("scaled to 320x240", lambda: [np.kron(frame(i), np.ones((2, 2, 1), np.uint8)) for i in range(FRAMES)],
     4_000_000, None),
    ("every frame shown twice", lambda: [frame(i // 2) for i in range(FRAMES)], 2_000_000, None),
    ("noise on every frame", lambda: [np.clip(frame(i) + np.random.default_rng(i).normal(0, 25, (120, 160, 3)), 0, 255)
                                      .astype(np.uint8) for i in range(FRAMES)], 2_000_000, None),
]


@pytest.fixture(scope="module")
def gold(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("gold") / "gold.mp4"
    encode(path, [frame(i) for i in range(FRAMES)])
    return path


def _agree(desktop_env: Any, deskact: Any, gold: Path, result: Path, verdict: bool | None) -> None:
    theirs = desktop_env.passes("vlc", "compare_videos", str(result), str(gold))
    ours = deskact.passes(EVALUATOR, gold={GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    if verdict is not None:
        assert ours is verdict, deskact.feedback


@pytest.mark.parametrize(("what", "frames", "bit_rate", "verdict"), CASES, ids=[c[0] for c in CASES])
def test_compare_videos(desktop_env: Any, deskact: Any, gold: Path, what: str, frames: Callable[[], list[np.ndarray]],
                        bit_rate: int, verdict: bool | None) -> None:
    result = deskact.home_file(RESULT)
    encode(result, frames(), bit_rate)
    _agree(desktop_env, deskact, gold, result, verdict)


def test_short_videos_of_the_same_length_pass_and_not_a_video_fails(desktop_env: Any, deskact: Any,
                                                                     tmp_path: Path) -> None:
    short_gold = tmp_path / "short.mp4"
    encode(short_gold, [frame(i) for i in range(40)])
    result = deskact.home_file(RESULT)
    encode(result, [frame(i) for i in range(40)], 300_000)
    _agree(desktop_env, deskact, short_gold, result, True)
    encode(result, [frame(i) for i in range(41)])
    _agree(desktop_env, deskact, short_gold, result, False)
    result.write_text("not a video")
    _agree(desktop_env, deskact, short_gold, result, False)


def test_a_missing_result_fails(deskact: Any, gold: Path) -> None:
    """OSWorld's getter finds no file and the metric is given None: it raises, the task scores 0."""
    assert not deskact.passes(EVALUATOR, gold={GOLD_URL: gold})
    assert "does not exist" in deskact.feedback
