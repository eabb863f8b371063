"""The world's boundary, attacked through the GUI like an agent: keys typed into the apps a reset started.

A scripted agent (code run with ``TaskEnv.execute``, exactly as a model's reply
would be) types into a real xterm and a real LibreOffice on a real Xvfb display
and clicks the window manager; the host then checks /proc, the cgroup files,
its own listener and the display's windows. The kernel side is test_world.py;
docs/sandbox.md cites both.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from deskact.reset_scripts import _x11
from deskact.reset_scripts.apps.terminal import _host_pid
from deskact.runtime.run.task_env import TaskEnv
from deskact.runtime.run.worker import Worker
from deskact.runtime.world.base import BASE_DIRS, EMPTY_DIRS, TOP_LINKS
from deskact.runtime.world.display import openbox_config

sys.path.insert(0, str(Path(__file__).parent))
from world_probes import (
    CHECKOUT,
    KERNEL_MODES,
    SECRET_NAME,
    SECRET_VALUE,
    assert_world_gone,
    check_kernel_mode,
    check_shadow,
    exposed_children,
    host_environ,
    host_listener,
    host_uids,
    net_probe_shell,
    require_worlds,
    secret_in_host_env,
    status,
    task,
    wait_until,
    world_config,
)

NEEDED = ("Xvfb", "openbox", "xterm", "xdotool")
pytestmark = [
    pytest.mark.display,
    pytest.mark.bwrap,
    pytest.mark.skipif(not all(shutil.which(p) for p in NEEDED), reason=f"needs {', '.join(NEEDED)}"),
]

TERMINAL = [("apps.terminal", {"title": "Terminal"})]
KILL_XTERM = [("apps.kill", {"name": "xterm"})]


@pytest.fixture(autouse=True)
def _worlds() -> None:
    require_worlds()


@pytest.fixture(scope="module")
def secret() -> Iterator[None]:
    with secret_in_host_env():
        yield


@pytest.fixture(scope="module", params=KERNEL_MODES)
def worker(request: pytest.FixtureRequest, secret: None) -> Iterator[tuple[Worker, str]]:
    """One worker (its own display) per kernel mode, shared by the module's tests, like a runner's."""
    with Worker(world_config(request.param)) as w:
        yield w, request.param


@pytest.fixture(scope="module")
def forked_worker(secret: None) -> Iterator[Worker]:
    with Worker(world_config("forked")) as w:
        yield w


def terminal_task(id: str) -> Any:
    return task(id, reset=TERMINAL, cleanup=KILL_XTERM, visual=True)


def type_in_terminal(env: TaskEnv, command: str, done: str, timeout: float = 30) -> None:
    """The agent types ``command`` into the terminal, then retitles it ``done`` to know it ran."""
    retitle = "printf '\\033]0;" + done + "\\007'\n"  # bash retitles xterm once the command has run
    code = (f"windows.activate('Terminal')\n"
            f"keyboard.type({command + chr(10)!r})\n"
            f"keyboard.type({retitle!r})\n"
            f"windows.wait_for({done!r}, timeout={timeout})\n")
    r = env.execute(code, timeout=timeout + 30)
    assert r.status == "ok", r


def sections(text: str) -> dict[str, str]:
    """Output of commands separated by ``=== name`` lines."""
    parts = re.split(r"^=== (\w+)$", text, flags=re.MULTILINE)
    return {parts[i]: parts[i + 1].strip("\n") for i in range(1, len(parts) - 1, 2)}


# -- a terminal ----------------------------------------------------------------------------------

def test_terminal_shows_nothing_of_the_host(worker: tuple[Worker, str]) -> None:
    w, mode = worker
    with host_listener() as listener, TaskEnv(terminal_task("t-term"), w) as env:
        env.reset()
        check_kernel_mode(env.session, mode)
        world = env.session.world
        probes = {
            "id": "id", "pid": "echo $$", "env": "env", "shadow": "cat /etc/shadow", "root": "ls -A /",
            "roothome": "ls -A /root", "checkout": f"ls -A {CHECKOUT}", "suites": f"ls {CHECKOUT}/task_suites",
            "net": net_probe_shell(listener.port),
        }
        script = "; ".join(f"echo '=== {name}'; {cmd}" for name, cmd in probes.items())
        type_in_terminal(env, f"({script}) > out.txt 2>&1", "finished")
        out = sections((env.workspace / "out.txt").read_text())

        assert out["id"].startswith("uid=0(root) gid=0(root)"), out["id"]
        shell = next(p for p in world.processes() if p.pid == int(out["pid"]))
        assert shell.name == "bash" and shell.uid == 0
        window = _x11.find_window(env.display.name, "finished")
        assert window is not None and window.pid
        xterm = _host_pid(env.context(), window.pid)  # _NET_WM_PID is a pid of the world's namespace
        assert xterm is not None and status(xterm)["Name"] == "xterm"
        assert status(xterm)["NSpid"].split()[-1] == str(window.pid)
        for pid in (shell.host_pid, xterm):
            assert all(u >= world.uid >= 100_000_000 for u in host_uids(pid)), f"pid {pid} is {host_uids(pid)} on the host"
            assert SECRET_VALUE.encode() not in host_environ(pid)
        assert SECRET_NAME not in out["env"] and SECRET_VALUE not in out["env"]

        check_shadow(out["shadow"] + "\n")
        allowed_root = set(EMPTY_DIRS) | set(TOP_LINKS) | set(BASE_DIRS) | exposed_children("/")
        assert set(out["root"].split()) <= allowed_root, set(out["root"].split()) - allowed_root
        assert set(out["roothome"].split()) <= exposed_children("/root"), out["roothome"]
        assert {"task_suites", ".git", "judges"}.isdisjoint(out["checkout"].split()), out["checkout"]
        assert "No such file" in out["suites"], out["suites"]

        assert out["net"].count("BLOCKED") == 2 and "CONNECTED" not in out["net"], out["net"]
        assert listener.accepted == [], f"the host's loopback listener was reached: {listener.accepted}"


def test_background_processes_from_the_terminal_die_at_cleanup(forked_worker: Worker) -> None:
    with TaskEnv(terminal_task("t-daemons"), forked_worker) as env:
        env.reset()
        world = env.session.world
        type_in_terminal(env, "nohup sleep 1001 >/dev/null 2>&1 & setsid sleep 1002 >/dev/null 2>&1 </dev/null & "
                              "( (sleep 1003 >/dev/null 2>&1 &) & ); nohup bash -c 'trap \"\" HUP TERM; "
                              "exec sleep 1004' >/dev/null 2>&1 & disown -a", "daemons")

        def sleepers() -> list[Any]:
            found = [p for p in world.processes() if p.name == "sleep" and p.cmdline.endswith(("1001", "1002", "1003", "1004", "1005"))]
            return found if len(found) == 4 else []

        started = wait_until(sleepers, 10, "the four background sleeps run")
        ns = os.readlink(f"/proc/{world.pid}/ns/pid")
        uid, cgroups = world.uid, list(world.cgroup.dirs) if world.cgroup else []
        assert env.cleanup() == []
    assert_world_gone(uid, ns, cgroups)
    assert not [p for p in started if Path(f"/proc/{p.host_pid}").exists()]


@pytest.fixture(scope="module")
def small_worker(secret: None) -> Iterator[Worker]:
    """A worker whose worlds have a small process limit (the fork bomb reaches it fast) and one CPU."""
    with Worker(world_config("forked", max_processes=200, cpus=1.0)) as w:
        yield w


def pids_at_limit(cgroup: Any) -> bool:
    group = cgroup.dirs[0]  # v1: the pids hierarchy; v2: the one group
    events = (group / "pids.events").read_text().split()
    return int(events[events.index("max") + 1]) > 0


def test_fork_bomb_in_the_terminal_is_contained(small_worker: Worker) -> None:
    with TaskEnv(terminal_task("t-bomb"), small_worker) as env:
        env.reset()
        world = env.session.world
        assert world.cgroup is not None and world.cgroup.dirs
        r = env.execute("windows.activate('Terminal')\nkeyboard.type(':(){ :|:& };:\\n')", timeout=30)
        assert r.status == "ok", r
        wait_until(lambda: pids_at_limit(world.cgroup), 30, "the bomb hits the world's pids limit")
        # the host keeps working: it can start processes, and the world's kernel still answers
        assert subprocess.run(["true"], check=False).returncode == 0
        assert env.execute("print(6 * 7)", timeout=30).stdout == "42\n"
        ns = os.readlink(f"/proc/{world.pid}/ns/pid")
        uid, cgroups = world.uid, list(world.cgroup.dirs)
        assert env.cleanup() == []
    assert_world_gone(uid, ns, cgroups)
    # the next task on the same worker runs normally
    with TaskEnv(terminal_task("t-after-bomb"), small_worker) as env:
        env.reset()
        type_in_terminal(env, "echo fine > ok.txt", "after")
        assert (env.workspace / "ok.txt").read_text() == "fine\n"
        assert env.execute("!echo kernel fine", timeout=30).stdout == "kernel fine\n"


# -- LibreOffice's file dialog -----------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_libreoffice_open_dialog_cannot_open_host_files(forked_worker: Worker, tmp_path: Path) -> None:
    host_doc = tmp_path / "host-notes.txt"
    host_doc.write_text(f"{SECRET_VALUE}\n")
    host_files = [Path("/root/.bashrc"), CHECKOUT / "task_suites" / "os" / "files.yaml", host_doc]
    host_files = [p for p in host_files if p.is_file()]
    assert len(host_files) >= 2
    t = task("t-lo", visual=True, reset=[
        ("office.docx", {"path": "memo.docx", "paragraphs": ["Hello"]}),
        ("files.write", {"path": "visible.txt", "content": "in the world\n"}),
        ("apps.open", {"path": "memo.docx", "window": "memo", "timeout": 120}),
    ], cleanup=[("apps.kill", {"name": "soffice"})])
    with TaskEnv(t, forked_worker) as env:
        env.reset()
        attempts = [*map(str, host_files), str(env.workspace / "visible.txt")]
        code = f"""
