"""``deskact eval DATASET... --model M``: score a model on step-level datasets.

The datasets are deskact dataset folders (``samples.py``) or files and folders of the published
formats ``loaders/`` reads in place (GroundUI, AgentStudio, AITW, ScreenAgent). Each sample
becomes one question (``prompts.build_prompt``) sent through the model interface
(``runtime/agent/models/base.py``; the offline baselines of ``baselines.py`` or any model of the
registry), the reply is parsed and scored by the kind's metric (``metrics.py``). Samples run on
``--workers`` threads, each with its own model instance; a progress line is printed every few
seconds; ``--resume`` keeps the rows already in OUT/results.jsonl (rows with an ``error`` are asked
again) and refuses another model's folder.

The output folder holds:

- ``eval.json``: ``{"model", "datasets": {name: {"path", "kind", "samples"}}, "command", "started"}``
  (the folder of each dataset, so a viewer finds the images its rows name).
- ``results.jsonl``: one row per sample (a resumed sample's last row wins)::

      {"dataset": "calc-ground", "kind": "ground", "id": "s12",
       "platform": "desktop", "app": "calc", "episode": null, "step": null,
       "reward": 1,                      # 1 right, 0 wrong (the kind's rule, metrics.py)
       "parts": {...},                   # the metric's parts, see below
       "prediction": [412.0, 88.5],      # parsed answer in the sample's pixels, null if unreadable
       "reply": "...",                   # the model's text (first 4000 characters)
       "scale": 0.5,                     # model image px per sample px
       "error": null,                    # a model or image error: the sample was not scored
       "duration_s": 1.2, "usage": {"input_tokens": ..., "output_tokens": ..., ...}, "model": "..."}

  ``prediction`` per kind: ground ``[x, y]``; idm and action_step an Action object
  (``samples.Action``: ``{"kind": "click", "x": .., "y": ..}``); idm_clip a list of them; critic
  ``true`` (success) / ``false``. ``parts`` per kind: ground ``inside, x, y, distance`` (to the box
  centre, px); idm ``kind_match, exact, predicted``; idm_clip ``exact_match, edit_distance,
  normalized_edit_distance, gold_length, predicted_length, predicted``; critic ``gold, predicted``;
  action_step the AITW parts (``match, type_match``, and ``distance, same_element, button_match`` for
  taps, ``axis_match, direction_match`` for swipes, ``text_match`` for typing) plus ``cc`` (the
  CC-Score parts ``family, kind, attributes, position, text, score``). The gold itself is in the
  dataset (``samples.jsonl``, by ``id``).
- ``summary.json``: ``{"model", "datasets": {name: metrics.summarize(...)}, "duration_s"}``.
- ``report/index.html``: the metrics and the samples (wrong first) drawn with gold and prediction.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from ..agent.models.base import Message, Model
from ..config import Config
from ..errors import DeskactError, ModelError
from . import metrics
from .baselines import EvalModel, make_eval_model
from .prompts import SYSTEM, build_prompt, parse_action, parse_clip, parse_point, parse_verdict
from .samples import ActionStep, CriticSample, Dataset, GroundSample, IdmClip, IdmSample, SampleT

REPLY_CHARS = 4000
STOP_AFTER_ERRORS = 3
"""A run whose first this many samples all fail with a model error stops (a wrong key, model or URL)."""


class EvalOptions(BaseModel):
    datasets: list[str]
    model: str
    out: Path
    workers: int = Field(1, ge=1)
    resume: bool = False
    limit: int | None = Field(None, ge=1)
    """Only the first N samples of each dataset."""
    command: list[str] = Field(default_factory=list)
    report: bool = True
    """Write OUT/report/index.html (eval_report.py)."""


def score(sample: SampleT, reply: str, scale: float) -> tuple[int, dict[str, Any], Any]:
    """(reward, parts, prediction as JSON) of a reply to ``sample``."""
    if isinstance(sample, GroundSample):
        point = parse_point(reply, scale)
        parts = metrics.ground_parts(sample.box, point)
        return parts.pop("reward"), parts, None if point is None else [round(point[0], 2), round(point[1], 2)]
    if isinstance(sample, IdmSample):
        action = parse_action(reply, scale, lenient=True)
        parts = metrics.idm_parts(sample.action, action, sample.width, sample.height)
        return parts.pop("reward"), parts, None if action is None else action.model_dump(exclude_none=True)
    if isinstance(sample, IdmClip):
        actions = parse_clip(reply, scale)
        parts = metrics.idm_clip_parts([a.action for a in sample.actions], actions)
        return (parts.pop("reward"), parts,
                None if actions is None else [a.model_dump(exclude_none=True) for a in actions])
    if isinstance(sample, CriticSample):
        verdict = parse_verdict(reply)
        parts = metrics.critic_parts(sample.success, verdict)
        return parts.pop("reward"), parts, verdict
    action = parse_action(reply, scale)
    parts = metrics.aitw_parts(sample.action, action, sample.width, sample.height, sample.elements)
    parts["cc"] = metrics.cc_parts(sample.action, action, sample.width, sample.height, sample.elements)
    return parts.pop("reward"), parts, None if action is None else action.model_dump(exclude_none=True)


def evaluate(model: Model, dataset: Dataset, sample: SampleT, config: Config) -> dict[str, Any]:
    """Ask ``model`` about one sample and score the reply: one results.jsonl row."""
    started = time.monotonic()
    row: dict[str, Any] = {
        "dataset": dataset.name, "kind": sample.kind, "id": sample.id, "platform": sample.platform,
        "app": sample.app or None, "episode": sample.episode if isinstance(sample, ActionStep) else None,
        "step": sample.step if isinstance(sample, ActionStep) else None,
        "reward": 0, "parts": {}, "prediction": None, "reply": None, "scale": None, "error": None,
        "model": model.name,
    }
    try:
        prompt = build_prompt(dataset, sample, config)
        row["scale"] = round(prompt.scale, 6)
        if isinstance(model, EvalModel):
            model.start_sample(dataset.name, sample, prompt.scale)
        reply = model.reply(SYSTEM, [Message.of_parts("user", prompt.parts)])
        row["reply"] = reply.text[:REPLY_CHARS]
        row["usage"] = reply.usage.model_dump()
        row["reward"], row["parts"], row["prediction"] = score(sample, reply.text, prompt.scale)
    except ModelError as exc:
        row["error"] = f"model: {exc}"
    except OSError as exc:  # an image or video the dataset names cannot be read
        row["error"] = f"{type(exc).__name__}: {exc}"
    except Exception as exc:  # PyAV's errors are no OSError: a bad video is its sample's error, others raise
        if type(exc).__module__.split(".")[0] != "av":
            raise
        row["error"] = f"video: {type(exc).__name__}: {exc}"
    if row["error"]:  # scored as no answer, so the dataset's numbers count it as wrong (critic F1 needs its gold)
        row["parts"] = score(sample, "", 1.0)[1]
    row["duration_s"] = round(time.monotonic() - started, 3)
    return row


def read_rows(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    rows = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise DeskactError(f"{path}:{lineno}: not JSON ({exc.msg}); a cut-off last line can be deleted") from None
    return rows


def latest_rows(rows: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(r["dataset"], r["id"]): r for r in rows}


class Progress:
    """One line every ``every`` seconds (and at the end): done/total, accuracy so far, errors, ETA."""

    def __init__(self, total: int, done: int, write: Callable[[str], None], every: float = 5.0) -> None:
        self.total, self.done_before, self.write, self.every = total, done, write, every
        self.done = done
        self.right = self.errors = 0
        self.started = self.last = time.monotonic()
        self.lock = threading.Lock()

    def add(self, row: dict[str, Any]) -> None:
        with self.lock:
            self.done += 1
            self.right += int(row["reward"])
            self.errors += int(bool(row["error"]))
            now = time.monotonic()
            if now - self.last >= self.every or self.done == self.total:
                self.last = now
                self.write(self.line())

    def line(self) -> str:
        elapsed = time.monotonic() - self.started
        new = self.done - self.done_before
        eta = elapsed / new * (self.total - self.done) if new else 0.0
        rate = self.right / new if new else 0.0
        return (f"[{self.done}/{self.total}] right {rate:.1%} of {new} new  errors {self.errors}  "
                f"{elapsed:.0f}s  eta {eta:.0f}s")


def _write_json(path: Path, data: Any) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)


def _check_resume(out: Path, model: str) -> None:
    info = out / "eval.json"
    if info.exists():
        earlier = json.loads(info.read_text(encoding="utf-8")).get("model")
        if earlier and earlier != model:
            raise DeskactError(f"{out} holds results of model {earlier!r}, not {model!r}: use another --out")


def run_eval(options: EvalOptions, config: Config, write: Callable[[str], None] = print) -> dict[str, Any]:
    """Score ``options.model`` on every dataset; write OUT/{eval.json,results.jsonl,summary.json};
    return the summary."""
    from .loaders import load_any  # a deskact dataset folder, or a published format read in place

    datasets = [load_any(p) for p in options.datasets]
    names = [d.name for d in datasets]
    for name in names:
        if names.count(name) > 1:
            raise DeskactError(f"two datasets are named {name!r} (dataset.yaml 'name'): rows could not tell them apart")
    out = options.out
    if out.exists() and not out.is_dir():
        raise DeskactError(f"--out {out}: not a folder")
    out.mkdir(parents=True, exist_ok=True)
    results = out / "results.jsonl"
    if not options.resume and results.exists() and results.stat().st_size:
        raise DeskactError(f"{results} already holds results: use --resume or another --out")
    if options.resume:
        _check_resume(out, options.model)
    kept = latest_rows(read_rows(results)) if options.resume else {}

    probe = make_eval_model(options.model, config)
    probe.check_ready()  # a missing key fails before any sample
    chosen = {d.name: d.samples[: options.limit] if options.limit else d.samples for d in datasets}
    _write_json(out / "eval.json", {
        "model": options.model, "command": options.command or sys.argv,
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "datasets": {d.name: {"path": str(d.root.resolve()), "kind": d.info.kind, "samples": len(chosen[d.name])}
                     for d in datasets},
    })
    todo = [(d, s) for d in datasets for s in chosen[d.name]
            if not ((d.name, s.id) in kept and not kept[(d.name, s.id)].get("error"))]
    total = sum(len(v) for v in chosen.values())
    progress = Progress(total, total - len(todo), write)
    write(f"eval {options.model}: {len(todo)} samples to score of {total} in {len(datasets)} dataset(s), "
          f"{options.workers} worker(s) -> {out}")

    local = threading.local()
    lock = threading.Lock()
    stop = threading.Event()
    first: list[dict[str, Any]] = []

    def model() -> Model:
        if not hasattr(local, "model"):
            from ..run.model_limit import limit_model

            made = make_eval_model(options.model, config)
            if isinstance(made, EvalModel):
                made.prepare(datasets)
            local.model = made if isinstance(made, EvalModel) else limit_model(made, config)
        return local.model

    started = time.monotonic()
    with results.open("a", encoding="utf-8") as fh:
        def work(item: tuple[Dataset, SampleT]) -> None:
            if stop.is_set():
                return
            row = evaluate(model(), item[0], item[1], config)
            with lock:
                fh.write(json.dumps(row, ensure_ascii=False) + "\n")
                fh.flush()
                if len(first) < STOP_AFTER_ERRORS:
                    first.append(row)
                    if len(first) == STOP_AFTER_ERRORS and all(str(r["error"]).startswith("model:") for r in first):
                        stop.set()
            progress.add(row)

        pool = ThreadPoolExecutor(max_workers=options.workers, thread_name_prefix="eval")
        try:
            list(pool.map(work, todo))
        except KeyboardInterrupt:
            # Samples not yet started are dropped; the ones being asked finish and are written.
            stop.set()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        pool.shutdown()
    if stop.is_set():
        raise DeskactError(f"stopped: the first {STOP_AFTER_ERRORS} samples all failed with a model error, the last: "
                           f"{first[-1]['error']} (results so far in {results})")

    rows = latest_rows(read_rows(results))
    summary: dict[str, Any] = {"model": options.model, "datasets": {}, "duration_s": round(time.monotonic() - started, 2)}
    for d in datasets:
        ds_rows = [rows[(d.name, s.id)] for s in chosen[d.name] if (d.name, s.id) in rows]
        summary["datasets"][d.name] = metrics.summarize(d.info.kind, ds_rows)
    _write_json(out / "summary.json", summary)
    if options.report:
        from .eval_report import write_eval_report

        write_eval_report(out, [d.model_copy(update={"samples": chosen[d.name]}) for d in datasets], rows, summary)
    return summary
