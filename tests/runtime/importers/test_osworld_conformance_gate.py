"""The conformance tests skip, saying why, when the conformance venv is missing, and fail instead
under CI=true (CI runs them; a missing venv there must not pass as skipped)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
ONE_TEST = "tests/runtime/importers/osworld_conformance/test_conformance_images.py::test_compare_images"


def _run(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["DESKACT_CONFORMANCE_PYTHON"] = str(tmp_path / "missing" / "python")
    if ci is not None:
        env["CI"] = ci
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", ONE_TEST],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_missing_venv_skips_outside_ci_and_fails_under_ci(tmp_path: Path) -> None:
    outside = _run(tmp_path, None)
    assert outside.returncode == 0, outside.stdout[-2000:]
    assert "skipped" in outside.stdout and "run scripts/setup_conformance.sh" in outside.stdout, outside.stdout[-2000:]
    under_ci = _run(tmp_path, "true")
    assert under_ci.returncode != 0, under_ci.stdout[-2000:]
    assert "CI runs the conformance tests" in under_ci.stdout, under_ci.stdout[-2000:]
