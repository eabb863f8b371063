"""Episode video: the task's display as ``trajectories/<task>/episode.mp4`` while the agent acts.

Screenshots show the screen after each step; what happened between two steps
(a dialog that flashed, a wrong click that was undone) is only in a video.
The recorder is a separate process (``python -m deskact.runtime.run.video
DISPLAY``), one per display, kept for all the tasks of that display: its grabs
and H.264 encoding never hold the runner's GIL or sit on the agent's critical
path, and its start-up (Python, OpenCV, FFmpeg: about half a second of CPU)
is paid once per worker, not once per task. The runner tells it ``start`` when
a task's reset begins and ``stop`` at cleanup, over its stdin.

While recording, the recorder looks ``fps`` times a second; when the X server
reports that something was drawn (DAMAGE) or the pointer moved, it grabs a
frame, scales it like the model's screenshots and encodes it with libx264
(ultrafast, CRF 30) through PyAV. A still screen costs a round trip per look
and nothing is encoded: the file has variable frame timing. Each episode's
counts and CPU time go next to its video (``episode.mp4.json``).
"""

from __future__ import annotations

import atexit
import resource
import select
import subprocess
import sys
import threading
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from pydantic import BaseModel

VIDEO_FILE = "episode.mp4"
MILLISECONDS = Fraction(1, 1000)


class VideoStats(BaseModel):
    """What the recorder did for one episode (saved as ``episode.mp4.json``)."""

    frames: int
    """Frames encoded (identical consecutive grabs are skipped)."""
    ticks: int
    """Times the recorder looked (``fps`` a second)."""
    grabs: int
    """Looks that grabbed a frame: the X server said something was drawn or the pointer moved."""
    width: int
    height: int
    duration_s: float
    cpu_s: float
    """User + system CPU time the recorder spent on this episode."""


