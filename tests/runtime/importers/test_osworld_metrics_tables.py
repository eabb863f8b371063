"""compare_table rules picked by position or reading cell styles (osworld_metrics_tables.py): the
judges they become. Verdicts against desktop-env: osworld_conformance/test_conformance_table_*.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from deskact.runtime.importers import ImportOptions
from deskact.runtime.importers.agentstudio import import_agentstudio
from deskact.runtime.importers.osworld_metrics import Translation, translate_evaluator
from deskact.runtime.importers.osworld_metrics_tables import resaved_gold

BOOK = {"type": "vm_file", "path": "/home/user/PeriodRate.xlsx", "dest": "PeriodRate.xlsx"}
GOLD = {"type": "cloud_file", "path": "https://example.org/gt.xlsx", "dest": "gt.xlsx"}
AGENTSTUDIO_SHEETS = Path(__file__).parent / "fixtures" / "agentstudio" / "tasks" / "single_gui" / "sheets"


def translate(evaluator: Any) -> Translation:
    return translate_evaluator(evaluator, lambda url, name: f"t/{name}",
                               lambda p: "${HOME}" + p.removeprefix("/home/user"), lambda c: str(c))


def _table(rules: list[dict[str, Any]], **parts: Any) -> Translation:
    return translate({"func": "compare_table", "result": BOOK, "expected": GOLD, "options": {"rules": rules}, **parts})


def test_style_rule_becomes_xlsx_styles_beside_the_data() -> None:
    out = _table([{"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": "EI0"},
                  {"type": "style", "sheet_idx0": 0, "sheet_idx1": "EI0", "props": ["font_color"]}])
    assert out.reasons == []
    assert out.judge[0]["xlsx.compare"]["positions"] == [0]
    assert out.judge[1] == {"xlsx.styles": {"path": "${HOME}/PeriodRate.xlsx", "gold": "t/gt.xlsx",
                                            "same": ["font_color"], "sheet": 0, "gold_sheet": 0}}
    assert any("conditional formatting" in note for note in out.notes)


def test_check_cell_splits_value_and_style_props() -> None:
    props = {"bgcolor": {"method": "eq", "ref": "FF0000FF"}, "font_bold": {"method": "eq", "ref": True},
             "value": {"method": "eq", "ref": "Demographic Profile"}}
    out = translate({"func": "compare_table", "result": BOOK, "options": {"rules": [
        {"type": "check_cell", "sheet_idx": "RNSheet2", "coordinate": "A1", "props": props}]}})
    assert out.reasons == []
    ranges, styles = out.judge[0]["xlsx.ranges"], out.judge[1]["xlsx.styles"]
    assert ranges["sheet"] == "Sheet2" and [c["coordinate"] for c in ranges["checks"]] == ["A1"]
    assert styles["sheet"] == "Sheet2" and "gold" not in styles
    assert styles["checks"] == [{"coordinate": "A1", "prop": "bgcolor", "method": "eq", "ref": "FF0000FF"},
                                {"coordinate": "A1", "prop": "font_bold", "method": "eq", "ref": True}]


def test_check_cell_with_only_style_props_needs_no_value_judge() -> None:
    out = translate({"func": "compare_table", "result": BOOK, "options": {"rules": [
        {"type": "check_cell", "sheet_idx": 0, "coordinate": "B2", "props": {"font_bold": {"method": "eq", "ref": True}}}]}})
    assert [next(iter(s)) for s in out.judge] == ["xlsx.styles"]


def test_sheet_against_its_copy_is_compared_within_the_result() -> None:
    out = _table([{"type": "sheet_name"}, {"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": 1},
                  {"type": "sheet_data", "sheet_idx0": 1, "sheet_idx1": "EI1"},
                  {"type": "sheet_data", "sheet_idx0": 2, "sheet_idx1": "EI2"}])
    assert out.reasons == []
    params = out.judge[0]["xlsx.compare"]
    assert params["within"] == [[0, 1]] and params["positions"] == [1, 2] and params["sheet_names"] is True


def test_sheet_print_by_position_names_the_printed_sheet() -> None:
    result = {"type": "vm_file", "multi": True, "path": ["/home/user/C.xlsx", "/home/user/C-Sheet1.csv"],
              "dest": ["C.xlsx", "C-Sheet1.csv"]}
    expected = {"type": "cloud_file", "multi": True, "path": ["https://e.org/g.xlsx", "https://e.org/g.csv"],
                "dest": ["C_gold.xlsx", "C_gold-Sheet1.csv"]}
    out = _table([{"type": "sheet_print", "sheet_idx0": 0, "sheet_idx1": "EI0"}], result=result, expected=expected)
    assert out.reasons == []
    compare, printed = out.judge[0]["xlsx.compare"], out.judge[1]["csv.compare"]
    assert compare["names_at"] == {0: "Sheet1"} and compare["gold_names_at"] == {0: "Sheet1"}
    assert printed["path"] == "${HOME}/C-Sheet1.csv" and printed["reference"] == "t/C_gold-Sheet1.csv"


def test_sheet_print_by_position_without_one_listed_csv_is_reported() -> None:
    result = {"type": "vm_file", "multi": True, "path": ["/home/user/C.xlsx", "/home/user/C-A.csv", "/home/user/C-B.csv"],
              "dest": ["C.xlsx", "C-A.csv", "C-B.csv"]}
    out = _table([{"type": "sheet_print", "sheet_idx0": 0, "sheet_idx1": "EI0"}], result=result)
    assert any("needs the result getter to list one C-<sheet>.csv" in r for r in out.reasons), out.reasons


def test_agentstudio_style_rules_stay_reported(tmp_path: Path) -> None:
    """AgentStudio's copy of compare_table reads cell styles its own way (bgcolor from the fill's
    background colour): its style rules are reported, not given desktop-env's reading."""
    uid = "01b269ae-2111-4a07-81fd-3fcd711993b0"
    task = json.loads((AGENTSTUDIO_SHEETS / f"{uid}.json").read_text())
    task["eval_procedure"][0]["params"]["options"]["rules"].append(
        {"type": "style", "sheet_idx0": 0, "sheet_idx1": "EI0", "props": ["bgcolor"]})
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / f"{uid}.json").write_text(json.dumps(task))
    root = tmp_path / "as_root"
    (root / "data" / uid).mkdir(parents=True)
    for name in ("Student_Level_Fill_Blank.xlsx", "Student_Level_Fill_Blank_gold.xlsx"):
        (root / "data" / uid / name).write_bytes(name.encode())
    report = import_agentstudio(tmp_path / "src", ImportOptions(out=tmp_path / "out", files_root=root))
    assert any("style and check_cell style props are read as AgentStudio's own copy" in r
               for r in report.skipped[0].reasons), report.skipped


