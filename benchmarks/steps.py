"""Cost of the built-in reset steps and judges (host side), one call at a time.

    .venv/bin/python benchmarks/steps.py [--repeat 30]

Prints a markdown table (median and p95 in milliseconds) for BENCHMARKS.md.
GUI rows need Xvfb, openbox, xterm and mousepad; LibreOffice rows need soffice.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from deskact.runtime.tasks.steps import StepContext, run_judge, run_reset
from PIL import Image, ImageDraw


def measure(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    fn()  # warm-up: imports, caches
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]


def start_display() -> tuple[str, list[subprocess.Popen[bytes]]] | None:
    if not (shutil.which("Xvfb") and shutil.which("openbox")):
        return None
    r, w = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            pass_fds=(w,), stderr=subprocess.DEVNULL)
    os.close(w)
    display = ":" + os.fdopen(r).readline().strip()
    wm = subprocess.Popen(["openbox"], env=dict(os.environ, DISPLAY=display), stderr=subprocess.DEVNULL)
    from Xlib import display as xd

    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        d = xd.Display(display)
        owned = d.get_selection_owner(d.intern_atom("WM_S0")) != 0
        d.close()
        if owned:
            break
        time.sleep(0.02)
    return display, [wm, xvfb]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args()
    n = args.repeat
    root = Path(tempfile.mkdtemp(prefix="deskact-bench-"))
    for d in ("ws", "files", "gold"):
        (root / d).mkdir()
    ctx = StepContext(workspace=root / "ws", files=root / "files", home=root, gold=root / "gold")
    (ctx.files / "data.csv").write_text("a,b\n" + "1,2\n" * 1000)
    (ctx.workspace / "c.json").write_text('{"a": {"b": [1, 2, 3]}}')
    run_reset("office.xlsx", {"path": "s.xlsx", "sheets": {"S": [[i, i * 2] for i in range(100)]}}, ctx)
    run_reset("office.docx", {"path": "m.docx", "paragraphs": [f"Paragraph {i}" for i in range(50)]}, ctx)
    run_reset("office.pptx", {"path": "d.pptx", "slides": [{"title": f"S{i}", "body": ["x"]} for i in range(10)]}, ctx)
    for name, size in (("small", (400, 300)), ("fullhd", (1920, 1080))):
        im = Image.new("RGB", size, "white")
        ImageDraw.Draw(im).rectangle([50, 50, size[0] // 2, size[1] // 2], fill="blue")
        im.save(ctx.gold / f"{name}.png")
        im.save(ctx.workspace / f"{name}.png")

    rows: list[tuple[str, Callable[[], object]]] = [
        ("reset files.mkdir", lambda: run_reset("files.mkdir", {"path": "d/e"}, ctx)),
        ("reset files.write", lambda: run_reset("files.write", {"path": "w.txt", "content": "x" * 1000}, ctx)),
        ("reset files.copy (40 KB csv)", lambda: run_reset("files.copy", {"src": "data.csv", "dst": "data.csv"}, ctx)),
        ("reset files.remove (dir)", lambda: (run_reset("files.mkdir", {"path": "r/s"}, ctx),
                                              run_reset("files.remove", {"path": "r"}, ctx))),
        ("reset shell.run `true`", lambda: run_reset("shell.run", {"cmd": "true"}, ctx)),
        ("reset office.xlsx (100 rows)", lambda: run_reset("office.xlsx", {"path": "o.xlsx", "sheets": {"S": [[1, 2]] * 100}}, ctx)),
        ("reset office.docx (20 paragraphs)", lambda: run_reset("office.docx", {"path": "o.docx", "paragraphs": ["p"] * 20}, ctx)),
        ("reset office.pptx (5 slides)", lambda: run_reset("office.pptx", {"path": "o.pptx", "slides": [{"title": "t"}] * 5}, ctx)),
        ("judge files.exists", lambda: run_judge("files.exists", {"path": "w.txt", "kind": "file"}, ctx)),
        ("judge files.content contains", lambda: run_judge("files.content", {"path": "w.txt", "contains": "x"}, ctx)),
        ("judge files.json", lambda: run_judge("files.json", {"path": "c.json", "pointer": "/a/b/1", "equals": 2}, ctx)),
        ("judge shell.output", lambda: run_judge("shell.output", {"cmd": "echo hi", "equals": "hi"}, ctx)),
        ("judge xlsx.cells (cached values)", lambda: run_judge("xlsx.cells", {"path": "s.xlsx", "cells": {"B10": 18}}, ctx)),
        ("judge docx.paragraph", lambda: run_judge("docx.paragraph", {"path": "m.docx", "index": 3, "text": "Paragraph 3"}, ctx)),
        ("judge pptx.slide", lambda: run_judge("pptx.slide", {"path": "d.pptx", "index": 2, "title": "S2", "alignment": "center"}, ctx)),
        ("judge image.similar 400x300", lambda: run_judge("image.similar", {"path": "small.png", "reference": "small.png"}, ctx)),
        ("judge image.similar 1920x1080", lambda: run_judge("image.similar", {"path": "fullhd.png", "reference": "fullhd.png"}, ctx)),
    ]
    results = [(label, *measure(fn, n)) for label, fn in rows]
    if shutil.which("soffice"):
        run_reset("office.xlsx", {"path": "f.xlsx", "sheets": {"S": [[2, 3, "=A1*B1"]]}}, ctx)
        def recompute() -> object:
            return run_judge("xlsx.cells", {"path": "f.xlsx", "cells": {"C1": 6}}, ctx)
        results.append(("judge xlsx.cells (formula, LibreOffice recompute)", *measure(recompute, max(3, n // 10))))

    disp = start_display()
    if disp is not None:
        display, procs = disp
        gctx = StepContext(workspace=ctx.workspace, files=ctx.files, home=ctx.home, display=display)
        (ctx.workspace / "notes.txt").write_text("hi")
        gui = [
            ("reset apps.launch xterm + apps.kill", lambda: (
                run_reset("apps.launch", {"cmd": "xterm -title bench", "window": "bench"}, gctx),
                run_reset("apps.kill", {"name": "xterm"}, gctx))),
            ("reset apps.open notes.txt (mousepad) + apps.kill", lambda: (
                run_reset("apps.open", {"path": "notes.txt"}, gctx),
                run_reset("apps.kill", {"name": "mousepad"}, gctx))),
            ("judge windows.title", lambda: run_judge("windows.title", {"contains": "nothing"}, gctx)),
        ]
        results += [(label, *measure(fn, max(5, n // 3))) for label, fn in gui]
        if shutil.which("soffice"):
            def open_and_kill() -> object:
                return (run_reset("apps.open", {"path": "s.xlsx", "timeout": 120}, gctx),
                        run_reset("apps.kill", {"name": "soffice"}, gctx))
            results.append(("reset apps.open s.xlsx (LibreOffice) + apps.kill", *measure(open_and_kill, 3)))
        for p in procs:
            p.kill()
            p.wait()

    print("| step | median ms | p95 ms |\n|---|---:|---:|")
    for label, med, p95 in results:
        print(f"| {label} | {med:.2f} | {p95:.2f} |")
    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
