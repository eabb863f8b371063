"""google.doc_contains, doc_link, doc_outline and doc_table on the emulator: right documents pass, near misses fail
with feedback naming the difference (for tables, the cell)."""

from __future__ import annotations

from typing import Any

from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge, run_reset


def c(g: StepContext) -> Any:
    return g.services["google"]["clients"]


def ok(name: str, params: dict[str, Any], g: StepContext) -> Verdict:
    v = run_judge(name, params, g)
    assert v.passed and not v.error, v.feedback
    return v


def bad(name: str, params: dict[str, Any], g: StepContext, *expected: str) -> Verdict:
    v = run_judge(name, params, g)
    assert not v.passed and not v.error, v.feedback
    for text in expected:
        assert text in v.feedback, v.feedback
    return v


def j(judge_name: str, g: StepContext, **params: object) -> Verdict:
    v = run_judge(judge_name, params, g)
    assert not v.error, v.feedback
    return v


def table(g: StepContext, **params: object) -> Verdict:
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


def test_doc_contains(g: StepContext) -> None:
    run_reset("google.document", {"title": "Plan", "paragraphs": ["Project plan", "Deadline: 30 June"],
                                  "bold": ["Deadline"]}, g)
    doc_id = c(g).drive.files().list(q="name = 'Plan'").execute()["files"][0]["id"]
    c(g).docs.documents().batchUpdate(documentId=doc_id, body={"requests": [{"updateParagraphStyle": {
        "range": {"startIndex": 1, "endIndex": 13}, "paragraphStyle": {"namedStyleType": "HEADING_1"},
        "fields": "namedStyleType"}}]}).execute()
    ok("google.doc_contains", {"title": "Plan", "text": "Deadline", "bold": True}, g)
    ok("google.doc_contains", {"title": doc_id, "text": "Project plan\nDeadline", "heading": None}, g)
    ok("google.doc_contains", {"title": "Plan", "text": "Project plan", "heading": "HEADING_1", "bold": False}, g)
    ok("google.doc_contains", {"title": "Plan", "text": "July", "absent": True}, g)
    bad("google.doc_contains", {"title": "Plan", "text": "30 June", "bold": True}, g, "document 'Plan': '30 June' is not bold")
    bad("google.doc_contains", {"title": "Plan", "text": "Deadline", "heading": "HEADING_1"}, g,
        "is in a ['NORMAL_TEXT'] paragraph, not HEADING_1")
    bad("google.doc_contains", {"title": "Plan", "text": "July"}, g, "does not contain 'July'", "Project plan")
    bad("google.doc_contains", {"title": "Plan", "text": "June", "absent": True}, g, "still contains 'June'")
    bad("google.doc_contains", {"title": "Plans", "text": "x"}, g, "no document titled 'Plans'", "'Plan'")


def test_doc_link_and_outline(g: StepContext) -> None:
    run_reset("google.document", {"title": "Guide", "paragraphs": ["Guide", "Read the manual first.", "Costs"]}, g)
    doc_id = c(g).drive.files().list(q="name = 'Guide'").execute()["files"][0]["id"]
    text = "".join(r["textRun"]["content"] for el in c(g).docs.documents().get(documentId=doc_id).execute()["body"]["content"]
                   if "paragraph" in el for r in el["paragraph"]["elements"])
    start = text.index("the manual") + 1
    requests = [
        {"updateTextStyle": {"range": {"startIndex": start, "endIndex": start + len("the manual")},
                             "textStyle": {"link": {"url": "https://example.com/manual"}}, "fields": "link"}},
        {"updateParagraphStyle": {"range": {"startIndex": 1, "endIndex": 2},
                                  "paragraphStyle": {"namedStyleType": "HEADING_1"}, "fields": "namedStyleType"}},
    ]
    costs = text.index("Costs") + 1
    requests.append({"updateParagraphStyle": {"range": {"startIndex": costs, "endIndex": costs + 1},
                                              "paragraphStyle": {"namedStyleType": "HEADING_2"}, "fields": "namedStyleType"}})
    c(g).docs.documents().batchUpdate(documentId=doc_id, body={"requests": requests}).execute()
    assert j("google.doc_link", g, title="Guide", text="the manual", url="https://example.com/manual").passed
    v = j("google.doc_link", g, title="Guide", text="the manual", url="https://example.com/other")
    assert not v.passed and "links to https://example.com/manual, not https://example.com/other" in v.feedback
    assert not j("google.doc_link", g, title="Guide", text="Read the manual", url="https://example.com/manual").passed
    assert j("google.doc_outline", g, title="Guide", headings=["H1 Guide", "H2 Costs"]).passed
    v = j("google.doc_outline", g, title="Guide", headings=["H1 Guide", "H1 Costs"])
    assert not v.passed and "'H2 Costs'" in v.feedback


def test_doc_link_empty_url_means_no_link(g: StepContext) -> None:
    run_reset("google.document", {"title": "Plain", "paragraphs": ["Nothing linked here."]}, g)
    assert j("google.doc_link", g, title="Plain", text="linked", url="").passed
    v = j("google.doc_link", g, title="Plain", text="linked", url="https://example.com")
    assert not v.passed and "links to nothing" in v.feedback


def test_right_table_passes_exact_contains_header_and_size(g: StepContext) -> None:
    docs, did = _doc(g, "Order", ["Office order"])
    add_table(docs, did, [["Other", "table"]])
    add_table(docs, did, ROWS)
    assert table(g, title="Order", index=2, rows=ROWS, row_count=3, column_count=2).passed
    v = table(g, title="Order", header=["Item", "Qty"], rows=ROWS)
    assert v.passed, v.feedback
    assert table(g, title="Order", header=["Item", "Qty"], contains=True, rows=[["Paper", "3"], ["Pens", "12"]]).passed
    v = table(g, title="Order", rows=ROWS)  # table 1 is the other one
    assert not v.passed and "row 1, column 1 is 'Other', want 'Item'" in v.feedback


def test_near_misses_name_the_first_differing_cell(g: StepContext) -> None:
    docs, did = _doc(g, "Order", ["Office order"])
    wrong = [["Item", "Qty"], ["Pens", "21"], ["Paper", "3"]]
    add_table(docs, did, wrong)  # a wrong cell
    v = table(g, title="Order", rows=ROWS)
    assert not v.passed and "row 2, column 2 is '21', want '12'" in v.feedback
    v = table(g, title="Order", rows=ROWS, contains=True)
    assert not v.passed and "no row ['Pens', '12']" in v.feedback and "column 2 is '21'" in v.feedback
    v = table(g, title="Order", rows=wrong + [["Ink", "1"]])  # a missing row
    assert not v.passed and "has 3 rows, want 4: row 4 ['Ink', '1'] is missing" in v.feedback
    v = table(g, title="Order", rows=wrong[:2])  # a row too many
    assert not v.passed and "row 3 is ['Paper', '3']" in v.feedback
    v = table(g, title="Order", rows=[["Item", "Qty"]], contains=True, column_count=3)
    assert not v.passed and "is 3x2, want 3x3" in v.feedback
    v = table(g, title="Order", header=["Item", "Count"], rows=ROWS)
    assert not v.passed and "no table in 'Order' has the header ['Item', 'Count']" in v.feedback


def test_text_outside_a_table_does_not_count(g: StepContext) -> None:
    _doc(g, "Order", ["Item Qty", "Pens 12", "Paper 3"])  # the same text as plain paragraphs
    v = table(g, title="Order", rows=ROWS)
    assert not v.passed and "has 0 table(s)" in v.feedback
    assert "no document" in table(g, title="Missing", rows=ROWS).feedback.lower()
