"""Official OSWorld Calc tasks converted by the compare_table translations of cell styles and
sheets by position, given hand-written references and stand-in workbooks built here, pass
`deskact validate` with LibreOffice really running: the reference passes, a do-nothing agent and
the explorer fail.

- ``21ab7b40`` (sheet_data + style font_color -> xlsx.compare + xlsx.styles): the reference quits
  Calc, adds the column and the green font with openpyxl and has headless LibreOffice save the
  workbook (so its fonts are LibreOffice's, as the gold's are).
- ``0cecd4f3`` (sheet_name + sheet_data of a sheet against its copy -> xlsx.compare within): the
  reference quits Calc, renames and copies the sheets with openpyxl and has headless LibreOffice
  save the workbook.
- ``0bf05a7d`` (sheet_print by position -> xlsx.compare names_at + csv.compare): the reference
  types TEXT formulas into Calc and saves; the task's own postconfig prints the sheet to CSV with
  ``libreoffice --convert-to`` while Calc is still open.

Golds are made here from the instructions (OSWorld's are not public offline), each saved by
headless LibreOffice as OSWorld's were by Calc; the gold CSV is printed by the task's own
convert-to filter. The task files are unmodified copies (fixtures/README.md)."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from imported_suite import assert_validates, import_suite, validate_imported, write_tasks

FIXTURES = Path(__file__).parent / "fixtures"
PERIOD = FIXTURES / "osworld_styles" / "examples" / "libreoffice_calc" / "21ab7b40-77c2-4ae6-8321-e00d3a086c73.json"
COPY = FIXTURES / "osworld_styles" / "examples" / "libreoffice_calc" / "0cecd4f3-74de-457b-ba94-29ad6b5dafb6.json"
PADDING = FIXTURES / "osworld" / "examples" / "libreoffice_calc" / "0bf05a7d-b28b-44d2-955a-50b41e24012a.json"
RATES = [["Year", "Total Rate (%)", "Periods"], ["2021", 12, 4], ["2022", 15, 3], ["2023", 9, 2]]
LARS = [["Resource", "Hours"], ["Printer", 3], ["Scanner", 1.5]]
OFFLINE = [["Item"], ["cable"]]
IDS = [["Old ID", "New 7 Digit ID"], [123, None], [45678, None], [9, None]]
CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,UTF-8,,,,false,true,true,false,false,1"
SAVE = (
    "before = os.path.getmtime(path)\n"
    "keyboard.hotkey('ctrl', 's')\n"
    "deadline = time.monotonic() + 60\n"
    "while os.path.getmtime(path) == before and time.monotonic() < deadline:\n"
    "    if windows.find('File Format'):\n"
    "        windows.activate('File Format'); keyboard.press('enter')\n"
    "        windows.wait_closed('File Format', timeout=20)\n"
    "    time.sleep(0.1)\n")


def _openpyxl_then_libreoffice(name: str, body: str) -> str:
    """Quit Calc, change the workbook with openpyxl (``body``), have headless LibreOffice save it."""
    return ("import os, shutil, subprocess, openpyxl\nfrom openpyxl.styles import Font\n"
            f"path = os.path.expanduser('~/{name}')\n"
            f"windows.activate({name!r}); keyboard.hotkey('ctrl', 'q')\nwindows.wait_closed({name!r}, timeout=30)\n"
            "wb = openpyxl.load_workbook(path)\n" + body + "wb.save(path)\n"
            "subprocess.run(['soffice', '-env:UserInstallation=file:///tmp/deskact-reference-lo', '--headless',"
            " '--convert-to', 'xlsx', '--outdir', '/tmp/deskact-reference-out', path], check=True, timeout=180)\n"
            f"shutil.move('/tmp/deskact-reference-out/{name}', path)\nexit()\n")


REFERENCES = {
    "osworld-libreoffice-calc-21ab7b40": _openpyxl_then_libreoffice("PeriodRate.xlsx", (
        "ws = wb.worksheets[0]\nws['D1'] = 'Period Rate (%)'\n"
        "for r in range(2, ws.max_row + 1):\n    ws.cell(r, 4).value = ws.cell(r, 2).value / ws.cell(r, 3).value\n"
        "best = max(range(2, ws.max_row + 1), key=lambda r: ws.cell(r, 4).value)\n"
        "ws.cell(best, 4).font = Font(color='FF00FF00')\n")),
    "osworld-libreoffice-calc-0cecd4f3": _openpyxl_then_libreoffice("copy_sheet_insert.xlsx", (
        "ws = wb['Sheet1']\nws.title = 'LARS Resources'\n"
        "backup = wb.copy_worksheet(ws)\nbackup.title = 'LARS Resources (Backup)'\n"
        "wb.move_sheet(backup, offset=-1)\nwb['Sheet2'].title = 'Sheet2 (Offline)'\n")),
    "osworld-libreoffice-calc-0bf05a7d": (
        "import os, time\npath = os.path.expanduser('~/Customers_New_7digit_Id.xlsx')\n"
        "windows.activate('Customers_New_7digit_Id.xlsx')\n"
        "keyboard.hotkey('ctrl', 'home'); time.sleep(0.2); keyboard.press('down'); time.sleep(0.2)\n"
        "keyboard.press('right'); time.sleep(0.2)\n"
        "for row in (2, 3, 4):\n    keyboard.type(f'=TEXT(A{row};\"0000000\")\\n'); time.sleep(0.3)\n"
        + SAVE + "exit()\n"),
}


def _id(url: str) -> str:
    return parse_qs(urlsplit(url).query)["id"][0]


def _saved_by_libreoffice(data: bytes, tmp: Path, name: str, edit: Any) -> Path:
    """The workbook ``data`` changed by ``edit``, as headless LibreOffice saves it (fonts and fills
    as Calc writes them)."""
    import openpyxl

    wb = openpyxl.load_workbook(io.BytesIO(data))
    if edit is not None:
        edit(wb)
    src = tmp / "src" / name
    src.parent.mkdir(parents=True, exist_ok=True)
    wb.save(src)
    _soffice(tmp, "xlsx", src, tmp / "saved")
    return tmp / "saved" / name


def _soffice(tmp: Path, target: str, src: Path, outdir: Path) -> None:
    subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp}/profile", "--headless", "--convert-to", target,
                    "--outdir", str(outdir), str(src)], check=True, capture_output=True, timeout=180)


def _period_gold(wb: Any) -> None:
    from openpyxl.styles import Font

    ws = wb.worksheets[0]
    ws["D1"] = "Period Rate (%)"
    for r in range(2, ws.max_row + 1):
        ws.cell(r, 4).value = ws.cell(r, 2).value / ws.cell(r, 3).value
    ws["D3"].font = Font(color="FF00FF00")  # 15 / 3 = 5, the highest


def _copy_gold(wb: Any) -> None:
    wb["Sheet1"].title = "LARS Resources"
    backup = wb.create_sheet("LARS Resources (Backup)", 1)
    for row in LARS:
        backup.append(row)
    wb["Sheet2"].title = "Sheet2 (Offline)"


def _padding_gold(wb: Any) -> None:
    ws = wb.worksheets[0]
    for r in range(2, ws.max_row + 1):
        ws.cell(r, 2).value = f"{ws.cell(r, 1).value:07d}"


def _serve(file_host: Any, tmp: Path) -> None:
    import json

    period = json.loads(PERIOD.read_text())
    given = file_host.workbook({"Sheet1": RATES})
    file_host.served[_id(period["config"][0]["parameters"]["files"][0]["url"])] = given
    gold = _saved_by_libreoffice(given, tmp / "period", "PeriodRate_gt.xlsx", _period_gold)
    file_host.served[_id(period["evaluator"]["expected"]["path"])] = gold.read_bytes()
    copy = json.loads(COPY.read_text())
    given = file_host.workbook({"Sheet1": LARS, "Sheet2": OFFLINE})
    file_host.served[_id(copy["config"][0]["parameters"]["files"][0]["url"])] = given
    gold = _saved_by_libreoffice(given, tmp / "copy", "copy_sheet_insert_gold.xlsx", _copy_gold)
    file_host.served[_id(copy["evaluator"]["expected"]["path"])] = gold.read_bytes()
    padding = json.loads(PADDING.read_text())
    given = file_host.workbook({"Sheet1": IDS})
    file_host.served[_id(padding["config"][0]["parameters"]["files"][0]["url"])] = given
    gold = _saved_by_libreoffice(given, tmp / "padding", "Customers_New_7digit_Id_gold.xlsx", _padding_gold)
    _soffice(tmp / "padding", CSV_FILTER, gold, tmp / "padding" / "csv")
    book_url, csv_url = padding["evaluator"]["expected"]["path"]
    file_host.served[_id(book_url)] = gold.read_bytes()
    file_host.served[_id(csv_url)] = (tmp / "padding" / "csv" / "Customers_New_7digit_Id_gold-Sheet1.csv").read_bytes()


@pytest.mark.slow
@pytest.mark.display
@pytest.mark.bwrap
def test_style_copied_and_printed_sheet_tasks_validate(tmp_path: Path, file_host: Any) -> None:
    from deskact.runtime.world.world import world_status

    if not world_status()[0]:
        pytest.skip("the padding task starts with world.require")
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice is not installed")
    src = tmp_path / "src" / "libreoffice_calc"
    src.mkdir(parents=True)
    for task in (PERIOD, COPY, PADDING):
        shutil.copy(task, src)
    _serve(file_host, tmp_path)
    validate_imported(src.parent, tmp_path, file_host, REFERENCES)


AGES = FIXTURES / "osworld_styles" / "examples" / "libreoffice_calc" / "4e6fcf72-daf3-439f-a232-c434ce416af6.json"
BIRTHS = [["Birthday", "Age"], [30000, None], [33000, None], [36500, None]]
AGES_REFERENCE = (
    "import os, time\npath = os.path.expanduser('~/Employee_Age_By_Birthday.xlsx')\n"
    "windows.activate('Employee_Age_By_Birthday.xlsx')\n"
    "keyboard.hotkey('ctrl', 'home'); time.sleep(0.2); keyboard.press('down'); time.sleep(0.2)\n"
    "keyboard.press('right'); time.sleep(0.2)\n"
    "for row in (2, 3, 4):\n    keyboard.type(f'=INT((TODAY()-A{row})/365.25)\\n'); time.sleep(0.3)\n"
    + SAVE + "exit()\n")


def _stale_ages(data: bytes) -> bytes:
    """The gold's ages as TODAY() formulas with the cached values (7) of the day it was made."""
    import re
    import zipfile

    import openpyxl

    wb = openpyxl.load_workbook(io.BytesIO(data))
    for r in range(2, wb.active.max_row + 1):
        wb.active.cell(r, 2).value = f"=INT((TODAY()-A{r})/365.25)"
    plain, out = io.BytesIO(), io.BytesIO()
    wb.save(plain)
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            body = src.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                body = re.sub(rb"(<f>INT\(\(TODAY\(\)-A\d\)/365\.25\)</f>)<v\s*/?>(</v>)?", rb"\1<v>7</v>", body)
            dst.writestr(info, body)
    return out.getvalue()


