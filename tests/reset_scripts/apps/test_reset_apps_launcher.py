"""apps.* reset steps and the windows.title judge on a real Xvfb + openbox display."""

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from deskact.reset_scripts._x11 import list_windows
from deskact.runtime.tasks.steps import StepContext, StepFailed, run_judge, run_reset

pytestmark = [
    pytest.mark.display,
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed (apt install xvfb)"),
]


def _wm_running(display: str) -> bool:
    from Xlib import display as xdisplay

    d = xdisplay.Display(display)
    try:
        return d.get_selection_owner(d.intern_atom("WM_S0")) != 0
    finally:
        d.close()


@pytest.fixture(scope="module")
def xdisplay() -> Iterator[str]:
    """Xvfb on a free display number (reported through -displayfd) with openbox managing it."""
    read_fd, write_fd = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    os.close(write_fd)
    with os.fdopen(read_fd) as f:
        number = f.readline().strip()
    if not number:
        xvfb.kill()
        pytest.skip("Xvfb did not report a display number")
    display = f":{number}"
    wm = None
    if shutil.which("openbox"):
        def start_wm() -> subprocess.Popen[bytes]:
            return subprocess.Popen(["openbox"], env=dict(os.environ, DISPLAY=display),
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)

        wm, restarts = start_wm(), 0
        deadline = time.monotonic() + 60  # a loaded CI box; the probe returns as soon as openbox is up
        while not _wm_running(display):  # probe, no fixed sleep
            if wm.poll() is not None and restarts < 2:  # openbox can exit during its own start-up
                wm, restarts = start_wm(), restarts + 1
            assert time.monotonic() < deadline, (
                f"openbox did not take WM_S0 within 60 s (exit status {wm.poll()}, restarts {restarts}, "
                f"stderr {wm.stderr.read(2000) if wm.poll() is not None and wm.stderr else b''!r})")
            time.sleep(0.02)
    yield display
    for proc in (wm, xvfb):
        if proc is not None:
            proc.terminate()
            proc.wait(5)


@pytest.fixture
def gctx(ctx: StepContext, xdisplay: str) -> Iterator[StepContext]:
    ctx.display = xdisplay
    yield ctx
    # Leave nothing running on the shared display for the next test.
    for name in ("xterm", "mousepad", "soffice", "sleep"):
        run_reset("apps.kill", {"name": name}, ctx)


def titles(display: str) -> list[str]:
    return [w.title for w in list_windows(display)]


@pytest.mark.skipif(shutil.which("xterm") is None, reason="xterm is not installed")
def test_launch_waits_for_window_then_kill_closes_it(gctx: StepContext) -> None:
    run_reset("apps.launch", {"cmd": "xterm -title 'deskact probe ${WORKSPACE}'", "window": "DESKACT PROBE"}, gctx)
    # No sleep between launch and the check: launch returned only once the window existed.
    assert any(t.startswith("deskact probe") for t in titles(gctx.display))
    v = run_judge("windows.title", {"contains": "probe"}, gctx)
    assert v.passed and v.feedback == "window 'deskact probe the workspace' is open"
    v = run_judge("windows.title", {"contains": "probe", "present": False}, gctx)
    assert v.feedback == "a window titled 'deskact probe the workspace' should be closed but is open"

    run_reset("apps.kill", {"name": "deskact probe"}, gctx)
    assert not any("deskact probe" in t for t in titles(gctx.display))
    assert run_judge("windows.title", {"contains": "probe", "present": False}, gctx).passed
    run_reset("apps.kill", {"name": "deskact probe"}, gctx)  # nothing left: still fine


def test_windows_title_fail_lists_open_windows(gctx: StepContext) -> None:
    v = run_judge("windows.title", {"contains": "Calculator"}, gctx)
    assert not v.passed and not v.error
    assert v.feedback.startswith("no window title contains 'Calculator'; open windows: ")


