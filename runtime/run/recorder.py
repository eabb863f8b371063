"""The episode video recorder process: one per display, started by ``video.py``.

Run as a script (``python -P recorder.py DISPLAY``), never as part of the
``deskact`` package: importing the package (``importlib.metadata`` for the
version, pydantic, the config models, Pillow) tripled its start-up (0.75 s of
CPU against 0.24 s, measured in one run). It imports only what it uses:
python-xlib (DAMAGE, XInput 2), mss (MIT-SHM grabs, the pointer's image), numpy +
OpenCV (scaling and colour conversion: 1.8 ms a frame against swscale's 4-5 ms
for the same 1920x1080 -> 960x540) and PyAV (libx264). Its CPU since the
process started (start-up included) goes into every episode's stats.

Protocol, one line each way: ``start FPS MAX_W MAX_H PATH`` -> ``recording``,
``stop`` -> ``done`` (``PATH.json`` written), end of stdin -> exit.

It sleeps until the X server reports a change: drawing (DAMAGE) or pointer
motion (XInput 2 raw motion), both as events on its connection, so a still
screen costs no CPU at all. The pointer's position is also polled once a
second, for warps, which send no motion events. After a change it grabs
(straight from mss's shared segment, no copy) at most ``fps`` times a second,
scales, converts to yuv420p and, if the frame differs from the last one,
encodes it (variable frame timing). The X connections and the grab's shared
segment are kept across episodes; they are reopened when the display went away.
"""

from __future__ import annotations

import json
import math
import os
import resource
import select
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import av
import cv2
import mss
import numpy as np
from Xlib import display as xdisplay
from Xlib.ext import damage, xinput

MILLISECONDS = Fraction(1, 1000)
cv2.setNumThreads(1)  # 2 shared cores: a thread pool only adds hand-offs for 960x540


def cpu_seconds() -> float:
    """User + system CPU of this process since it started (interpreter start-up included)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class DamageWatch:
    """What the X server says changed: drawing (DAMAGE) and pointer motion (XInput 2 raw motion).

    Both arrive as events on the connection, so a still screen costs nothing: the
    recorder sleeps in ``select`` on the connection. XTest motion (pyautogui, the gui
    toolkit) sends raw motion events; a warp (``xdotool mousemove``) sends none, so
    the pointer's position is also polled, once a second. Without XInput 2 it is
    polled at every look, as is the screen without DAMAGE (no watch at all)."""

    def __init__(self, display: str) -> None:
        self._x: Any = xdisplay.Display(display)
        if not self._x.has_extension("DAMAGE"):
            self._x.close()
            raise RuntimeError(f"X display {display!r} has no DAMAGE extension")
        self._x.damage_query_version()
        self._root = self._x.screen().root
        self._damage = self._root.damage_create(damage.DamageReportNonEmpty)
        self._notify = self._x.extension_event.DamageNotify
        self.motion_events = False
        if self._x.has_extension("XInputExtension"):
            try:
                if self._x.xinput_query_version().major_version >= 2:
                    self._root.xinput_select_events([(xinput.AllMasterDevices, xinput.RawMotionMask)])
                    self.motion_events = True
            except Exception:  # noqa: BLE001 - no XInput 2: poll the pointer at every look
                self.motion_events = False
        self._pointer: tuple[int, int] | None = None
        self._x.sync()

    def fileno(self) -> int:
        """The connection's socket: readable when the server sent events."""
        return int(self._x.fileno())

    def events(self) -> bool:
        """Read what the server sent; True if it reported drawing or pointer motion since the last call."""
        changed = False
        while self._x.pending_events():
            event = self._x.next_event()
            changed = changed or event.type == self._notify or getattr(event, "evtype", None) == xinput.RawMotion
        return changed

    def pointer_moved(self) -> bool:
        """Poll the pointer (one round trip); True if it is elsewhere than at the last poll."""
        pointer = self._root.query_pointer()
        where = (int(pointer.root_x), int(pointer.root_y))
        moved, self._pointer = where != self._pointer, where
        return moved

    def clear(self) -> None:
        """Forget the drawing reported so far, before a grab: what is drawn after the grab
        starts is reported again. Synced, so the server clears before it grabs."""
        self._x.damage_subtract(self._damage)
        self._x.sync()

    def close(self) -> None:
        try:
            self._x.close()
        except Exception:  # noqa: BLE001, S110 - the display is already gone
            pass


