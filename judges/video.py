"""video.same_frames: two videos compared frame by frame by perceptual hash, as OSWorld's
``compare_videos`` compares them.

The metric reads both files with OpenCV (FFmpeg underneath), the first ``max_frames`` frames in
step; each frame, converted to RGB and then PIL's grayscale, is shrunk to 32x32 (Lanczos) and
hashed by the signs of the 8x8 lowest frequencies of its 2-D DCT (type II, unnormalized, rows
then columns) against their median (imagehash's ``phash``). Frames whose hashes differ in more
than ``threshold`` bits mismatch; more than ``threshold`` mismatches fail. A file that ends (or
cannot be read) before ``max_frames`` passes only if the other ends at the same frame. The same
libraries do the same steps here (OpenCV, Pillow, SciPy): the agent's file is first copied out of
the world through its descriptors (bounded), never opened by its path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..runtime.tasks.helpers import gold_file, shown
from ..runtime.tasks.steps import StepContext, Verdict, judge

HASH = 8
"""Hash side: 8x8 bits."""
SHRINK = 32
"""The frame's side before the DCT (imagehash's hash_size times its highfreq_factor 4)."""


def frame_hash(frame_bgr: Any) -> Any:
    """The 64-bit perceptual hash (a bool array) of an OpenCV BGR frame."""
    import cv2
    import numpy as np
    from PIL import Image
    from scipy import fftpack

    gray = Image.fromarray(cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2RGB)).convert("L")
    pixels = np.asarray(gray.resize((SHRINK, SHRINK), Image.Resampling.LANCZOS))
    low = fftpack.dct(fftpack.dct(pixels, axis=0), axis=1)[:HASH, :HASH]
    return low > np.median(low)


def compare(first: Path, second: Path, max_frames: int, threshold: int) -> tuple[bool, str]:
    """(same, why) for two video files on the host, by the metric's rules."""
    import cv2
    import numpy as np

    a, b = cv2.VideoCapture(str(first)), cv2.VideoCapture(str(second))
    try:
        checked = mismatches = 0
        while checked < max_frames:
            ok_a, frame_a = a.read()
            ok_b, frame_b = b.read()
            if not ok_a or not ok_b:
                if ok_a == ok_b:
                    return True, f"both end after {checked} frames, {mismatches} of them mismatched"
                ended = "it" if not ok_a else "the reference"
                return False, f"{ended} ends after {checked} frames and the other does not"
            checked += 1
            bits = int(np.count_nonzero(frame_hash(frame_a) != frame_hash(frame_b)))
            if bits > threshold:
                mismatches += 1
                if mismatches > threshold:
                    return False, (f"{mismatches} of its first {checked} frames differ from the reference's in more"
                                   f" than {threshold} hash bits (frame {checked}: {bits})")
        return True, f"its first {checked} frames match the reference's ({mismatches} mismatched)"
    finally:
        a.release()
        b.release()


@judge("video.same_frames")
def video_same_frames(ctx: StepContext, path: str, reference: str, max_frames: int = 100,
                      threshold: int = 5) -> Verdict:
    """The video at ``path`` shows the frames of ``reference`` (in the suite's gold/ folder): of the
    first ``max_frames`` frames read in step from both (OpenCV), at most ``threshold`` differ from
    their reference frame in more than ``threshold`` bits of a 64-bit perceptual hash (imagehash's
    phash); a video that ends first must end at the same frame. OSWorld's ``compare_videos``."""
    if not 1 <= max_frames <= 1000 or not 0 <= threshold <= 64:
        raise ValueError(f"video.same_frames: max_frames {max_frames} should be 1-1000, threshold {threshold} 0-64")
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} should be a video like {reference} but does not exist")
    with p.host_copy() as copy:
        same, why = compare(copy, gold_file(ctx, reference), max_frames, threshold)
    return (Verdict.ok if same else Verdict.fail)(f"{shown(ctx, p)}: {why}")
