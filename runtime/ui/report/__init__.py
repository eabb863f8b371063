"""The static HTML run report and run comparison.

``write_report(run_dir)`` writes ``run_dir/report/index.html`` (summary per suite
and tag, filterable task list) and a page per task (instruction, every step's
reply, code, output and screenshot, the judges' verdicts). ``compare_runs(a, b)``
lists the tasks that changed outcome between two runs.
"""

from .compare import ChangedTask, CompareResult, compare_runs, print_compare
from .data import RunData, load_run
from .pricing import PRICES, cost_of
from .render import write_report

__all__ = [
           "PRICES",
           "ChangedTask",
           "CompareResult",
           "RunData",
           "compare_runs",
           "cost_of",
           "load_run",
           "print_compare",
           "write_report",
]
