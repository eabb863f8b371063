"""apps.terminal: an xterm that is ready for typing when the reset ends.

``apps.launch`` returns as soon as a window with the title exists. For xterm
that is too early: in runner runs (about 1 task in 30, most often the task
after one that typed non-ASCII text on the same display) xterm mapped a
one-cell 15x26 window and either grew later or stayed that way, and keys
typed into it were lost (the agent's first command silently vanished). Here
bash itself sets the final title once it runs -- xterm only handles that
escape after its terminal widget works -- the step waits for the full window
size, and a terminal that stays tiny is killed and started again.
"""

from __future__ import annotations

import os
import shlex
import signal
import time

from Xlib import display as xdisplay
from Xlib import error as xerror

from ...runtime.screen.drawn import wait_drawn
from ...runtime.tasks.steps import StepContext, StepFailed, reset_step
from .. import _x11
from .._terminal_log import transcript_path
from .launcher import SETTLE_TIMEOUT_S, launch

_STARTING = "deskact-terminal-starting"
"""Title while bash starts; chosen so that no task title is a substring of it by accident."""

UBUNTU_HISTORY = {"HISTCONTROL": "ignoreboth", "HISTSIZE": "1000", "HISTFILESIZE": "2000"}
"""What Ubuntu's /etc/skel/.bashrc sets for bash's history (with ``shopt -s histappend``)."""

_MIN_SIDE = 100
"""Pixels: below this the window is still in xterm's transient tiny phase."""

_GROW_S = 3.0
"""Seconds a titled terminal gets to reach its full size. Seen in runs: an xterm stuck at
its minimum size (15x26, one character cell) for good, with keys typed into it lost;
starting it again fixes it."""


def _exact(display: str, title: str) -> _x11.Window | None:
    return next((w for w in _x11.list_windows(display) if w.title == title), None)


def _size(display: str, window_id: int) -> tuple[int, int] | None:
    d = xdisplay.Display(display)
    try:
        geo = d.create_resource_object("window", window_id).get_geometry()
        return geo.width, geo.height
    except xerror.XError:
        return None
    finally:
        d.close()


def _wait_ready(display: str, title: str, timeout: float) -> tuple[_x11.Window | None, tuple[int, int] | None]:
    """Wait for the exact title (bash is up), then up to _GROW_S for the full size."""
    deadline = time.monotonic() + timeout
    grow_deadline: float | None = None
    window, size = None, None
    while time.monotonic() < (grow_deadline or deadline):
        window = _exact(display, title)
        if window is not None:
            grow_deadline = grow_deadline or min(deadline, time.monotonic() + _GROW_S)
            size = _size(display, window.id)
            if size is not None and min(size) >= _MIN_SIDE:
                return window, size
        time.sleep(0.02)
    return window, size


def _host_pid(ctx: StepContext, pid: int | None) -> int | None:
    """A window's _NET_WM_PID as a host pid. In a world it is a pid of the world's PID namespace:
    killing that number on the host would hit an unrelated host process."""
    if not pid or ctx.world is None:
        return pid
    return next((p.host_pid for p in ctx.world.processes() if p.pid == pid and p.name == "xterm"), None)


@reset_step("apps.terminal")
def apps_terminal(ctx: StepContext, title: str = "Terminal", font_size: int = 13, ubuntu_history: bool = False,
                  timeout: float = 30) -> None:
    """Open an xterm titled ``title`` with bash in the workspace (DejaVu Sans Mono,
    ``font_size`` pt, 80x24) and wait until it takes keys: bash has started, xterm
    has drawn its output, and the window has its full size (a terminal stuck
    at a tiny size is killed and started again, up to 3 times). ``ubuntu_history``: bash keeps
    its history as Ubuntu's default ~/.bashrc has it (lines typed with a leading space and
    repeats left out, 1000 lines kept, 2000 in the file, appended to ~/.bash_history when the
    shell ends, as when its terminal is closed)."""
    if not title.strip() or title in _STARTING:
        raise StepFailed(f"apps.terminal: title {title!r} must be non-empty and not part of {_STARTING!r}")
    bash = "exec bash --norc"
    if ubuntu_history:
        bash = f"export {' '.join(f'{k}={v}' for k, v in UBUNTU_HISTORY.items())}; exec bash --norc -O histappend"
    ready = f"printf '\\033]0;%s\\007' {shlex.quote(title)}; {bash}"
    # -l -lf -: xterm logs what it shows to stdout, a host file terminal.text judges read
    argv = ["xterm", "-l", "-lf", "-", "-T", _STARTING, "-geometry", "80x24", "-fa", "DejaVu Sans Mono", "-fs", str(font_size),
            "-e", "bash", "--norc", "-c", ready]
    display = ctx.display or ""
    window, size = None, None
    for _attempt in range(3):
        # No window wait in launch(): bash may retitle the window before the first poll sees it.
        with transcript_path(ctx, title).open("wb") as log:  # a restarted terminal starts a new record
            launch(ctx, argv, None, timeout, "apps.terminal", stdout=log)
        window, size = _wait_ready(display, title, timeout)
        if window is None:
            break  # never started: retrying will not help, report it
        if size is not None and min(size) >= _MIN_SIDE:
            # Its prompt drawn and the window still: the agent's first screenshot shows it ready.
            wait_drawn(display, window.id, SETTLE_TIMEOUT_S)
            return
        pid = _host_pid(ctx, window.pid)
        if pid:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            deadline = time.monotonic() + 5
            while _exact(display, title) is not None and time.monotonic() < deadline:
                time.sleep(0.02)
    titles = [w.title for w in _x11.list_windows(display)]
    raise StepFailed(
        f"apps.terminal: xterm did not become ready within {timeout:g} s"
        f" (windows: {titles}, last size of {title!r}: {size or 'not seen'})"
    )
