"""apps.save and apps.close: save and close the open documents, for a task's ``before_judge:`` list.

OSWorld saves the open document before it judges, so a GUI edit left unsaved counts as
done there. ``apps.save`` does the same here: it presses ctrl+s in every LibreOffice and
editor window on the task's display (answering LibreOffice's keep-the-format question
with Enter, whose default keeps the file's format) and waits until the files change.
Both run on the host against the task's display, like reset steps (desktop.settle,
in desktop.py, waits for the screen to calm down after them).
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

from ...runtime.tasks.step_paths import StepPath
from ...runtime.tasks.steps import StepContext, StepFailed, reset_step
from .. import _x11
from .launcher import apps_kill

EDITORS = ("LibreOffice", "Mousepad", "gedit", "Text Editor")
"""Title suffixes of document windows ``apps.save`` and ``apps.close`` act on by default."""

_FORMAT_DIALOG = "File Format"
"""LibreOffice's 'Keep current format?' dialog when saving to a non-ODF format."""


def _xdotool(display: str, *args: str) -> None:
    try:
        subprocess.run(["xdotool", *args], env=dict(os.environ, DISPLAY=display), capture_output=True,
                       timeout=15, check=False)
    except subprocess.TimeoutExpired:
        # windowactivate --sync waits for the window manager's answer, which a busy app may delay for
        # long on a loaded machine: the keys still go to the focused window, and the file-change
        # wait below tells whether the save happened.
        pass


def document_windows(display: str, window: str | None) -> list[_x11.Window]:
    """The windows to act on: titles containing ``window``, or every editor/office window."""
    found = []
    for w in _x11.list_windows(display):
        if window is not None:
            if window.casefold() in w.title.casefold():
                found.append(w)
        elif any(app.casefold() in w.title.casefold() for app in EDITORS):
            found.append(w)
    return found


def document_name(title: str) -> str:
    """``*/ws/notes.txt - Mousepad`` / ``sales.xlsx - LibreOffice Calc`` -> the document's file name."""
    return Path(re.split(r" [-\u2014] ", title.lstrip("*"), maxsplit=1)[0].strip()).name


def _stamp(path: StepPath) -> tuple[float, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime, st.st_size


def _candidates(ctx: StepContext, names: set[str], paths: list[str] | None) -> list[StepPath]:
    """Files the save should change: ``paths`` if given, else workspace files named like the windows."""
    if paths:
        return [ctx.path(p) for p in paths]
    root = ctx.path(str(ctx.workspace))
    if not names or not root.is_dir():
        return []
    # rglob enters no symlinked folder and is_symlink looks at the link itself: an agent's link may
    # point anywhere (each read goes through descriptors inside the world anyway).
    found = [q for q in root.rglob("*") if q.name in names and not q.is_symlink() and q.is_file()]
    return found[:50]


@reset_step("apps.save", live=True)
def apps_save(ctx: StepContext, window: str | None = None, paths: list[str] | None = None,
              timeout: float = 10) -> None:
    """Save every open document: ctrl+s in each LibreOffice/editor window (or those whose title
    contains ``window``), Enter on LibreOffice's keep-format question, then wait up to ``timeout``
    seconds for the files (``paths``, default: workspace files named like the windows) to change.
    An unmodified document is not rewritten; no window open is fine."""
    if not ctx.display:
        raise StepFailed(f"apps.save needs a display, but task {ctx.task_id or '?'} has none (set visual: true)")
    windows = document_windows(ctx.display, window)
    files = _candidates(ctx, {document_name(w.title) for w in windows}, paths)
    before = {f: _stamp(f) for f in files}
    for w in windows:
        _xdotool(ctx.display, "windowactivate", "--sync", str(w.id))
        _xdotool(ctx.display, "key", "--clearmodifiers", "ctrl+s")
        time.sleep(0.3)  # let the app open its format question before the next window takes focus
        _answer_format_dialog(ctx.display)
    deadline = time.monotonic() + timeout
    while windows and files and time.monotonic() < deadline:
        _answer_format_dialog(ctx.display)
        if all(_stamp(f) != before[f] for f in files):
            return
        time.sleep(0.1)


def _answer_format_dialog(display: str) -> None:
    dialog = _x11.find_window(display, _FORMAT_DIALOG)
    if dialog is not None:
        _xdotool(display, "windowactivate", "--sync", str(dialog.id))
        _xdotool(display, "key", "Return")


@reset_step("apps.close", live=True)
def apps_close(ctx: StepContext, window: str | None = None, kill: str | None = None, timeout: float = 10) -> None:
    """Ask the LibreOffice/editor windows (or those whose title contains ``window``) to close, as
    their X button does, and wait up to ``timeout`` s until they are gone; then stop processes
    whose command line contains ``kill`` (e.g. soffice), which also ends one held by a
    save-changes question. Changes not saved are lost (use apps.save first)."""
    if not ctx.display:
        raise StepFailed(f"apps.close needs a display, but task {ctx.task_id or '?'} has none (set visual: true)")
    targets = {w.id for w in document_windows(ctx.display, window)}
    for wid in targets:
        subprocess.run(["wmctrl", "-i", "-c", hex(wid)], env=ctx.env(),
                       capture_output=True, timeout=15, check=False)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and targets & {w.id for w in _x11.list_windows(ctx.display)}:
        time.sleep(0.1)
    if kill:
        apps_kill(ctx, name=kill)
