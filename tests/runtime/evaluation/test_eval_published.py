"""``deskact eval`` scores the published formats' fixtures read in place: the oracle gets every sample."""

from __future__ import annotations

from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.evaluation.eval_run import EvalOptions, run_eval

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "evaluation"
PUBLISHED = {
    "groundui": (FIXTURES / "groundui" / "metadata_1k.jsonl", "ground"),
    "agentstudio-idm": (FIXTURES / "agentstudio" / "metadata_idm.jsonl", "idm"),
    "agentstudio-idm-multiple": (FIXTURES / "agentstudio" / "metadata_idmn2n.jsonl", "idm_clip"),
    "agentstudio-critic": (FIXTURES / "agentstudio" / "metadata_success_detection.jsonl", "critic"),
    "aitw": (FIXTURES / "aitw" / "episodes.jsonl", "action_step"),
    "aitw-tfrecord": (FIXTURES / "aitw" / "episodes.tfrecord.gz", "action_step"),
    "screenagent": (FIXTURES / "screenagent" / "test", "action_step"),
}


@pytest.mark.parametrize("fmt", sorted(PUBLISHED))
def test_the_oracle_scores_every_published_fixture(fmt: str, tmp_path: Path) -> None:
    path, kind = PUBLISHED[fmt]
    summary = run_eval(EvalOptions(datasets=[str(path)], model="reference", out=tmp_path, report=False),
                       Config(), write=lambda line: None)
    (scored,) = summary["datasets"].values()
    assert scored["kind"] == kind
    assert scored["samples"] > 0 and scored["accuracy"] == 1.0 and scored["errors"] == 0
