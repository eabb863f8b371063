"""How much of OSWorld and AgentStudio deskact's importers convert, per domain.

Usage: .venv/bin/python benchmarks/import_coverage.py OSWORLD_DIR [--agentstudio AGENT_STUDIO_DIR]

OSWORLD_DIR is a copy of OSWorld (or its ``evaluation_examples`` folder); the table counts
the 369 official tasks of ``test_all.json`` per domain, once offline (no file answers: tasks
that need a gold file are reported) and once with every download answered (a local HTTP
server on 127.0.0.1 stands in for every URL the task files name, through a ``--mirror``
file, with ``--fetch``: inputs and gold files are fetched into the suite at import time).
The stand-in bytes are not the real files: this measures what converts, not what passes.
AGENT_STUDIO_DIR is a copy of AgentStudio (its ``eval_online_benchmarks/tasks``); its data
folder is not public, so its tasks are counted without ``--files-root``.
Both imports also run over every file (Windows set, non-task files) to show nothing crashes.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import http.server
import json
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from deskact.runtime.importers import ImportOptions, ImportReport
from deskact.runtime.importers.agentstudio import import_agentstudio
from deskact.runtime.importers.osworld import import_osworld


class _AnyFile(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = hashlib.sha256(self.path.encode()).hexdigest().encode() + b"\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def answering_server() -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _AnyFile)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def urls(value: Any) -> Iterator[str]:
    if isinstance(value, str) and value.startswith(("http://", "https://")):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from urls(v)
    elif isinstance(value, list):
        for v in value:
            yield from urls(v)


def examples_dir(root: Path) -> Path:
    for candidate in (root / "evaluation_examples", root):
        if (candidate / "test_all.json").is_file():
            return candidate
    raise SystemExit(f"{root}: no test_all.json (give OSWorld's folder or its evaluation_examples)")


def osworld_rows(examples: Path, work: Path) -> tuple[list[tuple[str, int, int, int]], dict[str, int]]:
    official: dict[str, list[str]] = json.loads((examples / "test_all.json").read_text())
    offline = import_osworld(examples / "examples", ImportOptions(out=work / "offline", fetch_gold=False))
    every = [json.loads(f.read_text()) for f in (examples / "examples").rglob("*.json")]
    with answering_server() as base:
        mirror = {u: f"{base}/{hashlib.sha256(u.encode()).hexdigest()[:16]}" for t in every for u in urls(t)}
        (work / "mirror.json").write_text(json.dumps(mirror))
        answered = import_osworld(examples / "examples", ImportOptions(
            out=work / "answered", mirror=work / "mirror.json", fetch=True))
    rows = []
    for domain, ids in sorted(official.items()):
        files = {f"{domain}/{uid}.json" for uid in ids}
        rows.append((domain, len(ids), sum(c.file in files for c in offline.converted),
                     sum(c.file in files for c in answered.converted)))
    totals = {"files": len(answered.converted) + len(answered.skipped), "converted": len(answered.converted),
              "ignored": len(answered.ignored)}
    return rows, totals


def reasons(report: ImportReport, top: int = 12) -> list[tuple[str, int]]:
    return list(report.reason_counts().items())[:top]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("osworld", type=Path)
    parser.add_argument("--agentstudio", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        rows, totals = osworld_rows(examples_dir(args.osworld), work)
        print("| OSWorld domain | official tasks | converted offline | converted, every download answered |")
        print("|---|---|---|---|")
        for domain, n, off, ans in rows:
            print(f"| {domain} | {n} | {off} | {ans} ({100 * ans / n:.0f} %) |")
        n, off, ans = (sum(r[i] for r in rows) for i in (1, 2, 3))
        print(f"| **all** | {n} | {off} | {ans} ({100 * ans / n:.0f} %) |")
        print(f"\nEvery file: {totals['files']} tasks read, {totals['converted']} converted,"
              f" {totals['ignored']} non-task files ignored, no crash.")
        answered = ImportReport.model_validate_json((work / "answered" / "import-report.json").read_text())
        print("\nMost common reasons (tasks they stop, every download answered):")
        for kind, count in reasons(answered):
            print(f"- {kind}: {count}")
        if args.agentstudio:
            tasks = next((p for p in (args.agentstudio / "eval_online_benchmarks" / "tasks", args.agentstudio)
                          if p.is_dir()), args.agentstudio)
            report = import_agentstudio(tasks, ImportOptions(out=work / "agentstudio"))
            per: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
            for c in report.converted:
                per[c.file.rsplit("/", 1)[0]][0] += 1
            for s in report.skipped:
                per[s.file.rsplit("/", 1)[0]][1] += 1
            print("\n| AgentStudio folder | tasks | converted (no data folder) |\n|---|---|---|")
            for folder, (conv, skip) in sorted(per.items()):
                print(f"| {folder} | {conv + skip} | {conv} |")
            total = len(report.converted) + len(report.skipped)
            print(f"| **all** | {total} | {len(report.converted)} ({100 * len(report.converted) / total:.0f} %) |")


if __name__ == "__main__":
    main()
