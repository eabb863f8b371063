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

Where memory goes between rounds: ``--heap`` prints malloc's heap (in use, free; glibc's mallinfo2)
and Python's (pymalloc blocks, gc objects), threads and fds after each round, changing nothing;
``--diagnose`` adds, after a gc.collect, VmRSS before and after malloc_trim(0) (free heap pages
returned: fragmentation, not a leak), every thread's stack, what holds the oldest emulator, worker,
world... still alive, the object counts grown by type and the round's errors; ``--trace FRAMES``
adds tracemalloc's growth by traceback; ``--trim`` calls malloc_trim(0) after every task.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import sys
import tempfile
import threading
import time
import traceback
import tracemalloc
import types
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


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]


_LIBC = ctypes.CDLL("libc.so.6")
_LIBC.mallinfo2.restype = _MallInfo2


def malloc_trim() -> None:
    """Give glibc's free heap pages back (tells allocator fragmentation from live allocations)."""
    _LIBC.malloc_trim(0)


def heap_line() -> str:
    """Where the runner's memory is: malloc's heap in use and free (glibc mallinfo2: every C
    library and Python's objects over 512 bytes), pymalloc's blocks, gc objects, threads, fds."""
    info = _LIBC.mallinfo2()
    threads = len(os.listdir("/proc/self/task"))
    fds = len(os.listdir("/proc/self/fd"))
    traced = ""
    if tracemalloc.is_tracing():
        traced = f" python traced {tracemalloc.get_traced_memory()[0] >> 20} MB;"
    return (f"malloc in use {info.uordblks >> 20} MB, free in heap {info.fordblks >> 20} MB, mmapped"
            f" {info.hblkhd >> 20} MB; pymalloc blocks {sys.getallocatedblocks()}; gc objects {len(gc.get_objects())};"
            f"{traced} threads {threads} (python {threading.active_count()}); fds {fds}")


def type_counts() -> Counter[str]:
    return Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.get_objects())


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


WATCHED = ("Emulator", "GoogleClients", "Worker", "TaskEnv", "Run", "World", "StepContext", "KernelPool")


def holders(obj: object, depth: int = 6) -> str:
    """A chain of what keeps ``obj`` alive (first referrer that is not a frame or this module's list)."""
    chain = []
    seen = {id(obj)}
    for _ in range(depth):
        refs = [r for r in gc.get_referrers(obj) if id(r) not in seen and not isinstance(r, types.FrameType)
                and r is not sys._getframe()]
        refs = [r for r in refs if not (isinstance(r, list) and len(r) > 1000)]
        if not refs:
            break
        obj = refs[0]
        seen.add(id(obj))
        desc = type(obj).__name__
        if isinstance(obj, dict):
            desc += "{" + ", ".join(list(map(str, obj))[:4]) + "}"
        elif isinstance(obj, types.FunctionType):
            desc += " " + obj.__qualname__
        elif isinstance(obj, threading.Thread):
            desc += " " + obj.name
        chain.append(desc)
    return " <- ".join(chain)


def diagnose(args: argparse.Namespace, before_types: Counter[str],
             snapshot: tracemalloc.Snapshot | None) -> list[str]:
    """What grew in the runner during the round: the heaps, the object counts, the allocations."""
    gc.collect()
    lines = [heap_line()]
    rss = memory_kb()[0]
    malloc_trim()
    lines.append(f"VmRSS {rss >> 10} MB, after malloc_trim {memory_kb()[0] >> 10} MB; " + heap_line())
    if args.diagnose:
        for ident, frame in sys._current_frames().items():
            thread = next((t for t in threading.enumerate() if t.ident == ident), None)
            where = traceback.extract_stack(frame)[-3:]
            lines.append(f"thread {thread.name if thread else ident}: "
                         + " <- ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(where)))
        for name in WATCHED:
            alive = [o for o in gc.get_objects() if type(o).__name__ == name]
            if alive:
                count, oldest = len(alive), alive[0]
                del alive
                lines.append(f"{count} {name} alive; the oldest held by: {holders(oldest)}")
                del oldest
        grown = type_counts()
        grown.subtract(before_types)
        lines.append("objects grown: " + ", ".join(f"{k} +{v}" for k, v in grown.most_common(15) if v > 0))
    if snapshot is not None:
        now_ = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
        for stat in now_.compare_to(snapshot, "traceback")[:12]:
            if stat.size_diff < 256 << 10:
                break
            lines.append(f"+{stat.size_diff >> 10} KB ({stat.count_diff:+d} blocks):")
            lines.extend("    " + str(frame) for frame in stat.traceback.format()[-2 * args.trace:])
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--judge-repeat", type=int, default=200)
    parser.add_argument("--suites", nargs="+", default=["os"],
                        help="built-in suites to run with the hostile one ('all': every built-in suite)")
    parser.add_argument("--diagnose", action="store_true",
                        help="after each round: malloc and Python heap, threads, fds, object counts by type")
    parser.add_argument("--trace", type=int, default=0, metavar="FRAMES",
                        help="tracemalloc with this many frames: each round's growth by traceback")
    parser.add_argument("--trim", action="store_true", help="malloc_trim(0) after every task")
    parser.add_argument("--heap", action="store_true",
                        help="after each round, on stderr: malloc's and Python's heaps, threads, fds (changes nothing)")
    args = parser.parse_args()
    if args.trace:
        tracemalloc.start(args.trace)
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
        notes: list[str] = []
        before_types = type_counts() if args.diagnose else Counter()
        snapshot = tracemalloc.take_snapshot() if args.trace else None
        print("| round | tasks | results | passed | failed | error | hostile errors naming a limit or cause | s | VmRSS MB | VmHWM MB |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for round_ in range(1, args.rounds + 1):
            opts = RunOptions(paths=[*(str(SUITES / name) for name in args.suites), str(hostile)], model="reference",
                              out=Path(tmp, f"round{round_}"), workers=args.workers)
            run = Run(config, opts, on_result=(lambda r: malloc_trim()) if args.trim else None)
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
            if args.heap:
                print(f"round {round_}: {heap_line()}", file=sys.stderr, flush=True)
            if args.diagnose or args.trace:
                notes.append(f"round {round_}: " + "\n".join(diagnose(args, before_types, snapshot)))
                before_types = type_counts() if args.diagnose else Counter()
                snapshot = tracemalloc.take_snapshot() if args.trace else None
                print(notes[-1], file=sys.stderr, flush=True)
                for r in results:
                    if r.status == "error" and not r.task_id.startswith("soak-"):
                        print(f"  error {r.task_id}: {' '.join((r.error or '').split())[:200]}", file=sys.stderr)
        same = all(s == statuses[0] for s in statuses)
        print(f"\nsame status for every task in every round: {same}")
        for task_id, status in sorted(statuses[-1].items()):
            if task_id.startswith("soak-"):
                print(f"- {task_id}: {' '.join(status.split())}")


if __name__ == "__main__":
    main()
