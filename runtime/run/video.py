"""Episode video: the task's display as ``trajectories/<task>/episode.mp4`` while the agent acts.

Screenshots show the screen after each step; what happened between two steps
(a dialog that flashed, a wrong click that was undone) is only in a video.
The recorder is a separate process (``recorder.py``, run as a script), one
per display, kept for all the tasks of that display: its grabs and H.264
encoding never hold the runner's GIL or sit on the agent's critical path, and
its start-up (Python, numpy, OpenCV, PyAV: about a quarter second of CPU) is
paid once per worker, not once per task. The runner tells it ``start`` when
a task's reset begins and ``stop`` at cleanup, over its stdin.

While recording, the recorder sleeps until the X server reports that
something was drawn (DAMAGE) or the pointer moved (XInput 2 raw motion); then
it grabs a frame (at most ``fps`` a second), scales it to ``record_max_width``
and encodes it with libx264 (ultrafast, CRF 30, one thread) through PyAV. A
still screen costs nothing but a pointer poll a second, and nothing is
encoded: the file has variable frame timing.
Each episode's counts and CPU time, and the recorder process's own CPU since
it started, go next to its video (``episode.mp4.json``).

Every input event of the episode (pointer, buttons, keys with the text they type, wheel) goes
into ``input.jsonl`` beside the video (``input_log.py``, a thread of the runner reading the X
server's RECORD extension), on the clock the frames are stamped on (``started_monotonic``).
"""

from __future__ import annotations

import atexit
import os
import select
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from pydantic import BaseModel

VIDEO_FILE = "episode.mp4"
RECORDER = Path(__file__).with_name("recorder.py")


class VideoStats(BaseModel):
    """What the recorder did for one episode (saved as ``episode.mp4.json``)."""

    frames: int
    """Frames encoded (identical consecutive grabs are skipped)."""
    ticks: int
    """Times the recorder woke up to look: when the X server reported drawing or pointer motion,
    when a grab fell due, and once a second to poll the pointer (a still screen: nothing else)."""
    grabs: int
    """Looks that grabbed a frame (something changed), at most ``fps`` a second."""
    width: int
    height: int
    duration_s: float
    cpu_s: float
    """User + system CPU time the recorder spent on this episode."""
    process_cpu_s: float
    """The recorder process's CPU since it started (interpreter start-up and imports included), at
    this episode's end: its whole cost so far, over every episode of its display."""
    startup_cpu_s: float
    """The part of ``process_cpu_s`` spent before the process could take its first command."""
    process_id: int
    """The recorder process (one per display): group episodes by it to sum whole processes."""
    started_monotonic: float | None = None
    """``CLOCK_MONOTONIC`` seconds of the first frame: a frame stamped ``pts`` ms was grabbed at
    ``started_monotonic + pts / 1000``, the clock of the input log's events (``input_log.py``)."""


class _Recorder:
    """The host's handle on one display's recorder process."""

    def __init__(self, display: str) -> None:
        self.display = display
        self.lock = threading.Lock()
        # -P: the script's folder (runtime/run, with modules such as events.py) stays off sys.path.
        # One OpenBLAS thread: the recorder does no linear algebra, and numpy's import would start
        # a thread per core (about 70 ms of CPU here).
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
        self.proc = subprocess.Popen([sys.executable, "-P", str(RECORDER), display], env=env,
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
    """One episode being recorded; ``stop()`` finishes its file (and its input log, if any)."""

    def __init__(self, recorder: _Recorder, path: Path, input_log: Any = None) -> None:
        self.recorder, self.path = recorder, path
        self.input_log = input_log
        """The episode's ``input_log.Logger`` (``input.jsonl`` next to the video), or None."""

    def stop(self, timeout: float = 60.0) -> str | None:
        """Finish the video; None when it was written, else why not."""
        problems = []
        if self.input_log is not None:
            summary = self.input_log.stop()
            if summary.error:
                problems.append(f"the input log ended early ({summary.error}): {self.input_log.path} may be cut")
        with self.recorder.lock:
            answer = self.recorder.ask("stop", timeout)
        if answer != "done":
            problems.append(f"the episode video recorder failed ({answer or self.recorder.error()}): {self.path} may be cut")
        return "; ".join(problems) or None


def start(display: str | None, folder: Path, fps: float, max_width: int, max_height: int,
          timeout: float = 120.0, input_log: bool = True) -> Recording | None:
    """Start recording ``display`` into ``folder/episode.mp4`` (None when there is no display),
    and, with ``input_log``, every input event into ``folder/input.jsonl`` (``input_log.py``).

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
    logger = None
    if input_log:
        from . import input_log as input_log_mod  # python-xlib: imported only when recording

        try:
            logger = input_log_mod.start(display, folder / input_log_mod.LOG_FILE)
        except BaseException:
            Recording(recorder, path).stop(timeout)
            raise
    return Recording(recorder, path, logger)


def start_video(env: Any, folder: Path) -> Recording | None:
    """The runner's hook: record a task's episode when ``observation.record`` is on and it has a display."""
    obs = env.config.observation
    if not obs.record or env.display is None:
        return None
    return start(env.display.name, folder, obs.record_fps, obs.record_max_width, obs.max_height)
