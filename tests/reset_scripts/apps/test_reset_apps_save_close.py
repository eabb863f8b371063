"""apps.save, apps.close and desktop.settle (before_judge steps) on a real Xvfb with real apps."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from dataclasses import replace

import pytest
from deskact.reset_scripts._x11 import find_window, list_windows, wait_for_window
from deskact.reset_scripts.apps.save_close import document_name
from deskact.runtime.tasks.steps import StepContext, StepFailed, run_judge, run_reset

pytestmark = pytest.mark.display


def _type(display: str, title: str, text: str) -> None:
    wid = str(wait_for_window(display, title, 60).id)
    env = dict(os.environ, DISPLAY=display)
    subprocess.run(["xdotool", "windowactivate", "--sync", wid], env=env, check=True, timeout=30)
    subprocess.run(["xdotool", "type", "--delay", "30", text], env=env, check=True, timeout=60)


def test_document_name_from_titles() -> None:
    assert document_name("*/home/me/notes.txt - Mousepad") == "notes.txt"
    assert document_name("sales.xlsx - LibreOffice Calc") == "sales.xlsx"


def test_steps_need_a_display(ctx: StepContext) -> None:
    for step in ("apps.save", "apps.close", "desktop.settle"):
        with pytest.raises(StepFailed, match="needs a display"):
            run_reset(step, {}, ctx)


@pytest.mark.skipif(shutil.which("mousepad") is None, reason="mousepad is not installed")
def test_save_writes_an_unsaved_edit_then_close_closes(ctx: StepContext, xdisplay) -> None:
    gctx = replace(ctx, display=xdisplay.name)
    note = ctx.workspace / "note.txt"
    note.write_text("")
    run_reset("apps.open", {"path": str(note)}, gctx)
    run_reset("desktop.settle", {"timeout": 20}, gctx)
    _type(xdisplay.name, "note.txt", "edited in the GUI")
    deadline = time.monotonic() + 30
    while not any(w.title.startswith("*") for w in list_windows(xdisplay.name)):  # mousepad marks it modified
        assert time.monotonic() < deadline, [w.title for w in list_windows(xdisplay.name)]
        time.sleep(0.1)
    assert note.read_text() == ""  # the edit is not on disk yet: a judge would fail it
    run_reset("apps.save", {"timeout": 30}, gctx)
    assert note.read_text().rstrip("\n") == "edited in the GUI"
    run_reset("apps.close", {"kill": "mousepad"}, gctx)
    assert find_window(xdisplay.name, "note.txt") is None


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_save_keeps_the_xlsx_format_of_a_calc_edit(ctx: StepContext, xdisplay) -> None:
    gctx = replace(ctx, display=xdisplay.name)
    book = ctx.workspace / "prices.xlsx"
    run_reset("office.xlsx", {"path": str(book), "sheets": {"Prices": [["Item", "Price"], ["Tea", 3.5]]}}, gctx)
    run_reset("apps.open", {"path": str(book)}, gctx)
    try:
        run_reset("desktop.settle", {"timeout": 30}, gctx)
        _type(xdisplay.name, "prices.xlsx", "Cake\t2\n")  # A1 is selected: types over the header row
        judge = {"path": str(book), "sheet": "Prices", "cells": {"A1": "Cake", "B1": 2}}
        assert not run_judge("xlsx.cells", judge, gctx).passed
        run_reset("apps.save", {"paths": [str(book)], "timeout": 90}, gctx)
        verdict = run_judge("xlsx.cells", judge, gctx)
        assert verdict.passed, verdict.feedback
    finally:
        run_reset("apps.close", {"kill": "soffice"}, gctx)
    assert find_window(xdisplay.name, "prices.xlsx") is None
