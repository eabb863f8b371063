"""apps.vlc and vlc.media: VLC on the task's display, in its world, from a settled profile, and a
tiny generated clip for it to play.

A fresh VLC asks about network access and metadata in a "privacy" dialog at its first start; a
person dismissed it long ago. So the agent's ``~/.config/vlc/vlcrc`` is seeded with a full
preferences file (every setting at its default, written as a comment, as VLC writes it), made
once per process by VLC itself (``--reset-config``, as an unprivileged user: VLC refuses root)
with ``qt-privacy-ask=0``. OSWorld's VLC metrics read that file.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path, PurePosixPath

from ...runtime.screen.drawn import wait_drawn
from ...runtime.tasks.step_paths import StepPath
from ...runtime.tasks.steps import StepContext, StepFailed, reset_step
from ...runtime.world.base import agent_account_id
from .. import _x11
from .gimp import _maximize as maximize
from .launcher import SETTLE_TIMEOUT_S, launch

VLCRC = ".config/vlc/vlcrc"
"""VLC's preferences under $HOME: where OSWorld's ``vlc_config`` getter reads them."""

SETTLED = {"qt-privacy-ask": "0", "qt-updates-notif": "0", "metadata-network-access": "0"}
"""What a settled profile sets: no privacy dialog, no update check, no metadata from the web."""

WINDOW = "VLC media player"
"""The end of every VLC main window's title."""

NOBODY = 65534