for path in {attempts!r}:
    windows.activate("memo")
    keyboard.hotkey("ctrl", "o")
    windows.wait_for("Open", timeout=30)
    keyboard.type(path + "\\n")
    if path.endswith("visible.txt"):
        windows.wait_for("visible.txt", timeout=60)
        print("OPENED", path)
        break
    windows.wait_for("Error", timeout=30)  # "<path> does not exist."
    print("REFUSED", path)
    keyboard.press("enter")
    windows.wait_closed("Error", timeout=30)
    keyboard.press("escape")
    windows.wait_closed("Open", timeout=30)
"""
        r = env.execute(code, timeout=240)
        assert r.status == "ok", r
        assert r.stdout.split("\n")[:-1] == [f"REFUSED {p}" for p in host_files] + [f"OPENED {attempts[-1]}"], r.stdout
        titles = [w.title for w in _x11.list_windows(env.display.name)]
        for p in host_files:
            assert not any(p.name in t for t in titles), titles
        assert any("visible.txt" in t for t in titles), titles  # the dialog does open what is in the world


# -- the window manager ----------------------------------------------------------------------------

def _menus(display: str) -> list[tuple[int, int]]:
    """Sizes of the viewable top-level windows bigger than a pixel. With no app on the display (no
    client frames), these are openbox's open menus (its other helper windows are 1x1)."""
    from Xlib import X
    from Xlib import display as xdisplay

    d = xdisplay.Display(display)
    try:
        found = []
        for child in d.screen().root.query_tree().children:
            if child.get_attributes().map_state == X.IsViewable:
                geo = child.get_geometry()
                if geo.width > 1 and geo.height > 1:
                    found.append((geo.width, geo.height))
        return found
    finally:
        d.close()


