"""Acceptance: a provider added by a separate package's entry point runs a suite.

The package is docs/models.md's example ("Your own provider or agent"): an agent with its own loop
(one model call, one block, done) registered as provider ``oneshot`` in the ``deskact.models``
entry-point group. It is pip-installed into the venv, outside the checkout, and
``deskact run SUITE --model oneshot/reference`` passes a small suite through the CLI.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from deskact.runtime.world.base import PACKAGE_ROOT

sys.path.insert(0, str(Path(__file__).parents[3]))
from package_install import BIN, doc_files, installed, write_package

# Seconds each (a package pip-installed, suites run through the CLI): not in make check's fast tests.
pytestmark = pytest.mark.slow

DOC = PACKAGE_ROOT / "docs" / "models.md"
SECTION = "## Your own provider or agent"
ENV = {**os.environ, "DESKACT_CONFIG": "", "DESKACT_DISPLAY_MODE": "none", "NO_COLOR": "1", "COLUMNS": "200"}

SUITE = """\
tasks:
  - id: oneshot-file
    instruction: Write "hello" into hello.txt in ${WORKSPACE}.
    judge:
      - files.content: {path: hello.txt, equals: hello}
    reference: open("hello.txt", "w").write("hello")

  - id: oneshot-answer
    instruction: Print six times seven.
    judge:
      - answer.contains: {text: "42"}
    reference: print(6 * 7)
"""


@pytest.fixture(scope="module")
def oneshot_package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    files = doc_files(DOC, SECTION, "oneshot-agent")
    assert sorted(files) == ["oneshot_agent.py", "pyproject.toml"]
    root = write_package(tmp_path_factory.mktemp("model-package") / "oneshot-agent", files)
    with installed(root, "oneshot-agent"):
        yield root


def deskact(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "deskact"), *map(str, args)], cwd=cwd, env=ENV, capture_output=True,
                          text=True, timeout=900, check=False)


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    (tmp_path / "suite").mkdir()
    (tmp_path / "suite" / "tasks.yaml").write_text(SUITE)
    return tmp_path / "suite"


def test_a_suite_runs_with_the_packages_agent(oneshot_package: Path, suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = deskact("run", "suite", "--model", "oneshot/reference", "--out", out, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert {r["task_id"]: (r["status"], r["model"], r["steps"]) for r in results} == {
        "oneshot-file": ("passed", "oneshot/reference", 1), "oneshot-answer": ("passed", "oneshot/reference", 1)}
    # The agent's own loop ended each episode after its one step (the built-in loop would have asked again).
    episode = json.loads((out / "trajectories" / "oneshot-answer" / "episode.json").read_text())
    assert episode["finish_reason"] == "done" and len(episode["steps"]) == 1


def test_an_unknown_model_lists_the_packages_provider(oneshot_package: Path, suite: Path, tmp_path: Path) -> None:
    done = deskact("run", "suite", "--model", "onesht/reference", "--out", tmp_path / "o", cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "did you mean 'oneshot/reference'?" in done.stdout + done.stderr
