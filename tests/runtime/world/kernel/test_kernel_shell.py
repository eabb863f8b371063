"""`!cmd` in the kernel: IPython semantics, bash, background jobs, interrupts."""

import pytest
from deskact.runtime.config import Config
from deskact.runtime.world.kernel import KernelSession


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    cfg = Config()
    cfg.kernel.interrupt_grace = 5  # the default 0.5 s restarts an interrupted kernel on a loaded box
    with KernelSession(cfg, workspace=tmp_path_factory.mktemp("ws")) as session:
        session.start()
        yield session


def test_output_is_streamed_interleaved_and_vars_expand(kernel):
    r = kernel.execute("name = 'abc'\n!echo $name; echo err >&2; echo $WORKSPACE")
    assert r.status == "ok"
    assert r.stdout == f"abc\nerr\n{kernel.workspace}\n"


def test_exit_code_lands_in_the_namespace(kernel):
    assert kernel.execute("!exit 3\nprint(_exit_code)").stdout == "3\n"


def test_bash_features_work(kernel):
    assert kernel.execute("!mkdir -p tree/{a,b} && ls tree").stdout.split() == ["a", "b"]


def test_background_command_returns_at_once(kernel):
    r = kernel.execute("!sleep 30 &", timeout=5)
    assert r.status == "ok" and "background" in r.stdout
    assert r.duration_s < 5


def test_interrupt_stops_the_command_and_keeps_the_kernel(kernel):
    r = kernel.execute("!sleep 61; echo never", timeout=1)
    assert r.status == "timeout" and not r.restarted
    assert "never" not in r.stdout
    left = kernel.execute("!pgrep -fc '^sleep 61' || true").stdout.strip()
    assert left == "0"


def test_unknown_names_are_left_to_bash(kernel):
    assert kernel.execute("n = 5\n!echo $n {1,2} $HOME").stdout == f"5 1 2 {kernel.workspace}\n"
