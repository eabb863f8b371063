"""Fixtures shared by all tests."""

# --- displays (issue 3) -------------------------------------------------------
import shutil as _shutil
from collections.abc import Iterator as _Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pathlib import Path

    from deskact.runtime.tasks.steps import StepContext
    from deskact.runtime.world.display import Display
    from deskact.toolkits.base import ServiceHandle


def pytest_configure(config: pytest.Config) -> None:
    """Tests that stop a deskact command with Ctrl-C send it SIGINT; a test run started in the
    background by a shell without job control (``cmd &`` in a script) inherits SIGINT ignored, and so
    would every command it starts, which would then never stop. Python's own handler here gives
    the commands the default disposition again (a handler is reset at exec; "ignored" is not)."""
    import signal

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.hookimpl(tryfirst=True)  # before -m deselects by markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that asks for an X server needs a display, marked so or not: `-m "not display"`
    (make check) leaves it out."""
    for item in items:
        if {"requires_xvfb", "xdisplay"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.display)


@pytest.fixture
def requires_xvfb() -> None:
    """Skip (with the reason) where no X server can be started; everything else must work."""
    if _shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb): display tests need a real X server")


@pytest.fixture
def xdisplay(requires_xvfb: None) -> _Iterator["Display"]:
    """A fresh private 1280x800 Xvfb + openbox, stopped after the test."""
    from deskact.runtime.world.display import Display

    with Display(width=1280, height=800) as display:
        yield display


# --- kernels (issue 2) --------------------------------------------------------
@pytest.fixture(scope="session", autouse=True)
def no_orphan_kernels() -> _Iterator[None]:
    """Every kernel a test starts must be gone when the session ends."""
    import os
    import time

    yield
    from deskact.runtime.world.sandbox import kernel_processes

    deadline = time.monotonic() + 5
    while (left := kernel_processes(owner=os.getpid())) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, f"ipykernel processes outlived the test session: {left}"


# --- steps and judges ---------------------------------------------------------
@pytest.fixture
def ctx(tmp_path: "Path") -> "StepContext":
    """A workspace, a fixture folder and a gold folder, all empty."""
    from deskact.runtime.tasks.steps import StepContext

    for d in ("ws", "files", "gold", "home"):
        (tmp_path / d).mkdir()
    return StepContext(workspace=tmp_path / "ws", files=tmp_path / "files", home=tmp_path / "home",
                       gold=tmp_path / "gold", task_id="t")


@pytest.fixture
def chromium_profile(ctx: "StepContext", tmp_path: "Path", monkeypatch: pytest.MonkeyPatch) -> _Iterator["Path"]:
    """The host-mode Chromium profile (no world) browser judges read, under this test's own folder."""
    import tempfile
    from pathlib import Path

    from deskact.runtime.tasks import judge_server
    from deskact.toolkits.browser import chromium

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    judge_server.stop()  # judges' children are forked from a server that must see the new tempdir
    folder = Path(chromium.host_mode_profile(ctx.display)) / "Default"
    folder.mkdir(parents=True)
    yield folder
    judge_server.stop()  # and again once the tempdir is restored


@pytest.fixture(scope="module")
def handle(tmp_path_factory: pytest.TempPathFactory) -> _Iterator["ServiceHandle"]:
    """One Google emulator service for the module (reset per test by ``g``)."""
    from deskact.runtime.config import Config
    from deskact.toolkits.base import ServiceContext
    from deskact.toolkits.google.service import google_service

    with google_service(ServiceContext(0, tmp_path_factory.mktemp("g"), Config())) as h:
        yield h


@pytest.fixture
def g(ctx: "StepContext", handle: "ServiceHandle") -> "StepContext":
    """``ctx`` wired to the Google emulator, reset to empty."""
    from dataclasses import replace

    from deskact.runtime.config import Config
    from deskact.runtime.tasks.steps import run_reset

    gctx = replace(ctx, services={"google": handle.host}, config=Config())
    run_reset("google.reset", {}, gctx)
    return gctx


# --- worlds (issue 11) ----------------------------------------------------------
@pytest.fixture
def wctx(tmp_path: "Path") -> _Iterator["StepContext"]:
    """A StepContext whose ``world`` is a real, freshly made world (skipped where none can be made)."""
    import os

    from deskact.runtime.config import Config
    from deskact.runtime.tasks.steps import StepContext
    from deskact.runtime.world.world import World, world_status

    ok, why = world_status()
    if not ok:
        pytest.skip(f"this machine cannot make worlds: {why}")
    base = tmp_path / "world"  # beside ``ctx``'s folders: a test may use both
    for d in ("ws", "private", "files", "gold"):
        (base / d).mkdir(parents=True)
    world = World(Config(), workspace=base / "ws", private_dir=base / "private")
    os.chown(base / "private", world.uid, world.uid)
    world.start()
    try:
        yield StepContext(workspace=base / "ws", files=base / "files", home=base / "ws",
                          gold=base / "gold", task_id="t", world=world)
    finally:
        world.close()


# --- headless Chromium (the viewer and the watch page, issue 15) ----------------


@pytest.fixture(scope="module")
def chromium() -> _Iterator[object]:
    """A headless Chromium driven by selenium, one per test module (skips where it is not installed)."""
    if not _shutil.which("chromium") or not _shutil.which("chromedriver"):
        pytest.skip("needs chromium and chromedriver (apt: chromium chromium-driver)")
    import tempfile

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="deskact-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = _shutil.which("chromium") or ""
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run", "--window-size=1400,1000", f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=_shutil.which("chromedriver") or ""), options=opts)
    try:
        yield driver
    finally:
        driver.quit()
        _shutil.rmtree(profile, ignore_errors=True)
