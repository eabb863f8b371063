"""Sheets v4 emulator conformance through google-api-python-client, plus unit
tests of A1 notation, formulas and USER_ENTERED parsing (pure functions)."""

from __future__ import annotations

from typing import Any

import pytest
from deskact.toolkits.google.emulator.sheets.a1 import RangeError, format_range, parse_a1
from deskact.toolkits.google.emulator.sheets.model import Book
from googleapiclient.errors import HttpError

# ---------------------------------------------------------------- A1 (pure)

@pytest.mark.parametrize(("text", "expected"), [
    ("Sheet1!A1:B2", ("Sheet1", 0, 2, 0, 2)),
    ("A1:B2", (None, 0, 2, 0, 2)),
    ("B2:A1", (None, 0, 2, 0, 2)),
    ("Sheet1!A:A", ("Sheet1", None, None, 0, 1)),
    ("Sheet1!1:2", ("Sheet1", 0, 2, None, None)),
    ("Sheet1!A5:B", ("Sheet1", 4, None, 0, 2)),
    ("Sheet1!C3", ("Sheet1", 2, 3, 2, 3)),
    ("$A$1:$B$2", (None, 0, 2, 0, 2)),
    ("'My Sheet'!A1", ("My Sheet", 0, 1, 0, 1)),
    ("'Jon''s'!AA10", ("Jon's", 9, 10, 26, 27)),
    ("Sheet1", ("Sheet1", None, None, None, None)),
    ("'My Sheet'", ("My Sheet", None, None, None, None)),
])
def test_parse_a1(text: str, expected: tuple[Any, ...]) -> None:
    r = parse_a1(text, ["Sheet1", "My Sheet", "Jon's"])
    assert (r.sheet, r.start_row, r.end_row, r.start_col, r.end_col) == expected


@pytest.mark.parametrize("bad", ["", "A0", "Sheet1!A1:", "'unterminated!A1", "A1:B2:C3"])
def test_parse_a1_errors(bad: str) -> None:
    with pytest.raises(RangeError):
        parse_a1(bad, ["Sheet1"])


def test_format_range_quotes() -> None:
    assert format_range("Sheet1", 0, 2, 0, 2) == "Sheet1!A1:B2"
    assert format_range("My Sheet", 4, 5, 27, 28) == "'My Sheet'!AB5"


# ---------------------------------------------------------- model (pure)

def _book(rows: list[list[Any]], option: str = "USER_ENTERED") -> Book:
    book = Book.new("s", {"properties": {"title": "t"}})
    book.update_values("Sheet1!A1", rows, input_option=option)
    return book


@pytest.mark.parametrize(("formula", "formatted"), [
    ("=SUM(A1:A3)", "6"), ("=A1+B1", "11"), ("=AVERAGE(A1:A3)", "2"), ("=MIN(A1:A3)", "1"),
    ("=MAX(A1:B3)", "30"), ("=COUNT(A1:B3)", "6"), ("=COUNTA(A1:C3)", "7"), ("=A1/0", "#DIV/0!"),
    ("=2^3*2", "16"), ("=-A1+10%", "-0.9"), ("=\"a\"&A1", "a1"), ("=IF(A1>0,\"pos\",\"neg\")", "pos"),
    ("=SUMIF(A1:A3,\">1\")", "5"), ("=COUNTIF(C1:C3,\"x*\")", "1"), ("=ROUND(10/3,2)", "3.33"),
    ("=VLOOKUP(2,A1:B3,2,FALSE)", "20"), ("=NOPE(1)", "#NAME?"), ("=SUM(A1:A3", "#ERROR!"),
    ("=1/3", "0.3333333333"), ("=Sheet1!B1*2", "20"), ("=IFERROR(1/0,\"none\")", "none"),
    ("=LEN(C1)&UPPER(C1)", "5XYLEM"), ("=A1=1", "TRUE"),
    # A one-cell range where a function takes one value is that cell's value; a larger one is not.
    ("=ABS(B1:B1)", "10"), ("=LEN(A1:A3)", "#VALUE!"),
])
def test_formulas(formula: str, formatted: str) -> None:
    book = _book([[1, 10, "xylem"], [2, 20], [3, 30]])
    book.update_values("Sheet1!E1", [[formula]], input_option="USER_ENTERED")
    assert book.get_values("Sheet1!E1")["values"] == [[formatted]]


