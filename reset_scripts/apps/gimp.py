"""apps.gimp: GIMP on the task's display, in its world, from a warm profile.

A fresh GIMP profile costs its first start several seconds more (every plug-in is queried and
the answers written to ``pluginrc``), so a template is made once per process on the host by a
headless ``gimp-console`` and copied into the agent's ``~/.config/GIMP/2.10`` before each start.
Its ``gimprc`` turns off what a person would have dismissed long ago (tips, update checks) and
puts GIMP in single-window mode, so one window is what the model's first observation shows.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path, PurePosixPath

from ...runtime.screen.drawn import wait_drawn
from ...runtime.tasks.step_paths import StepPath
from ...runtime.tasks.steps import StepContext, StepFailed, reset_step
from .. import _x11
from .launcher import SETTLE_TIMEOUT_S, launch

PROFILE_DIR = ".config/GIMP/2.10"
"""GIMP 2.10's profile under $HOME: where OSWorld's ``gimp_config_file`` getter reads it too."""

GIMPRC = """\
# Written by deskact's apps.gimp: what a settled user profile looks like.
(single-window-mode yes)
(show-tips no)
(check-updates no)
(check-update-timestamp 0)
"""

QUIET_S = 1.0
"""How long GIMP's window must stay unchanged to count as drawn: it keeps drawing its canvas and
docks in idle callbacks after the usual 0.3 s pause (seen by `deskact validate`'s first-observation
check, the window still changing 0.5 s after the first screenshot)."""

WINDOW_NO_IMAGE = "GNU Image Manipulation Program"
"""GIMP's window title before an image is open."""


@lru_cache(maxsize=1)
def profile_template() -> Path:
    """A GIMP profile initialised once per process (plug-ins queried, ``pluginrc`` written) by a
    headless start that loads no data or fonts; made from nothing a task touched."""
    home = Path(tempfile.mkdtemp(prefix="deskact-gimp-template-"))
    console = shutil.which("gimp-console") or shutil.which("gimp")
    if console is not None:
        try:
            subprocess.run([console, "-i", "-d", "-f", "-b", "(gimp-quit 0)"], env={"HOME": str(home), "PATH": "/usr/bin:/bin"},
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=120, check=False)
        except subprocess.TimeoutExpired:
            pass  # a cold profile then: GIMP queries its plug-ins at the task's start
    profile = home / PROFILE_DIR
    profile.mkdir(parents=True, exist_ok=True)
    (profile / "gimprc").write_text(GIMPRC)
    return profile


def seed_profile(ctx: StepContext) -> StepPath:
    """The template copied into the agent's GIMP profile, unless one is there already (a task's
    reset may have written its own gimprc first). Written through descriptors inside the world."""
    target = ctx.agent_path(str(PurePosixPath(str(ctx.home), PROFILE_DIR)))
    if (target / "pluginrc").is_file():
        return target
    owner = (ctx.world.uid + ctx.world.agent_id,) * 2 if ctx.world is not None else None
    template = profile_template()
    target.make_dirs(owner=owner)
    for item in sorted(template.rglob("*")):
        dest = target / str(item.relative_to(template))
        if item.is_dir():
            dest.make_dirs(owner=owner)
        elif item.is_file() and not item.is_symlink() and not dest.exists():
            dest.write_bytes(item.read_bytes(), owner=owner)
    return target


def window_title(name: str) -> str:
    """A part of the title of GIMP's window once it shows the file ``name``: an image in GIMP's own
    format is titled by its file name (``scene.xcf-1.0 (RGB ...)``), any other is imported and
    titled by its name in brackets (``[scene] (imported)-1.0 (RGB ...)``)."""
    if name.casefold().endswith(".xcf"):
        return f"{name}-"
    return f"[{PurePosixPath(name).stem}]"


@reset_step("apps.gimp")
def apps_gimp(ctx: StepContext, path: str | None = None, timeout: float = 90) -> None:
    """Start GIMP (single window, no splash) with the image at ``path`` open, or none; wait until its
    window shows the image (titled ``[name]``, or ``name.xcf-`` for GIMP's own .xcf) and is drawn.
    The agent's profile (``${HOME}/.config/GIMP/2.10``) is seeded from a warm template unless a
    ``pluginrc`` is there."""
    if not ctx.display:
        raise StepFailed(f"apps.gimp needs a display, but task {ctx.task_id or '?'} has none (set visual: true)")
    argv = ["gimp", "-s"]
    window = WINDOW_NO_IMAGE
    if path is not None:
        image = ctx.path(path)
        if not image.is_file():
            raise StepFailed(f"apps.gimp: {image} does not exist")
        argv.append(str(image))
        window = window_title(image.name)
    seed_profile(ctx)
    launch(ctx, argv, window, timeout, "apps.gimp")
    found = _x11.find_window(ctx.display, window)
    if found is not None:
        _maximize(ctx.display, found.id)
        wait_drawn(ctx.display, found.id, SETTLE_TIMEOUT_S, quiet=QUIET_S)


def _maximize(display: str, window_id: int) -> None:
    """GIMP's first window is about half the screen; a person works in it maximized, and so the
    canvas the model sees is as large as the screen allows. Best effort: without wmctrl it stays."""
    wmctrl = shutil.which("wmctrl")
    if wmctrl is None:
        return
    try:
        subprocess.run([wmctrl, "-i", "-r", hex(window_id), "-b", "add,maximized_vert,maximized_horz"],
                       env={"DISPLAY": display, "PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=5, check=False)
    except subprocess.TimeoutExpired:
        pass
