"""Episode video: the task's display as ``trajectories/<task>/episode.mp4`` while the agent acts.

Screenshots show the screen after each step; what happened between two steps
(a dialog that flashed, a wrong click that was undone) is only in a video.
The recorder is a separate process (``python -m deskact.runtime.run.video``), so
its grabs and H.264 encoding never hold the runner's GIL or sit on the agent's
critical path; the runner starts it when the episode starts and stops it (by
closing its stdin) when the episode ends.

Frames are grabbed ``record_fps`` times a second, scaled like the model's
screenshots, and encoded with libx264 (ultrafast, CRF 30) through PyAV. A
frame identical to the previous one is not encoded: the file has variable
frame timing, so a still screen costs almost nothing. The recorder writes its
own CPU time next to the video (``episode.mp4.json``) for BENCHMARKS.md.
"""

from __future__ import annotations

import resource
import select
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from pydantic import BaseModel

VIDEO_FILE = "episode.mp4"
MILLISECONDS = Fraction(1, 1000)


class VideoStats(BaseModel):
    """What the recorder did (saved as ``episode.mp4.json``)."""

    frames: int
    """Frames encoded (identical consecutive grabs are skipped)."""
    grabs: int
    width: int
    height: int
    duration_s: float
    cpu_s: float
    """User + system CPU time of the recorder process."""


class Recording:
    """A running recorder process; ``stop()`` finishes the file."""

    def __init__(self, display: str, path: Path, fps: float, max_width: int, max_height: int) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "deskact.runtime.run.video", display, str(path), str(fps),
             str(max_width), str(max_height)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )

    def wait_ready(self, timeout: float = 60.0) -> bool:
        """Block until the first frame is encoded (Python start-up and imports take a second or
        more on a loaded box); False if the recorder died or took longer than ``timeout``."""
        assert self.proc.stdout is not None
        ready = select.select([self.proc.stdout], [], [], timeout)[0]
        return bool(ready) and self.proc.stdout.readline().strip() == b"ready"

    def stop(self, timeout: float = 30.0) -> str | None:
        """Finish the video; None when it was written, else why not."""
        assert self.proc.stdin is not None and self.proc.stderr is not None
        try:
            self.proc.stdin.close()  # the recorder's cue to flush and exit
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return f"the episode video recorder did not finish within {timeout:.0f} s: {self.path} may be cut"
        err = self.proc.stderr.read().decode(errors="replace").strip()
        self.proc.stderr.close()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        if self.proc.returncode != 0:
            return f"the episode video recorder failed (exit {self.proc.returncode}): {err[-300:]}"
        return None


def start(display: str | None, folder: Path, fps: float, max_width: int, max_height: int) -> Recording | None:
    """Start recording ``display`` into ``folder/episode.mp4`` (None when there is no display)."""
    if not display:
        return None
    return Recording(display, folder / VIDEO_FILE, fps, max_width, max_height)


def start_video(env: Any, folder: Path) -> Recording | None:
    """The runner's hook: record a task's episode when ``observation.record`` is on and it has a display."""
    obs = env.config.observation
    if not obs.record or env.display is None:
        return None
    return start(env.display.name, folder, obs.record_fps, obs.max_width, obs.max_height)


def record(display: str, path: Path, fps: float, max_width: int, max_height: int) -> VideoStats:
    """Record until stdin closes (the recorder process's main loop)."""
    import av
    import cv2
    import numpy as np

    from ..agent import frames
    from ..agent.observation import fit_scale, scaled_size, with_frame

    def grab() -> np.ndarray:
        def scaled(frame: np.ndarray, _cursor: object, sprite: frames.Sprite | None) -> np.ndarray:
            height, width = frame.shape[:2]
            w, h = scaled_size(width, height, fit_scale(width, height, max_width, max_height))
            size = (w - w % 2, h - h % 2)  # yuv420p needs even sizes
            small = frames.scale_frame(frame, size)
            if sprite is not None:
                small = small.copy() if small is frame else small
                frames.draw_sprite(small, sprite, size[0] / width)
            return cv2.cvtColor(small, cv2.COLOR_BGRA2YUV_I420)  # BT.601 limited range, as H.264 expects

        return with_frame(display, True, scaled)

    first = grab()
    height, width = first.shape[0] * 2 // 3, first.shape[1]
    started = time.monotonic()
    container = av.open(str(path), mode="w")
    stream = container.add_stream("libx264", rate=round(fps))
    stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
    # Millisecond timestamps: frames come at irregular times (identical ones are skipped). The
    # constant, not stream.time_base: the mp4 muxer replaces that with its own once it starts.
    stream.codec_context.time_base = MILLISECONDS
    stream.codec_context.options = {"preset": "ultrafast", "crf": "30"}
    previous: np.ndarray | None = None
    encoded = grabs = last_pts = 0
    next_at = started
    frame_yuv: np.ndarray | None = first
    while True:
        if frame_yuv is None:
            frame_yuv = grab()
        grabs += 1
        if previous is None or not np.array_equal(frame_yuv, previous):
            video_frame = av.VideoFrame.from_ndarray(frame_yuv, format="yuv420p")
            now_ms = int((time.monotonic() - started) * 1000)
            video_frame.pts = last_pts = max(now_ms, last_pts + 1) if encoded else now_ms
            video_frame.time_base = MILLISECONDS
            for packet in stream.encode(video_frame):
                container.mux(packet)
            encoded += 1
            previous = frame_yuv
            if encoded == 1:
                print("ready", flush=True)
        frame_yuv = None
        next_at += 1.0 / fps
        wait = max(0.0, next_at - time.monotonic())
        if select.select([sys.stdin], [], [], wait)[0] and not sys.stdin.buffer.read1(4096):
            break  # stdin closed: the episode ended
    # Hold the last frame until the end, so the video lasts as long as the episode.
    if previous is not None:
        end = av.VideoFrame.from_ndarray(previous, format="yuv420p")
        end.pts = max(int((time.monotonic() - started) * 1000), last_pts + 1)
        end.time_base = MILLISECONDS
        for packet in stream.encode(end):
            container.mux(packet)
        encoded += 1
    for packet in stream.encode(None):
        container.mux(packet)
    container.close()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return VideoStats(frames=encoded, grabs=grabs, width=width, height=height,
                      duration_s=round(time.monotonic() - started, 3),
                      cpu_s=round(usage.ru_utime + usage.ru_stime, 3))


def main(argv: list[str]) -> int:
    display, path, fps, max_width, max_height = argv
    out = Path(path)
    stats = record(display, out, float(fps), int(max_width), int(max_height))
    out.with_name(out.name + ".json").write_text(stats.model_dump_json(indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
