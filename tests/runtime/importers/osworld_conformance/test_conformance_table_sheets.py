"""OSWorld's compare_table (desktop-env) and deskact's xlsx.compare/csv.compare agree on right and
near-miss workbooks where sheets are picked by position: a sheet_data rule comparing two sheets of
the result (a sheet and its copy), and sheet_print by position (a CSV named after whatever the
sheet at that position is called, of which OSWorld fetches only the one its getter lists)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import openpyxl
import pytest

pytestmark = pytest.mark.conformance

RESULT = "/home/user/copy_sheet_insert.xlsx"
GOLD_URL = "https://example.org/gold/copy_sheet_insert_gold.xlsx"
LARS = [["Resource", "Hours"], ["Printer", 3], ["Scanner", 1.5]]
OFFLINE = [["Item"], ["cable"]]
GOLD = {"LARS Resources": LARS, "LARS Resources (Backup)": LARS, "Sheet2 (Offline)": OFFLINE}
COPY_RULES = [{"type": "sheet_name"}, {"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": 1},
              {"type": "sheet_data", "sheet_idx0": 1, "sheet_idx1": "EI1"},
              {"type": "sheet_data", "sheet_idx0": 2, "sheet_idx1": "EI2"}]


def _book(path: Path, sheets: dict[str, list[list[Any]]]) -> Path:
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    wb.save(path)
    return path


def _changed(rows: list[list[Any]], r: int, c: int, value: Any) -> list[list[Any]]:
    out = [list(row) for row in rows]
    out[r][c] = value
    return out


@pytest.mark.parametrize(("result", "verdict"), [
    (GOLD, True),
    ({"LARS Resources": LARS, "LARS Resources (Backup)": _changed(LARS, 1, 1, 4), "Sheet2 (Offline)": OFFLINE}, False),
    ({"LARS Resources": _changed(LARS, 2, 0, "Scanner "), "LARS Resources (Backup)": LARS,
      "Sheet2 (Offline)": OFFLINE}, False),  # the original changed after copying
    ({"LARS Resources": LARS, "LARS Resources (Backup)": _changed(LARS, 1, 1, "3"), "Sheet2 (Offline)": OFFLINE},
     True),  # numeric text in a column of numbers reads as the number, as pandas reads it
    ({"LARS Resources": LARS, "Sheet2 (Offline)": OFFLINE}, False),  # no copy
    ({"LARS Resources": LARS, "Sheet2 (Offline)": OFFLINE, "LARS Resources (Backup)": LARS}, False),  # copy last
    ({"LARS Resources": LARS, "LARS Resources(Backup)": LARS, "Sheet2 (Offline)": OFFLINE}, False),  # no space
    ({"LARS Resources": LARS, "LARS Resources (Backup)": LARS, "Sheet2 (Offline)": [["Item"], ["wire"]]}, False),
])
def test_compare_table_sheet_against_its_copy(desktop_env: Any, deskact: Any, result: dict[str, list[list[Any]]],
                                              verdict: bool) -> None:
    gold = _book(deskact.ctx.gold.parent / "expected.xlsx", GOLD)
    result_path = _book(deskact.home_file(RESULT), result)
    evaluator = {"func": "compare_table", "result": {"type": "vm_file", "path": RESULT, "dest": "copy_sheet_insert.xlsx"},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "copy_sheet_insert_gold.xlsx"},
                 "options": {"rules": COPY_RULES}}
    theirs = desktop_env.passes("table", "compare_table", str(result_path), str(gold), rules=COPY_RULES)
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


BOOK = "/home/user/Customers_New_7digit_Id.xlsx"
PRINTED_CSV = "/home/user/Customers_New_7digit_Id-Sheet1.csv"
GOLD_CSV_URL = "https://example.org/gold/Customers_New_7digit_Id_gold-Sheet1.csv"
IDS = [["Old ID", "New 7 Digit ID"], [123, "0000123"], [45678, "0045678"]]
PRINTED = "Old ID,New 7 Digit ID\n123,0000123\n45678,0045678\n"
EVALUATOR = {"func": "compare_table",
             "result": {"type": "vm_file", "path": [BOOK, PRINTED_CSV], "multi": True,
                        "dest": ["Customers_New_7digit_Id.xlsx", "Customers_New_7digit_Id-Sheet1.csv"]},
             "expected": {"type": "cloud_file", "path": [GOLD_URL, GOLD_CSV_URL], "multi": True,
                          "dest": ["Customers_New_7digit_Id_gold.xlsx", "Customers_New_7digit_Id_gold-Sheet1.csv"]},
             "options": {"rules": [{"type": "sheet_print", "sheet_idx0": 0, "sheet_idx1": "EI0"}]}}


@pytest.mark.parametrize(("sheets", "printed", "gold_first", "verdict"), [
    (["Sheet1"], PRINTED, "Sheet1", True),
    (["Sheet1", "Notes"], PRINTED, "Sheet1", True),
    (["Sheet1"], PRINTED.replace("0045678", "45678"), "Sheet1", False),
    (["Data"], PRINTED, "Sheet1", False),  # renamed: LibreOffice prints -Data.csv, which OSWorld does not fetch
    (["Notes", "Sheet1"], PRINTED, "Sheet1", False),  # the other sheet first
    (["Sheet1"], PRINTED, "Data", False),  # the gold's first sheet is not the printed one
])
def test_compare_table_sheet_print_by_position(desktop_env: Any, deskact: Any, tmp_path: Path, sheets: list[str],
                                               printed: str, gold_first: str, verdict: bool) -> None:
    gold_dir = deskact.ctx.gold.parent
    gold = _book(gold_dir / "gold.xlsx", {gold_first: IDS, **({"Sheet1": IDS} if gold_first != "Sheet1" else {})})
    gold_csv = gold_dir / "gold-Sheet1.csv"
    gold_csv.write_text(PRINTED)
    book = _book(deskact.home_file(BOOK), {name: IDS if n == 0 else [["x"]] for n, name in enumerate(sheets)})
    # The postconfig's convert-to prints the first sheet to a CSV named after it.
    deskact.home_file(f"/home/user/Customers_New_7digit_Id-{sheets[0]}.csv").write_text(printed)
    # OSWorld's cache holds only what the getters list: the result's -Sheet1.csv if it was printed.
    cache = tmp_path / "cache"
    cache.mkdir()
    shutil.copy(book, cache / "Customers_New_7digit_Id.xlsx")
    if deskact.home_file(PRINTED_CSV).exists():
        shutil.copy(deskact.home_file(PRINTED_CSV), cache / "Customers_New_7digit_Id-Sheet1.csv")
    shutil.copy(gold, cache / "Customers_New_7digit_Id_gold.xlsx")
    shutil.copy(gold_csv, cache / "Customers_New_7digit_Id_gold-Sheet1.csv")
    theirs = desktop_env.passes("table", "compare_table", str(cache / "Customers_New_7digit_Id.xlsx"),
                                str(cache / "Customers_New_7digit_Id_gold.xlsx"), rules=EVALUATOR["options"]["rules"])
    ours = deskact.passes(EVALUATOR, {GOLD_URL: gold, GOLD_CSV_URL: gold_csv})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback
