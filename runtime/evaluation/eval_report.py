"""A static HTML page for an eval run: OUT/report/index.html (the run report's style).

Per dataset: its metrics, then up to ``per_dataset`` samples, wrong ones first, each with a
thumbnail drawn from the dataset's own image: the gold box or point in green, the prediction in
red (wrong) or blue (right); the two frames of an IDM sample; the last screen of a critic
trajectory. Thumbnails are written beside the page, so the folder can be moved or shared.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from PIL import Image as PILImage
from PIL import ImageDraw

from .samples import Action, ActionStep, CriticSample, Dataset, GroundSample, IdmClip, IdmSample, SampleT

THUMB_WIDTH = 480
GOLD, RIGHT, WRONG = (26, 127, 55), (9, 105, 218), (192, 54, 44)
CSS_FILE = Path(__file__).resolve().parents[1] / "ui" / "report" / "report.css"

EXTRA_CSS = """
.samples { display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: 12px; }
.sample { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px; }
.sample.wrong { border-left: 4px solid var(--bad); } .sample.right { border-left: 4px solid var(--ok); }
.sample img { max-width: 100%; display: block; border: 1px solid var(--line); margin: 4px 0; }
.sample .frames { display: flex; gap: 4px; } .sample .frames img { width: 50%; }
.sample code { font-size: 12px; word-break: break-word; }
.legend span { margin-right: 14px; }
"""


def _thumb(src: Path, dest: Path, marks: list[tuple[str, Any, tuple[int, int, int]]]) -> str:
    """``src`` scaled to THUMB_WIDTH with ``marks`` ("box", [x0, y0, x1, y1] | "point", (x, y))
    drawn in sample pixels; returns the file name written."""
    with PILImage.open(src) as opened:
        img = opened.convert("RGB")
        scale = min(1.0, THUMB_WIDTH / img.width)
        if scale < 1.0:
            img = img.resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))))
        draw = ImageDraw.Draw(img)
        for what, where, colour in marks:
            if what == "box":
                draw.rectangle([v * scale for v in where], outline=colour, width=2)
            else:
                x, y = where[0] * scale, where[1] * scale
                draw.ellipse([x - 6, y - 6, x + 6, y + 6], outline=colour, width=3)
                draw.line([x - 9, y, x + 9, y], fill=colour, width=1)
                draw.line([x, y - 9, x, y + 9], fill=colour, width=1)
        img.save(dest, "JPEG", quality=80)
    return dest.name


def _action_point(action: dict[str, Any] | None) -> tuple[float, float] | None:
    if action and action.get("x") is not None and action.get("y") is not None:
        return float(action["x"]), float(action["y"])
    return None


def _shown(pred: Any) -> str:
    """A prediction as people read it: ``click(12, 30)`` for an action, else its JSON."""
    def one(p: Any) -> str:
        if isinstance(p, dict) and "kind" in p:
            try:
                return Action.model_construct(**p).short()
            except (TypeError, ValueError):
                pass
        return json.dumps(p)
    return (", ".join(one(p) for p in pred) if isinstance(pred, list) and pred and isinstance(pred[0], dict)
            else one(pred))[:300]


def _sample_html(ds: Dataset, sample: SampleT, row: dict[str, Any], out: Path, n: int) -> str:
    right = bool(row.get("reward"))
    mark = RIGHT if right else WRONG
    pred = row.get("prediction")
    stem = f"{n:05d}"
    body: list[str] = []
    try:
        if isinstance(sample, GroundSample):
            marks: list[tuple[str, Any, tuple[int, int, int]]] = [("box", sample.box, GOLD)]
            if pred:
                marks.append(("point", pred, mark))
            body.append(f'<img src="img/{_thumb(ds.path(sample.image), out / f"{stem}.jpg", marks)}" alt="">')
            body.append(f"<div>{html.escape(sample.instruction)}</div>")
        elif isinstance(sample, IdmSample | ActionStep):
            gold_pt = (sample.action.x, sample.action.y) if sample.action.x is not None else None
            marks = [("box", b, (170, 170, 170)) for b in getattr(sample, "elements", [])]
            if gold_pt:
                marks.append(("point", gold_pt, GOLD))
            pred_pt = _action_point(pred)
            if pred_pt:
                marks.append(("point", pred_pt, mark))
            first = sample.before if isinstance(sample, IdmSample) else sample.image
            frames = [_thumb(ds.path(first), out / f"{stem}a.jpg", marks)]
            if isinstance(sample, IdmSample):
                frames.append(_thumb(ds.path(sample.after), out / f"{stem}b.jpg", []))
            body.append('<div class="frames">' + "".join(f'<img src="img/{f}" alt="">' for f in frames) + "</div>")
            if isinstance(sample, ActionStep):
                body.append(f"<div>{html.escape(sample.instruction)} · step {sample.step} of {html.escape(sample.episode or '')}</div>")
            body.append(f"<div>gold <code>{html.escape(sample.action.short())}</code></div>")
        elif isinstance(sample, IdmClip):
            if sample.frames:
                shots = [_thumb(ds.path(sample.frames[0]), out / f"{stem}a.jpg", []),
                         _thumb(ds.path(sample.frames[-1]), out / f"{stem}b.jpg", [])]
                body.append('<div class="frames">' + "".join(f'<img src="img/{f}" alt="">' for f in shots) + "</div>")
            body.append(f"<div>gold <code>{html.escape(', '.join(a.action.kind for a in sample.actions))}</code></div>")
        elif isinstance(sample, CriticSample):
            last = sample.final_screenshot or next((s.screenshot for s in reversed(sample.steps) if s.screenshot), None)
            if last:
                body.append(f'<img src="img/{_thumb(ds.path(last), out / f"{stem}.jpg", [])}" alt="">')
            body.append(f"<div>{html.escape(sample.instruction)} · {len(sample.steps)} steps · gold "
                        f"<b>{'success' if sample.success else 'failure'}</b></div>")
    except OSError as exc:  # an image that cannot be read is shown as such, not fatal to the page
        body.append(f'<div class="muted">image: {html.escape(str(exc))}</div>')
    shown = "unread" if pred is None else _shown(pred)
    body.append(f"<div>predicted <code>{html.escape(shown)}</code></div>")
    if row.get("error"):
        body.append(f'<pre class="error">{html.escape(str(row["error"]))}</pre>')
    parts = {k: v for k, v in (row.get("parts") or {}).items() if k not in ("predicted",)}
    body.append(f'<details><summary>parts, reply</summary><pre>{html.escape(json.dumps(parts, indent=1))}</pre>'
                f'<pre>{html.escape(row.get("reply") or "")}</pre></details>')
    head = f'<b>{html.escape(sample.id)}</b> <span class="muted">{html.escape(sample.app or sample.platform)}</span>'
    return f'<div class="sample {"right" if right else "wrong"}">{head}{"".join(body)}</div>'


def _metrics_table(summary: dict[str, Any]) -> str:
    flat = {k: v for k, v in summary.items() if not isinstance(v, dict)}
    rows = "".join(f"<tr><th>{html.escape(k)}</th><td class=num>{v:.4g}</td></tr>" if isinstance(v, float)
                   else f"<tr><th>{html.escape(k)}</th><td class=num>{html.escape(str(v))}</td></tr>" for k, v in flat.items())
    nested = "".join(f"<details><summary>{html.escape(k)}</summary><pre>{html.escape(json.dumps(v, indent=1))}</pre></details>"
                     for k, v in summary.items() if isinstance(v, dict))
    return f"<table style='width:auto'>{rows}</table>{nested}"


def write_eval_report(out: Path, datasets: list[Dataset], rows: dict[tuple[str, str], dict[str, Any]],
                      summary: dict[str, Any], per_dataset: int = 60) -> Path:
    """Write OUT/report/index.html; returns its path."""
    report = out / "report"
    img = report / "img"
    img.mkdir(parents=True, exist_ok=True)
    css = CSS_FILE.read_text(encoding="utf-8") if CSS_FILE.exists() else ""
    sections = []
    n = 0
    for ds in datasets:
        scored = [(s, rows[(ds.name, s.id)]) for s in ds.samples if (ds.name, s.id) in rows]
        scored.sort(key=lambda sr: int(sr[1].get("reward", 0)))  # wrong first, stable within
        cards = []
        for sample, row in scored[:per_dataset]:
            n += 1
            cards.append(_sample_html(ds, sample, row, img, n))
        more = f"<p class=muted>{len(scored) - per_dataset} more samples in results.jsonl</p>" if len(scored) > per_dataset else ""
        sections.append(f"<h2>{html.escape(ds.name)} <span class=muted>({ds.info.kind}, {html.escape(str(ds.root))})</span></h2>"
                        f"{_metrics_table(summary['datasets'].get(ds.name, {}))}<h3>Samples (wrong first)</h3>"
                        f"<div class=samples>{''.join(cards)}</div>{more}")
    page = (f"<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>deskact eval {html.escape(summary['model'])}</title>"
            f"<style>{css}{EXTRA_CSS}</style></head><body><header><h1>deskact eval <code>{html.escape(summary['model'])}</code></h1>"
            f"<div class=meta>{len(datasets)} dataset(s) · {html.escape(str(out))}</div></header><main>"
            "<p class=legend><span style='color:rgb(26,127,55)'>■ gold</span><span style='color:rgb(9,105,218)'>● right "
            "prediction</span><span style='color:rgb(192,54,44)'>● wrong prediction</span></p>"
            f"{''.join(sections)}</main></body></html>")
    index = report / "index.html"
    index.write_text(page, encoding="utf-8")
    return index