class _Recorder:
    """The host's handle on one display's recorder process."""

    def __init__(self, display: str) -> None:
        self.display = display
        self.lock = threading.Lock()
        self.proc = subprocess.Popen([sys.executable, "-m", "deskact.runtime.run.video", display],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def ask(self, line: str, timeout: float) -> str:
        """Send a command, return the recorder's one-line answer ('' if it died or took too long)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except OSError:
            return ""
        if not select.select([self.proc.stdout], [], [], timeout)[0]:
            return ""
        return self.proc.stdout.readline().decode().strip()

    def error(self) -> str:
        if self.proc.poll() is None or self.proc.stderr is None:
            return "no answer"
        return f"exit {self.proc.returncode}: {self.proc.stderr.read().decode(errors='replace').strip()[-300:]}"

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


_recorders: dict[str, _Recorder] = {}
_recorders_lock = threading.Lock()


@atexit.register
def close_all() -> None:
    with _recorders_lock:
        for recorder in _recorders.values():
            recorder.close()
        _recorders.clear()


def _recorder(display: str) -> _Recorder:
    with _recorders_lock:
        recorder = _recorders.get(display)
        if recorder is None or recorder.proc.poll() is not None:
            recorder = _recorders[display] = _Recorder(display)
        return recorder


class Recording:
    """One episode being recorded; ``stop()`` finishes its file."""

    def __init__(self, recorder: _Recorder, path: Path) -> None:
        self.recorder, self.path = recorder, path

    def stop(self, timeout: float = 60.0) -> str | None:
        """Finish the video; None when it was written, else why not."""
        with self.recorder.lock:
            answer = self.recorder.ask("stop", timeout)
        if answer != "done":
            return f"the episode video recorder failed ({answer or self.recorder.error()}): {self.path} may be cut"
        return None


def start(display: str | None, folder: Path, fps: float, max_width: int, max_height: int,
          timeout: float = 120.0) -> Recording | None:
    """Start recording ``display`` into ``folder/episode.mp4`` (None when there is no display).

    Returns once the first frame is encoded (the first call also waits for the
    recorder process to start)."""
    if not display:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / VIDEO_FILE
    recorder = _recorder(display)
    with recorder.lock:
        answer = recorder.ask(f"start {fps} {max_width} {max_height} {path}", timeout)
    if answer != "recording":
        raise RuntimeError(f"the episode video recorder for {display} did not start ({answer or recorder.error()})")
    return Recording(recorder, path)


def start_video(env: Any, folder: Path) -> Recording | None:
    """The runner's hook: record a task's episode when ``observation.record`` is on and it has a display."""
    obs = env.config.observation
    if not obs.record or env.display is None:
        return None
    return start(env.display.name, folder, obs.record_fps, obs.record_max_width, obs.max_height)


# -- the recorder process -----------------------------------------------------------


class _Episode:
    """One video being written (inside the recorder process)."""

    def __init__(self, display: str, path: Path, fps: float, max_width: int, max_height: int) -> None:
        import av

        self.display, self.path, self.fps = display, path, fps
        self.max_width, self.max_height = max_width, max_height
        usage = resource.getrusage(resource.RUSAGE_SELF)
        self.cpu_start = usage.ru_utime + usage.ru_stime
        first = self.grab()
        self.height, self.width = first.shape[0] * 2 // 3, first.shape[1]
        self.started = time.monotonic()
        self.container = av.open(str(path), mode="w")
        stream = self.stream = self.container.add_stream("libx264", rate=round(fps))
        stream.width, stream.height, stream.pix_fmt = self.width, self.height, "yuv420p"
        # Millisecond timestamps: frames come at irregular times (identical ones are skipped). The
        # constant, not stream.time_base: the mp4 muxer replaces that with its own once it starts.
        stream.codec_context.time_base = MILLISECONDS
        stream.codec_context.options = {"preset": "ultrafast", "crf": "30"}
        self.previous: Any = None
        self.frames = self.grabs = self.ticks = self.last_pts = 0
        self.next_at = self.started
        self.tick(first)

    def grab(self) -> Any:
        import cv2

        from ..agent import frames
        from ..agent.observation import fit_scale, scaled_size, with_frame

        def scaled(frame: Any, _cursor: object, sprite: frames.Sprite | None) -> Any:
            height, width = frame.shape[:2]
            w, h = scaled_size(width, height, fit_scale(width, height, self.max_width, self.max_height))
            size = (w - w % 2, h - h % 2)  # yuv420p needs even sizes
            small = frames.scale_frame(frame, size)
            if sprite is not None:
                small = small.copy() if small is frame else small
                frames.draw_sprite(small, sprite, size[0] / width)
            return cv2.cvtColor(small, cv2.COLOR_BGRA2YUV_I420)  # BT.601 limited range, as H.264 expects

        return with_frame(self.display, True, scaled)

    def encode(self, yuv: Any) -> None:
        import av

        frame = av.VideoFrame.from_ndarray(yuv, format="yuv420p")
        now = int((time.monotonic() - self.started) * 1000)
        frame.pts = self.last_pts = max(now, self.last_pts + 1) if self.frames else now
        frame.time_base = MILLISECONDS
        for packet in self.stream.encode(frame):
            self.container.mux(packet)
        self.frames += 1

    def tick(self, yuv: Any = None, watch: Any = None) -> None:
        """One look: grab if something changed, encode if the frame differs from the last."""
        import numpy as np

        self.ticks += 1
        if yuv is None and (watch is None or watch.changed()):
            yuv = self.grab()
        if yuv is None:
            return
        self.grabs += 1
        if self.previous is None or not np.array_equal(yuv, self.previous):
            self.encode(yuv)
            self.previous = yuv

    def finish(self) -> VideoStats:
        if self.previous is not None:  # hold the last frame until the end: the video lasts the episode
            self.encode(self.previous)
        for packet in self.stream.encode(None):
            self.container.mux(packet)
        self.container.close()
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return VideoStats(frames=self.frames, ticks=self.ticks, grabs=self.grabs, width=self.width,
                          height=self.height, duration_s=round(time.monotonic() - self.started, 3),
                          cpu_s=round(usage.ru_utime + usage.ru_stime - self.cpu_start, 3))


def _damage_watch(display: str) -> Any:
    """A DamageWatch, or None (then every look grabs) when the server lacks the extension."""
    from ..agent.damage import DamageWatch

    try:
        return DamageWatch(display)
    except Exception:  # noqa: BLE001 - no DAMAGE: grab every look, compare frames instead
        return None


def serve(display: str) -> int:
    """The recorder process: ``start FPS MAX_W MAX_H PATH`` / ``stop`` lines on stdin, answers on stdout."""
    import av  # noqa: F401 - imported before the first episode, not during it
    import cv2  # noqa: F401

    stdin = sys.stdin.buffer
    episode: _Episode | None = None
    watch: Any = None
    while True:
        wait = None if episode is None else max(0.0, episode.next_at - time.monotonic())
        if select.select([stdin], [], [], wait)[0]:
            line = stdin.readline().decode().strip()
            if not line:  # stdin closed: the runner is done with this display
                if episode is not None:
                    episode.finish()
                return 0
            command, *args = line.split(" ", 4)
            if command == "start" and episode is None:
                fps, max_w, max_h, path = float(args[0]), int(args[1]), int(args[2]), Path(args[3])
                watch = _damage_watch(display)  # per episode: the display may have restarted since
                episode = _Episode(display, path, fps, max_w, max_h)
                print("recording", flush=True)
            elif command == "stop" and episode is not None:
                stats = episode.finish()
                episode.path.with_name(episode.path.name + ".json").write_text(stats.model_dump_json(indent=1))
                episode = None
                if watch is not None:
                    watch.close()
                print("done", flush=True)
            else:
                print(f"error: unexpected {command!r}", flush=True)
            continue
        if episode is not None:
            episode.next_at += 1.0 / episode.fps
            episode.tick(watch=watch)


if __name__ == "__main__":
    sys.exit(serve(sys.argv[1]))
