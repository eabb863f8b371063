"""google.doc_table on the emulator: a right table passes; a wrong cell, a missing row, an extra
row, the wrong size and the same text as plain paragraphs fail, and the feedback names the cell."""

from __future__ import annotations

from typing import Any

from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge, run_reset


def j(g: StepContext, **params: object) -> Verdict:
    v = run_judge("google.doc_table", params, g)
    assert not v.error, v.feedback
    return v


def _doc(g: StepContext, title: str, paragraphs: list[str]) -> tuple[Any, str]:
    run_reset("google.document", {"title": title, "paragraphs": paragraphs}, g)
    clients = g.services["google"]["clients"]
    return clients.docs, clients.drive.files().list(q=f"name = '{title}'").execute()["files"][0]["id"]


def add_table(docs: Any, doc_id: str, rows: list[list[str]]) -> None:
    """Append a table and fill it, last cell first so the earlier indices stay right."""
    docs.documents().batchUpdate(documentId=doc_id, body={"requests": [{"insertTable": {
        "rows": len(rows), "columns": len(rows[0]), "endOfSegmentLocation": {}}}]}).execute()
    table = [el for el in docs.documents().get(documentId=doc_id).execute()["body"]["content"] if "table" in el][-1]
    cells = [(cell["content"][0]["startIndex"], text) for row, texts in zip(table["table"]["tableRows"], rows)
             for cell, text in zip(row["tableCells"], texts) if text]
    docs.documents().batchUpdate(documentId=doc_id, body={"requests": [
        {"insertText": {"location": {"index": i}, "text": t}} for i, t in reversed(cells)]}).execute()


ROWS = [["Item", "Qty"], ["Pens", "12"], ["Paper", "3"]]


def test_right_table_passes_exact_contains_header_and_size(g: StepContext) -> None:
    docs, did = _doc(g, "Order", ["Office order"])
    add_table(docs, did, [["Other", "table"]])
    add_table(docs, did, ROWS)
    assert j(g, title="Order", index=2, rows=ROWS, row_count=3, column_count=2).passed
    v = j(g, title="Order", header=["Item", "Qty"], rows=ROWS)
    assert v.passed, v.feedback
    assert j(g, title="Order", header=["Item", "Qty"], contains=True, rows=[["Paper", "3"], ["Pens", "12"]]).passed
    v = j(g, title="Order", rows=ROWS)  # table 1 is the other one
    assert not v.passed and "row 1, column 1 is 'Other', want 'Item'" in v.feedback


def test_near_misses_name_the_first_differing_cell(g: StepContext) -> None:
    docs, did = _doc(g, "Order", ["Office order"])
    wrong = [["Item", "Qty"], ["Pens", "21"], ["Paper", "3"]]
    add_table(docs, did, wrong)  # a wrong cell
    v = j(g, title="Order", rows=ROWS)
    assert not v.passed and "row 2, column 2 is '21', want '12'" in v.feedback
    v = j(g, title="Order", rows=ROWS, contains=True)
    assert not v.passed and "no row ['Pens', '12']" in v.feedback and "column 2 is '21'" in v.feedback
    v = j(g, title="Order", rows=wrong + [["Ink", "1"]])  # a missing row
    assert not v.passed and "has 3 rows, want 4: row 4 ['Ink', '1'] is missing" in v.feedback
    v = j(g, title="Order", rows=wrong[:2])  # a row too many
    assert not v.passed and "row 3 is ['Paper', '3']" in v.feedback
    v = j(g, title="Order", rows=[["Item", "Qty"]], contains=True, column_count=3)
    assert not v.passed and "is 3x2, want 3x3" in v.feedback
    v = j(g, title="Order", header=["Item", "Count"], rows=ROWS)
    assert not v.passed and "no table in 'Order' has the header ['Item', 'Count']" in v.feedback


def test_text_outside_a_table_does_not_count(g: StepContext) -> None:
    _doc(g, "Order", ["Item Qty", "Pens 12", "Paper 3"])  # the same text as plain paragraphs
    v = j(g, title="Order", rows=ROWS)
    assert not v.passed and "has 0 table(s)" in v.feedback
    assert "no document" in j(g, title="Missing", rows=ROWS).feedback.lower()
