"""``deskact eval``: runs ``runtime/evaluation/eval_run.py`` and prints its summary as tables."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..config import Config
from ..evaluation.eval_run import EvalOptions, run_eval


def default_out(model: str) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return Path("runs") / f"eval-{model.replace('/', '_')}-{stamp}"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}%"


def _details(s: dict[str, Any]) -> str:
    kind = s["kind"]
    if kind == "ground":
        return "  ".join(f"{p} {_pct(v['accuracy'])}" for p, v in s.get("by_platform", {}).items())
    if kind == "idm":
        return f"exact (kind and parameters) {_pct(s['exact'])}"
    if kind == "idm_clip":
        return f"edit distance {s['edit_distance']:.2f} (normalized {s['normalized_edit_distance']:.3f})"
    if kind == "critic":
        return f"precision {_pct(s['precision'])}  recall {_pct(s['recall'])}  F1 {_pct(s['f1'])}"
    if kind == "action_step":
        cc = s.get("cc_score") or {}
        return (f"type {_pct(s['type_accuracy'])}  episodes {s['episodes']}: partial {_pct(s['partial_match'])} "
                f"complete {_pct(s['complete_match'])}  CC-Score {_pct(cc.get('score'))}")
    return ""


def print_summary(console: Console, summary: dict[str, Any]) -> None:
    table = Table(title=f"deskact eval: {summary['model']}")
    for column in ("dataset", "kind", "samples", "accuracy", "unread", "errors", "details"):
        table.add_column(column, justify="right" if column in ("samples", "accuracy", "unread", "errors") else "left")
    for name, s in summary["datasets"].items():
        table.add_row(escape(name), s["kind"], str(s["samples"]), _pct(s["accuracy"]), str(s["unparsed"]),
                      str(s["errors"]), escape(_details(s)))
    console.print(table)
    for name, s in summary["datasets"].items():
        by_app = s.get("by_app") or {}
        if len(by_app) > 1:
            apps = Table(title=f"{name}: accuracy by app")
            apps.add_column("app")
            apps.add_column("samples", justify="right")
            apps.add_column("accuracy", justify="right")
            for app, v in by_app.items():
                apps.add_row(escape(app), str(v["samples"]), _pct(v["accuracy"]))
            console.print(apps)


def eval_command(console: Console, output: Console, config: Config, options: EvalOptions) -> int:
    """Run the evaluation; 1 when any sample ended in an error, else 0."""
    try:
        summary = run_eval(options, config, write=lambda line: console.print(line, markup=False, highlight=False))
    except KeyboardInterrupt:
        console.print(f"interrupted: the samples scored so far are in {options.out / 'results.jsonl'}; "
                      "--resume goes on from there", markup=False, highlight=False)
        return 130
    print_summary(output, summary)
    console.print(f"results: {options.out / 'results.jsonl'}  summary: {options.out / 'summary.json'}"
                  + (f"  report: {options.out / 'report' / 'index.html'}" if options.report else ""),
                  markup=False, highlight=False)
    return int(any(s["errors"] for s in summary["datasets"].values()))
