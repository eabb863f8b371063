"""OSWorld's compare_table (desktop-env) and deskact's xlsx.compare agree on right and near-miss
workbooks for the sheet_data and sheet_name rules the importer translates."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

pytestmark = pytest.mark.conformance

RESULT = "/home/user/Desktop/sales.xlsx"
GOLD_URL = "https://example.org/gold/sales.xlsx"
ROWS = [["Name", "Qty", "Price"], ["Tea", 3, 2.5], ["Cake", 1, 4.25]]
NOTES = [["note"], ["kept"]]


def _book(path: Path, sheets: dict[str, list[list[Any]]]) -> Path:
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    wb.save(path)
    return path


def _with(rows: list[list[Any]], r: int, c: int, value: Any) -> list[list[Any]]:
    out = [list(row) for row in rows]
    out[r][c] = value
    return out


GOLD = {"Sheet1": ROWS, "Notes": NOTES}
BY_POSITION = [{"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": "EI0"}]
BY_RI = [{"type": "sheet_data", "sheet_idx0": "RI1", "sheet_idx1": "EI1"}]
BY_NAME = [{"type": "sheet_data", "sheet_idx0": "RNSheet1", "sheet_idx1": "ENSheet1"}]
NAMES = [{"type": "sheet_name"}, *BY_POSITION]

CASES = [
    (BY_POSITION, GOLD, True),
    (BY_POSITION, {"Sheet1": _with(ROWS, 1, 1, 4), "Notes": NOTES}, False),
    (BY_POSITION, {"Sheet1": [*ROWS, ["Pie", 2, 3.0]], "Notes": NOTES}, False),
    (BY_POSITION, {"Sheet1": _with(ROWS, 1, 0, "Tea "), "Notes": NOTES}, False),  # text taken exactly
    (BY_POSITION, {"Sheet1": _with(ROWS, 1, 2, 2.500001), "Notes": NOTES}, True),  # 4 decimals
    (BY_POSITION, {"Sheet1": _with(ROWS, 1, 2, 2.5001), "Notes": NOTES}, False),
    # pandas reads a column of numbers and numeric text as numbers: text "3" there is the number 3
    (BY_POSITION, {"Sheet1": _with(ROWS, 1, 1, "3"), "Notes": NOTES}, True),
    (BY_POSITION, {"Sheet1": _with(ROWS, 1, 1, "three"), "Notes": NOTES}, False),
    (BY_POSITION, {"Sheet1": ROWS, "Notes": [["changed"]]}, True),  # only the first sheet
    (BY_POSITION, {"Data": ROWS, "Notes": NOTES}, True),  # by position, whatever the name
    (BY_POSITION, {"Notes": NOTES, "Sheet1": ROWS}, False),
    (BY_RI, GOLD, True),
    (BY_RI, {"Sheet1": ROWS, "Notes": [["note"], ["lost"]]}, False),
    (BY_RI, {"Sheet1": ROWS}, False),
    (BY_NAME, {"Notes": NOTES, "Sheet1": ROWS}, True),
    (BY_NAME, {"Notes": NOTES, "Sheet1": _with(ROWS, 2, 2, 4.5)}, False),
    (BY_NAME, {"Data": ROWS}, False),
    (NAMES, GOLD, True),
    (NAMES, {"Sheet1": ROWS, "Notes2": NOTES}, False),
    ([{"type": "sheet_name"}], {"Sheet1": [["other"]], "Notes": NOTES}, True),
    ([{"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": "EI0", "precision": 1}],
     {"Sheet1": _with(ROWS, 2, 2, 4.2), "Notes": NOTES}, True),
]


@pytest.mark.parametrize(("rules", "result", "verdict"), CASES)
def test_compare_table(desktop_env: Any, deskact: Any, rules: list[dict[str, Any]],
                       result: dict[str, list[list[Any]]], verdict: bool) -> None:
    gold = _book(deskact.ctx.gold.parent / "expected.xlsx", GOLD)
    result_path = _book(deskact.home_file(RESULT), result)
    evaluator = {"func": "compare_table", "result": {"type": "vm_file", "path": RESULT, "dest": "sales.xlsx"},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_sales.xlsx"},
                 "options": {"rules": rules}}
    theirs = desktop_env.passes("table", "compare_table", str(result_path), str(gold), rules=rules)
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


def test_missing_workbook_fails_both(desktop_env: Any, deskact: Any) -> None:
    gold = _book(deskact.ctx.gold.parent / "expected.xlsx", GOLD)
    evaluator = {"func": "compare_table", "result": {"type": "vm_file", "path": RESULT},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_sales.xlsx"},
                 "options": {"rules": BY_POSITION}}
    assert not deskact.passes(evaluator, {GOLD_URL: gold}) and "does not exist" in deskact.feedback
    assert not desktop_env.passes("table", "compare_table", str(deskact.home_file(RESULT)), str(gold), rules=BY_POSITION)


CSV_RESULT = "/home/user/Desktop/export.csv"
CSV_GOLD_URL = "https://example.org/gold/export.csv"
CSV_GOLD = b"Name,Qty\nTea,3\nCaf\xc3\xa9,1\n"


@pytest.mark.parametrize(("options", "text", "verdict"), [
    ({}, CSV_GOLD, True),
    ({}, CSV_GOLD.rstrip(b"\n"), True),  # lines compared: a final newline does not count
    ({}, CSV_GOLD.replace(b"\n", b"\r\n"), True),
    ({}, b"Name,Qty\nTea,3 \nCaf\xc3\xa9,1\n", False),
    ({}, b"Name,Qty\nTea,3\n", False),
    ({}, b"Name,Qty\nTea,3\nCaf\xe9,1\n", True),  # Latin-1 read as Latin-1
    ({"strict": False}, b"Name,Qty\n Tea,3 \nCaf\xc3\xa9,1\n", True),
    ({"strict": False}, b"Name,Qty\nTea,4\nCaf\xc3\xa9,1\n", False),
    ({"ignore_case": True}, b"NAME,qty\nTEA,3\nCAF\xc3\x89,1\n", True),
    ({"ignore_case": True}, b"NAME;qty\nTEA,3\nCAF\xc3\x89,1\n", False),
])
def test_compare_csv(desktop_env: Any, deskact: Any, options: dict[str, Any], text: bytes, verdict: bool) -> None:
    gold = deskact.ctx.gold.parent / "expected.csv"
    gold.write_bytes(CSV_GOLD)
    result = deskact.home_file(CSV_RESULT)
    result.write_bytes(text)
    evaluator = {"func": "compare_csv", "result": {"type": "vm_file", "path": CSV_RESULT, "dest": "export.csv"},
                 "expected": {"type": "cloud_file", "path": CSV_GOLD_URL, "dest": "gold_export.csv"},
                 "options": options}
    theirs = desktop_env.passes("table", "compare_csv", str(result), str(gold), **options)
    ours = deskact.passes(evaluator, {CSV_GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


PEOPLE = [["Name", "Address", "Phone", "Score"], ["Ann Lee", "12 Main Road", "15550102000", 3],
          ["Bo Chan", "4 Elm Street", "15550103000", 4.5]]
FUZZY_CASES = [
    ({"range": ["A1:D3"], "type": "exact_match"}, PEOPLE, True),
    ({"range": ["A1:D3"], "type": "exact_match"}, _with(PEOPLE, 2, 3, 4.25), False),
    ({"range": ["A1:D3"], "type": "exact_match"}, _with(PEOPLE, 1, 3, 3.0), True),  # both read "3.0"
    ({"range": ["D2"], "type": "exact_match"}, _with(PEOPLE, 1, 3, "3"), False),  # text "3" is not "3.0"
    ({"range": ["A4:D4"], "type": "exact_match"}, [*PEOPLE, ["extra"]], False),  # empty reads "None"
    ({"range": ["A2:A3"], "type": "includes", "ignore_case": True}, _with(PEOPLE, 1, 0, "Dr. ANN LEE"), True),
    ({"range": ["A2:A3"], "type": "includes"}, _with(PEOPLE, 1, 0, "Dr. ANN LEE"), False),
    ({"range": ["A2:A3"], "type": "included_by"}, _with(PEOPLE, 1, 0, "Ann"), True),
    # openpyxl writes a text with outer spaces as an inline string OSWorld reads as a dict
    ({"range": ["A2:A3"], "type": "exact_match", "trim_leadings": " ", "trim_trailings": " "},
     _with(PEOPLE, 1, 0, "  Ann Lee "), False),
    ({"range": ["A2:A3"], "type": "exact_match", "trim_leadings": "-", "trim_trailings": "-"},
     _with(PEOPLE, 1, 0, "--Ann Lee-"), True),
    ({"range": ["B2:B3"], "type": "fuzzy_match", "threshold": 85, "normalization": [["Rd", "Road"]],
      "ignore_case": True}, _with(PEOPLE, 1, 1, "12 main rd"), True),
    ({"range": ["B2:B3"], "type": "fuzzy_match", "threshold": 95}, _with(PEOPLE, 1, 1, "12 Main Rd"), False),
    ({"range": ["B2:B3"], "type": "fuzzy_match", "threshold": 90}, _with(PEOPLE, 1, 1, "12 Main Rd"), True),
    ({"range": ["C2:C3"], "type": "includes", "trim_leadings": "+ ", "ignore_chars": " ()-"},
     _with(PEOPLE, 1, 2, "+1 (555) 010-2000"), True),
    ({"range": ["C2:C3"], "type": "includes", "trim_leadings": "+ ", "ignore_chars": " ()-"},
     _with(PEOPLE, 1, 2, "+1 (555) 010-2001"), False),
]


@pytest.mark.parametrize(("rule", "result", "verdict"), FUZZY_CASES)
def test_compare_table_sheet_fuzzy(desktop_env: Any, deskact: Any, rule: dict[str, Any], result: list[list[Any]],
                                   verdict: bool) -> None:
    rules = [{"type": "sheet_fuzzy", "sheet_idx0": "RNSheet1", "sheet_idx1": "ENSheet1", "rules": [rule]}]
    gold = _book(deskact.ctx.gold.parent / "expected.xlsx", {"Sheet1": PEOPLE})
    result_path = _book(deskact.home_file(RESULT), {"Sheet1": result})
    evaluator = {"func": "compare_table", "result": {"type": "vm_file", "path": RESULT},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_sales.xlsx"},
                 "options": {"rules": rules}}
    theirs = desktop_env.passes("table", "compare_table", str(result_path), str(gold), rules=rules)
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


@pytest.mark.parametrize(("props", "value", "verdict"), [
    ({"value": {"method": "approx:0.001", "ref": 191.6667}}, 191.66666, True),
    ({"value": {"method": "approx:0.001", "ref": 191.6667}}, 191.7, False),
    ({"value": {"method": "approx:0.001", "ref": 191.6667}}, "191.6667", True),  # text read as a number
    ({"value": {"method": "approx:0.001", "ref": 191.6667}}, None, False),
    ({"value": {"method": "eq", "ref": "Demographic Profile"}}, "Demographic Profile", True),
    ({"value": {"method": "eq", "ref": "Demographic Profile"}}, "Demographic profile", False),
    ({"value": {"method": "eq", "ref": 5}}, 5, True),
    ({"value": {"method": "gt", "ref": 5}}, None, False),
    ({"value": {"method": "re.I", "ref": "^total"}}, "TOTAL: 5", True),
])
def test_compare_table_check_cell(desktop_env: Any, deskact: Any, props: dict[str, Any], value: Any,
                                  verdict: bool) -> None:
    rules = [{"type": "check_cell", "sheet_idx": 0, "coordinate": "E3", "props": props}]
    rows = [["a"], ["b"], ["c", None, None, None, value]]
    result_path = _book(deskact.home_file(RESULT), {"Data": rows, "Other": [["x"]]})
    evaluator = {"func": "compare_table", "result": {"type": "vm_file", "path": RESULT},
                 "options": {"rules": rules}}
    theirs = desktop_env.passes("table", "compare_table", str(result_path), None, rules=rules)
    ours = deskact.passes(evaluator)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


PRINTED = "Name,Qty,Price\nTea,3,2.50\nCake,1,4.25\n"


@pytest.mark.parametrize(("rule", "printed", "verdict"), [
    ({}, PRINTED, True),
    ({}, "  Name,Qty,Price \nTea,3,2.50\nCake,1,4.25\n\n\n", True),  # lines stripped, blank ends dropped
    ({}, "Name,Qty,Price\nTea,3,2.5\nCake,1,4.25\n", False),  # printed 2.5, the gold shows 2.50
    ({}, "\nName,Qty,Price\nTea,3,2.50\nCake,1,4.25\n", False),
    ({}, None, False),  # no CSV printed
    ({"ignore_case": True}, PRINTED.upper(), True),
    ({}, PRINTED.upper(), False),
])
def test_compare_table_sheet_print(desktop_env: Any, deskact: Any, rule: dict[str, Any], printed: str | None,
                                   verdict: bool) -> None:
    rules = [{"type": "sheet_print", "sheet_idx0": "RNSheet1", "sheet_idx1": "ENSheet1", **rule}]
    gold_dir = deskact.ctx.gold.parent
    gold = _book(gold_dir / "expected.xlsx", {"Sheet1": ROWS})
    (gold_dir / "expected-Sheet1.csv").write_text(PRINTED)
    result_path = _book(deskact.home_file(RESULT), {"Sheet1": ROWS})
    if printed is not None:
        deskact.home_file("/home/user/Desktop/sales-Sheet1.csv").write_text(printed)
    csv_url = "https://example.org/gold/sales-Sheet1.csv"
    evaluator = {"func": "compare_table",
                 "result": {"type": "vm_file", "path": [RESULT, "/home/user/Desktop/sales-Sheet1.csv"],
                            "dest": ["sales.xlsx", "sales-Sheet1.csv"], "multi": True},
                 "expected": {"type": "cloud_file", "path": [GOLD_URL, csv_url],
                              "dest": ["gold_sales.xlsx", "gold_sales-Sheet1.csv"], "multi": True},
                 "options": {"rules": rules}}
    theirs = desktop_env.passes("table", "compare_table", str(result_path), str(gold), rules=rules)
    ours = deskact.passes(evaluator, {GOLD_URL: gold, csv_url: gold_dir / "expected-Sheet1.csv"})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


def _charted(path: Path, kind: str = "bar", title: str = "Sales", legend: str | None = "r", rows: int = 3,
             y_title: str = "Units", direction: str = "col", charts: int = 1) -> Path:
    from openpyxl.chart import BarChart, LineChart, Reference

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sheet1"
    for row in ROWS:
        ws.append(row)
    for n in range(charts):
        chart = BarChart() if kind == "bar" else LineChart()
        if kind == "bar":
            chart.type = direction
        chart.title = title
        chart.y_axis.title = y_title
        chart.add_data(Reference(ws, min_col=2, min_row=1, max_row=rows), titles_from_data=True)
        chart.set_categories(Reference(ws, min_col=1, min_row=2, max_row=rows))
        if legend is None:
            chart.legend = None
        else:
            chart.legend.position = legend
        ws.add_chart(chart, f"E{2 + 15 * n}")
    wb.save(path)
    return path


CHART_CASES = [
    (["type", "legend", "title"], {}, True),
    (["type", "legend", "title"], {"kind": "line"}, False),
    (["type", "legend", "title"], {"title": "Revenue"}, False),
    (["type", "legend", "title"], {"legend": "b"}, False),
    (["type", "title"], {"legend": "b"}, True),
    (["type", "legend"], {"legend": None}, False),
    (["type"], {"rows": 2}, False),  # another data range: another chart
    (["xtitle", "ytitle", "type"], {"y_title": "Pieces"}, False),
    (["type", "direction"], {"direction": "bar"}, False),
    (["type", "direction"], {}, True),
    (["type"], {"charts": 2}, True),  # two charts of the same series count once, as in OSWorld
]


@pytest.mark.parametrize(("props", "change", "verdict"), CHART_CASES)
def test_compare_table_chart(desktop_env: Any, deskact: Any, props: list[str], change: dict[str, Any],
                             verdict: bool) -> None:
    rules = [{"type": "chart", "sheet_idx0": 0, "sheet_idx1": "EI0", "chart_props": props}]
    gold = _charted(deskact.ctx.gold.parent / "expected.xlsx")
    result_path = _charted(deskact.home_file(RESULT), **change)
    evaluator = {"func": "compare_table", "result": {"type": "vm_file", "path": RESULT},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_sales.xlsx"},
                 "options": {"rules": rules}}
    theirs = desktop_env.passes("table", "compare_table", str(result_path), str(gold), rules=rules)
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


def _viewed(path: Path, freeze: str | None = "B2", zoom: int | None = None) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sheet1"
    for row in ROWS:
        ws.append(row)
    ws.freeze_panes = freeze
    ws.sheet_view.zoomScale = zoom
    wb.save(path)
    return path


@pytest.mark.parametrize(("rule", "change", "verdict"), [
    ({"type": "freeze", "sheet_idx0": 0, "sheet_idx1": "EI0"}, {}, True),
    ({"type": "freeze", "sheet_idx0": 0, "sheet_idx1": "EI0"}, {"freeze": "A2"}, False),
    ({"type": "freeze", "sheet_idx0": 0, "sheet_idx1": "EI0"}, {"freeze": None}, False),
    ({"type": "zoom", "sheet_idx": 0, "method": "eq", "ref": 150}, {"zoom": 150}, True),
    ({"type": "zoom", "sheet_idx": 0, "method": "eq", "ref": 150}, {"zoom": 140}, False),
    ({"type": "zoom", "sheet_idx": 0, "method": "eq", "ref": 100}, {}, True),  # unset reads 100
    ({"type": "zoom", "sheet_idx": 0, "method": "gt", "ref": 100}, {"zoom": 120}, True),
])
def test_compare_table_freeze_and_zoom(desktop_env: Any, deskact: Any, rule: dict[str, Any], change: dict[str, Any],
                                       verdict: bool) -> None:
    rules = [rule]
    gold = _viewed(deskact.ctx.gold.parent / "expected.xlsx")
    result_path = _viewed(deskact.home_file(RESULT), **change)
    evaluator = {"func": "compare_table", "result": {"type": "vm_file", "path": RESULT},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_sales.xlsx"},
                 "options": {"rules": rules}}
    theirs = desktop_env.passes("table", "compare_table", str(result_path), str(gold), rules=rules)
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


def _pivoted(path: Path, rows: int = 0, cols: int | None = None, page: int | None = None, data: int = 2,
             subtotal: str = "sum", hidden: int | None = None, source: str = "A1:C4", empty_edge: bool = False) -> Path:
    """Sheet1 with the data, Sheet2 with one pivot table over it (openpyxl's own pivot classes):
    row field ``rows``, column field ``cols``, page field ``page``, data field ``data``; ``hidden``
    hides the second item of the row field; ``empty_edge`` adds an itemless field before the others."""
    from openpyxl.pivot.cache import CacheDefinition, CacheField, CacheSource, SharedItems, WorksheetSource
    from openpyxl.pivot.table import DataField, FieldItem, Location, PageField, PivotField, RowColField, TableDefinition

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sheet1"
    for row in (["Region", "Item", "Sales"], ["EU", "Tea", 3], ["US", "Tea", 5], ["EU", "Cake", 2]):
        ws.append(row)
    pivot_sheet = wb.create_sheet("Sheet2")
    shift = 1 if empty_edge else 0
    fields = [PivotField(showAll=False)] * shift + [
        PivotField(axis="axisRow" if n == rows else None, showAll=False,
                   items=[FieldItem(x=0), FieldItem(x=1, h=True if hidden == n else None), FieldItem(t="default")]
                   if n in (rows, cols, page) else []) for n in range(3)]
    table = TableDefinition(
        name="Pivot", cacheId=1, dataCaption="Values",
        location=Location(ref="A3:B6", firstHeaderRow=1, firstDataRow=1, firstDataCol=1), pivotFields=fields,
        rowFields=[RowColField(x=rows + shift)], colFields=[RowColField(x=cols + shift)] if cols is not None else [],
        pageFields=[PageField(fld=page + shift)] if page is not None else [],
        dataFields=[DataField(name="Sales", fld=data + shift, subtotal=subtotal)])
    table.cache = CacheDefinition(
        cacheSource=CacheSource(type="worksheet", worksheetSource=WorksheetSource(ref=source, sheet="Sheet1")),
        cacheFields=[CacheField(name=n, sharedItems=SharedItems()) for n in ("Region", "Item", "Sales")])
    pivot_sheet._pivots.append(table)
    wb.save(path)
    return path


PIVOT_PROPS = ["col_fields", "filter", "row_fields", "data_fields"]


@pytest.mark.parametrize(("sheets", "change", "verdict"), [
    (("RNSheet2", "ENSheet2"), {}, True),
    (("RNSheet2", "ENSheet2"), {"rows": 1}, False),
    (("RNSheet2", "ENSheet2"), {"subtotal": "average"}, False),
    (("RNSheet2", "ENSheet2"), {"cols": 1}, False),
    (("RNSheet2", "ENSheet2"), {"page": 1}, False),
    (("RNSheet2", "ENSheet2"), {"hidden": 0}, False),
    (("RNSheet2", "ENSheet2"), {"source": "A1:C5"}, False),
    (("RNSheet2", "ENSheet2"), {"empty_edge": True}, False),  # the source's left edge moves one column
    ((0, "EI0"), {}, True),  # Sheet1 has no pivot table on either side
    ((1, "EI1"), {"data": 1}, False),
])
def test_compare_table_pivot_table(desktop_env: Any, deskact: Any, sheets: tuple[Any, str], change: dict[str, Any],
                                   verdict: bool) -> None:
    rules = [{"type": "pivot_table", "sheet_idx0": sheets[0], "sheet_idx1": sheets[1], "pivot_props": PIVOT_PROPS}]
    gold = _pivoted(deskact.ctx.gold.parent / "expected.xlsx")
    result_path = _pivoted(deskact.home_file(RESULT), **change)
    evaluator = {"func": "compare_table", "result": {"type": "vm_file", "path": RESULT},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_sales.xlsx"},
                 "options": {"rules": rules}}
    theirs = desktop_env.passes("table", "compare_table", str(result_path), str(gold), rules=rules)
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


def _shaped(path: Path, hidden_rows: tuple[int, ...] = (3,), wide: float | None = None,
            validations: tuple[tuple[str, str, str], ...] = (("list", '"Pass,Fail,Held"', "D2:D29"),)) -> Path:
    from openpyxl.worksheet.datavalidation import DataValidation

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sheet1"
    for row in ROWS:
        ws.append(row)
    for n in hidden_rows:
        ws.row_dimensions[n].hidden = True
    if wide is not None:
        ws.column_dimensions["B"].width = wide
    for kind, formula, cells in validations:
        dv = DataValidation(type=kind, formula1=formula)
        dv.add(cells)
        ws.add_data_validation(dv)
    wb.save(path)
    return path


DV_RULE = {"type": "data_validation", "sheet_idx": 0, "dv_props": [
    {"ranges": {"method": "spreadsheet_range", "ref": ["D2:D29", "D2:D1048576"]},
     "type": {"method": "eq", "ref": "list"}, "formula1": {"method": "str_set_eq", "ref": ["Pass", "Fail", "Held"]}}]}


@pytest.mark.parametrize(("rule", "change", "verdict"), [
    ({"type": "row_props", "sheet_idx0": 0, "sheet_idx1": "EI0", "props": ["hidden"]}, {}, True),
    ({"type": "row_props", "sheet_idx0": 0, "sheet_idx1": "EI0", "props": ["hidden"]}, {"hidden_rows": (2,)}, False),
    ({"type": "row_props", "sheet_idx0": 0, "sheet_idx1": "EI0", "props": ["hidden"]}, {"hidden_rows": ()}, False),
    ({"type": "col_props", "sheet_idx0": 0, "sheet_idx1": "EI0", "props": ["width"]}, {"wide": 30.0}, False),
    (DV_RULE, {}, True),
    (DV_RULE, {"validations": (("list", '"Held,Pass,Fail"', "D2:D100"),)}, True),
    (DV_RULE, {"validations": (("list", '"Pass,Fail"', "D2:D29"),)}, False),
    (DV_RULE, {"validations": (("list", '"Pass,Fail,Held"', "D3:D29"),)}, False),  # not the whole column part
    (DV_RULE, {"validations": (("whole", "0", "D2:D29"),)}, False),
    (DV_RULE, {"validations": ()}, False),
])
def test_compare_table_rows_columns_and_validations(desktop_env: Any, deskact: Any, rule: dict[str, Any],
                                                     change: dict[str, Any], verdict: bool) -> None:
    rules = [rule]
    gold = _shaped(deskact.ctx.gold.parent / "expected.xlsx")
    result_path = _shaped(deskact.home_file(RESULT), **change)
    evaluator = {"func": "compare_table", "result": {"type": "vm_file", "path": RESULT},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_sales.xlsx"},
                 "options": {"rules": rules}}
    theirs = desktop_env.passes("table", "compare_table", str(result_path), str(gold), rules=rules)
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


CITIES = ["Scottsdale", "Atlanta", ["Montreal", "Montréal"], "San Diego", ["New York", "NYC"]] + ["Lille"] * 16


@pytest.mark.parametrize(("cities", "verdict"), [
    (["Scottsdale, AZ", "Atlanta", "Montréal", "San Diego", "NYC"] + ["Lille"] * 16, True),
    (["Scottsdale", "Atlanta", "Montreal", "San Diego", "New York City"] + ["Lille, France"] * 16, True),
    (["Atlanta", "Scottsdale", "Montreal", "San Diego", "NYC"] + ["Lille"] * 16, False),
    (["Scottsdale", "Atlanta", "Toronto", "San Diego", "NYC"] + ["Lille"] * 16, False),
    (["Scottsdale", "Atlanta", "Montreal", "San Diego", "NYC"] + ["Lille"] * 15, False),  # an empty cell
])
def test_compare_conference_city_in_order(desktop_env: Any, deskact: Any, cities: list[str], verdict: bool) -> None:
    rows = [["Conference", "Year", "City"]] + [["C", 2000 + n, city] for n, city in enumerate(cities)]
    result_path = _book(deskact.home_file(RESULT), {"Sheet1": rows})
    rules = {"expected": CITIES}
    evaluator = {"func": "compare_conference_city_in_order", "result": {"type": "vm_file", "path": RESULT},
                 "expected": {"type": "rule", "rules": rules}}
    theirs = desktop_env.passes("table", "compare_conference_city_in_order", str(result_path), rules)
    ours = deskact.passes(evaluator)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback
