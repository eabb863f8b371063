"""How long the HTML report and `compare` take on a large run.

Builds a synthetic run folder with the real writers (ResultsWriter, TrajectoryWriter):
N tasks x S steps, each step with a 1280x720 PNG screenshot and some output, then
times ``write_report`` and ``compare_runs``.

    .venv/bin/python benchmarks/report.py --tasks 500 --steps 8 --repeat 5
"""

from __future__ import annotations

import argparse
import io
import statistics
import tempfile
import time
from pathlib import Path

from deskact.runtime.agent.agent import EpisodeRecord, StepRecord
from deskact.runtime.agent.models.base import Usage
from deskact.runtime.execution import ExecResult, Image
from deskact.runtime.run.results import ResultsWriter, TaskResult
from deskact.runtime.run.trajectory import TrajectoryWriter, safe_name
from deskact.runtime.tasks.steps import Verdict
from deskact.runtime.ui.report import compare_runs, write_report
from PIL import Image as PILImage


def _png() -> Image:
    buf = io.BytesIO()
    PILImage.new("RGB", (1280, 720), (40, 90, 160)).save(buf, format="PNG")
    return Image(media_type="image/png", data=buf.getvalue())


def build_run(out: Path, tasks: int, steps: int, flip: int = 0) -> None:
    shot = _png()
    writer = ResultsWriter(out / "results.jsonl")
    for t in range(tasks):
        task_id = f"bench-task-{t:04d}"
        folder = out / "trajectories" / safe_name(task_id)
        traj = TrajectoryWriter(folder)
        record = EpisodeRecord(task_id=task_id, model="openai/gpt-4o", strategy="direct", finish_reason="done")
        for i in range(steps):
            rec = StepRecord(index=i, reply=f"Step {i}.\n```python\nprint({i})\n```", code=f"print({i})",
                             result=ExecResult(status="ok", stdout=f"{i}\n" * 20, duration_s=0.1),
                             usage=Usage(input_tokens=3000, output_tokens=120, calls=1))
            rec.screenshot = shot
            traj.step(rec)
            record.steps.append(rec)
        traj.episode(record, {"instruction": f"Do task {t}", "system_prompt": "system " * 200})
        passed = (t % 3 != 0) != (t < flip)
        writer.write(TaskResult(
            task_id=task_id, suite=f"suite{t % 4}", tags=["bench", f"tag{t % 5}"],
            status="passed" if passed else "failed", reward=int(passed), finish_reason="done", steps=steps,
            duration_s=12.5, model="openai/gpt-4o", tokens=Usage(input_tokens=3000 * steps, output_tokens=120 * steps),
            verdicts=[Verdict(passed=passed, feedback="ok" if passed else "x should be 1 but is 2",
                              judge="files.content", params={"path": "x"})],
            trajectory=str(folder.relative_to(out)),
        ))
    writer.close()


def timed(fn: object, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        out.append(time.perf_counter() - start)
    return out


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", type=int, default=500)
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    base = Path(tempfile.mkdtemp(prefix="deskact-bench-report-"))
    build_run(base / "a", args.tasks, args.steps)
    build_run(base / "b", args.tasks, args.steps, flip=args.tasks // 10)
    report = timed(lambda: write_report(base / "a"), args.repeat)
    compare = timed(lambda: compare_runs(base / "a", base / "b"), args.repeat)
    size = sum(p.stat().st_size for p in (base / "a" / "report").iterdir())
    print(f"{args.tasks} tasks x {args.steps} steps, repeat {args.repeat}")
    print(f"write_report: median {statistics.median(report) * 1000:.0f} ms, p95 {p95(report) * 1000:.0f} ms"
          f" ({size / 1e6:.1f} MB of HTML)")
    print(f"compare_runs: median {statistics.median(compare) * 1000:.0f} ms, p95 {p95(compare) * 1000:.0f} ms")
    import shutil

    shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