def test_circular_reference_is_an_error_value() -> None:
    book = _book([["=B1", "=A1"]])
    assert book.get_values("A1:B1")["values"] == [["#REF!", "#REF!"]]


def test_user_entered_vs_raw() -> None:
    entered = ["12", "1,234", "50%", "$5.50", "TRUE", "'007", "2024-01-15", "=1+2", "hello"]
    book = _book([entered])
    assert book.get_values("A1:I1", render="UNFORMATTED_VALUE")["values"] == [
        [12, 1234, 0.5, 5.5, True, "007", 45306, 3, "hello"]]
    assert book.get_values("A1:I1")["values"] == [
        ["12", "1,234", "50%", "$5.50", "TRUE", "007", "2024-01-15", "3", "hello"]]
    raw = _book([entered], option="RAW")
    assert raw.get_values("A1:I1", render="UNFORMATTED_VALUE")["values"] == [entered]


# ------------------------------------------------------------- conformance

def _new(sheets: Any, title: str = "Book") -> str:
    return sheets.spreadsheets().create(body={"properties": {"title": title}}).execute()["spreadsheetId"]


def test_create_and_get(emu: Any) -> None:
    sheets = emu.build("sheets", "v4")
    made = sheets.spreadsheets().create(body={"properties": {"title": "Budget"},
                                              "sheets": [{"properties": {"title": "Data"}}, {}]}).execute()
    assert made["properties"]["title"] == "Budget"
    assert [s["properties"]["title"] for s in made["sheets"]] == ["Data", "Sheet2"]
    assert made["sheets"][0]["properties"]["gridProperties"] == {"rowCount": 1000, "columnCount": 26}
    sid = made["spreadsheetId"]
    sheets.spreadsheets().values().update(spreadsheetId=sid, range="Data!A1", valueInputOption="USER_ENTERED",
                                          body={"values": [["x", "=1+1"]]}).execute()
    got = sheets.spreadsheets().get(spreadsheetId=sid, ranges=["Data!A1:B1"], includeGridData=True).execute()
    cells = got["sheets"][0]["data"][0]["rowData"][0]["values"]
    assert cells[1]["userEnteredValue"] == {"formulaValue": "=1+1"}
    assert cells[1]["effectiveValue"] == {"numberValue": 2} and cells[1]["formattedValue"] == "2"
    only_props = sheets.spreadsheets().get(spreadsheetId=sid, fields="sheets.properties.title").execute()
    assert only_props == {"sheets": [{"properties": {"title": "Data"}}, {"properties": {"title": "Sheet2"}}]}
    with pytest.raises(HttpError) as err:
        sheets.spreadsheets().get(spreadsheetId="missing").execute()
    assert err.value.resp.status == 404


