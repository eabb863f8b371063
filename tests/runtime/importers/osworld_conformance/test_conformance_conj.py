"""OSWorld's ``conj: or`` (desktop_env.py's evaluate: a metric at 1 solves the task, else the best
score, which is below 1) and deskact's judges.any over the metrics' translations agree, on
multi_apps-3a93cae4's form: three compare_table alternatives, each its own gold workbook."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

pytestmark = pytest.mark.conformance

RESULT = "/home/user/Desktop/Course Timetable.xlsx"
GOLDS = [f"https://example.org/gold/timetable{i}.xlsx" for i in range(3)]
RULES = [{"type": "sheet_data", "sheet_idx0": "RNSheet1", "sheet_idx1": "ENSheet1", "ignore_case": True}]
BASE = [["Day", "Time", "Course"], ["Monday", "10:00", "Grammar"]]
ANSWERS = [BASE + [["Wednesday", "12:00", "Lecture"]], BASE + [["Wednesday", "12:00-14:00", "Lecture"]],
           BASE + [["Wednesday", "12:00", "Lecture"], ["Wednesday", "13:00", "Lecture"]]]


def _book(path: Path, rows: list[list[Any]]) -> Path:
    wb = openpyxl.Workbook()
    wb.active.title = "Sheet1"
    for row in rows:
        wb.active.append(row)
    wb.save(path)
    return path


CASES = [
    (ANSWERS[0], True),
    (ANSWERS[1], True),  # the second alternative alone
    (ANSWERS[2], True),
    # sheet_data's ignore_case is not read by desktop-env 1.0.2 (nor by the translation)
    ([[c.upper() for c in row] for row in ANSWERS[1]], False),
    (BASE, False),  # nothing added: no alternative
    (BASE + [["Wednesday", "11:00", "Lecture"]], False),  # a near miss of every alternative
    (ANSWERS[2][:-1] + [["Thursday", "13:00", "Lecture"]], False),
]


@pytest.mark.parametrize(("rows", "verdict"), CASES)
def test_conj_or(desktop_env: Any, deskact: Any, rows: list[list[Any]], verdict: bool) -> None:
    golds = {url: _book(deskact.ctx.gold.parent / f"expected{i}.xlsx", ANSWERS[i]) for i, url in enumerate(GOLDS)}
    result = _book(deskact.home_file(RESULT), rows)
    evaluator = {"func": ["compare_table"] * 3, "conj": "or",
                 "result": [{"type": "vm_file", "path": RESULT, "dest": "Course Timetable.xlsx"}] * 3,
                 "expected": [{"type": "cloud_file", "path": url, "dest": f"gold{i}.xlsx"} for i, url in enumerate(GOLDS)],
                 "options": [{"rules": RULES}] * 3}
    # desktop_env.py's evaluate for conj "or": return 1 at the first metric at 1, else max(results) (< 1)
    theirs = any(desktop_env.passes("table", "compare_table", str(result), str(g), rules=RULES) for g in golds.values())
    ours = deskact.passes(evaluator, golds)
    assert ours == theirs == verdict, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env {theirs}"


def test_an_untranslatable_alternative_reports_the_task() -> None:
    from deskact.runtime.importers.osworld_metrics import translate_evaluator

    evaluator = {"func": ["compare_table", "no_such_metric"], "conj": "or",
                 "result": [{"type": "vm_file", "path": RESULT}] * 2,
                 "expected": [{"type": "cloud_file", "path": GOLDS[0], "dest": "g.xlsx"}] * 2,
                 "options": [{"rules": RULES}, {}]}
    out = translate_evaluator(evaluator, lambda url, name: name, str, str)
    assert out.reasons == ["func no_such_metric: no deskact judge checks the same thing"] and not out.judge
