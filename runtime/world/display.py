"""X displays for agents: a private headless Xvfb per worker, or the person's own.

``Display`` starts Xvfb on a free display number (Xvfb picks it and reports it
through ``-displayfd`` once it accepts connections), then a window manager, and
waits until the manager owns the ``WM_S0`` selection. No fixed sleeps: every
wait is a probe with a deadline.

Between two tasks ``reset`` gives the display a fresh server state (see there): Xvfb runs
without ``-noreset``, and the display keeps one idle connection of its own (the holder) so that
the server resets only when ``reset`` lets every client go, never by itself mid-task.

Processes die with the runtime: each child runs in its own process group (so
``stop`` can kill everything it spawned) and gets ``PR_SET_PDEATHSIG`` =
SIGKILL. PDEATHSIG fires when the *thread* that forked the child exits, so all
children are spawned from one long-lived helper thread, not the caller's
(a runner worker thread may finish while its display is still in use).
"""

from __future__ import annotations

import atexit
import ctypes
import os
import secrets
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Self

from ..config import Config, DisplayConfig
from ..errors import DisplayError
from ..screen import framebuffer
from . import reaper

_PR_SET_PDEATHSIG = 1
VNC_PASSWORD_CHARS = 8
"""VNC authentication reads at most 8 characters of a password."""
_SHM = "/dev/shm"
_libc = ctypes.CDLL(None, use_errno=True)
# One thread forks every child, and lives as long as the interpreter (see module doc).
_spawner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="deskact-display-spawn")
_live: set[Display] = set()
_live_lock = threading.Lock()


def _die_with_parent() -> None:
    """preexec_fn: SIGKILL this child when the spawning thread (and so the runtime) dies."""
    _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _spawn(argv: Sequence[str], env: dict[str, str], pass_fds: Sequence[int] = ()) -> subprocess.Popen[bytes]:
    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            list(argv),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            pass_fds=tuple(pass_fds),
            start_new_session=True,  # own process group: stop() kills the whole tree
            # Only prctl() runs in the child before exec: async-signal-safe, fine with threads.
            preexec_fn=_die_with_parent,  # noqa: PLW1509
        )

    return _spawner.submit(start).result()