def test_values_get_update_render_options(emu: Any) -> None:
    sheets = emu.build("sheets", "v4")
    sid = _new(sheets)
    values = sheets.spreadsheets().values()
    up = values.update(spreadsheetId=sid, range="Sheet1!A1:C3", valueInputOption="USER_ENTERED",
                       body={"values": [["Item", "Qty", "Price"], ["pen", "2", "1.5"], ["Total", "=SUM(B2:B2)", "=B2*C2"]]}).execute()
    assert up == {"spreadsheetId": sid, "updatedRange": "Sheet1!A1:C3", "updatedRows": 3, "updatedColumns": 3,
                  "updatedCells": 9}
    got = values.get(spreadsheetId=sid, range="Sheet1!A1:C3").execute()
    assert got == {"range": "Sheet1!A1:C3", "majorDimension": "ROWS",
                   "values": [["Item", "Qty", "Price"], ["pen", "2", "1.5"], ["Total", "2", "3"]]}
    assert values.get(spreadsheetId=sid, range="A3:C3", valueRenderOption="FORMULA").execute()["values"] == [
        ["Total", "=SUM(B2:B2)", "=B2*C2"]]
    assert values.get(spreadsheetId=sid, range="B2:C2", valueRenderOption="UNFORMATTED_VALUE").execute()["values"] == [[2, 1.5]]
    cols = values.get(spreadsheetId=sid, range="A1:B2", majorDimension="COLUMNS").execute()
    assert cols["values"] == [["Item", "pen"], ["Qty", "2"]]
    # Open ranges are clamped to the grid and trailing blanks trimmed.
    whole = values.get(spreadsheetId=sid, range="Sheet1").execute()
    assert whole["range"] == "Sheet1!A1:Z1000" and len(whole["values"]) == 3
    assert values.get(spreadsheetId=sid, range="Sheet1!E5:F6").execute() == {"range": "Sheet1!E5:F6", "majorDimension": "ROWS"}
    # Writing more rows than the range holds is a 400; a single cell is just an anchor.
    with pytest.raises(HttpError) as err:
        values.update(spreadsheetId=sid, range="A1:B1", valueInputOption="RAW", body={"values": [[1], [2]]}).execute()
    assert err.value.resp.status == 400
    with pytest.raises(HttpError) as err:
        values.update(spreadsheetId=sid, range="A1", body={"values": [[1]]}).execute()  # no valueInputOption
    assert err.value.resp.status == 400
    for bad in ("Nope!A1", "A0:B", "Sheet1!A1:ZZ2000"):
        with pytest.raises(HttpError) as err:
            values.get(spreadsheetId=sid, range=bad).execute()
        assert err.value.resp.status == 400, bad
    # null skips a cell, "" clears it.
    values.update(spreadsheetId=sid, range="A2", valueInputOption="RAW", body={"values": [[None, ""]]}).execute()
    assert values.get(spreadsheetId=sid, range="A2:C2").execute()["values"] == [["pen", "", "1.5"]]


def test_append_clear_and_batch(emu: Any) -> None:
    sheets = emu.build("sheets", "v4")
    sid = _new(sheets)
    values = sheets.spreadsheets().values()
    first = values.append(spreadsheetId=sid, range="Sheet1", valueInputOption="RAW",
                          body={"values": [["name", "n"], ["a", 1]]}).execute()
    assert "tableRange" not in first and first["updates"]["updatedRange"] == "Sheet1!A1:B2"
    second = values.append(spreadsheetId=sid, range="Sheet1!A1", valueInputOption="USER_ENTERED",
                           body={"values": [["b", "2"]]}, includeValuesInResponse=True).execute()
    assert second["tableRange"] == "Sheet1!A1:B2"
    assert second["updates"]["updatedRange"] == "Sheet1!A3:B3"
    assert second["updates"]["updatedData"]["values"] == [["b", "2"]]
    ins = values.append(spreadsheetId=sid, range="A1:B1", valueInputOption="RAW", insertDataOption="INSERT_ROWS",
                        body={"values": [["c", 3]]}).execute()
    assert ins["updates"]["updatedRange"] == "Sheet1!A4:B4"
    batch = values.batchGet(spreadsheetId=sid, ranges=["A1:A4", "B2:B4"], valueRenderOption="UNFORMATTED_VALUE").execute()
    assert [vr["values"] for vr in batch["valueRanges"]] == [[["name"], ["a"], ["b"], ["c"]], [[1], [2], [3]]]
    bu = values.batchUpdate(spreadsheetId=sid, body={"valueInputOption": "USER_ENTERED", "data": [
        {"range": "D1", "values": [["total"]]}, {"range": "D2", "values": [["=SUM(B2:B4)"]]}]}).execute()
    assert bu["totalUpdatedCells"] == 2 and len(bu["responses"]) == 2
    assert values.get(spreadsheetId=sid, range="D2").execute()["values"] == [["6"]]
    cleared = values.clear(spreadsheetId=sid, range="B:B").execute()
    assert cleared["clearedRange"] == "Sheet1!B1:B1001"  # INSERT_ROWS added a row to the grid
    assert values.get(spreadsheetId=sid, range="D2").execute()["values"] == [["0"]]
    values.batchClear(spreadsheetId=sid, body={"ranges": ["A1:A2", "D1:D2"]}).execute()
    assert values.get(spreadsheetId=sid, range="A1:D4").execute()["values"] == [[], [], ["b"], ["c"]]


