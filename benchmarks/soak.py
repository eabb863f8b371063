"""Soak: built-in suites (`os` by default, `--suites all` for every one) and a hostile suite, run back to back in one process, several rounds.

The hostile suite is what issue 25 measured against the runner: an agent-written YAML alias bomb
judged by config.value, a docx whose document part inflates to 300 MB, an xlsx declaring 3M cells,
a 500 MB JSON file and a CSV with one 200 MB line (both sparse: no disk), a judge allocating 3 GB, a
judge that sleeps forever, judges raising SystemExit and KeyboardInterrupt, a reset step that hangs.
Each round must give every task a result (nothing lost), the hostile ones ``error`` naming the limit,
the same statuses every round, and the runner's memory must stay flat (VmRSS after each round, and
the peak, VmHWM).

    .venv/bin/python benchmarks/soak.py [--rounds 3] [--workers 2] [--judge-repeat 200] [--suites os ...|all]

It first measures what running a judge in its own process costs (files.exists both ways).
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from deskact.runtime.config import Config
from deskact.runtime.run.runner import Run, RunOptions
from deskact.runtime.tasks.steps import StepContext, Verdict, judge, reset_step, run_judge

SUITES = Path(__file__).resolve().parent.parent / "task_suites"

BOMB = "\n".join(["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
                 + [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 9)])

HOSTILE = f"""
tasks:
  - id: soak-yaml-bomb
    instruction: an alias bomb where a config file should be
    judge: [{{config.value: {{path: app.yaml, key: l8, exists: true}}}}]
    reference: |
      open("app.yaml", "w").write({BOMB!r})
      exit()
  - id: soak-docx-bomb
    instruction: a docx whose document part inflates to 300 MB
    judge: [{{docx.text: {{path: big.docx, contains: x}}}}]
    reference: |
      import zipfile
      with zipfile.ZipFile("big.docx", "w", zipfile.ZIP_DEFLATED) as z:
          z.writestr("[Content_Types].xml", "<Types/>")
          with z.open("word/document.xml", "w", force_zip64=True) as part:
              for _ in range(300):
                  part.write(b" " * (1 << 20))
      exit()
  - id: soak-xlsx-cells
    instruction: an xlsx declaring 3M cells
    judge: [{{xlsx.cells: {{path: big.xlsx, cells: {{A1: 1}}}}}}]
    reference: |
      import zipfile
      with zipfile.ZipFile("big.xlsx", "w") as z:
          z.writestr("xl/worksheets/sheet1.xml", '<worksheet><dimension ref="A1:C1000000"/><sheetData/></worksheet>')
      exit()
  - id: soak-json-500mb
    instruction: a 500 MB JSON file (sparse)
    judge: [{{files.json: {{path: big.json, pointer: /0, equals: 1}}}}]
    reference: |
      with open("big.json", "wb") as f:
          f.truncate(500 << 20)
      exit()
  - id: soak-csv-line
    instruction: a CSV with one 200 MB line (sparse)
    judge: [{{csv.rows: {{path: big.csv, contains: [[x]]}}}}]
    reference: |
      with open("big.csv", "wb") as f:
          f.truncate(200 << 20)
      exit()
  - id: soak-allocates
    instruction: a judge allocating 3 GB
    judge: [{{soak.allocates: {{}}}}]
    reference: exit()
  - id: soak-sleeps
    instruction: a judge that sleeps forever
    judge: [{{soak.sleeps: {{}}}}]
    reference: exit()
  - id: soak-exits
    instruction: a judge raising SystemExit
    judge: [{{soak.raises: {{what: exit}}}}]
    reference: exit()
  - id: soak-interrupts
    instruction: a judge raising KeyboardInterrupt
    judge: [{{soak.raises: {{what: interrupt}}}}]
    reference: exit()
  - id: soak-reset-hangs
    instruction: a reset step that hangs
    reset: [{{soak.hangs: {{}}}}]
    judge: [{{answer.contains: {{text: x}}}}]
    reference: exit()