def test_launch_reports_a_crash_with_stderr(gctx: StepContext) -> None:
    with pytest.raises(StepFailed, match=r"apps.launch: sh -c 'echo no such app >&2; exit 4' exited with 4 before a window appeared: no such app"):
        run_reset("apps.launch", {"cmd": "sh -c 'echo no such app >&2; exit 4'", "window": "x"}, gctx)


def test_launch_timeout_names_windows_present(gctx: StepContext) -> None:
    with pytest.raises(StepFailed, match=r"no window titled like 'never' on :\d+ after 0.5 s \(windows: "):
        run_reset("apps.launch", {"cmd": "sleep 600", "window": "never", "timeout": 0.5}, gctx)


def test_launch_missing_program(gctx: StepContext) -> None:
    with pytest.raises(StepFailed, match="apps.launch: cannot start 'no-such-program-xyz'"):
        run_reset("apps.launch", {"cmd": "no-such-program-xyz", "window": "x"}, gctx)


def test_kill_touches_only_this_display(gctx: StepContext) -> None:
    marker = "deskact-kill-marker"
    code = "import time; time.sleep(600)"
    mine = subprocess.Popen([sys.executable, "-c", code, marker], env=dict(os.environ, DISPLAY=gctx.display))
    other = subprocess.Popen([sys.executable, "-c", code, marker], env=dict(os.environ, DISPLAY=":987"))
    try:
        run_reset("apps.kill", {"name": marker}, gctx)
        assert mine.wait(5) is not None
        assert other.poll() is None, "a process on another display was killed"
    finally:
        for p in (mine, other):
            p.kill()
            p.wait()


@pytest.mark.skipif(shutil.which("mousepad") is None, reason="mousepad is not installed")
def test_open_text_file_in_mousepad(gctx: StepContext) -> None:
    (gctx.workspace / "notes.txt").write_text("hello")
    run_reset("apps.open", {"path": "${WORKSPACE}/notes.txt"}, gctx)
    assert run_judge("windows.title", {"contains": "notes.txt"}, gctx).passed
    run_reset("apps.kill", {"name": "mousepad"}, gctx)
    assert not run_judge("windows.title", {"contains": "notes.txt"}, gctx).passed


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_open_docx_in_libreoffice(gctx: StepContext) -> None:
    run_reset("office.docx", {"path": "memo.docx", "paragraphs": ["Hello"]}, gctx)
    run_reset("apps.open", {"path": "memo.docx", "window": "memo", "timeout": 120}, gctx)
    v = run_judge("windows.title", {"contains": "LibreOffice"}, gctx)
    assert v.passed, v.feedback


def test_open_unknown_extension_and_missing_file(gctx: StepContext) -> None:
    (gctx.workspace / "pic.xyz").write_bytes(b"\0")
    with pytest.raises(StepFailed, match=r"apps.open: no default app for 'pic.xyz'; pass `app`"):
        run_reset("apps.open", {"path": "pic.xyz"}, gctx)
    with pytest.raises(StepFailed, match="apps.open: .*/gone.txt does not exist"):
        run_reset("apps.open", {"path": "gone.txt"}, gctx)


def test_apps_need_a_display(ctx: StepContext) -> None:
    with pytest.raises(StepFailed, match="apps.launch needs a display, but task t has none"):
        run_reset("apps.launch", {"cmd": "xterm", "window": "x"}, ctx)
    v = run_judge("windows.title", {"contains": "x"}, ctx)
    assert v.error and "windows.title needs a display" in v.feedback


def _eventually(judge_name: str, params: dict, ctx: StepContext, timeout: float = 10):  # type: ignore[no-untyped-def]
    """The WM applies wmctrl requests asynchronously: poll the judge until it passes or time runs out."""
    deadline = time.monotonic() + timeout
    while True:
        v = run_judge(judge_name, params, ctx)
        if v.passed or time.monotonic() > deadline:
            return v
        time.sleep(0.05)


