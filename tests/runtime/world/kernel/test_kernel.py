"""KernelSession: results, adversarial code, restarts, exit(), orphans, `deskact exec`.

One session is shared per module where a test leaves the kernel usable: each
adversarial test also checks that the *next* execute works, which is the
property that matters to the agent loop.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.errors import KernelError
from deskact.runtime.execution import ExecResult
from deskact.runtime.world.kernel import KernelSession
from deskact.runtime.world.sandbox import kernel_processes

PRELOAD = [("demo", "PRELOADED = 'yes'")]


def make_config() -> Config:
    cfg = Config()
    # Time to turn idle after an interrupt: an interrupted sleep took up to 3 s at load ~50 on 2 cores, and a
    # grace too short restarts the kernel, so the interrupt tests saw restarted=True.
    cfg.kernel.interrupt_grace = 5
    cfg.sandbox.max_processes = 64
    return cfg


@pytest.fixture(scope="module")
def session() -> Iterator[KernelSession]:
    os.environ["TEST_PARENT_SECRET_API_KEY"] = "hunter2"
    try:
        with KernelSession(make_config(), preload=PRELOAD, env={"GIVEN_VAR": "given"}) as s:
            yield s
    finally:
        os.environ.pop("TEST_PARENT_SECRET_API_KEY", None)


def assert_usable(s: KernelSession) -> None:
    r = s.execute("PRELOADED, 6 * 7", timeout=10)
    assert (r.status, r.result) == ("ok", "('yes', 42)"), r


# -- ordinary results ----------------------------------------------------------

def test_stdout_stderr_and_result(session: KernelSession) -> None:
    r = session.execute("import sys\nprint('out')\nprint('err', file=sys.stderr)\n40 + 2", timeout=10)
    assert (r.status, r.stdout, r.stderr, r.result, r.error) == ("ok", "out\n", "err\n", "42", None)
    assert not r.restarted and not r.exited and r.duration_s > 0


def test_error_has_plain_traceback(session: KernelSession) -> None:
    r = session.execute("def f():\n    return 1 / 0\nf()", timeout=10)
    assert r.status == "error" and r.error is not None
    assert (r.error.ename, r.error.evalue) == ("ZeroDivisionError", "division by zero")
    assert "\x1b" not in r.error.traceback and "return 1 / 0" in r.error.traceback


def test_shell_escape_and_magic(session: KernelSession) -> None:
    r = session.execute("!echo shell-$((40+2))", timeout=10)
    assert (r.status, r.stdout) == ("ok", "shell-42\n")
    r = session.execute("%pwd", timeout=10)
    assert (r.status, r.result) == ("ok", repr(str(session.workspace)))


def test_started_by_the_lean_launcher(session: KernelSession) -> None:
    # kernel.launcher leaves ipykernel's debugger (debugpy) out and collection off
    # during the imports; the extension must have turned collection back on.
    r = session.execute("import gc, sys\nprint(sys.modules.get('debugpy'), gc.isenabled(), gc.get_freeze_count() > 0)",
                        timeout=10)
    assert (r.status, r.stdout) == ("ok", "None True True\n"), r


def test_workspace_is_cwd_and_home(session: KernelSession) -> None:
    r = session.execute("import os\nprint(os.getcwd(), os.environ['HOME'], os.environ['WORKSPACE'])", timeout=10)
    ws = str(session.workspace)
    assert r.stdout.split() == [ws, ws, ws]


def test_environment_is_an_allowlist(session: KernelSession) -> None:
    r = session.execute(
        "import os\nprint(os.environ.get('TEST_PARENT_SECRET_API_KEY'), os.environ.get('GIVEN_VAR'))", timeout=10
    )
    assert (r.status, r.stdout) == ("ok", "None given\n")


def test_clear_output_is_honoured(session: KernelSession) -> None:
    code = "from IPython.display import clear_output\nprint('old')\nclear_output()\nprint('new')"
    assert session.execute(code, timeout=10).stdout == "new\n"
    code = "print('old')\nclear_output(wait=True)\nprint('new')"
    assert session.execute(code, timeout=10).stdout == "new\n"


def test_exit_finishes_without_killing_the_kernel(session: KernelSession) -> None:
    r = session.execute("marker = 7\nprint('before')\nexit()\nprint('after')", timeout=10)
    assert (r.status, r.exited, r.restarted, r.error, r.stdout) == ("ok", True, False, None, "before\n")
    r = session.execute("quit", timeout=10)  # IPython autocall form
    assert (r.status, r.exited) == ("ok", True)
    assert session.execute("marker", timeout=10).result == "7"


def test_infeasible_ends_like_exit_and_says_why(session: KernelSession) -> None:
    r = session.execute("print('looked')\ninfeasible('there is no such setting')\nprint('after')", timeout=10)
    assert (r.status, r.exited, r.error, r.stdout) == ("ok", True, None, "looked\n")
    assert r.infeasible == "there is no such setting" and not r.outputs[1:]
    assert session.execute("exit()", timeout=10).infeasible is None


@pytest.mark.parametrize("code", ["input('name? ')", "import getpass\ngetpass.getpass()"])
def test_input_gives_a_clear_error(session: KernelSession, code: str) -> None:
    r = session.execute(code, timeout=10)
    assert r.status == "error" and r.error is not None
    assert r.error.ename == "StdinNotImplementedError"
    assert r.error.evalue.startswith("input() is not available")
    assert not r.restarted


# -- hangs -----------------------------------------------------------------------

def test_busy_loop_is_interrupted(session: KernelSession) -> None:
    r = session.execute("kept = 1\nwhile True: pass", timeout=1)
    assert (r.status, r.restarted) == ("timeout", False)
    assert r.error is not None and r.error.ename == "KeyboardInterrupt"
    assert session.execute("kept", timeout=10).result == "1"  # state survived


def test_sleep_is_interrupted(session: KernelSession) -> None:
    r = session.execute("import time\ntime.sleep(1e6)", timeout=1)
    assert (r.status, r.restarted) == ("timeout", False)
    assert r.error is not None and r.error.ename == "KeyboardInterrupt"
    assert_usable(session)


@pytest.mark.slow  # waits out the interrupt's grace period before the restart: about 6 s
def test_sigint_ignoring_loop_is_restarted_and_preloaded(session: KernelSession) -> None:
    code = "lost = 1\nimport signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True: pass"
    r = session.execute(code, timeout=1)
    assert (r.status, r.restarted) == ("timeout", True)
    r = session.execute("'lost' in dir(), PRELOADED", timeout=10)
    assert r.result == "(False, 'yes')"


@pytest.mark.slow  # waits out the interrupt's grace period before the restart: about 6 s
def test_blocking_c_call_is_restarted(session: KernelSession) -> None:
    # Catastrophic backtracking runs in C holding the GIL: no signal handler can run.
    r = session.execute("import re\nre.match(r'(a+)+$', 'a' * 64 + 'b')", timeout=1)
    assert (r.status, r.restarted) == ("timeout", True)
    assert_usable(session)


@pytest.mark.slow  # waits out the interrupt's grace period before the restart: about 6 s
def test_stuck_await_is_restarted(session: KernelSession) -> None:
    r = session.execute("import asyncio\nawait asyncio.Event().wait()", timeout=1)
    assert (r.status, r.restarted) == ("timeout", True)
    assert_usable(session)


def test_interrupt_from_another_thread(session: KernelSession) -> None:
    timer = threading.Timer(0.5, session.interrupt)
    timer.start()
    r = session.execute("import time\ntime.sleep(60)", timeout=30)
    timer.join()
    assert (r.status, r.restarted) == ("error", False)
    assert r.error is not None and r.error.ename == "KeyboardInterrupt"


# -- crashes and resources ---------------------------------------------------------

@pytest.mark.parametrize("code", ["import os\nos._exit(1)", "import os\nos.kill(os.getpid(), 9)"])
def test_kernel_death_is_reported_and_recovered(session: KernelSession, code: str) -> None:
    r = session.execute("print('partial')\n" + code, timeout=20)
    assert (r.status, r.restarted) == ("kernel_died", True)
    assert_usable(session)


def test_huge_allocation_is_a_memory_error(session: KernelSession) -> None:
    r = session.execute("x = bytearray(16 * 2**30)", timeout=20)
    assert (r.status, r.restarted) == ("error", False)
    assert r.error is not None and r.error.ename == "MemoryError"
    assert_usable(session)


def test_memory_bomb_is_contained(session: KernelSession) -> None:
    r = session.execute("x = []\nwhile True: x.append(' ' * 10**6)", timeout=30)
    # RLIMIT_AS makes the allocation fail in the cell (or, if it hits a kernel
    # thread first, the kernel dies); never a hang.
    if r.status == "error":
        assert r.error is not None and r.error.ename == "MemoryError" and not r.restarted
    else:
        assert (r.status, r.restarted) == ("kernel_died", True)
    session.execute("x = None", timeout=10)
    assert_usable(session)


def test_200_mb_of_output_is_capped_at_capture(session: KernelSession) -> None:
    cap = session.config.kernel.capture_limit_bytes
    r = session.execute("line = 'x' * 999 + '\\n'\nfor i in range(200_000): print(line, end='')\nprint('END')",
                        timeout=60)
    assert (r.status, r.restarted) == ("ok", False)
    assert len(r.stdout) <= cap + 200
    assert r.stdout.count("characters dropped at capture") == 1
    assert r.stdout.startswith("x" * 999 + "\n") and r.stdout.endswith("x\nEND\n")


def test_fifty_figures_are_capped(session: KernelSession) -> None:
    code = textwrap.dedent("""
        import matplotlib
        matplotlib.use('module://matplotlib_inline.backend_inline')
        import matplotlib.pyplot as plt
        for i in range(50):
            plt.figure(figsize=(1, 1), dpi=30); plt.plot([0, i]); plt.show()
    """)
    r = session.execute(code, timeout=300)  # 50 figures took 64 s on a loaded box
    limit = session.config.kernel.max_images
    assert (r.status, len(r.images), r.images_dropped) == ("ok", limit, 50 - limit)
    assert all(im.media_type == "image/png" and im.data[:8] == b"\x89PNG\r\n\x1a\n" for im in r.images)


# -- preload and services ------------------------------------------------------------

def test_failing_preload_names_the_toolkit() -> None:
    with (pytest.raises(KernelError, match=r"preload of toolkit 'broken' failed: ZeroDivisionError"),
          KernelSession(make_config(), preload=[("fine", "a = 1"), ("broken", "1/0")])):
        pass


def test_local_service_reachable_through_forwarded_socket(tmp_path: Path) -> None:
    path = Path(tempfile.mkdtemp(prefix="deskact-svc-")) / "echo.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    os.chmod(path, 0o777)  # the sandbox uid connects to it
    os.chmod(path.parent, 0o755)
    server.listen(4)

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            conn.sendall(b"echo:" + conn.recv(100))

    threading.Thread(target=serve, daemon=True).start()
    code = textwrap.dedent("""
        import os, socket, urllib.parse
        url = urllib.parse.urlsplit(os.environ['ECHO_URL'])
        with socket.create_connection((url.hostname, url.port), timeout=5) as c:
            c.sendall(b'ping'); print(c.recv(100).decode())
    """)
    try:
        with KernelSession(make_config(), sockets={"ECHO_URL": path}) as s:
            r = s.execute(code, timeout=20)
        assert (r.status, r.stdout) == ("ok", "echo:ping\n"), r
    finally:
        server.close()
        path.unlink()
        path.parent.rmdir()


# -- no orphans ------------------------------------------------------------------------

CHILD = """
import sys, time
from deskact.runtime.config import Config
from deskact.runtime.world.kernel import KernelSession
s = KernelSession(Config()).start()
print("ready", flush=True)
if sys.argv[1] == "exit":
    sys.stdin.readline()  # exit when told: the test first checks that the kernel runs
    sys.exit(0)
