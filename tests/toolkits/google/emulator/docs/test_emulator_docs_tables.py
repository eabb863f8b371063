"""Docs tables in the emulator: insertTable, text in cells, rows added and removed, and the
index layout Google documents (a 2x2 table of empty cells at S spans S..S+12)."""

from __future__ import annotations

from typing import Any

import pytest
from deskact.toolkits.google.emulator.docs.model import DocsError, Flat
from googleapiclient.errors import HttpError


def _cells(table: dict[str, Any]) -> list[list[str]]:
    return [["".join(r["textRun"]["content"] for p in cell["content"] for r in p["paragraph"]["elements"])
             for cell in row["tableCells"]] for row in table["table"]["tableRows"]]


def test_empty_2x2_table_index_layout() -> None:
    flat = Flat.empty()
    flat.insert_table(1, 2, 2)
    content = flat.to_content()
    # The newline Docs inserts before a table, the table, and the document's last paragraph.
    assert (content[1]["startIndex"], content[1]["endIndex"]) == (1, 2)
    table = content[2]
    s = table["startIndex"]
    assert s == 2 and table["endIndex"] == s + 12
    rows = table["table"]["tableRows"]
    assert (rows[0]["startIndex"], rows[0]["endIndex"]) == (s + 1, s + 6)
    assert (rows[1]["startIndex"], rows[1]["endIndex"]) == (s + 6, s + 11)
    c00, c01 = rows[0]["tableCells"]
    assert (c00["startIndex"], c00["endIndex"]) == (s + 2, s + 4)
    assert (c00["content"][0]["startIndex"], c00["content"][0]["endIndex"]) == (s + 3, s + 4)
    assert (c01["startIndex"], c01["endIndex"]) == (s + 4, s + 6)
    assert (rows[1]["tableCells"][1]["content"][0]["startIndex"]) == s + 10
    assert table["table"]["rows"] == 2 and table["table"]["columns"] == 2
    assert (content[3]["startIndex"], content[3]["endIndex"]) == (s + 12, s + 13)
    assert flat.end_index == s + 13 and len(flat.paras) == flat.chars.count("\n") == 6


def test_text_in_cells_shifts_later_indices_and_structure_is_protected() -> None:
    flat = Flat.empty()
    flat.insert_text(1, "Intro")
    flat.insert_table(6, 2, 2)  # at the end of "Intro": the table follows it
    texts = flat.to_content()
    assert texts[1]["paragraph"]["elements"][0]["textRun"]["content"] == "Intro\n"
    s = texts[2]["startIndex"]
    # Fill from the last cell back so earlier indices stay valid, as the Docs guide advises.
    for index, text in ((s + 10, "4"), (s + 8, "3"), (s + 5, "Qty"), (s + 3, "Item")):
        flat.insert_text(index, text)
    table = flat.to_content()[2]
    assert _cells(table) == [["Item\n", "Qty\n"], ["3\n", "4\n"]]
    assert table["endIndex"] == s + 12 + len("Item" + "Qty" + "3" + "4")
    assert "Item\nQty\n3\n4\n" in flat.plain_text()
    for bad in (s, s + 1, s + 2):  # the table, row and cell start are not inside a paragraph
        with pytest.raises(DocsError):
            flat.insert_text(bad, "x")
    with pytest.raises(DocsError):
        flat.delete_range(s + 5, s + 11)  # from "em" of "Item" into the "Qty" cell
    with pytest.raises(DocsError):
        flat.delete_range(s + 5, s + 8)  # "em\n": a cell's last newline
    with pytest.raises(DocsError):
        flat.delete_range(s - 1, s)  # the newline before the table
    flat.delete_range(s + 5, s + 7)  # "em" alone is fine
    flat.insert_text(s + 5, "em")
    with pytest.raises(DocsError):
        flat.insert_table(s + 3, 1, 1)  # nested tables are not emulated
    flat.delete_range(s, table["endIndex"])  # the whole table goes
    assert [el.get("paragraph") is not None for el in flat.to_content()[1:]] == [True, True]
    assert flat.plain_text() == "Intro\n\n" and len(flat.paras) == 2