def test_window_manager_starts_nothing_on_the_host(forked_worker: Worker) -> None:
    """openbox runs on the host, outside every world; its stock root menu (a right click on the desktop:
    "Terminal emulator" first) and key bindings ran programs there: one click gave a root shell."""
    rc = openbox_config().read_text()
    assert "Execute" not in rc and "Restart" not in rc
    menu_files = re.findall(r"<file>(.*?)</file>", rc)
    assert len(menu_files) == 1
    menu = Path(menu_files[0]).read_text()
    assert "<item" not in menu and "execute" not in menu.lower(), menu

    with TaskEnv(task("t-wm", visual=True), forked_worker) as env:
        env.reset()
        display = env.display.name
        wm = psutil.Process(env.display.pids["wm"])
        assert str(openbox_config()) in wm.cmdline()
        # The display is reset between tasks and openbox restarted with it: under load its start-up
        # window ("Openbox") can still be listed for a moment, so emptiness is waited for, bounded.
        wait_until(lambda: _x11.list_windows(display) == [] and _menus(display) == [], 10,
                   "the display is empty at the task's start")
        # The root menu still opens (right clicks reach openbox) ...
        assert env.execute("mouse.right_click(640, 400)", timeout=30).status == "ok"
        wait_until(lambda: _menus(display), 10, "openbox's root menu opens on a right click")
        # ... but its first entry, and every stock key binding that ran a program, start nothing.
        r = env.execute("keyboard.press('down')\nkeyboard.press('enter')\nkeyboard.press('escape')\n"
                        "keyboard.press('escape')\nkeyboard.hotkey('winleft', 'e')\nkeyboard.press('printscreen')\n"
                        "keyboard.hotkey('alt', 'printscreen')", timeout=30)
        assert r.status == "ok", r
        deadline = time.monotonic() + 2  # absence can only be waited for: a short bounded watch
        while time.monotonic() < deadline:
            assert not wm.children(recursive=True), f"openbox started {wm.children(recursive=True)}"
            assert _x11.list_windows(display) == [], "a window opened"
            time.sleep(0.05)


