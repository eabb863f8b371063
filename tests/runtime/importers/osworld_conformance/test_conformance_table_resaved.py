"""OSWorld's compare_table (desktop-env) and deskact's xlsx.compare ``gold_resaved`` agree where the
expected workbook is a ``vm_file`` the postconfig downloads into the VM, opens and saves with
LibreOffice after the episode (libreoffice_calc-4e6fcf72: employees' ages from their birthdays).

Saving recomputes volatile formulas: a gold whose ages are ``TODAY()`` formulas with the cached
values of the day it was made holds today's ages once saved. desktop-env is given the gold as
LibreOffice saves it today (headless LibreOffice standing in for the VM's Calc and its ctrl+s);
deskact is given the gold as downloaded and saves it itself when judging."""

from __future__ import annotations

import datetime
import re
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from deskact.runtime.importers.osworld_metrics_tables import resaved_gold

pytestmark = pytest.mark.conformance

RESULT = "/home/user/Employee_Age_By_Birthday.xlsx"
GOLD_PATH = "/home/user/Employee_Age_By_Birthday_gold.xlsx"
GOLD_URL = "https://example.org/Employee_Age_By_Birthday_gold.xlsx"
BIRTHS = [30000, 33000, 36500]  # date serials
SAVE = {"type": "execute", "parameters": {"command": ["python", "-c",
                                                       "import pyautogui; pyautogui.hotkey(\"ctrl\", \"s\");"]}}
EVALUATOR = {
    "func": "compare_table",
    "postconfig": [SAVE, {"type": "download", "parameters": {"files": [{"url": GOLD_URL, "path": GOLD_PATH}]}},
                   {"type": "open", "parameters": {"path": GOLD_PATH}},
                   {"type": "activate_window", "parameters": {
                       "window_name": "Employee_Age_By_Birthday_gold.xlsx - LibreOffice Calc", "strict": True}},
                   SAVE],
    "expected": {"type": "vm_file", "path": GOLD_PATH, "dest": "Employee_Age_By_Birthday_gold.xlsx"},
    "result": {"type": "vm_file", "path": RESULT, "dest": "Employee_Age_By_Birthday.xlsx"},
    "options": {"rules": [{"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": "EI0"}]}}


def _today() -> int:
    return (datetime.date.today() - datetime.date(1899, 12, 30)).days


def _age(birth: int) -> int:
    return int((_today() - birth) / 365.25)


def _stale_gold(path: Path) -> Path:
    """Ages as TODAY() formulas whose cached values (7) are those of another day."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Birthday", "Age"])
    for n, birth in enumerate(BIRTHS, start=2):
        ws.append([birth, f"=INT((TODAY()-A{n})/365.25)"])
    wb.save(path.with_suffix(".tmp"))
    with zipfile.ZipFile(path.with_suffix(".tmp")) as src, zipfile.ZipFile(path, "w") as out:
        for info in src.infolist():
            body = src.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                body = re.sub(rb"(<f>INT\(\(TODAY\(\)-A\d\)/365\.25\)</f>)<v\s*/?>(</v>)?", rb"\1<v>7</v>", body)
            out.writestr(info, body)
    return path


def _saved_by_libreoffice(path: Path, out: Path) -> Path:
    subprocess.run(["soffice", f"-env:UserInstallation=file://{out}/profile", "--headless", "--convert-to", "xlsx",
                    "--outdir", str(out), str(path)], check=True, capture_output=True, timeout=180)
    return out / path.name


def _result(path: Path, ages: list[Any]) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Birthday", "Age"])
    for birth, age in zip(BIRTHS, ages):
        ws.append([birth, age])
    wb.save(path)
    return path


@pytest.mark.slow
@pytest.mark.parametrize(("ages", "verdict"), [
    ([_age(b) for b in BIRTHS], True),
    ([_age(b) for b in BIRTHS[:2]] + [_age(BIRTHS[2]) + 1], False),  # one age off by a year
    ([7, 7, 7], False),  # the gold's values of the day it was made
])
def test_gold_saved_in_the_vm(desktop_env: Any, deskact: Any, tmp_path: Path, ages: list[Any], verdict: bool) -> None:
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice is not installed")
    gold = _stale_gold(tmp_path / "Employee_Age_By_Birthday_gold.xlsx")
    assert openpyxl.load_workbook(gold, data_only=True).active["B2"].value == 7
    saved = _saved_by_libreoffice(gold, tmp_path / "vm")
    result = _result(deskact.home_file(RESULT), ages)
    theirs = desktop_env.passes("table", "compare_table", str(result), str(saved), **EVALUATOR["options"])
    ours = deskact.passes(resaved_gold(EVALUATOR), {GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


def test_the_gold_never_enters_the_world() -> None:
    rewritten = resaved_gold(EVALUATOR)
    assert rewritten["expected"] == {"type": "cloud_file", "path": GOLD_URL, "dest": "Employee_Age_By_Birthday_gold.xlsx"}
    assert rewritten["postconfig"] == [SAVE, SAVE]  # no download, open or activation of the gold
    unsaved = {**EVALUATOR, "postconfig": EVALUATOR["postconfig"][:3]}  # opened, never saved
    assert resaved_gold(unsaved) is unsaved