def test_insert_and_delete_rows() -> None:
    flat = Flat.empty()
    flat.insert_table(1, 1, 3)
    s = 2
    flat.insert_text(s + 3, "a")
    flat.insert_table_row(s, 0, below=True)
    flat.insert_table_row(s, 0, below=False)
    table = flat.to_content()[2]
    assert _cells(table) == [["\n"] * 3, ["a\n", "\n", "\n"], ["\n"] * 3]
    assert table["endIndex"] == s + 2 + 3 * (1 + 3 * 2) + 1
    flat.delete_table_row(s, 0)
    flat.delete_table_row(s, 1)
    assert _cells(flat.to_content()[2]) == [["a\n", "\n", "\n"]]
    assert len(flat.paras) == flat.chars.count("\n")
    with pytest.raises(DocsError):
        flat.delete_table_row(s, 0)  # the only row
    with pytest.raises(DocsError):
        flat.insert_table_row(s + 1, 0, below=True)  # not a table's start


def test_tables_through_the_client(emu: Any) -> None:
    docs = emu.build("docs", "v1")
    did = docs.documents().create(body={"title": "Stock"}).execute()["documentId"]
    docs.documents().batchUpdate(documentId=did, body={"requests": [
        {"insertText": {"location": {"index": 1}, "text": "Stock list"}},
        {"insertTable": {"rows": 2, "columns": 2, "endOfSegmentLocation": {}}}]}).execute()
    body = docs.documents().get(documentId=did).execute()["body"]["content"]
    table = body[2]
    s = table["startIndex"]
    assert s == 12 and body[3]["startIndex"] == s + 12
    docs.documents().batchUpdate(documentId=did, body={"requests": [
        {"insertText": {"location": {"index": s + 10}, "text": "7"}},
        {"insertText": {"location": {"index": s + 8}, "text": "Pens"}},
        {"insertText": {"location": {"index": s + 5}, "text": "Count"}},
        {"insertText": {"location": {"index": s + 3}, "text": "Item"}},
        {"insertTableRow": {"tableCellLocation": {"tableStartLocation": {"index": s}, "rowIndex": 1,
                                                  "columnIndex": 0}, "insertBelow": True}}]}).execute()
    got = docs.documents().get(documentId=did).execute()["body"]["content"][2]
    assert _cells(got) == [["Item\n", "Count\n"], ["Pens\n", "7\n"], ["\n", "\n"]]
    assert got["table"]["rows"] == 3 and got["table"]["columns"] == 2
    docs.documents().batchUpdate(documentId=did, body={"requests": [
        {"deleteTableRow": {"tableCellLocation": {"tableStartLocation": {"index": s}, "rowIndex": 2}}}]}).execute()
    assert docs.documents().get(documentId=did).execute()["body"]["content"][2]["table"]["rows"] == 2
    text = emu.build("drive", "v3").files().export(fileId=did, mimeType="text/plain").execute()
    assert "Item\nCount\nPens\n7" in text.decode("utf-8-sig")
    for bad in ({"insertTable": {"rows": 0, "columns": 2, "location": {"index": 1}}},
                {"insertTable": {"rows": 1, "columns": 21, "location": {"index": 1}}},
                {"insertTable": {"rows": 1, "columns": 1}},
                {"insertText": {"location": {"index": s}, "text": "x"}},
                {"deleteTableRow": {"tableCellLocation": {"tableStartLocation": {"index": 1}, "rowIndex": 0}}}):
        with pytest.raises(HttpError) as err:
            docs.documents().batchUpdate(documentId=did, body={"requests": [bad]}).execute()
        assert err.value.resp.status == 400, bad
