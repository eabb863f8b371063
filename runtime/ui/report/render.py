"""Render the static report: index.html and one page per task, next to results.jsonl.

Pages are self-contained (CSS and JS inlined, no CDN) so they open from the file
system with no server and no network; screenshots are linked, not copied, with
paths relative to the report folder.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from datetime import datetime
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from ...run.results import TaskResult
from .data import RunData, TaskView, load_run

HERE = Path(__file__).resolve().parent
STATUSES = ("passed", "failed", "error", "invalid")


def _env() -> Environment:
    env = Environment(loader=FileSystemLoader(HERE), autoescape=select_autoescape(["html"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.globals["money"] = money
    env.globals["finish"] = finish_label
    # Params as written (``&&``, ``<``, non-ASCII), escaped by the page's autoescape, unlike ``tojson``
    # which turns them into \u0026 escapes meant for <script> blocks.
    env.filters["as_json"] = lambda value: json.dumps(value, ensure_ascii=False, sort_keys=True)
    return env


def money(value: float | None) -> str:
    if value is None:
        return "n/a"
    return f"${value:,.4f}" if 0 < value < 1 else f"${value:,.2f}"


def finish_label(result: TaskResult) -> str:
    """The finish reason, or the status for tasks that never ran an episode (error, invalid)."""
    return result.finish_reason or result.status


def write_report(run_dir: Path) -> Path:
    """Write ``RUN_DIR/report/index.html`` and a page per task; return the index path."""
    run_dir = Path(run_dir)
    data = load_run(run_dir)
    out = run_dir / "report"
    out.mkdir(exist_ok=True)
    env = _env()
    common = {
        "css": (HERE / "report.css").read_text(),
        "run_name": run_dir.resolve().name,
        "generated": datetime.now().strftime("%Y-%m-%d %H:%M:%S"),
    }
    task_page = env.get_template("task.html")
    for view in data.tasks:
        (out / view.page).write_text(
            task_page.render(t=view, r=view.result, traj=_traj_href(view, out), **common), encoding="utf-8")
    index = out / "index.html"
    index.write_text(env.get_template("index.html").render(
        data=data, js=(HERE / "report.js").read_text(), **_filters(data), **common), encoding="utf-8")
    return index


def _traj_href(view: TaskView, out: Path) -> str:
    if view.trajectory_dir is None:
        return ""
    rel = os.path.relpath(view.trajectory_dir, out)
    return "/".join(Path(rel).parts)  # URL separators, whatever the OS


def _filters(data: RunData) -> dict[str, object]:
    results = [t.result for t in data.tasks]
    return {
        "statuses": STATUSES,
        "status_counts": dict(Counter(r.status for r in results)),
        "suites": sorted({r.suite for r in results}),
        "finishes": sorted({finish_label(r) for r in results}),
    }
