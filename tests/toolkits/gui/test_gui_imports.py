"""The gui toolkit's modules import in any order, and its kernel side stays off the host's capture code.

Each check runs in a fresh interpreter: in this one, other tests have long since
imported everything, which would hide both an import cycle and a heavy import.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import deskact.toolkits.gui
import pytest

GUI_DIR = Path(deskact.toolkits.gui.__file__).parent
GUI_MODULES = sorted(path.stem for path in GUI_DIR.glob("*.py") if path.stem != "__init__")


def _python(code: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          check=False, env=env)


def test_the_module_list_is_the_toolkit() -> None:
    assert {"api", "coordinates", "windows", "a11y_api"} <= set(GUI_MODULES)


@pytest.mark.parametrize("module", GUI_MODULES)
def test_each_gui_module_imports_first(module: str) -> None:
    """A module-level import cycle shows up only when a module in it is imported first."""
    proc = _python(f"import deskact.toolkits.gui.{module}")
    assert proc.returncode == 0, proc.stderr


# What the runtime needs to grab and encode screenshots; the kernel needs none of it.
CAPTURE_MODULES = ("deskact.runtime.screen", "deskact.runtime.agent.observation", "cv2", "simplejpeg", "numpy")

KERNEL_SIDE = """
import sys
from PIL import Image
from deskact.toolkits.gui import api, coordinates

# No display here: give the toolkit a 1920x1080 screen and a grab of it.
api._screen_pixels = coordinates._screen_pixels = lambda: (1920, 1080)
api._grab = lambda: Image.new("RGB", (1920, 1080), "white")
assert api.screen.scale == 2 / 3, api.screen.scale
assert api.screen.size == (1280, 720), api.screen.size
assert api.screen.screenshot().size == (1280, 720)
assert coordinates._to_screen(640, 360) == (960, 540)
names = set(sys.modules)
print(sorted(name for name in names if any(name == c or name.startswith(c + ".") for c in {capture!r})))
"""


def test_kernel_side_scaling_imports_no_capture_code() -> None:
    code = KERNEL_SIDE.format(capture=CAPTURE_MODULES)
    env_code = ("import os; os.environ.update(DESKACT_OBSERVATION_MAX_WIDTH='1280', "
                "DESKACT_OBSERVATION_MAX_HEIGHT='720')\n")
    proc = _python(env_code + code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
