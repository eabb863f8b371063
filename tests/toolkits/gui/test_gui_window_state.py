"""windows.maximize/minimize/restore return once the window manager reports the new state, as the
windows.state judge reads it (_NET_WM_STATE), so the agent's next step never sees it half done."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from deskact.judges.windows import windows_state
from deskact.runtime.tasks.steps import StepContext
from deskact.runtime.world.display import Display

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gui_testing import run_gui

pytestmark = pytest.mark.display


def _state(display: Display, tmp_path: Path, title: str, state: str) -> bool:
    ctx = StepContext(workspace=tmp_path, files=tmp_path, home=tmp_path, display=display.name)
    return windows_state(ctx, contains=title, state=state).passed  # type: ignore[arg-type]


def test_maximize_minimize_restore_are_done_on_return(xdisplay: Display, tmp_path: Path) -> None:
    out = run_gui(
        xdisplay,
        """
        apps.launch("xterm -T Alpha -geometry 40x10+10+10", window="Alpha")
        apps.launch("xterm -T Beta -geometry 40x10+400+300", window="Beta")
        before = windows.find("Beta")
        w = windows.maximize("Alpha")
        print(w.width >= screen.size[0] - 10, w.height >= screen.size[1] - 40)
        windows.minimize("Beta")
        print(windows.active() is None or windows.active().title != "Beta")
        w = windows.restore("Beta")
        print(windows.active().title, (w.x, w.y) == (before.x, before.y))
        """,
        tmp_path,
    )
    assert out.split("\n")[:3] == ["True True", "True", "Beta True"], out
    assert _state(xdisplay, tmp_path, "Alpha", "maximized")
    assert _state(xdisplay, tmp_path, "Beta", "normal")
    run_gui(xdisplay, 'windows.minimize("Beta")\nwindows.restore("Alpha")\n', tmp_path)
    assert _state(xdisplay, tmp_path, "Beta", "minimized")
    assert _state(xdisplay, tmp_path, "Alpha", "normal")