class Grabber:
    """Whole-screen grabs scaled to fit a box, with the pointer drawn, as yuv420p planes.

    Reads the frame in place from mss's MIT-SHM segment (as ``screen/shm_grab.py``
    does for screenshots: 0.7 ms of copying less per full-HD grab), falling back to
    mss's public grab when its internals are not what this expects."""

    def __init__(self, display: str) -> None:
        self.sct: Any = mss.MSS(display=display, with_cursor=False)
        self.direct: bool | None = None  # decided after mss's first grab

    def frame(self) -> np.ndarray:
        monitor = self.sct.monitors[0]
        width, height = monitor["width"], monitor["height"]
        if self.direct:
            try:
                from mss.linux import xcb
                from mss.linux.xshmgetimage import ALL_PLANES

                impl = self.sct._impl
                if width * height * 4 > impl._bufsize:
                    raise ValueError("the screen grew beyond the shared segment")
                xcb.shm_get_image(impl.conn, impl.drawable, monitor["left"], monitor["top"], width, height,
                                  ALL_PLANES, xcb.ImageFormat.ZPixmap, impl._shmseg, 0)
                return np.frombuffer(impl._buf, dtype=np.uint8, count=width * height * 4).reshape(height, width, 4)
            except Exception:  # noqa: BLE001 - mss internals not as expected: its public grab from now on
                self.direct = False
        shot = self.sct.grab(monitor)
        if self.direct is None:
            impl = getattr(self.sct, "_impl", None)
            self.direct = all(hasattr(impl, a) for a in ("conn", "drawable", "_shmseg", "_buf", "_bufsize")) \
                and getattr(getattr(impl, "shm_status", None), "name", "") == "AVAILABLE"
        return np.frombuffer(shot.raw, dtype=np.uint8).reshape(height, width, 4)

    def grab(self, max_width: int, max_height: int) -> np.ndarray:
        """A (h * 3 / 2, w) yuv420p image of the screen (BT.601 limited range, as H.264 expects)."""
        frame = self.frame()
        height, width = frame.shape[:2]
        scale = min(1.0, max_width / width, max_height / height)
        w, h = max(2, round(width * scale)), max(2, round(height * scale))
        size = (w - w % 2, h - h % 2)  # yuv420p needs even sizes
        if size == (width, height):
            small = frame.copy()  # the sprite is drawn into it; the shared segment is read-only here
        else:
            # Bilinear weighs every source pixel down to 1/2; below that INTER_AREA keeps thin strokes.
            small = cv2.resize(frame, size, interpolation=cv2.INTER_LINEAR if scale >= 0.5 else cv2.INTER_AREA)
        self.draw_pointer(small, size[0] / width)
        return cv2.cvtColor(small, cv2.COLOR_BGRA2YUV_I420)

    def draw_pointer(self, img: np.ndarray, scale: float) -> None:
        """Blend the pointer's image (XFixes, straight alpha) into ``img``, scaled like the screen."""
        try:
            cursor = self.sct._impl.cursor()
        except Exception:  # noqa: BLE001 - no XFixes: a video without the pointer
            return
        pixels: np.ndarray = np.frombuffer(cursor.raw, dtype=np.uint8).reshape(cursor.size.height, cursor.size.width, 4)
        if scale != 1.0:
            size = (max(1, round(pixels.shape[1] * scale)), max(1, round(pixels.shape[0] * scale)))
            pixels = cv2.resize(pixels, size, interpolation=cv2.INTER_AREA)
        left, top = round(cursor.pos.left * scale), round(cursor.pos.top * scale)
        h, w = pixels.shape[:2]
        x0, y0, x1, y1 = max(left, 0), max(top, 0), min(left + w, img.shape[1]), min(top + h, img.shape[0])
        if x0 >= x1 or y0 >= y1:
            return
        src = pixels[y0 - top:y1 - top, x0 - left:x1 - left]
        alpha = src[:, :, 3:4].astype(np.uint16)
        dst = img[y0:y1, x0:x1, :3]
        dst[:] = ((src[:, :, :3] * alpha + dst * (255 - alpha) + 127) // 255).astype(np.uint8)

    def close(self) -> None:
        try:
            self.sct.close()
        except Exception:  # noqa: BLE001, S110 - the display is already gone
            pass


class Screen:
    """The display's connections, kept across episodes and reopened when the display went away."""

    def __init__(self, display: str) -> None:
        self.display = display
        self.grabber: Grabber | None = None
        self.watch: DamageWatch | None = None
        self.has_damage = True

    def open(self) -> Grabber:
        """Before an episode: check the kept connections (a display number may now be a new server)."""
        if self.watch is not None and self.grabber is not None:
            try:
                # Raises on a connection to a server that is gone; both connections go to the same one.
                self.watch._x.sync()
                return self.grabber
            except Exception:  # noqa: BLE001, S110 - the server is gone: reconnect below
                pass
        self.close()  # gone, or no DAMAGE (so no cheap check): fresh connections
        self.grabber = Grabber(self.display)
        try:
            self.watch = DamageWatch(self.display) if self.has_damage else None
        except Exception:  # noqa: BLE001 - no DAMAGE: grab every look, compare frames instead
            self.has_damage, self.watch = False, None
        return self.grabber

    def close(self) -> None:
        for conn in (self.watch, self.grabber):
            if conn is not None:
                conn.close()
        self.watch = self.grabber = None


POINTER_POLL_S = 1.0
"""How often the pointer's position is polled when motion arrives as events (only warps need it)."""


class Episode:
    """One video being written."""

    def __init__(self, screen: Screen, path: Path, fps: float, max_width: int, max_height: int) -> None:
        self.grabber, self.watch, self.path = screen.open(), screen.watch, path
        self.interval = 1.0 / fps
        self.poll_interval = POINTER_POLL_S if self.watch is not None and self.watch.motion_events else self.interval
        self.max_width, self.max_height = max_width, max_height
        self.cpu_start = cpu_seconds()
        self.dirty = False
        """The server reported a change that is not grabbed yet."""
        if self.watch is not None:  # forget what was drawn between episodes: the first frame is grabbed now
            self.watch.events()
            self.watch.pointer_moved()
            self.watch.clear()
        # Frames are stamped when their grab began, on CLOCK_MONOTONIC from ``started``: the input
        # log (input_log.py) stamps events on the same clock, so a frame stamped before an event
        # was grabbed before it.
        self.started = time.monotonic()
        first = self.grab()
        self.height, self.width = first.shape[0] * 2 // 3, first.shape[1]
        self.container = av.open(str(path), mode="w")
        stream = self.stream = self.container.add_stream("libx264", rate=round(fps))
        stream.width, stream.height, stream.pix_fmt = self.width, self.height, "yuv420p"
        # Millisecond timestamps: frames come at irregular times (identical ones are skipped). The
        # constant, not stream.time_base: the mp4 muxer replaces that with its own once it starts.
        stream.codec_context.time_base = MILLISECONDS
        # One thread: a few frames a second on a shared 2-core box; x264's frame threads and
        # lookahead only add start-up and hand-offs.
        stream.codec_context.thread_count = 1
        stream.codec_context.options = {"preset": "ultrafast", "crf": "30", "threads": "1"}
        self.previous: np.ndarray | None = None
        self.frames = self.grabs = self.ticks = self.last_pts = 0
        self.add(first, self.started)
        self.next_grab = self.started + self.interval
        self.next_poll = self.started + self.poll_interval

    def grab(self) -> np.ndarray:
        return self.grabber.grab(self.max_width, self.max_height)

    def wait(self, now: float) -> tuple[float, bool]:
        """How long to sleep before the next look, and whether the server's events may end it sooner."""
        if self.dirty or self.watch is None:
            # A grab is due at next_grab: events until then change nothing (they are read then).
            return max(0.0, self.next_grab - now), False
        return max(0.0, self.next_poll - now), True

    def encode(self, yuv: np.ndarray, grabbed: float | None = None) -> None:
        frame = av.VideoFrame.from_ndarray(yuv, format="yuv420p")
        now = int(((time.monotonic() if grabbed is None else grabbed) - self.started) * 1000)
        frame.pts = self.last_pts = max(now, self.last_pts + 1) if self.frames else now
        frame.time_base = MILLISECONDS
        for packet in self.stream.encode(frame):
            self.container.mux(packet)
        self.frames += 1

    def tick(self) -> None:
        """One look (after a sleep, or when the server sent events): grab if something changed,
        on the 1/fps grid; encode if the frame differs from the last one."""
        self.ticks += 1
        now = time.monotonic()
        if not self.dirty:
            watch = self.watch
            changed = watch is None or watch.events()
            if watch is not None and now >= self.next_poll:
                changed = watch.pointer_moved() or changed
                self.next_poll = now + self.poll_interval
            if not changed:
                return
            self.dirty = True
            # Grabs fall on the 1/fps grid from the episode's start, as if it looked fps times a
            # second: a burst of drawing within one slot (a terminal printing, a menu opening)
            # costs one grab, taken when the slot ends.
            slot = self.started + math.ceil((now - self.started) / self.interval) * self.interval
            self.next_grab = max(self.next_grab, slot)
        if now < self.next_grab - 0.002:
            return
        if self.watch is not None:
            self.watch.clear()
            # Events that came in with the clearing's reply sit in python-xlib's queue, where the
            # socket's readiness would not show them: drawing since the clear means another grab.
            self.dirty = self.watch.events()
        self.next_grab += self.interval
        grabbed = time.monotonic()
        self.add(self.grab(), grabbed)

    def add(self, yuv: np.ndarray, grabbed: float) -> None:
        self.grabs += 1
        if self.previous is None or not np.array_equal(yuv, self.previous):
            self.encode(yuv, grabbed)
            self.previous = yuv

    def finish(self, startup_cpu_s: float) -> dict[str, Any]:
        """Close the file; its stats (the fields of ``video.VideoStats``)."""
        if self.previous is not None:  # hold the last frame until the end: the video lasts the episode
            self.encode(self.previous)
        for packet in self.stream.encode(None):
            self.container.mux(packet)
        self.container.close()
        now = cpu_seconds()
        return {"frames": self.frames, "ticks": self.ticks, "grabs": self.grabs, "width": self.width,
                "height": self.height, "duration_s": round(time.monotonic() - self.started, 3),
                "cpu_s": round(now - self.cpu_start, 3), "process_cpu_s": round(now, 3),
                "startup_cpu_s": round(startup_cpu_s, 3), "process_id": os.getpid(),
                "started_monotonic": self.started}


def serve(display: str) -> int:
    """Answer ``start``/``stop`` lines on stdin until it closes."""
    startup_cpu_s = cpu_seconds()
    stdin = sys.stdin.buffer
    screen = Screen(display)
    episode: Episode | None = None
    while True:
        watch = screen.watch
        if episode is None:
            # Between episodes events are only read and dropped (the server must not queue them).
            wait, listen = None, watch is not None
        else:
            wait, listen = episode.wait(time.monotonic())
        ready = select.select([stdin, watch] if listen and watch is not None else [stdin], [], [], wait)[0]
        if stdin in ready:
            line = stdin.readline().decode().strip()
            if not line:  # stdin closed: the runner is done with this display
                if episode is not None:
                    episode.finish(startup_cpu_s)
                return 0
            command, *args = line.split(" ", 4)
            if command == "start" and episode is None:
                fps, max_w, max_h, path = float(args[0]), int(args[1]), int(args[2]), Path(args[3])
                episode = Episode(screen, path, fps, max_w, max_h)
                print("recording", flush=True)
            elif command == "stop" and episode is not None:
                stats = episode.finish(startup_cpu_s)
                episode.path.with_name(episode.path.name + ".json").write_text(json.dumps(stats, indent=1))
                episode = None
                print("done", flush=True)
            else:
                print(f"error: unexpected {command!r}", flush=True)
        elif episode is not None:
            episode.tick()
        elif watch is not None:
            try:
                watch.events()
            except Exception:  # noqa: BLE001 - the display went away: reconnect at the next start
                screen.close()


if __name__ == "__main__":
    code = serve(sys.argv[1])
    sys.stdout.flush()
    # Nothing is left to write: skip the interpreter's teardown (freeing every module's objects).
    os._exit(code)