@pytest.mark.skipif(shutil.which("xterm") is None or shutil.which("wmctrl") is None, reason="needs xterm and wmctrl")
def test_windows_state_and_geometry(gctx: StepContext) -> None:
    run_reset("apps.launch", {"cmd": "xterm -title geomprobe -geometry 40x10+0+0", "window": "geomprobe"}, gctx)
    v = run_judge("windows.state", {"contains": "geomprobe", "state": "maximized"}, gctx)
    assert v.feedback.startswith("window 'geomprobe' should be maximized but is normal (_NET_WM_STATE: ")
    v = run_judge("windows.geometry", {"contains": "geomprobe", "box": [0, 0, 0.5, 1]}, gctx)
    assert v.feedback.startswith("window 'geomprobe' is ") and "right edge at" in v.feedback

    env = dict(os.environ, DISPLAY=gctx.display or "")
    subprocess.run(["wmctrl", "-r", "geomprobe", "-e", "0,0,0,640,760"], env=env, check=True)
    v = _eventually("windows.geometry", {"contains": "geomprobe", "box": [0, 0, 0.5, 1], "tolerance": 0.06}, gctx)
    assert v.passed, v.feedback
    subprocess.run(["wmctrl", "-r", "geomprobe", "-b", "add,maximized_vert,maximized_horz"], env=env, check=True)
    v = _eventually("windows.state", {"contains": "geomprobe", "state": "maximized"}, gctx)
    assert v.passed, v.feedback
    assert not run_judge("windows.state", {"contains": "geomprobe", "state": "normal"}, gctx).passed
    v = run_judge("windows.state", {"contains": "nosuchwindow", "state": "normal"}, gctx)
    assert v.feedback.startswith("no window title contains 'nosuchwindow'; open windows: ")
    from deskact.runtime.tasks.steps import lookup

    with pytest.raises(ValueError, match="must hold fractions of the screen"):
        lookup("judge", "windows.geometry").validate({"contains": "x", "box": [0, 0, 2, 1]})


def test_kill_in_a_world_signals_the_app_not_the_nsenter_that_started_it(xdisplay: str, tmp_path) -> None:
    """The host-side nsenter names the app too; killed first, it would orphan the app to the host's
    init (which may reap it a second later): apps.kill looks only at the world's own processes."""
    from deskact.reset_scripts.apps.launcher import processes_on_display
    from deskact.runtime.config import Config
    from deskact.runtime.world.world import World, world_status

    ok, why = world_status()
    if not ok:
        pytest.skip(f"this machine cannot make worlds: {why}")
    for d in ("ws", "private", "files"):
        (tmp_path / d).mkdir()
    world = World(Config(), workspace=tmp_path / "ws", private_dir=tmp_path / "private", display=xdisplay)
    os.chown(tmp_path / "private", world.uid, world.uid)
    world.start()
    try:
        ctx = StepContext(workspace=tmp_path / "ws", files=tmp_path / "files", home=tmp_path / "ws",
                          display=xdisplay, world=world)
        marker = "deskact-world-kill-marker"
        wrapper = world.spawn([sys.executable, "-c", "import time; time.sleep(600)", marker])
        deadline = time.monotonic() + 10
        while not (inside := [p for p in world.processes() if marker in p.cmdline]):
            assert time.monotonic() < deadline, "the app did not start in its world"
            time.sleep(0.01)
        assert [p.pid for p in processes_on_display(marker, xdisplay, world)] == [inside[0].host_pid]
        run_reset("apps.kill", {"name": marker}, ctx)
        assert not [p for p in world.processes() if marker in p.cmdline]
        assert wrapper.wait(5) is not None  # nsenter ends with its app
    finally:
        world.close()


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_fresh_libreoffice_profiles_name_the_installed_version_as_the_last_one_run() -> None:
    """Without it every fresh profile (one per world) restarts soffice.bin on its first start."""
    from deskact.reset_scripts.apps.launcher import _lo_registry

    version = subprocess.run(["soffice", "--version"], capture_output=True, text=True, check=True).stdout.split()[1]
    major_minor = ".".join(version.split(".")[:2])
    assert f'oor:name="ooSetupLastVersion" oor:op="fuse"><value>{major_minor}</value>' in _lo_registry()