def test_batch_update_sheets(emu: Any) -> None:
    sheets = emu.build("sheets", "v4")
    drive = emu.build("drive", "v3")
    sid = _new(sheets, "Ops")
    reply = sheets.spreadsheets().batchUpdate(spreadsheetId=sid, body={"requests": [
        {"addSheet": {"properties": {"title": "Q1", "gridProperties": {"rowCount": 50, "columnCount": 5}}}},
        {"updateSpreadsheetProperties": {"properties": {"title": "Ops 2024"}, "fields": "title"}},
    ]}).execute()
    q1 = reply["replies"][0]["addSheet"]["properties"]
    assert q1["title"] == "Q1" and q1["index"] == 1 and q1["gridProperties"]["rowCount"] == 50
    assert reply["replies"][1] == {}
    assert drive.files().get(fileId=sid).execute()["name"] == "Ops 2024"
    sheets.spreadsheets().batchUpdate(spreadsheetId=sid, body={"requests": [
        {"updateSheetProperties": {"properties": {"sheetId": q1["sheetId"], "title": "First quarter", "index": 0},
                                   "fields": "title,index"}}]}).execute()
    got = sheets.spreadsheets().get(spreadsheetId=sid).execute()
    assert [s["properties"]["title"] for s in got["sheets"]] == ["First quarter", "Sheet1"]
    sheets.spreadsheets().values().update(spreadsheetId=sid, range="'First quarter'!A1", valueInputOption="RAW",
                                          body={"values": [["z"], ["a"], ["m"]]}).execute()
    sheets.spreadsheets().batchUpdate(spreadsheetId=sid, body={"requests": [
        {"sortRange": {"range": {"sheetId": q1["sheetId"], "startRowIndex": 0, "endRowIndex": 3},
                       "sortSpecs": [{"dimensionIndex": 0, "sortOrder": "ASCENDING"}]}},
        {"repeatCell": {"range": {"sheetId": q1["sheetId"], "startRowIndex": 0, "endRowIndex": 1},
                        "cell": {"userEnteredFormat": {"textFormat": {"bold": True}}},
                        "fields": "userEnteredFormat.textFormat.bold"}}]}).execute()
    assert sheets.spreadsheets().values().get(spreadsheetId=sid, range="'First quarter'!A1:A3").execute()["values"] == [
        ["a"], ["m"], ["z"]]
    grid = sheets.spreadsheets().get(spreadsheetId=sid, ranges=["'First quarter'!A1"], includeGridData=True).execute()
    assert grid["sheets"][0]["data"][0]["rowData"][0]["values"][0]["userEnteredFormat"]["textFormat"] == {"bold": True}
    with pytest.raises(HttpError) as err:
        sheets.spreadsheets().batchUpdate(spreadsheetId=sid, body={"requests": [
            {"addSheet": {"properties": {"title": "Sheet1"}}}]}).execute()
    assert err.value.resp.status == 400 and "already exists" in str(err.value)
    sheets.spreadsheets().batchUpdate(spreadsheetId=sid, body={"requests": [
        {"deleteSheet": {"sheetId": q1["sheetId"]}}]}).execute()
    with pytest.raises(HttpError) as err:  # the last sheet cannot go
        sheets.spreadsheets().batchUpdate(spreadsheetId=sid, body={"requests": [{"deleteSheet": {"sheetId": 0}}]}).execute()
    assert err.value.resp.status == 400
    with pytest.raises(HttpError) as err:
        sheets.spreadsheets().batchUpdate(spreadsheetId=sid, body={"requests": [
            {"addChart": {"chart": {}}}]}).execute()
    assert err.value.resp.status == 501 and "addChart" in str(err.value)