"""


@judge("soak.allocates")
def _allocates(ctx: StepContext) -> Verdict:
    hoard = [bytearray(1 << 30) for _ in range(3)]
    for block in hoard:  # touched, so the memory is really taken
        block[:: 1 << 12] = b"x" * len(block[:: 1 << 12])
    return Verdict.ok()


@judge("soak.sleeps")
def _sleeps(ctx: StepContext) -> Verdict:
    time.sleep(1e6)
    return Verdict.ok()


@judge("soak.raises")
def _raises(ctx: StepContext, what: str) -> Verdict:
    if what == "exit":
        raise SystemExit(1)
    raise KeyboardInterrupt


@reset_step("soak.hangs")
def _hangs(ctx: StepContext) -> None:
    threading.Event().wait()


def memory_kb() -> tuple[int, int]:
    """(VmRSS, VmHWM) of this process, in KB."""
    found = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0])
    return found["VmRSS"], found["VmHWM"]


def judge_overhead(repeat: int) -> None:
    """What a judge's own process costs: files.exists run ``repeat`` times each way, in ms."""
    import statistics

    with tempfile.TemporaryDirectory(prefix="deskact-soak-judge-") as tmp:
        Path(tmp, "a.txt").write_text("x")
        for isolated in (False, True):
            config = Config()
            config.limits.isolate_judges = isolated
            ctx = StepContext(workspace=Path(tmp), files=Path(tmp), home=Path(tmp), config=config)
            took = []
            for _ in range(repeat):
                start = time.perf_counter()
                assert run_judge("files.exists", {"path": "a.txt"}, ctx).passed
                took.append((time.perf_counter() - start) * 1000)
            took.sort()
            print(f"| files.exists, {'own process' if isolated else 'in the runner'} | {statistics.median(took):.2f} |"
                  f" {took[int(len(took) * 0.95)]:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--judge-repeat", type=int, default=200)
    parser.add_argument("--suites", nargs="+", default=["os"],
                        help="built-in suites to run with the hostile one ('all': every built-in suite)")
    args = parser.parse_args()
    if args.suites == ["all"]:
        args.suites = sorted(p.name for p in SUITES.iterdir() if p.is_dir() and not p.name.startswith("_"))
    print("| judge | median ms | p95 ms |\n|---|---:|---:|")
    judge_overhead(args.judge_repeat)
    print()
    config = Config()
    config.limits.judge_seconds = 10  # the sleeping judge's wait, kept short for the soak
    config.limits.reset_seconds = 10
    config.limits.judge_memory_mb = 1024  # the 3 GB judge stops after 1 GB, touched: kind to a shared box
    with tempfile.TemporaryDirectory(prefix="deskact-soak-") as tmp:
        hostile = Path(tmp, "soak_hostile")
        hostile.mkdir()
        (hostile / "tasks.yaml").write_text(HOSTILE)
        statuses: list[dict[str, str]] = []
        print("| round | tasks | results | passed | failed | error | hostile errors naming a limit or cause | s | VmRSS MB | VmHWM MB |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for round_ in range(1, args.rounds + 1):
            opts = RunOptions(paths=[*(str(SUITES / name) for name in args.suites), str(hostile)], model="reference",
                              out=Path(tmp, f"round{round_}"), workers=args.workers)
            run = Run(config, opts)
            start = time.monotonic()
            results = run.execute()
            took = time.monotonic() - start
            rss, hwm = memory_kb()
            counts = Counter(r.status for r in results)
            named = sum(r.status == "error" and any(word in (r.error or "") for word in
                        ("limits.", "alias", "field limit", "SystemExit", "KeyboardInterrupt"))
                        for r in results if r.task_id.startswith("soak-"))
            statuses.append({r.task_id: f"{r.status}: {(r.error or '')[:150]}" for r in results})
            print(f"| {round_} | {len(run.tasks) + len(run.invalid)} | {len(results)} | {counts['passed']} |"
                  f" {counts['failed']} | {counts['error']} | {named} of 10 | {took:.0f} | {rss // 1024} | {hwm // 1024} |",
                  flush=True)
        same = all(s == statuses[0] for s in statuses)
        print(f"\nsame status for every task in every round: {same}")
        for task_id, status in sorted(statuses[-1].items()):
            if task_id.startswith("soak-"):
                print(f"- {task_id}: {' '.join(status.split())}")


if __name__ == "__main__":
    main()
