"""How much of AgentStudio deskact's importer converts, per task folder, and why the rest does not.

Usage: .venv/bin/python benchmarks/import_coverage_agentstudio.py AGENT_STUDIO_DIR

AGENT_STUDIO_DIR is a copy of AgentStudio (github.com/SkyworkAI/agent-studio; its
``eval_online_benchmarks/tasks``, 205 tasks). Its ``data/`` folder of input and gold files is not
public, so the import runs twice: without ``--files-root`` and with a folder of stand-ins made by
``tests/runtime/importers/agentstudio_standins.py`` (a small file of the right type for every data
file the tasks name). The stand-ins are not AgentStudio's files: this measures what converts, not
what passes.
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
from pathlib import Path

from deskact.runtime.importers import ImportOptions, ImportReport
from deskact.runtime.importers.agentstudio import import_agentstudio

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "runtime" / "importers"))
from agentstudio_standins import make_standins


def _folder(file: str) -> str:
    parts = Path(file).parts
    return "/".join(parts[:-1]) or "."


def table(without: ImportReport, with_files: ImportReport) -> list[str]:
    counts: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
    for report, col in ((without, 1), (with_files, 2)):
        for c in report.converted:
            counts[_folder(c.file)][col] += 1
    for s in [*with_files.converted, *with_files.skipped]:
        counts[_folder(s.file)][0] += 1
    lines = ["| folder | tasks | convert without data files | convert with stand-ins |", "|---|---|---|---|"]
    for name, (total, bare, full) in sorted(counts.items()):
        lines.append(f"| {name} | {total} | {bare} | {full} |")
    total = sum(v[0] for v in counts.values())
    bare, full = len(without.converted), len(with_files.converted)
    lines.append(f"| **all** | {total} | {bare} ({100 * bare / total:.0f} %) | {full} ({100 * full / total:.1f} %) |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agentstudio", type=Path)
    args = parser.parse_args()
    tasks = next((p for p in (args.agentstudio / "eval_online_benchmarks" / "tasks", args.agentstudio) if p.is_dir()),
                 args.agentstudio)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        make_standins(tasks, work / "root")
        without = import_agentstudio(tasks, ImportOptions(out=work / "bare"))
        with_files = import_agentstudio(tasks, ImportOptions(out=work / "full", files_root=work / "root"))
    print("\n".join(table(without, with_files)))
    print("\nWhy the rest does not convert (with stand-ins; tasks per reason):\n")
    for reason, n in with_files.reason_counts().items():
        print(f"- {reason}: {n}")


if __name__ == "__main__":
    main()
