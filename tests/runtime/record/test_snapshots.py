"""The snapshot watcher's pieces that need no display: what counts as a change, which snapshot is
before or after an action, and where the reference waits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from deskact.runtime.record.session import _steps
from deskact.runtime.record.snapshots import Snapshot, Watcher, significant
from deskact.runtime.run.input_actions import InputAction


def test_a_caret_blink_is_no_change_a_menu_is() -> None:
    screen = np.zeros((135, 240, 3), np.uint8)
    caret = screen.copy()
    caret[50:52, 100] = 255  # two pixels of a sixty-fourth of the screen: a caret
    menu = screen.copy()
    menu[10:60, 20:80] = 200
    assert not significant(screen, screen.copy())
    assert not significant(screen, caret)
    assert significant(screen, menu)


def _watcher(tmp_path: Path, times: list[float], changes: list[float]) -> Watcher:
    watcher = Watcher(":99", tmp_path / "input.jsonl", take=lambda: Snapshot(t=0.0))
    watcher.snapshots = [Snapshot(t=t) for t in times]
    watcher.changes = changes
    return watcher


def _act(kind: str, start: float, end: float, **fields: Any) -> InputAction:
    return InputAction(kind=kind, t_start=start, t_end=end, x=10, y=10, **fields)


def test_before_and_after_an_action(tmp_path: Path) -> None:
    watcher = _watcher(tmp_path, [1.0, 5.0, 9.0], [])
    assert watcher.before(4.0).t == 1.0 and watcher.after(4.2).t == 5.0
    assert watcher.before(0.5).t == 1.0  # nothing earlier: the first
    assert watcher.after(9.5).t == 9.0  # nothing later: the last


def test_waits_where_the_screen_went_on_changing_or_keys_follow_a_click(tmp_path: Path) -> None:
    actions = [
        _act("click", 2.0, 2.1, button=1),       # keys follow: wait
        _act("type", 3.0, 3.5, text="abc"),      # the screen changed right after typing only: no wait
        _act("click", 6.0, 6.1, button=1),       # a dialog drew for 0.8 s after it: wait
        _act("click", 9.0, 9.1, button=1),       # nothing changed, a scroll follows: no wait
        _act("scroll", 9.5, 9.5, direction="down", amount=1),  # nothing changed: no wait
        _act("hotkey", 10.0, 10.1, keys=["ctrl", "s"]),  # a chord that changed the screen: wait
        _act("type", 12.0, 12.2, text="x"),      # a slow redraw 0.5 s after typing: wait
    ]
    watcher = _watcher(tmp_path, [1.0, 4.0, 8.0, 11.0, 13.0], [3.55, 6.2, 6.9, 10.15, 12.7])
    assert [step.wait for step in _steps(actions, watcher)] == [True, False, True, False, False, True, True]