time.sleep(600)
"""


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM", "exit"])
def test_kernels_die_with_the_runtime(how: str) -> None:
    child = subprocess.Popen([sys.executable, "-c", CHILD, how], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    try:
        assert child.stdout is not None
        line = child.stdout.readline().strip()
        assert line == "ready", f"child said {line!r}"
        assert kernel_processes(owner=child.pid), "the child's kernel should be running"
        if how == "exit":
            assert child.stdin is not None
            child.stdin.write("go\n")
            child.stdin.flush()
        else:
            child.send_signal(getattr(signal, how))
        code = child.wait(timeout=30)
        deadline = time.monotonic() + 10
        while kernel_processes(owner=child.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = kernel_processes(owner=child.pid)
        assert left == [], f"child exited with {code}; still running: {left}"
    finally:
        child.kill()
        child.wait()


def test_subprocess_output_reaches_the_result_not_the_kernel_log(session: KernelSession) -> None:
    r = session.execute("import os\nos.system('head -c 300000 /dev/zero | tr \"\\\\0\" x >&2; echo done')",
                        timeout=30)
    assert (r.status, r.stdout, len(r.stderr)) == ("ok", "done\n", 300000)
    assert session._private is not None
    assert sum(p.stat().st_size for p in session._private.glob("*.log")) == 0


def test_for_model_truncates_the_middle_with_a_marker() -> None:
    r = ExecResult(status="ok", stdout="a" * 50 + "b" * 50)
    text = r.for_model(20)
    assert text.startswith("a" * 10) and text.endswith("b" * 10)
    assert "[... 80 characters cut ...]" in text
    assert ExecResult(status="ok", stdout="hi\n").for_model(100) == "hi"


# -- deskact exec ----------------------------------------------------------------------

def test_deskact_exec_json_and_exit_code() -> None:
    from deskact.runtime.ui.cli import app
    from typer.testing import CliRunner

    env = {"DESKACT_TOOLKITS_ENABLED": "[]", "DESKACT_DISPLAY_MODE": "none"}
    result = CliRunner().invoke(app, ["exec", "--json", "--timeout", "10", "print('hi'); 1/0"], env=env)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert (data["status"], data["stdout"], data["error"]["ename"]) == ("error", "hi\n", "ZeroDivisionError")
