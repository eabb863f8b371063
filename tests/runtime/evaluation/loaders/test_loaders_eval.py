"""Each published format's fixture, imported and scored by ``deskact eval``: the oracle scores 100 %."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from deskact.runtime.config import load_config
from deskact.runtime.evaluation.eval_run import EvalOptions, run_eval
from deskact.runtime.evaluation.loaders import import_dataset

sys.path.insert(0, str(Path(__file__).parent))
from published import SOURCES

DESKACT = Path(sys.executable).parent / "deskact"


def _imported(tmp_path: Path) -> list[Path]:
    for fmt, src in SOURCES.items():
        import_dataset(fmt, src, tmp_path / "datasets" / fmt, name=fmt)
    return [tmp_path / "datasets" / fmt for fmt in SOURCES]


def test_the_oracle_scores_every_fixture_and_the_centre_click_does_not(tmp_path: Path) -> None:
    folders = _imported(tmp_path)
    config = load_config()
    oracle = run_eval(EvalOptions(datasets=[str(f) for f in folders], model="reference", out=tmp_path / "ref"),
                      config, write=lambda _: None)
    assert {name: (s["samples"], s["accuracy"], s["errors"]) for name, s in oracle["datasets"].items()} == {
        "groundui": (6, 1.0, 0), "agentstudio-idm": (5, 1.0, 0), "agentstudio-idm-multiple": (2, 1.0, 0),
        "agentstudio-critic": (4, 1.0, 0), "aitw": (9, 1.0, 0), "aitw-tfrecord": (9, 1.0, 0),
        "screenagent": (7, 1.0, 0), "screenagent-critic": (2, 1.0, 0)}
    assert oracle["datasets"]["aitw"]["complete_match"] == 1.0
    assert oracle["datasets"]["screenagent"]["cc_score"]["score"] == 1.0
    centre = run_eval(EvalOptions(datasets=[str(f) for f in folders], model="centre", out=tmp_path / "centre"),
                      config, write=lambda _: None)
    # No fixture box holds its image's centre; the critic set has two successes of four.
    assert centre["datasets"]["groundui"]["accuracy"] == 0.0
    assert centre["datasets"]["agentstudio-critic"]["accuracy"] == 0.5


@pytest.mark.slow
def test_the_commands_import_and_score(tmp_path: Path) -> None:
    outs = []
    for fmt, src in SOURCES.items():
        out = tmp_path / fmt
        named = fmt if fmt == "screenagent-critic" else "auto"  # the one format read from another's folders
        proc = subprocess.run([str(DESKACT), "datasets", "import", named, str(src), str(out), "--name", fmt],
                              capture_output=True, text=True, timeout=300, check=False)
        assert proc.returncode == 0, proc.stderr
        assert f"-> {out}" in " ".join(proc.stderr.split())
        outs.append(str(out))
    proc = subprocess.run([str(DESKACT), "eval", *outs, "--model", "reference", "-o", str(tmp_path / "run")],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert {name: s["accuracy"] for name, s in summary["datasets"].items()} == dict.fromkeys(SOURCES, 1.0)
    rows = [json.loads(line) for line in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 44 and all(r["reward"] == 1 for r in rows)