def _kill_group(proc: subprocess.Popen[bytes], grace: float = 2.0) -> None:
    """SIGTERM the child's process group, then SIGKILL what is left after ``grace``."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            pass
    # Leftover members of the group (e.g. a WM's helpers) go too, even if the leader exited.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        pass
    if proc.stderr is not None:
        proc.stderr.close()


def _stderr_tail(proc: subprocess.Popen[bytes], limit: int = 800) -> str:
    """What a child said before failing (only read once it has exited, so never blocks)."""
    if proc.stderr is None or proc.poll() is None:
        return ""
    try:
        text = proc.stderr.read().decode(errors="replace").strip()
    except (OSError, ValueError):
        return ""
    return text[-limit:]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _x_connect(name: str) -> Any:
    from Xlib import display as xdisplay  # python-xlib: pure Python, no libX11 needed

    return xdisplay.Display(name)


def probe(name: str) -> tuple[int, int]:
    """Connect to X display ``name`` and return its root size; raises DisplayError if it is not there."""
    try:
        conn = _x_connect(name)
    except Exception as exc:
        raise DisplayError(f"cannot connect to X display {name!r}: {exc}") from exc
    try:
        screen = conn.screen()
        return int(screen.width_in_pixels), int(screen.height_in_pixels)
    finally:
        conn.close()


_GENERATION = "_DESKACT_GENERATION"
"""A root window property the holder sets: gone once the server has reset."""


def _generation_marked(conn: Any) -> bool:
    from Xlib import X

    return conn.screen().root.get_full_property(conn.intern_atom(_GENERATION), X.AnyPropertyType) is not None


def _kill_other_clients(conn: Any) -> int:
    """KillClient every client but ``conn``, those gone with RetainPermanent/RetainTemporary
    included (their windows and pixmaps outlive them otherwise); how many were killed."""
    from Xlib.protocol import request

    own = conn.display.info.resource_id_base
    try:
        bases = [c.resource_base for c in conn.res_query_clients().clients]
    except AttributeError:  # no X-Resource extension: the windows' owners at least
        bases = [w.id for w in conn.screen().root.query_tree().children]
    killed = 0
    for base in bases:
        if base not in (0, own):  # 0 is the server itself
            request.KillClient(display=conn.display, resource=base)
            killed += 1
    conn.sync()
    return killed


def _wm_running(conn: Any) -> bool:
    """A ICCCM-compliant window manager owns the WM_S0 selection (openbox, xfwm4, ...)."""
    from Xlib import X

    return bool(conn.get_selection_owner(conn.intern_atom("WM_S0")) != X.NONE)


def _wm_ready(conn: Any) -> bool:
    """The window manager manages new windows: it owns WM_S0 and has published its client list.
    Openbox takes WM_S0 early in its start; a window mapped before the list appears was seen
    never to be mapped at all (its MapRequest lost), e.g. Chromium opened right after a reset."""
    from Xlib import Xatom

    if not _wm_running(conn):
        return False
    return conn.screen().root.get_full_property(conn.intern_atom("_NET_CLIENT_LIST"), Xatom.WINDOW) is not None


_OB_RC = Path("/etc/xdg/openbox/rc.xml")
_OB_NS = "http://openbox.org/3.4/rc"
_OB_RUNS_PROGRAMS = {"execute", "restart"}  # Restart may name a program to exec instead of openbox
_OB_MENU = """<openbox_menu xmlns="http://openbox.org/3.4/menu">
<menu id="root-menu" label="Desktop"><menu id="client-list-combined-menu"/></menu>
</openbox_menu>
"""


@lru_cache(maxsize=1)
def openbox_config() -> Path:
    """The system's openbox rc.xml minus everything that starts a program; once per process.

    The window manager runs on the host, outside every world, as the runtime's
    user and with its environment. Its stock root menu (a right-click on the
    desktop) has "Terminal emulator", and key bindings run programs: one click
    would give an agent a host shell. So no Execute/Restart action anywhere,
    and the only menu file is ours: a root menu that lists the open windows.
    """
    ET.register_namespace("", _OB_NS)
    ET.register_namespace("xi", "http://www.w3.org/2001/XInclude")
    try:
        root = ET.parse(_OB_RC).getroot()
    except (OSError, ET.ParseError):
        root = ET.Element(f"{{{_OB_NS}}}openbox_config")
    parents = {child: parent for parent in root.iter() for child in parent}
    for action in list(root.iter(f"{{{_OB_NS}}}action")):
        if action.get("name", "").lower() in _OB_RUNS_PROGRAMS:
            parents[action].remove(action)
    for menu in root.findall(f"{{{_OB_NS}}}menu"):
        root.remove(menu)
    # Minimising and restoring animate the frame after the state has changed: a screenshot or a
    # window's position read in the meantime (the agent's next step) catches it half-way.
    for animate in root.iter(f"{{{_OB_NS}}}animateIconify"):
        animate.text = "no"
    folder = Path(tempfile.mkdtemp(prefix="deskact-openbox-"))
    reaper.own(folder)
    folder.chmod(0o755)
    atexit.register(shutil.rmtree, folder, True)
    (folder / "menu.xml").write_text(_OB_MENU)
    menu = ET.SubElement(root, f"{{{_OB_NS}}}menu")
    ET.SubElement(menu, f"{{{_OB_NS}}}file").text = str(folder / "menu.xml")
    ET.ElementTree(root).write(folder / "rc.xml", encoding="utf-8", xml_declaration=True)
    return folder / "rc.xml"


class Display:
    """One X display. Use as a context manager; several can run side by side.

    ``mode="virtual"``: start a private Xvfb (+ window manager, + optional VNC).
    ``mode="attach"``: use an existing display (``name`` or ``$DISPLAY``);
    nothing is started or stopped.
    """

    def __init__(
        self,
        width: int = 1920,
        height: int = 1080,
        depth: int = 24,
        window_manager: str = "openbox",
        start_timeout: float = 15.0,
        vnc: bool = False,
        vnc_port: int | None = None,
        vnc_web: bool = False,
        mode: Literal["virtual", "attach"] = "virtual",
        name: str | None = None,
        framebuffer_file: bool = True,
    ) -> None:
        self.width, self.height, self.depth = width, height, depth
        self.window_manager = window_manager
        self.start_timeout = start_timeout
        self.vnc = vnc
        self.vnc_port = vnc_port
        self.vnc_web = vnc_web
        self.web_port: int | None = None
        """Port of the noVNC page (``vnc_web``), chosen when it starts."""
        self.vnc_password = secrets.token_urlsafe(6)[:VNC_PASSWORD_CHARS]
        """What a VNC client must give (x11vnc's ``-passwdfile``); the noVNC page address carries it."""
        self.mode = mode
        self.name: str = name or ""
        """The DISPLAY value, e.g. ``:3`` (set once started)."""
        self.framebuffer_file = framebuffer_file
        self._fb_dir: str | None = None
        self._procs: dict[str, subprocess.Popen[bytes]] = {}
        self._attached = False
        self._holder: Any = None
        """Our idle X connection: while it is open the server never resets by itself."""
        self.resets = 0
        """How many times ``reset`` gave the server a fresh state."""

    @classmethod
    def from_config(cls, config: DisplayConfig, **overrides: Any) -> Display:
        fields: dict[str, Any] = {
            "width": config.width,
            "height": config.height,
            "depth": config.depth,
            "window_manager": config.window_manager,
            "start_timeout": config.start_timeout,
            "vnc": config.vnc,
            "vnc_port": config.vnc_port,
            "vnc_web": config.vnc_web,
            "framebuffer_file": config.framebuffer_file,
        }
        fields.update(overrides)
        if config.mode == "attach":
            fields["mode"] = "attach"
        return cls(**fields)

    # -- lifecycle -----------------------------------------------------------------

    def start(self) -> Self:
        if self.running:
            return self
        if self.mode == "attach":
            self._attach()
            return self
        try:
            try:
                self._start_xvfb()
            except DisplayError:
                if self._fb_dir is None:
                    raise
                # Xvfb could not keep its screen in the file: once more, in its own memory.
                self._forget_framebuffer()
                self.framebuffer_file = False
                self._start_xvfb()
            if self.window_manager:
                self._start_wm()
            if self.vnc or self.vnc_web:
                self._start_vnc()
            if self.vnc_web:
                self._start_web()
        except BaseException:
            self.stop()
            raise
        with _live_lock:
            _live.add(self)
        return self

    def stop(self) -> None:
        """Stop everything this display started (VNC, window manager, Xvfb). Idempotent."""
        self._drop_holder()
        # Reverse start order: clients before the server, so they exit cleanly.
        for key in ("web", "vnc", "wm", "xvfb"):
            proc = self._procs.pop(key, None)
            if proc is not None:
                _kill_group(proc)
        with _live_lock:
            _live.discard(self)
        if self.mode == "virtual" and self.name:
            from ..screen.grabber import forget

            framebuffer.unregister(self.name)
            forget(self.name)  # cached screenshot connections; the number will be reused
        self._forget_framebuffer()

    def _forget_framebuffer(self) -> None:
        """Stop any Xvfb of this display, then remove its screen file's folder."""
        self._drop_holder()
        proc = self._procs.pop("xvfb", None)
        if proc is not None:
            _kill_group(proc)
        if self._fb_dir is not None:
            shutil.rmtree(self._fb_dir, ignore_errors=True)
            reaper.disown(self._fb_dir)
            self._fb_dir = None

    def _hold(self, conn: Any) -> None:
        """Keep ``conn`` open as the holder, with the generation marker set through it."""
        from Xlib import Xatom

        conn.screen().root.change_property(conn.intern_atom(_GENERATION), Xatom.STRING, 8, b"1")
        conn.sync()
        self._holder = conn

    def _take_holder(self) -> None:
        try:
            conn = _x_connect(self.name)
        except Exception as exc:  # Xlib raises several types for "refused until Xvfb listens"
            raise DisplayError(str(exc)) from exc
        self._hold(conn)

    def _drop_holder(self) -> None:
        holder, self._holder = self._holder, None
        if holder is not None:
            try:
                holder.close()
            except Exception:  # noqa: BLE001, S110 - the server is already gone
                pass

    def reset(self) -> None:
        """Give the X server its start-up state back: no window, pixmap, root window property
        (cut buffers included), selection, pointer or key mapping, screen size or any other
        setting a task's apps left survives into the next task.

        Every client is disconnected (the window manager, x11vnc, cached screenshot connections,
        whatever a task left, clients gone with RetainPermanent too: KillClient), and Xvfb, left
        with none, resets itself; the window manager and x11vnc start again. The display's name,
        socket and screen file stay, so warm kernels made for it (which hold no X connection
        until their first step: the gui toolkit's warm_up) still fit. A no-op in attach mode."""
        if self.mode != "virtual" or not self.running:
            return
        from ..screen.grabber import forget

        forget(self.name)
        for key in ("vnc", "wm"):
            proc = self._procs.pop(key, None)
            if proc is not None:
                _kill_group(proc, grace=0.5)
        self._drop_holder()
        xvfb = self._procs["xvfb"]
        fresh = self._wait_until_fresh(xvfb)
        try:
            if self.window_manager:
                self._start_wm()
            if self.vnc or self.vnc_web:
                self._start_vnc()
            self._hold(fresh)
        except BaseException:
            fresh.close()
            raise
        self.resets += 1

    def _wait_until_fresh(self, xvfb: subprocess.Popen[bytes]) -> Any:
        """A connection to the server once it has reset (its generation marker gone): until then,
        every other client is killed and ours closed again, so that the server is left with none."""
        deadline = time.monotonic() + self.start_timeout
        delay = 0.005
        while True:
            conn = None
            try:
                conn = _x_connect(self.name)
                if not _generation_marked(conn):
                    return conn
                _kill_other_clients(conn)
            except Exception:  # noqa: BLE001, S110 - refused or cut while the server resets: try again
                pass
            if conn is not None:
                try:
                    conn.close()
                except Exception:  # noqa: BLE001, S110 - cut by the reset itself
                    pass
            if xvfb.poll() is not None:
                raise DisplayError(f"{self.name}: Xvfb exited during its reset: {_stderr_tail(xvfb)}")
            if time.monotonic() > deadline:
                raise DisplayError(f"{self.name}: the X server did not reset within {self.start_timeout}s")
            time.sleep(delay)
            delay = min(delay * 2, 0.05)

    def heal(self) -> None:
        """Start the window manager again if it is gone: an app in a world can ask openbox to exit
        (a client message any X client may send), which would leave later tasks without one."""
        wm = self._procs.get("wm")
        if self.mode == "virtual" and self.running and wm is not None and wm.poll() is not None:
            self._procs.pop("wm")
            self._start_wm()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"Display({self.name or '?'}, {self.width}x{self.height}x{self.depth}, {self.mode})"

    @property
    def running(self) -> bool:
        if self.mode == "attach":
            return self._attached
        xvfb = self._procs.get("xvfb")
        return xvfb is not None and xvfb.poll() is None

    @property
    def number(self) -> int:
        return int(self.name.lstrip(":").split(".")[0].split(":")[-1])

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height

    @property
    def pids(self) -> dict[str, int]:
        """Process ids of what this display runs (for diagnostics and tests)."""
        return {key: proc.pid for key, proc in self._procs.items()}

    def env(self) -> dict[str, str]:
        """Environment for programs that should draw on this display."""
        return {"DISPLAY": self.name}

    @property
    def vnc_url(self) -> str | None:
        return f"vnc://127.0.0.1:{self.vnc_port}" if "vnc" in self._procs and self.vnc_port else None

    @property
    def web_url(self) -> str | None:
        """The noVNC page showing this display in a browser (``vnc_web``), or None."""
        from .vnc_web import page_url

        return page_url(self.web_port, self.vnc_password) if "web" in self._procs and self.web_port else None

    # -- steps ---------------------------------------------------------------------

    def _attach(self) -> None:
        self.name = self.name or os.environ.get("DISPLAY", "")
        if not self.name:
            raise DisplayError("display.mode = 'attach' but DISPLAY is not set: start an X session or use mode 'virtual'")
        self.width, self.height = probe(self.name)
        self._attached = True

    def _child_env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "XAUTHORITY", "WAYLAND_DISPLAY")}
        if self.name:
            env["DISPLAY"] = self.name
        return env

    def _framebuffer_dir(self) -> str | None:
        """A root-only folder (mkdtemp) in /dev/shm for Xvfb's screen file (framebuffer.py), or None:
        no /dev/shm, or too little room in it (a container's 64 MB, say), where Xvfb would die of
        SIGBUS painting a page tmpfs cannot give; screenshots then ask the X server."""
        if not self.framebuffer_file or not os.path.isdir(_SHM):
            return None
        if shutil.disk_usage(_SHM).free < 2 * (self.width * self.height * 4 + (1 << 20)):
            return None
        folder = tempfile.mkdtemp(prefix="deskact-fb-", dir=_SHM)
        reaper.own(folder)  # a screen's worth of /dev/shm, after a kill -9
        return folder

    def _start_xvfb(self) -> None:
        xvfb = shutil.which("Xvfb")
        if xvfb is None:
            raise DisplayError("Xvfb is not installed (apt-get install xvfb); needed for display.mode = 'virtual'")
        read_fd, write_fd = os.pipe()
        argv = [
            xvfb,
            "-displayfd", str(write_fd),  # Xvfb picks a free number and writes it here when ready
            "-screen", "0", f"{self.width}x{self.height}x{self.depth}",
            "-nolisten", "tcp",
            # No -noreset: the server goes back to its start-up state when its last client leaves,
            # which is how reset() wipes what a task left (the holder connection prevents it otherwise).
            "+extension", "RANDR",
        ]
        self._fb_dir = self._framebuffer_dir()
        if self._fb_dir is not None:
            argv += ["-fbdir", self._fb_dir]
        try:
            proc = _spawn(argv, self._child_env(), pass_fds=[write_fd])
        finally:
            os.close(write_fd)
        self._procs["xvfb"] = proc
        try:
            number = self._read_display_number(read_fd, proc)
        finally:
            os.close(read_fd)
        self.name = f":{number}"
        # The first connection becomes the holder at once: a probe that connected and closed would
        # leave the server without clients, and it would reset under whoever connects next
        # ("Connection reset by peer" in the window manager's or a test's first request).
        self._wait_until("X server accepts connections", lambda: self._try(self._take_holder), proc)
        if self._fb_dir is not None:
            framebuffer.register(self.name, Path(self._fb_dir) / "Xvfb_screen0")

    def _read_display_number(self, fd: int, proc: subprocess.Popen[bytes]) -> int:
        deadline = time.monotonic() + self.start_timeout
        data = b""
        while not data.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0:
                raise DisplayError(f"Xvfb did not report a display number within {self.start_timeout}s")
            ready, _, _ = select.select([fd], [], [], min(left, 0.2))
            if ready:
                chunk = os.read(fd, 64)
                if not chunk:  # pipe closed: Xvfb exited
                    break
                data += chunk
            elif proc.poll() is not None:
                break
        if not data.strip().isdigit():
            proc.wait(1)
            raise DisplayError(
                f"Xvfb failed to start ({self.width}x{self.height}x{self.depth}): "
                f"{_stderr_tail(proc) or 'no output'}"
            )
        return int(data.strip())

    def _start_wm(self) -> None:
        wm = shutil.which(self.window_manager)
        if wm is None:
            raise DisplayError(
                f"display.window_manager = {self.window_manager!r} is not installed "
                "(apt-get install openbox, or set it to '' for none)"
            )
        argv = [wm]
        if Path(wm).name == "openbox":
            argv.append("--sm-disable")  # no session manager here; avoids a startup warning and delay
            argv += ["--config-file", str(openbox_config())]
        proc = _spawn(argv, self._child_env())
        self._procs["wm"] = proc
        conn = _x_connect(self.name)  # the holder is connected: the server cannot reset under us
        try:
            self._wait_until(f"window manager {self.window_manager!r} manages windows", lambda: _wm_ready(conn), proc)
        finally:
            conn.close()

    def _start_vnc(self) -> None:
        x11vnc = shutil.which("x11vnc")
        if x11vnc is None:
            raise DisplayError("--vnc needs x11vnc (apt-get install x11vnc)")
        self.vnc_port = self.vnc_port or _free_port()
        # In a file, not on the command line (which every local user can read); x11vnc
        # deletes it once read ("rm:"), and its private folder goes once x11vnc listens.
        secret_dir = Path(tempfile.mkdtemp(prefix="deskact-vnc-"))
        secret = secret_dir / "passwd"
        secret.touch(mode=0o600)
        secret.write_text(self.vnc_password + "\n")
        argv = [
            x11vnc, "-display", self.name, "-localhost", "-rfbport", str(self.vnc_port),
            "-forever", "-shared", "-passwdfile", f"rm:{secret}", "-quiet", "-noxdamage",
        ]
        proc = _spawn(argv, self._child_env())
        self._procs["vnc"] = proc
        port = self.vnc_port

        def listening() -> bool:
            with socket.socket() as sock:
                sock.settimeout(0.2)
                return sock.connect_ex(("127.0.0.1", port)) == 0

        try:
            self._wait_until(f"x11vnc listens on 127.0.0.1:{port}", listening, proc)
        finally:
            shutil.rmtree(secret_dir, ignore_errors=True)

    def _start_web(self) -> None:
        from .vnc_web import listening, websockify_argv

        assert self.vnc_port is not None
        self.web_port = _free_port()
        proc = _spawn(websockify_argv(self.web_port, self.vnc_port), self._child_env())
        self._procs["web"] = proc
        port = self.web_port
        self._wait_until(f"websockify (noVNC) listens on 127.0.0.1:{port}", lambda: listening(port), proc)

    @staticmethod
    def _try(fn: Any, *args: Any) -> bool:
        try:
            fn(*args)
            return True
        except DisplayError:
            return False

    def _wait_until(self, what: str, ready: Any, proc: subprocess.Popen[bytes]) -> None:
        """Poll ``ready()`` with a short backoff until it is true, the child dies, or the deadline passes."""
        deadline = time.monotonic() + self.start_timeout
        delay = 0.005
        while not ready():
            if proc.poll() is not None:
                raise DisplayError(f"{self.name}: {what}: process exited with {proc.returncode}: {_stderr_tail(proc)}")
            if time.monotonic() > deadline:
                raise DisplayError(f"{self.name}: timed out after {self.start_timeout}s waiting until {what}")
            time.sleep(delay)
            delay = min(delay * 2, 0.1)


