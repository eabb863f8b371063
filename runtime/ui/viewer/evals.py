"""The viewer's step-level evaluation pages: ``deskact eval`` output folders and their samples.

An eval folder (runtime/evaluation/eval_run.py) holds ``eval.json`` (the model and each dataset's
folder), ``results.jsonl`` (one row per sample: reward, the metric's parts, the parsed prediction,
the reply) and, once finished, ``summary.json``. A row names its sample by dataset and id; the
gold and the images are the dataset's, read from the folder ``eval.json`` names (its samples.jsonl,
or the published file ``deskact eval`` read in place there: loaders.find_in_place). Everything is read
on request, so a running eval shows what it has so far (the summary is computed from the rows
until ``summary.json`` is written).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from ...errors import DeskactError

EVAL_FILE = "eval.json"
_ROW_TEXT = 240


class EvalRow(BaseModel):
    """One sample's line in the eval page's table."""

    dataset: str
    id: str
    kind: str
    platform: str = ""
    app: str = ""
    status: str
    """right, wrong, or error (the model or an image failed: not scored)."""
    reward: int = 0
    gold: str = ""
    predicted: str = ""
    error: str = ""


class EvalDetail(BaseModel):
    run_id: str
    model: str = ""
    command: list[str] = Field(default_factory=list)
    started: str = ""
    datasets: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """Per dataset: ``path``, ``kind``, ``samples`` (eval.json) and ``metrics`` (summary.json or the rows so far)."""
    finished: bool = False
    rows: list[EvalRow] = Field(default_factory=list)
    signature: str = ""


class EvalSample(BaseModel):
    """One sample with its gold (the dataset's line) and the model's row."""

    run_id: str
    dataset: str
    kind: str
    sample: dict[str, Any]
    row: dict[str, Any] | None
    status: str


def is_eval_run(path: Path) -> bool:
    return (path / EVAL_FILE).is_file()


def read_eval_info(path: Path) -> dict[str, Any]:
    try:
        info = json.loads((path / EVAL_FILE).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DeskactError(f"{path / EVAL_FILE}: not readable ({exc})") from None
    if not isinstance(info, dict):
        raise DeskactError(f"{path / EVAL_FILE}: expected a JSON object")
    return info


def read_eval_rows(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """The last row per (dataset, id): a resumed sample's new row replaces its old one. A torn or
    foreign line is skipped (a run still writing, or a line that is not an eval row)."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    try:
        lines = (path / "results.jsonl").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return rows
    for line in lines:
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and isinstance(row.get("dataset"), str) and row.get("id") is not None:
            rows[(row["dataset"], str(row["id"]))] = row
    return rows


def status_of(row: dict[str, Any]) -> str:
    return "error" if row.get("error") else "right" if row.get("reward") else "wrong"


# Datasets are read once per (folder, samples.jsonl size and mtime): pages poll every second.
_DATASETS: dict[tuple[str, int, int], dict[str, dict[str, Any]]] = {}
_LOCK = threading.Lock()
_DATASETS_KEPT = 8
"""Datasets kept read (an eval page names every dataset of the folder; a sample page one)."""


def _dataset_samples(root: Path, name: str = "", kind: str | None = None) -> dict[str, dict[str, Any]]:
    """The samples of a dataset by id, as JSON objects (the gold, the files they name): its folder's
    samples.jsonl, or the published file ``deskact eval`` read in place there (loaders.find_in_place)."""
    path = root / "samples.jsonl"
    try:
        st = path.stat()
        key: tuple[str, int, int] = (str(path), st.st_size, st.st_mtime_ns)
    except OSError:
        key = (f"{root}\0{name}", -1, -1)  # a published file read in place: read once
    with _LOCK:
        if key in _DATASETS:
            return _DATASETS[key]
    samples: dict[str, dict[str, Any]] = {}
    if key[1] >= 0:
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                try:
                    data = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if isinstance(data, dict) and "id" in data:
                    samples[str(data["id"])] = data
    else:
        from ...evaluation.loaders import find_in_place

        try:
            found = find_in_place(root, name, kind)
        except DeskactError:
            found = None
        for sample in found.samples if found is not None else []:
            samples[sample.id] = sample.model_dump(mode="json", exclude_none=True)
    with _LOCK:
        while len(_DATASETS) >= _DATASETS_KEPT:  # bounded memory: the oldest read goes first
            _DATASETS.pop(next(iter(_DATASETS)))
        _DATASETS[key] = samples
    return samples


def _entry(run_dir: Path, dataset: str) -> dict[str, Any]:
    entry = (read_eval_info(run_dir).get("datasets") or {}).get(dataset)
    if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
        raise DeskactError(f"{run_dir / EVAL_FILE}: no dataset {dataset!r}")
    return entry


def samples_of(run_dir: Path, dataset: str) -> tuple[Path, dict[str, dict[str, Any]]]:
    """(the dataset's folder, its samples by id) for one dataset of an eval folder."""
    entry = _entry(run_dir, dataset)
    root = Path(entry["path"])
    return root, _dataset_samples(root, dataset, str(entry.get("kind") or "") or None)


def _short(value: Any) -> str:
    """An action, a point, a verdict or an action list as one line (gold and predicted columns)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "success" if value else "failure"
    if isinstance(value, dict) and "kind" in value:
        return _action_text(value)
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return ", ".join(_action_text(v.get("action", v)) for v in value)
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int | float) for v in value):
        return f"({value[0]:g}, {value[1]:g})"
    return json.dumps(value)[:_ROW_TEXT]


def _action_text(action: dict[str, Any]) -> str:
    from ...evaluation.samples import Action

    try:
        return Action.model_construct(**action).short()
    except (TypeError, ValueError):
        return json.dumps(action)[:_ROW_TEXT]


def gold_of(sample: dict[str, Any]) -> Any:
    """What a right answer to the sample is: a box, an action, a list of actions, a verdict."""
    kind = sample.get("kind")
    if kind == "ground":
        return sample.get("box")
    if kind in ("idm", "action_step"):
        return sample.get("action")
    if kind == "idm_clip":
        return sample.get("actions")
    if kind == "critic":
        return sample.get("success")
    return None


def _gold_text(sample: dict[str, Any]) -> str:
    gold = gold_of(sample)
    if sample.get("kind") == "ground" and isinstance(gold, list) and len(gold) == 4:
        return "box [" + ", ".join(f"{v:g}" for v in gold) + "]"
    return _short(gold)


def eval_detail(run_id: str, run_dir: Path, signature: str) -> EvalDetail:
    from ...evaluation import metrics

    info = read_eval_info(run_dir)
    rows = read_eval_rows(run_dir)
    summary: dict[str, Any] = {}
    finished = (run_dir / "summary.json").is_file()
    if finished:
        try:
            summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8")).get("datasets") or {}
        except (OSError, json.JSONDecodeError, AttributeError):
            summary, finished = {}, False
    datasets: dict[str, dict[str, Any]] = {}
    table: list[EvalRow] = []
    for name, entry in (info.get("datasets") or {}).items():
        if not isinstance(entry, dict):
            continue
        own = [r for (d, _), r in rows.items() if d == name]
        kind = str(entry.get("kind", ""))
        datasets[name] = {**entry, "done": len(own),
                          "metrics": summary.get(name) or metrics.summarize(kind, own)}
        gold = _dataset_samples(Path(str(entry.get("path", ""))), name, kind or None)
        for row in own:
            sample = gold.get(str(row["id"]), {})
            table.append(EvalRow(
                dataset=name, id=str(row["id"]), kind=str(row.get("kind") or kind), platform=str(row.get("platform") or ""),
                app=str(row.get("app") or ""), status=status_of(row), reward=int(row.get("reward") or 0),
                gold=_gold_text(sample), predicted=_short(row.get("prediction")), error=str(row.get("error") or "")))
    return EvalDetail(run_id=run_id, model=str(info.get("model", "")), command=list(info.get("command") or []),
                      started=str(info.get("started", "")), datasets=datasets, finished=finished, rows=table,
                      signature=signature)


def eval_sample(run_id: str, run_dir: Path, dataset: str, sample_id: str) -> EvalSample:
    root, samples = samples_of(run_dir, dataset)
    sample = samples.get(sample_id)
    if sample is None:
        raise DeskactError(f"{root}: no sample {sample_id!r} in dataset {dataset!r}")
    row = read_eval_rows(run_dir).get((dataset, sample_id))
    kind = sample.get("kind") or (read_eval_info(run_dir).get("datasets") or {}).get(dataset, {}).get("kind", "")
    return EvalSample(run_id=run_id, dataset=dataset, kind=str(kind), sample=sample, row=row,
                      status=status_of(row) if row else "not yet")


def _named_files(sample: dict[str, Any]) -> set[str]:
    names = {sample.get(k) for k in ("image", "before", "after", "video", "final_screenshot")}
    names.update(sample.get("frames") or [])
    names.update(s.get("screenshot") for s in sample.get("steps") or [] if isinstance(s, dict))
    return {n for n in names if isinstance(n, str)}


def eval_file(run_dir: Path, dataset: str, sample_id: str, rel: str) -> Path | None:
    """A file one sample of the run's datasets names (its image, frames, screenshots), inside the
    dataset's folder: eval.json says where the folder is, so nothing else there is served."""
    root, samples = samples_of(run_dir, dataset)
    sample = samples.get(sample_id)
    if sample is None or rel not in _named_files(sample):
        return None
    root = root.resolve()
    path = (root / rel).resolve()
    return path if path.is_relative_to(root) and path.is_file() else None