@pytest.mark.slow
@pytest.mark.display
@pytest.mark.bwrap
def test_gold_saved_in_the_vm_validates(tmp_path: Path, file_host: Any) -> None:
    """4e6fcf72: the gold (stale TODAY() ages) is saved by LibreOffice when judging, so the
    reference's ages typed as TODAY() formulas today pass; the gold is never in the world."""
    import json

    from deskact.runtime.world.world import world_status

    if not world_status()[0]:
        pytest.skip("the task's worlds need bwrap")
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice is not installed")
    task = json.loads(AGES.read_text())
    given = file_host.workbook({"Sheet1": BIRTHS})
    file_host.served[_id(task["config"][0]["parameters"]["files"][0]["url"])] = given
    (download,) = [p for p in task["evaluator"]["postconfig"] if p["type"] == "download"]
    file_host.served[_id(download["parameters"]["files"][0]["url"])] = _stale_ages(given)
    src = tmp_path / "src" / "libreoffice_calc"
    src.mkdir(parents=True)
    shutil.copy(AGES, src)
    path, (imported,) = import_suite(src.parent, tmp_path, file_host)
    assert "gold" not in json.dumps(imported["reset"] + imported["before_judge"])
    write_tasks(path, [{**imported, "reference": AGES_REFERENCE}])
    assert_validates(path.parent, tmp_path, 1)

