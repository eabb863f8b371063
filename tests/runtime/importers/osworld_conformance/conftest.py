"""The conformance tests' link to OSWorld's own metrics: one desktop-env process per session.

The conformance venv (``scripts/setup_conformance.sh``, called by ``scripts/setup.sh``) holds
desktop-env 1.0.2 and the libraries its metric modules import. Without it these tests skip,
except under CI (``CI=true``), where a missing venv fails them.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[4]
PYTHON = Path(os.environ.get("DESKACT_CONFORMANCE_PYTHON") or ROOT / ".venv-conformance" / "bin" / "python")
"""The conformance venv's python (DESKACT_CONFORMANCE_PYTHON points elsewhere: the gate's own test)."""
SERVER = Path(__file__).with_name("desktop_env_server.py")


class DesktopEnv:
    """Calls desktop-env's metric functions in the conformance venv."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc

    def score(self, module: str, func: str, *args: Any, **kwargs: Any) -> float:
        """The metric's score; a metric that raises scores 0, as a failed evaluation does in OSWorld."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"module": module, "func": func, "args": list(args), "kwargs": kwargs}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, f"desktop-env's runner died (stderr: {self.proc.stderr.read() if self.proc.stderr else ''})"
        answer = json.loads(line)
        return 0.0 if "error" in answer else answer["score"]

    def passes(self, module: str, func: str, *args: Any, **kwargs: Any) -> bool:
        """OSWorld counts a task solved when its metric gives 1."""
        return self.score(module, func, *args, **kwargs) >= 1.0

    def getter(self, module: str, func: str, vm_path: str, files: dict[str, Path],
               config: dict[str, Any] | None = None) -> Any:
        """What desktop-env's getter ``func`` returns, given ``config``, when the VM path it asks
        for is ``vm_path`` and the VM's files are ``files`` (vm path -> local file)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"getter": module, "func": func, "output": vm_path, "config": config or {},
                                          "files": {k: str(v) for k, v in files.items()}}) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        assert "value" in answer, answer
        return answer["value"]


@pytest.fixture(scope="session")
def desktop_env() -> Iterator[DesktopEnv]:
    if not PYTHON.exists():
        message = f"{PYTHON} is missing: run scripts/setup_conformance.sh"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message + " (CI runs the conformance tests)")
        pytest.skip(message)
    proc = subprocess.Popen([str(PYTHON), str(SERVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    try:
        yield DesktopEnv(proc)
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=30)


def _agent_path(vm_path: str) -> str:
    return "${HOME}/" + vm_path.removeprefix("/home/user/")


def _cache_path(name: str) -> str:
    return "${HOME}/.osworld-cache/" + name


def _shell_text(command: str | list[str]) -> str:
    return (command if isinstance(command, str) else shlex.join(command)).replace("$", "$$")


class Deskact:
    """An OSWorld evaluator translated by the importer's table and judged by deskact, in-process."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx

    def home_file(self, vm_path: str) -> Path:
        """Where the task's file at ``vm_path`` (under /home/user) lives for the judges."""
        path = self.ctx.home / vm_path.removeprefix("/home/user/")
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    def passes(self, evaluator: dict[str, Any], gold: dict[str, Path] | None = None, errors_fail: bool = False) -> bool:
        """Every judge of the translation passes; ``gold`` maps an expected file's URL to the file.
        A judge that errors fails the test unless ``errors_fail`` (where OSWorld's metric raises too)."""
        from deskact.runtime.importers.osworld_metrics import translate_evaluator
        from deskact.runtime.tasks.steps import run_judge

        def fetch(url: str, name: str) -> str:
            (self.ctx.gold / name).write_bytes((gold or {})[url].read_bytes())
            return name

        translation = translate_evaluator(evaluator, fetch, _agent_path, _shell_text, _cache_path)
        assert not translation.reasons, translation.reasons
        verdicts = [run_judge(name, params, self.ctx) for s in translation.judge for name, params in s.items()]
        assert errors_fail or not any(v.error for v in verdicts), [v.feedback for v in verdicts]
        self.feedback = "; ".join(v.feedback for v in verdicts if not v.passed)
        return all(v.passed for v in verdicts)


@pytest.fixture
def deskact(ctx: Any) -> Deskact:
    return Deskact(ctx)
