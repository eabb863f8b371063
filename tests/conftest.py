"""Fixtures shared by all tests."""

import pytest


# --- displays (issue 3) -------------------------------------------------------
import shutil as _shutil
from typing import Iterator as _Iterator


@pytest.fixture
def requires_xvfb() -> None:
    """Skip (with the reason) where no X server can be started; everything else must work."""
    if _shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb): display tests need a real X server")


@pytest.fixture
def xdisplay(requires_xvfb: None) -> _Iterator["Display"]:
    """A fresh private 1280x800 Xvfb + openbox, stopped after the test."""
    from deskact.runtime.display import Display

    with Display(width=1280, height=800) as display:
        yield display


# --- kernels (issue 2) --------------------------------------------------------
@pytest.fixture(scope="session", autouse=True)
def no_orphan_kernels() -> _Iterator[None]:
    """Every kernel a test starts must be gone when the session ends."""
    import os
    import time

    yield
    from deskact.runtime.sandbox import kernel_processes

    deadline = time.monotonic() + 5
    while (left := kernel_processes(owner=os.getpid())) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, f"ipykernel processes outlived the test session: {left}"