SAVE = {"type": "execute", "parameters": {"command": ["python", "-c", "import pyautogui; pyautogui.hotkey(\"ctrl\", \"s\");"]}}
GOLD_IN_VM = {
    "func": "compare_table",
    "postconfig": [SAVE, {"type": "download", "parameters": {"files": [
        {"url": "https://e.org/g.xlsx", "path": "/home/user/A_gold.xlsx"}]}},
        {"type": "open", "parameters": {"path": "/home/user/A_gold.xlsx"}},
        {"type": "activate_window", "parameters": {"window_name": "A_gold.xlsx - LibreOffice Calc"}}, SAVE],
    "expected": {"type": "vm_file", "path": "/home/user/A_gold.xlsx", "dest": "A_gold.xlsx"}, "result": BOOK,
    "options": {"rules": [{"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": "EI0"}]}}


def test_a_gold_saved_in_the_vm_stays_on_the_host() -> None:
    rewritten = resaved_gold(GOLD_IN_VM)
    assert rewritten["postconfig"] == [SAVE, SAVE]
    out = translate(rewritten)
    assert out.reasons == []
    params = out.judge[0]["xlsx.compare"]
    assert params["gold"] == "t/A_gold.xlsx" and params["gold_resaved"] is True
    # never saved after opening, or another func: left as it is, and a vm_file gold is reported
    unsaved = {**GOLD_IN_VM, "postconfig": GOLD_IN_VM["postconfig"][:3]}
    assert resaved_gold(unsaved) is unsaved
    assert any("a vm_file the postconfig does not download" in r for r in translate(unsaved).reasons)
    other = {**GOLD_IN_VM, "func": "compare_docx_files"}
    assert resaved_gold(other) is other
