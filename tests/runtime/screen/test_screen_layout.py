"""Screen capture's old import paths (agent/ and world/) keep working, with a warning."""

from __future__ import annotations

import subprocess
import sys

import pytest

OLD_TO_NEW = {
    "deskact.runtime.agent.observation": "deskact.runtime.screen.screenshot",
    "deskact.runtime.observation": "deskact.runtime.screen.screenshot",
    "deskact.runtime.agent.frames": "deskact.runtime.screen.frames",
    "deskact.runtime.agent.jpeg_bands": "deskact.runtime.screen.jpeg_bands",
    "deskact.runtime.agent.shm_grab": "deskact.runtime.screen.shm_grab",
    "deskact.runtime.world.framebuffer": "deskact.runtime.screen.framebuffer",
}

CHECK = """
import importlib, sys, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    old = importlib.import_module({old!r})
new = importlib.import_module({new!r})
assert old is new, (old, new)
assert any(issubclass(w.category, DeprecationWarning) and {new!r} in str(w.message) for w in caught), \\
    [str(w.message) for w in caught]
"""


@pytest.mark.parametrize(("old", "new"), sorted(OLD_TO_NEW.items()))
def test_old_capture_path_is_the_new_module(old: str, new: str) -> None:
    # A fresh interpreter: here the new module is already imported under its own name.
    proc = subprocess.run([sys.executable, "-c", CHECK.format(old=old, new=new)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr


def test_screenshot_keeps_the_names_observation_had() -> None:
    from deskact.runtime.screen import screenshot

    for name in ("Grabber", "Screenshot", "capture", "decode", "encode_png", "fit_scale", "forget",
                 "scale_image", "scaled_size", "screenshot_from", "screenshot_from_frame", "with_frame"):
        assert hasattr(screenshot, name), name