def open_display(config: Config | DisplayConfig, **overrides: Any) -> Display | None:
    """Start (virtual) or attach to the display the config asks for; None in mode 'none'.

    The caller owns the result: ``with open_display(cfg) as d`` or call ``d.stop()``.
    """
    section = config.display if isinstance(config, Config) else config
    if section.mode == "none":
        return None
    return Display.from_config(section, **overrides).start()


@atexit.register
def _stop_all() -> None:
    """Normal interpreter exit: stop displays the caller forgot (PDEATHSIG covers kills)."""
    with _live_lock:
        live = list(_live)
    for display in live:
        display.stop()


def serve_until_interrupted(config: DisplayConfig, out: Any = None) -> None:
    """``deskact display up``: start a virtual display, print ``DISPLAY=:N`` (first line of
    stdout, for scripts), then hold it until Ctrl-C / SIGTERM."""
    import sys

    out = out or sys.stdout
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        with Display.from_config(config.model_copy(update={"mode": "virtual"})) as display:
            print(f"DISPLAY={display.name}", file=out, flush=True)
            print(f"{display.width}x{display.height}x{display.depth}, window manager: "
                  f"{display.window_manager or 'none'}", file=sys.stderr)
            if display.vnc_url:
                print(f"VNC: {display.vnc_url} (loopback only, password {display.vnc_password}; "
                      f"e.g. vncviewer 127.0.0.1::{display.vnc_port})", file=sys.stderr)
            if display.web_url:
                print(f"watch in a browser: {display.web_url}", file=sys.stderr)
            print("Ctrl-C stops it.", file=sys.stderr, flush=True)
            try:
                while not stop.wait(0.5):
                    pass
            except KeyboardInterrupt:
                pass
    finally:
        signal.signal(signal.SIGTERM, previous)
