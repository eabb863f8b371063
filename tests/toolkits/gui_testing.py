"""Helpers shared by the GUI toolkit tests (imported by path: tests have no packages)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.world.display import Display
from deskact.toolkits.base import load_toolkit
from deskact.toolkits.gui import kernel_env


def run_gui(display: Display, code: str, cwd: Path, config: Config | None = None, timeout: float = 120,
            env_drop: tuple[str, ...] = ()) -> str:
    """Run toolkit code as a fresh kernel would (new process, new X connections): preload, then ``code``."""
    env = {**os.environ, **kernel_env(config or Config(), display), "DISPLAY": display.name, "HOME": str(cwd)}
    for name in env_drop:
        env.pop(name, None)
    program = load_toolkit("gui").preload_code() + textwrap.dedent(code)
    proc = subprocess.run(
        [sys.executable, "-c", program], env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert proc.returncode == 0, f"toolkit code failed:\n{proc.stderr}"
    return proc.stdout


def wait_until(check: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout}s waiting until {what}")
        time.sleep(0.05)


def file_holds(path: Path, text: str) -> Callable[[], bool]:
    return lambda: path.is_file() and path.read_text(encoding="utf-8") == text
