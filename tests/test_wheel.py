"""Acceptance (issue 21): the wheel ``python -m build`` makes holds the whole package, keeps the
provider SDKs and Ray in extras, and installed into a fresh venv outside the checkout it runs
``deskact doctor``, runs the os suite with the reference model, and a toolkit package that
declares ``dependencies = ["deskact"]`` installs against it.

Offline: the fresh venv gets deskact's dependencies as hard links of this venv's installed
packages (as if pip had installed them there; deskact itself and packages that depend on it are
left out), then pip installs the wheel with --no-index, so pip checks the wheel's requirements
against what the venv holds and deskact is imported from the wheel, never from the checkout.
"""

from __future__ import annotations

import compileall
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from deskact.runtime.world.base import PACKAGE_ROOT
from packaging.requirements import Requirement

sys.path.insert(0, str(Path(__file__).parent))
from package_install import doc_files, write_package

pytestmark = pytest.mark.slow

PYPROJECT = tomllib.loads((PACKAGE_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# The installed folders: deskact.runtime -> runtime, ... (the repo root is the package).
TOP_FOLDERS = sorted({name.split(".")[1] for name in PYPROJECT["tool"]["setuptools"]["packages"] if "." in name})
# What the build needs of the checkout is everything but these (at any depth).
NOT_SOURCES = shutil.ignore_patterns(".git", ".venv*", "build", "dist", "*.egg-info", "runs", "__pycache__",
                                     ".mypy_cache", ".ruff_cache", ".pytest_cache")
OPTIONAL = {"anthropic": "anthropic", "openai": "openai", "google-genai": "google", "ray": "ray"}
# The docs' toolkit package (tests/toolkits/test_own_toolkit_package.py runs it in this venv).
TOOLKIT_DOC = PACKAGE_ROOT / "docs" / "toolkits.md"
TOOLKIT_SECTION = "## End to end: a toolkit package of your own"


def run(argv: list[str | Path], cwd: Path, env: dict[str, str] | None = None,
        timeout: int = 600) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)
    assert done.returncode == 0, f"{argv}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The checkout's files copied (a build in place would leave build/ behind, and reuse it)."""
    src = tmp_path_factory.mktemp("source") / "deskact"
    shutil.copytree(PACKAGE_ROOT, src, ignore=NOT_SOURCES, symlinks=True)
    # Bytecode beside the suites' .py fixtures, as running them in a checkout leaves it: not data.
    compileall.compile_dir(src / "task_suites", quiet=2)
    return src


@pytest.fixture(scope="module")
def wheel(source: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", out, source], cwd=source)
    (built,) = out.glob("deskact-*.whl")
    return built


def wheel_files(wheel: Path) -> set[str]:
    """The package's files in the wheel, relative to the package (dist-info left out)."""
    with zipfile.ZipFile(wheel) as z:
        return {n.removeprefix("deskact/") for n in z.namelist() if n.startswith("deskact/")}


def test_the_wheel_holds_every_module_and_data_file(source: Path, wheel: Path) -> None:
    assert {"runtime", "toolkits", "judges", "reset_scripts", "task_suites"} <= set(TOP_FOLDERS)
    expected = {str(p.relative_to(source)) for top in TOP_FOLDERS for p in (source / top).rglob("*")
                if p.is_file() and "__pycache__" not in p.parts}
    files = wheel_files(wheel)
    # A folder missing from pyproject's packages (or a package-data pattern) shows here by name.
    assert sorted(expected - files) == []
    assert {"__init__.py", "config.yaml", "runtime/agent/prompts/system.yaml", "task_suites/schema.json",
            "runtime/world/kernel/__init__.py", "toolkits/google/emulator/gmail/__init__.py"} <= files
    assert not [f for f in files if "__pycache__" in f or f.endswith(".pyc")]
    # The checkout's own tooling stays out of the package.
    assert not [f for f in files if f.split("/")[0] in {"tests", "benchmarks", "docs", "notebooks", "scripts"}]


def requirements(wheel: Path) -> list[Requirement]:
    with zipfile.ZipFile(wheel) as z:
        (metadata,) = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        message = Parser().parsestr(z.read(metadata).decode("utf-8"))
    return [Requirement(line) for line in message.get_all("Requires-Dist") or []]


def extra_installs(reqs: list[Requirement], extra: str) -> set[str]:
    """The distributions ``deskact[extra]`` adds, following deskact[...] self-references."""
    names: set[str] = set()
    for req in reqs:
        if req.marker is None or not req.marker.evaluate({"extra": extra}):
            continue
        if req.name == "deskact":
            for inner in req.extras:
                names |= extra_installs(reqs, inner)
        else:
            names.add(req.name)
    return names


def test_sdks_and_ray_install_only_with_their_extras(wheel: Path) -> None:
    reqs = requirements(wheel)
    plain = {r.name for r in reqs if r.marker is None or r.marker.evaluate({"extra": ""})}
    assert plain and not plain & set(OPTIONAL), plain
    for dist, extra in OPTIONAL.items():
        assert dist in extra_installs(reqs, extra), (dist, extra)
    assert extra_installs(reqs, "all") >= set(OPTIONAL)


def seed_dependencies(site: Path) -> None:
    """This venv's installed packages hard-linked into ``site``, but for deskact (the wheel brings
    it) and packages depending on it (another test may have one installed right now)."""
    here = Path(sysconfig.get_paths()["purelib"])
    skip = {"__pycache__"}
    for info in here.glob("*.dist-info"):
        metadata = (info / "METADATA").read_text(encoding="utf-8", errors="replace")
        name = Parser().parsestr(metadata, headersonly=True)["Name"] or ""
        needs_deskact = any(Requirement(r).name == "deskact"
                            for r in Parser().parsestr(metadata).get_all("Requires-Dist") or [])
        if name == "deskact" or needs_deskact:
            skip.add(info.name)
            record = info / "RECORD"
            if record.exists():
                skip |= {line.split("/", 1)[0].split(",", 1)[0] for line in record.read_text().splitlines()}
    for entry in here.iterdir():
        # .pth files: the editable install's hook among them (it would import the checkout).
        if entry.name in skip or entry.name.startswith("__editable__") or entry.suffix == ".pth":
            continue
        if entry.is_dir():
            shutil.copytree(entry, site / entry.name, copy_function=os.link, symlinks=True)
        else:
            os.link(entry, site / entry.name)


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv outside the checkout with the wheel installed."""
    home = tmp_path_factory.mktemp("fresh")
    prefix = home / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", prefix], cwd=home)
    seed_dependencies(Path(run([prefix / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               cwd=home).stdout.strip()))
    run([prefix / "bin" / "python", "-m", "pip", "install", "-q", "--no-index", "--find-links", wheel.parent, "deskact"],
        cwd=home, env=fresh_env(prefix))
    return prefix


def fresh_env(prefix: Path) -> dict[str, str]:
    """The environment of a shell with ``prefix`` activated, nothing pointing at the checkout."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}}
    return {**env, "VIRTUAL_ENV": str(prefix), "PATH": f"{prefix / 'bin'}:{env.get('PATH', '')}",
            "DESKACT_CONFIG": "", "NO_COLOR": "1", "COLUMNS": "200"}


def test_deskact_imports_from_the_wheel(venv: Path, tmp_path: Path) -> None:
    code = ("import deskact, importlib.metadata as m; "
            "print(deskact.__file__); print(m.distribution('deskact').locate_file('deskact'))")
    printed = run([venv / "bin" / "python", "-c", code], cwd=tmp_path, env=fresh_env(venv)).stdout.split()
    for path in printed:
        assert venv in Path(path).parents and PACKAGE_ROOT not in Path(path).resolve().parents, printed


def test_doctor_runs(venv: Path, tmp_path: Path) -> None:
    done = run([venv / "bin" / "deskact", "doctor"], cwd=tmp_path, env=fresh_env(venv))
    assert "deskact doctor" in done.stdout and "kernel start" in done.stdout, done.stdout


def test_the_os_suite_passes_with_the_reference_model(venv: Path, tmp_path: Path) -> None:
    from deskact.runtime.tasks.task import load_tasks

    out = tmp_path / "run"
    run([venv / "bin" / "deskact", "run", "os", "--model", "reference", "--workers", "2", "--out", out],
        cwd=tmp_path, env=fresh_env(venv))
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    failed = {r["task_id"]: r["error"] or r["feedback"] for r in results if r["status"] != "passed"}
    assert failed == {}
    assert {r["task_id"] for r in results} == {t.id for t in load_tasks(["os"]).tasks}
    # The tasks came from the installed package.
    assert all(r["source"].startswith(str(venv)) for r in results), results[0]["source"]


def test_a_toolkit_package_installs_against_the_wheel(venv: Path, tmp_path: Path) -> None:
    root = write_package(tmp_path / "memo-toolkit", doc_files(TOOLKIT_DOC, TOOLKIT_SECTION, "memo-toolkit"))
    assert '"deskact"' in (root / "pyproject.toml").read_text()
    # With its dependencies checked (no --no-deps): pip must find deskact installed, from the wheel.
    run([venv / "bin" / "python", "-m", "pip", "install", "-q", "--no-index", "--no-build-isolation", root],
        cwd=tmp_path, env=fresh_env(venv))
    docs = run([venv / "bin" / "deskact", "toolkit", "docs", "memo"], cwd=tmp_path, env=fresh_env(venv))
    assert "memo.add(text: str) -> int" in docs.stdout
    done = run([venv / "bin" / "deskact", "validate", root / "suite"], cwd=tmp_path, env=fresh_env(venv))
    assert "3/3 tasks valid" in done.stdout + done.stderr