@lru_cache(maxsize=1)
def vlcrc_template() -> str:
    """A complete vlcrc written by VLC (every setting a ``#key=default`` comment) with ``SETTLED``
    set; only ``SETTLED``'s lines when VLC cannot write one here."""
    text = ""
    vlc = shutil.which("vlc")
    home = Path(tempfile.mkdtemp(prefix="deskact-vlc-template-"))
    try:
        if vlc is not None and shutil.which("setpriv") is not None and os.geteuid() == 0:
            os.chown(home, NOBODY, NOBODY)
            subprocess.run(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                            vlc, "-I", "dummy", "--reset-config", "vlc://quit"],
                           env={"HOME": str(home), "PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30, check=False)
        elif vlc is not None:
            subprocess.run([vlc, "-I", "dummy", "--reset-config", "vlc://quit"],
                           env={"HOME": str(home), "PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30, check=False)
        written = home / VLCRC
        text = written.read_text(errors="replace") if written.is_file() else ""
    except (OSError, subprocess.TimeoutExpired):
        text = ""
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return settle(text)


def settle(text: str) -> str:
    """``text`` with each ``SETTLED`` key's line (commented default or not) replaced by its value;
    keys without a line are appended."""
    lines = text.split("\n") if text else []
    missing = dict(SETTLED)
    for i, line in enumerate(lines):
        key = line.lstrip("#").split("=", 1)[0]
        if "=" in line and key in missing:
            lines[i] = f"{key}={missing.pop(key)}"
    lines += [f"{k}={v}" for k, v in missing.items()]
    return "\n".join(lines).rstrip("\n") + "\n"


def seed_vlcrc(ctx: StepContext) -> StepPath:
    """The template written as the agent's vlcrc unless one is there (a task's reset may have
    written its own first). Written through descriptors inside the world."""
    target = ctx.agent_path(str(PurePosixPath(str(ctx.home), VLCRC)))
    if target.is_file():
        return target
    owner = (ctx.world.uid + ctx.world.agent_id,) * 2 if ctx.world is not None else None
    target.parent.make_dirs(owner=owner)
    target.write_bytes(vlcrc_template().encode(), owner=owner)
    return target


HTTP_PORT = 8080
HTTP_PASSWORD = "deskact"
"""VLC's web interface (``http: true``) on the world's loopback, as OSWorld starts VLC
(``--extraintf http``): its ``/requests/status.xml`` is what the ``vlc.playing`` judge reads."""


@reset_step("apps.vlc")
def apps_vlc(ctx: StepContext, path: str | None = None, paused: bool = True, start_paused: bool = False,
             http: bool = False, options: list[str] | None = None, timeout: float = 30) -> None:
    """Start VLC (its Qt interface) with the media at ``path`` open, or none, and wait until its
    window is drawn, maximized as a person watches. ``paused`` (the default) plays the media to its
    end and pauses on its last frame, so the first observation is a still frame of it (a long file
    plays on until then); otherwise VLC plays it and stops at the end. ``start_paused`` holds it
    paused before its first frame instead (the window shows VLC's cone). ``http`` adds VLC's web
    interface on the world's 127.0.0.1:8080 (password ``deskact``), which ``vlc.playing`` reads.
    ``options`` are VLC's own command-line options, each ``--name`` or ``--name=value`` (as
    ``--start-time=15``, ``--repeat``), given before the media and after ``paused``'s; an option
    that is not of that form is refused. The agent's vlcrc (``${HOME}/.config/vlc/vlcrc``) is
    seeded from a settled template unless one is there."""
    if not ctx.display:
        raise StepFailed(f"apps.vlc needs a display, but task {ctx.task_id or '?'} has none (set visual: true)")
    argv = ["vlc", "--no-qt-privacy-ask", "--no-video-title-show"]
    if http:
        argv += ["--extraintf", "http", "--http-host", "127.0.0.1", "--http-port", str(HTTP_PORT),
                 "--http-password", HTTP_PASSWORD]
    if path is not None:
        media = ctx.path(path)
        if not media.is_file():
            raise StepFailed(f"apps.vlc: {media} does not exist")
        if start_paused:
            argv.append("--start-paused")
        elif paused:
            # --start-paused holds VLC before its first frame (the window shows the cone); playing
            # the short clip to its end and pausing there leaves a frame of it on screen, still.
            argv.append("--play-and-pause")
        argv += check_options(options or [])
        argv.append(str(media))
    elif options:
        argv += check_options(options)
    seed_vlcrc(ctx)
    launch(ctx, as_player(ctx) + argv, WINDOW, timeout, "apps.vlc")
    found = _x11.find_window(ctx.display, WINDOW)
    if found is not None:
        maximize(ctx.display, found.id)
        wait_drawn(ctx.display, found.id, SETTLE_TIMEOUT_S)


def check_options(options: list[str]) -> list[str]:
    """``options`` when each is one VLC option (``--name`` or ``--name=value``): never a second
    media path or a bare word VLC would read as one."""
    for option in options:
        if not re.fullmatch(r"--[a-z][a-z0-9-]*(=.*)?", option, re.DOTALL):
            raise StepFailed(f"apps.vlc: option {option!r} is not --name or --name=value")
    return list(options)


def as_player(ctx: StepContext) -> list[str]:
    """VLC refuses to run as root (its ``vlc`` front end exits at once), and a world's agent is root
    by default: there it runs as the world's unprivileged account, with the agent's ``$HOME``, whose
    VLC folders it is given (root in the world still reads and writes them, as the agent would).
    It keeps root's file access (CAP_DAC_OVERRIDE, ambient), so it opens, and saves snapshots and
    conversions beside, the agent's own files (downloads are root's, often 0600), as the VM's VLC
    does the user's."""
    if ctx.world is None or ctx.world.agent_id != 0:
        return []
    uid = agent_account_id()
    home = PurePosixPath(str(ctx.home))
    for folder in (".config/vlc", ".local/share/vlc", ".cache/vlc"):
        target = ctx.agent_path(str(home / folder))
        target.make_dirs(owner=(ctx.world.uid, ctx.world.uid))
        for made in (target, *([target / "vlcrc"] if folder == ".config/vlc" else [])):
            if made.exists():
                made.lchown(ctx.world.uid + uid, ctx.world.uid + uid)
    return ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
            "--inh-caps=+dac_override", "--ambient-caps=+dac_override"]


@lru_cache(maxsize=4)
def clip_bytes(seconds: int) -> bytes:
    """vlc_clip's MP4 of ``seconds``, encoded in a child process (why: vlc_clip's docstring)."""
    try:
        done = subprocess.run([sys.executable, "-m", "deskact.reset_scripts.apps.vlc_clip", str(seconds)],
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=60, check=False)
    except subprocess.TimeoutExpired as exc:
        raise StepFailed(f"vlc.media: encoding a {seconds} s clip took over 60 s") from exc
    if done.returncode != 0 or not done.stdout:
        raise StepFailed(f"vlc.media: encoding the clip failed: {done.stderr.decode(errors='replace')[-300:]}")
    return done.stdout


@reset_step("vlc.media")
def vlc_media(ctx: StepContext, path: str, seconds: int = 3) -> None:
    """Write a short generated MP4 clip (160x120, ``seconds`` long, a white bar sliding over a
    colour ramp) at ``path`` in the world, owned by the agent: media for VLC tasks without a
    download."""
    if not 1 <= seconds <= 60:
        raise StepFailed(f"vlc.media: seconds {seconds} should be between 1 and 60")
    target = ctx.agent_path(path)
    owner = (ctx.world.uid + ctx.world.agent_id,) * 2 if ctx.world is not None else None
    target.parent.make_dirs(owner=owner)
    target.write_bytes(clip_bytes(seconds), owner=owner)
