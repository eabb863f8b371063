"""How long apps.open takes to show a PDF in a task's world (Chromium's PDF viewer, a fresh profile),
beside a text file in mousepad, the quickest app apps.open starts.

    .venv/bin/python benchmarks/pdf_viewer_start.py [--repeat 3]

Resets two hand-made visual tasks as a run does (worker, world, display) and times ``TaskEnv.reset``:
writing the file, starting the app as the agent and waiting for its window to be drawn and still.
Runs alternate, so both see the same machine load.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import yaml
from app_resets import print_resets, time_resets
from deskact.runtime.tasks.task import load_tasks


def _pdf(text: str) -> str:
    """A one-page PDF (ASCII only, so files.write can write it) showing ``text``."""
    stream = f"BT /F1 24 Tf 72 700 Td ({text}) Tj ET"
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               ("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
               " /Resources << /Font << /F1 5 0 R >> >> >>"),
               f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream",
               "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out, offsets = "%PDF-1.4\n", []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n{body}\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n" + "".join(f"{o:010d} 00000 n \n" for o in offsets)
    return out + f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    suite = Path(tempfile.mkdtemp()) / "tasks.yaml"
    tasks = [{"id": f"open-{kind}", "instruction": "Read it.", "visual": True, "toolkits": ["gui"],
              "reset": [{"world.require": {}}, {"files.write": {"path": f"${{HOME}}/notes.{kind}", "content": content}},
                        {"apps.open": {"path": f"${{HOME}}/notes.{kind}"}}],
              "judge": [{"files.exists": {"path": f"${{HOME}}/notes.{kind}"}}]}
             for kind, content in (("pdf", _pdf("Lecture notes")), ("txt", "Lecture notes\n"))]
    suite.write_text(yaml.safe_dump({"tasks": tasks}, sort_keys=False))
    loaded = {t.id: t for t in load_tasks([str(suite)]).tasks}
    times = time_resets({"PDF (Chromium's viewer)": lambda: loaded["open-pdf"],
                         "text (mousepad)": lambda: loaded["open-txt"]}, args.repeat)
    print_resets(times, "apps.open of")


if __name__ == "__main__":
    main()
