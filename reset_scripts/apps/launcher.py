"""apps.* reset steps: start, open files in, and stop desktop apps on the task's display.

Launching waits for the app's window to appear and then to be drawn (polling, no fixed
sleeps): mapped, not blank, unchanged for a moment and, for LibreOffice on a task with an
accessibility bus, its document in the tree (``runtime/screen/drawn.py``), so the agent's first
screenshot shows the window as a person would see it.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any

import psutil

from ...runtime.screen.drawn import DOCUMENT_APPS, quiet_for, tree_problem, wait_drawn
from ...runtime.tasks.step_paths import StepPath
from ...runtime.tasks.steps import StepContext, StepFailed, reset_step
from ...runtime.world.rooted import Root
from ...toolkits.gui.app_env import app_env, without_root_banner, world_app_env
from .. import _x11

TEXT_EXTENSIONS = {".txt", ".md", ".py", ".csv", ".json", ".log", ".sh", ".yaml", ".yml", ".ini",
                   ".cfg", ".conf", ".toml", ".xml", ".html", ".css", ".js", ".tsv", ""}
OFFICE_EXTENSIONS = {".xlsx", ".xls", ".ods", ".docx", ".doc", ".odt", ".pptx", ".ppt", ".odp", ".rtf"}
PDF_EXTENSIONS = {".pdf"}
VIDEO_EXTENSIONS = {".mp4", ".mkv", ".avi", ".webm", ".mov", ".mp3", ".wav", ".ogg", ".flac"}
"""Media apps.open gives to VLC (the player OSWorld's VM opens them in)."""

# LibreOffice starts with a "tip of the day" dialog on a fresh profile; turn it off.
_LO_REGISTRY = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="ShowTipOfTheDay" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Setup/Office"><prop oor:name="ooSetupInstCompleted" oor:op="fuse"><value>true</value></prop></item>
</oor:items>
"""


@lru_cache(maxsize=1)
def _lo_registry() -> str:
    """``_LO_REGISTRY`` plus the installed version as the last one run. A profile without it takes
    LibreOffice's first-start-of-this-version path: soffice.bin restarts itself (exit 81) and shows
    a "What's New" bar, ~0.5 s more before the window appears, in every fresh world."""
    version = None
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is not None:
        main_xcd = Path(soffice).resolve().parent.parent / "share" / "registry" / "main.xcd"
        try:
            found = re.search(r'oor:name="ooSetupVersion">\s*<value>([^<]+)</value>', main_xcd.read_text())
            version = found.group(1) if found else None
        except OSError:
            pass
    if version is None:
        return _LO_REGISTRY
    item = ('<item oor:path="/org.openoffice.Setup/Product"><prop oor:name="ooSetupLastVersion" oor:op="fuse">'
            f"<value>{version}</value></prop></item>\n")
    return _LO_REGISTRY.replace("</oor:items>", item + "</oor:items>")


def libreoffice_profile(tag: str) -> Path:
    """A LibreOffice user profile per display (or per tag).

    Without it, a second soffice hands its document to the first running
    instance, which may be on another worker's display.
    """
    profile = Path(tempfile.gettempdir()) / f"deskact-lo-{os.getuid()}-{tag}"
    user = profile / "user"
    if not (user / "registrymodifications.xcu").exists():
        user.mkdir(parents=True, exist_ok=True)
        (user / "registrymodifications.xcu").write_text(_lo_registry())
    return profile


@lru_cache(maxsize=1)
def _profile_template() -> Path:
    """A LibreOffice profile initialised once per process on the host (``--terminate_after_init``,
    ~0.1 s): a fresh one registers its bundled extensions at the first start, 0.17 s more on every
    task's first LibreOffice window in a world. Made from nothing a task touched."""
    template = Path(tempfile.mkdtemp(prefix="deskact-lo-template-"))
    (template / "user").mkdir()
    (template / "user" / "registrymodifications.xcu").write_text(_lo_registry())
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is not None:
        try:
            subprocess.run([soffice, "--headless", "--norestore", "--terminate_after_init",
                            f"-env:UserInstallation=file://{template}"], stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60, check=False)
        except subprocess.TimeoutExpired:
            pass  # a fresh profile then, as before
    return template


def world_libreoffice_profile(world: Any) -> Path:
    """The profile of LibreOffice in a world: in the world's own /tmp, owned by the agent who runs it."""
    profile = Path("/tmp/deskact-lo")
    # Written through descriptors inside the world (StepPath): /tmp is the agent's, and a link it
    # planted there leads to the world's own files, never the host's.
    target = StepPath(Root(world.root), PurePosixPath("/"), PurePosixPath(profile))
    if not (target / "user" / "registrymodifications.xcu").is_file():
        agent = (world.uid + world.agent_id, world.uid + world.agent_id)
        template = _profile_template()
        target.make_dirs(owner=agent)
        for item in sorted(template.rglob("*")):
            dest = target / str(item.relative_to(template))
            if item.is_symlink():
                dest.remove()
                dest.symlink_to(os.readlink(item), owner=agent)
            elif item.is_dir():
                dest.make_dirs(owner=agent)
            else:
                dest.write_bytes(item.read_bytes(), owner=agent)
                dest.chmod(item.stat().st_mode & 0o7777)
            dest.lchown(*agent)
    return profile


def _display_tag(display: str) -> str:
    return display.lstrip(":").split(".")[0] or "0"


def app_argv(argv: list[str], display: str, world: Any = None) -> list[str]:
    """Add the flags an app needs to run in isolation on one display (or in one world)."""
    exe = Path(argv[0]).name
    if exe in ("libreoffice", "soffice") and not any(a.startswith("-env:UserInstallation") for a in argv):
        profile = world_libreoffice_profile(world) if world is not None else libreoffice_profile(_display_tag(display))
        return [argv[0], "--norestore", "--nologo", f"-env:UserInstallation=file://{profile}", *argv[1:]]
    if exe == "mousepad" and "--disable-server" not in argv:
        # Otherwise mousepad registers on the session bus and reuses another display's instance.
        return [argv[0], "--disable-server", *argv[1:]]
    return argv


SETTLE_TIMEOUT_S = 10.0
"""The longest an opened app's window is waited for to be drawn, after its title appeared."""


def _need_display(ctx: StepContext, step: str) -> str:
    if not ctx.display:
        raise StepFailed(f"{step} needs a display, but task {ctx.task_id or '?'} has none (set visual: true)")
    return ctx.display


def launch(ctx: StepContext, argv: list[str], window: str | None, timeout: float, step: str,
           stdout: Any = subprocess.DEVNULL) -> None:
    """Start an app for the agent: in the task's world when it has one (as the world's root, with the
    world's environment), else on the host. ``stdout``: a host file for what the app prints."""
    display = _need_display(ctx, step)
    argv = app_argv(argv, display, world=ctx.world)
    err = tempfile.TemporaryFile()  # noqa: SIM115 - outlives this block: the app keeps writing to it
    try:
        if ctx.world is not None:
            proc = ctx.world.spawn(without_root_banner(argv, ctx.world.agent_id), env=world_app_env(ctx.world),
                                   user=ctx.world.agent_id,
                                   stdout=stdout, stderr=err)
        else:
            env = app_env(ctx.env())  # GTK settings that stick without a D-Bus session (GUI_APP_ENV)
            env["DISPLAY"] = display
            proc = subprocess.Popen(
                without_root_banner(argv, os.geteuid()), cwd=ctx.workspace if ctx.workspace.is_dir() else None, env=env,
                stdin=subprocess.DEVNULL, stdout=stdout, stderr=err, start_new_session=True,
            )
    except OSError as exc:
        err.close()
        raise StepFailed(f"{step}: cannot start {argv[0]!r}: {exc}") from exc
    if window is None:
        err.close()
        return

    def crashed() -> str | None:
        # A launcher that exits 0 may have handed over to a daemon: keep waiting for the window.
        code = proc.poll()
        if code is None or code == 0:
            return None
        err.seek(0)
        tail = err.read().decode("utf-8", "replace").strip()[-400:]
        return f"{step}: {shlex.join(argv)} exited with {code} before a window appeared: {tail or '(no stderr)'}"

    try:
        found = _x11.wait_for_window(display, window, timeout, give_up=crashed)
    except (TimeoutError, RuntimeError, ConnectionError) as exc:
        raise StepFailed(str(exc) if str(exc).startswith(step) else f"{step}: {exc}") from None
    finally:
        err.close()
    # Not fatal when it runs out: a window that never stops changing (a clock, a video) is
    # legitimate, and `deskact validate` reports a first observation that is still blank.
    wait_drawn(display, found.id, SETTLE_TIMEOUT_S, quiet=quiet_for(found.title),
               shows_document=document_check(ctx, found.title))


def document_check(ctx: StepContext, title: str) -> Callable[[], str | None] | None:
    """For a LibreOffice window on a task with an accessibility bus: why its tree does not show the
    document yet (None once it does). Its frame is in the tree well before the document is."""
    if ctx.world is None or not any(app in title for app in DOCUMENT_APPS):
        return None
    if "LibreOffice Calc" in title:
        # Reading a spreadsheet's tree takes ~10 s (its table's children) and leaves LibreOffice
        # answering nothing for a while after: the agent's first observation would get no tree.
        return None
    from ...runtime.agent import a11y
    from ...runtime.world.a11y_bus import BUS_SOCKET, world_uids

    socket = ctx.world.host_path(BUS_SOCKET)
    if not socket.exists():
        return None

    def problem() -> str | None:
        try:
            elements = a11y.read_tree(socket, peer_uids=world_uids(ctx.world))
        except Exception as exc:  # noqa: BLE001 - an app still starting may not answer yet
            return f"its accessibility tree cannot be read yet: {type(exc).__name__}: {exc}"
        return tree_problem(title, [e.role for e in elements])

    return problem


@reset_step("apps.launch")
def apps_launch(ctx: StepContext, cmd: str, window: str | None = None, timeout: float = 30) -> None:
    """Start ``cmd`` on the task's display, detached; wait until a window whose title
    contains ``window`` (case-insensitive) exists."""
    argv = shlex.split(cmd)
    if not argv:
        raise StepFailed("apps.launch: empty cmd")
    launch(ctx, argv, window, timeout, "apps.launch")


def app_for(path: Path | StepPath) -> list[str]:
    ext = path.suffix.lower()
    if ext in OFFICE_EXTENSIONS:
        return ["libreoffice"]
    if ext in TEXT_EXTENSIONS:
        return ["mousepad"]
    raise StepFailed(
        f"apps.open: no default app for {path.name!r}; pass `app` (known: text files -> mousepad,"
        f" {', '.join(sorted(OFFICE_EXTENSIONS))} -> libreoffice, .pdf -> Chromium's PDF viewer,"
        f" {', '.join(sorted(VIDEO_EXTENSIONS))} -> vlc)"
    )


@reset_step("apps.open")
def apps_open(
    ctx: StepContext, path: str, window: str | None = None, app: str | None = None, timeout: float = 60
) -> None:
    """Open a file in its app (text -> mousepad, office files -> libreoffice, PDFs -> Chromium's PDF
    viewer, videos -> VLC, playing; or ``app``) and wait for a window titled with ``window`` (default:
    the file's name; a PDF's viewer window is found by its class, VLC's as apps.vlc finds it)."""
    p = ctx.path(path)
    if not p.exists():
        raise StepFailed(f"apps.open: {p} does not exist")
    if app is None and window is None and p.suffix.lower() in PDF_EXTENSIONS:
        from .pdf_viewer import open_pdf  # it imports this module

        open_pdf(ctx, p, timeout)
        return
    if app is None and window is None and p.suffix.lower() in VIDEO_EXTENSIONS:
        from .vlc import apps_vlc  # it imports this module

        apps_vlc(ctx, path, paused=False, timeout=timeout)
        return
    argv = shlex.split(app) if app else app_for(p)
    launch(ctx, [*argv, str(p)], window if window is not None else p.name, timeout, "apps.open")


def processes_on_display(name: str, display: str, world: Any = None) -> list[psutil.Process]:
    """Processes whose command line contains ``name`` and whose $DISPLAY is ``display``.

    With a ``world``, only its own processes: never the host-side ``nsenter`` that started an app
    in it (its command line names the app too). Killed first, that parent would orphan the app to
    the host's init, which may reap it a second later (the app then lingers as a zombie)."""
    want = _display_tag(display)
    me = os.getpid()
    found = []
    candidates = psutil.process_iter(["pid", "cmdline"]) if world is None else _world_procs(world)
    for proc in candidates:
        try:
            cmdline = " ".join(proc.info["cmdline"] or [])
            if proc.pid == me or name not in cmdline:
                continue
            disp = proc.environ().get("DISPLAY")
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
        if disp is not None and _display_tag(disp) == want:
            found.append(proc)
    return found


def _world_procs(world: Any) -> list[psutil.Process]:
    procs = []
    for p in world.processes():
        if p.pid == 1 or p.host_pid == world.pid:  # the world's init and deskact's placeholder
            continue
        try:
            proc = psutil.Process(p.host_pid)
            proc.info = {"pid": p.host_pid, "cmdline": proc.cmdline()}  # as process_iter fills it
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
        procs.append(proc)
    return procs


@reset_step("apps.kill", live=True)
def apps_kill(ctx: StepContext, name: str, timeout: float = 5) -> None:
    """Stop processes on the task's display whose command line contains ``name``
    (SIGTERM, then SIGKILL after ``timeout``); none running is fine."""
    procs = processes_on_display(name, _need_display(ctx, "apps.kill"), ctx.world)
    for proc in procs:
        try:
            proc.send_signal(signal.SIGTERM)
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs(procs, timeout=timeout)
    for proc in alive:
        try:
            proc.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(alive, timeout=timeout)
