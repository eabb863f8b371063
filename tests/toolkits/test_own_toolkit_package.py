"""Acceptance: a user's own toolkit package (its pyproject, a per-worker SQLite service, a reset
step, a judge, a 3-task suite), built outside the checkout and pip-installed into the venv, is
validated and run through the CLI with the default sandbox (a world per task, as root).

The package's files are read from docs/toolkits.md ("End to end"), so that page is what is tested.
The same package is also installed as written against release 0.1's import paths
(``deskact.runtime.steps``, ``deskact.toolkits.base``): it still validates and runs, and says
it is deprecated.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from deskact.runtime.world.base import PACKAGE_ROOT

sys.path.insert(0, str(Path(__file__).parents[1]))
from package_install import BIN, doc_files, installed, write_package

# Seconds each (a package pip-installed, suites run through the CLI): not in make check's fast tests.
pytestmark = pytest.mark.slow

DOC = PACKAGE_ROOT / "docs" / "toolkits.md"
SECTION = "## End to end: a toolkit package of your own"
# Only the default sandbox: no overrides of sandbox, world or toolkits; no display is needed.
ENV = {**os.environ, "DESKACT_CONFIG": "", "DESKACT_DISPLAY_MODE": "none", "NO_COLOR": "1", "COLUMNS": "200"}


# What the docs' public imports were in release 0.1 (the test of the old paths).
RELEASE_0_1_IMPORTS = {
    "from deskact import StepContext, Verdict, judge, reset_step":
        "from deskact.runtime.steps import judge, reset_step, Verdict, StepContext, StepFailed",
    "from deskact import ServiceContext, ServiceHandle": "from deskact.toolkits.base import ServiceContext, ServiceHandle",
    "from deskact import Toolkit": "from deskact.toolkits.base import Toolkit",
}
OLD_STEPS_WARNING = "DeprecationWarning: deskact.runtime.steps is deprecated"


def example_files(variant: str = "public") -> dict[str, str]:
    """path in the package folder -> text, from the fenced blocks that start with `# memo-toolkit/PATH`;
    with ``variant="release-0.1"`` its deskact imports are the ones of release 0.1."""
    files = doc_files(DOC, SECTION, "memo-toolkit")
    if variant == "release-0.1":
        for path, text in files.items():
            for new, old in RELEASE_0_1_IMPORTS.items():
                text = re.sub(rf"^{re.escape(new)}$", old, text, flags=re.MULTILINE)
            files[path] = text
    return files


def deskact_imports(text: str) -> list[str]:
    return re.findall(r"^[ \t]*(?:from|import) deskact\b.*$", text, re.MULTILINE)


@pytest.fixture(scope="module", params=["public", "release-0.1"])
def memo_package(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = write_package(tmp_path_factory.mktemp("own-toolkit") / "memo-toolkit", example_files(request.param))
    with installed(root, "memo-toolkit"):
        yield root


def deskact(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "deskact"), *map(str, args)], cwd=cwd, env=ENV, capture_output=True,
                          text=True, timeout=900, check=False)


def test_the_example_names_every_file() -> None:
    assert sorted(example_files()) == ["memo_toolkit/__init__.py", "memo_toolkit/client.py",
                                       "memo_toolkit/service.py", "memo_toolkit/steps.py",
                                       "pyproject.toml", "suite/memo.yaml"]


def test_the_example_imports_only_public_names() -> None:
    lines = [line for text in example_files().values() for line in deskact_imports(text)]
    assert lines and all(line.startswith("from deskact import ") for line in lines), lines


def test_the_release_0_1_variant_uses_the_old_paths() -> None:
    old = example_files("release-0.1")
    assert "from deskact.runtime.steps import" in old["memo_toolkit/steps.py"]
    assert not any(line.startswith("from deskact import ") for text in old.values() for line in deskact_imports(text))


def test_installed_outside_the_checkout(memo_package: Path) -> None:
    out = subprocess.run([str(BIN / "python"), "-c", "import memo_toolkit; print(memo_toolkit.__file__)"],
                         cwd="/", capture_output=True, text=True, check=True)
    where = Path(out.stdout.strip()).resolve()
    assert Path(sys.prefix).resolve() in where.parents and memo_package not in where.parents, where  # a real install
    docs = deskact("toolkit", "docs", "memo", cwd=memo_package)
    assert docs.returncode == 0, docs.stderr
    assert "- `memo.add(text: str) -> int`: Add a note; returns its id." in docs.stdout


def test_validate_passes_with_the_default_sandbox(memo_package: Path, tmp_path: Path) -> None:
    # The toolkit enabled in the config too (as a user would): its steps load before tasks are checked.
    config = tmp_path / "config.yaml"
    config.write_text("toolkits:\n  enabled: [gui, memo]\n")
    done = deskact("validate", memo_package / "suite", "--config", config, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3/3 tasks valid" in done.stdout + done.stderr
    release_0_1 = "from deskact.runtime.steps" in (memo_package / "memo_toolkit" / "steps.py").read_text()
    # The old path works and says so, naming the package's own file; the public one is silent.
    assert (OLD_STEPS_WARNING in done.stderr) == release_0_1, done.stderr
    if release_0_1:
        assert "memo_toolkit/steps.py:" in done.stderr.split(OLD_STEPS_WARNING)[0].splitlines()[-1], done.stderr


def test_run_with_the_reference_model(memo_package: Path, tmp_path: Path) -> None:
    from deskact.runtime.world.world import world_status

    out = tmp_path / "run"
    done = deskact("run", "suite", "--model", "reference", "--out", out, cwd=memo_package)
    assert done.returncode == 0, done.stdout + done.stderr
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert {r["task_id"]: (r["status"], r["reward"]) for r in results} == {
        "memo-add-milk": ("passed", 1), "memo-forget-dentist": ("passed", 1), "memo-count-to-file": ("passed", 1)}
    assert all(r["suite"] == "suite" and r["tags"] == ["memo"] for r in results)
    if os.geteuid() == 0:
        assert world_status()[0], "as root the default sandbox puts each task in a world"


NOTEBOOK = """
from deskact.runtime.ui.notebook import Env

env = Env.load("suite", "memo-forget-dentist")  # memo.seed and memo.notes known without importing the package
try:
    env.reset()
    print(env.execute("print([n['text'] for n in memo.all()])").stdout.strip())
    env.execute("for n in memo.find('dentist'): memo.delete(n['id'])")
    print("reward", env.judge().reward)
finally:
    env.close()
"""


def test_a_notebook_loads_and_runs_a_task_of_the_package(memo_package: Path) -> None:
    done = subprocess.run([str(BIN / "python"), "-c", NOTEBOOK], cwd=memo_package, env=ENV, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == ["['dentist on Friday 9:00', 'water the plants', 'pay rent']", "reward 1"]