# -- two workers at once ------------------------------------------------------------------------------

def test_two_workers_see_nothing_of_each_other(secret: None) -> None:
    with Worker(world_config("forked")) as wa, Worker(world_config("exec"), worker_id=1) as wb, \
            TaskEnv(task("t-a", visual=True), wa) as a, TaskEnv(task("t-b", visual=True), wb) as b:
        a.reset()
        b.reset()
        assert a.display.name != b.display.name
        sleeps = {"t-a": "4142", "t-b": "4242"}
        for me in (a, b):
            r = me.execute(f"!echo {me.task.id}-tmp > /tmp/marker && nohup sleep {sleeps[me.task.id]} "
                           ">/dev/null 2>&1 &", timeout=30)
            assert r.status == "ok", r
        for me, other in ((a, b), (b, a)):
            other_sleep = sleeps[other.task.id]
            wait_until(lambda o=other, sl=other_sleep: any(p.cmdline.endswith(sl) for p in o.session.world.processes()),
                       10, "the other world's sleep runs")
            probes = {
                "x11": "ls -A /tmp/.X11-unix", "marker": "cat /tmp/marker", "theirs": f"ls {other.workspace} 2>&1",
                "ps": "ps ax -o pid=,args=", "otherx": f"DISPLAY={other.display.name} xdotool getmouselocation 2>&1",
                "myx": f"DISPLAY={me.display.name} xdotool getmouselocation 2>&1",
            }
            r = me.execute("!" + "; ".join(f"echo '=== {n}'; {c}" for n, c in probes.items()), timeout=30)
            out = sections(r.stdout)
            mine_x = f"X{me.display.name.lstrip(':')}"
            assert out["x11"].split() == [mine_x], out["x11"]
            assert out["marker"] == f"{me.task.id}-tmp", out["marker"]
            assert "No such file" in out["theirs"], out["theirs"]
            assert other_sleep not in out["ps"] and "pytest" not in out["ps"], out["ps"]
            assert all(int(line.split()[0]) < 1000 for line in out["ps"].splitlines()), out["ps"]
            assert "x:" not in out["otherx"] and "x:" in out["myx"], out
            code = (f"from Xlib import display\ntry:\n    display.Display({other.display.name!r}).close()\n"
                    f"    print('CONNECTED')\nexcept Exception as exc:\n    print('REFUSED', type(exc).__name__)")
            assert me.execute(code, timeout=30).stdout.startswith("REFUSED"), "Xlib reached the other display"
