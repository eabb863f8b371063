"""google.doc_* judges: a Doc's text and emphasis, links, outline and tables."""

from __future__ import annotations

from ...reset_scripts.google.account import MIME_SHORT, clients
from ...runtime.tasks.helpers import clip, short
from ...runtime.tasks.steps import StepContext, Verdict, judge
from ._lookup import _find_by_title, _missing_doc


def _doc_runs(doc: dict) -> list[tuple[str, dict, str]]:
    """(text, textStyle, paragraph namedStyleType) of every text run, tables included."""
    out = []

    def walk(content: list[dict]) -> None:
        for el in content:
            if "paragraph" in el:
                style = el["paragraph"].get("paragraphStyle", {}).get("namedStyleType", "NORMAL_TEXT")
                for run in el["paragraph"].get("elements", []):
                    if "textRun" in run:
                        out.append((run["textRun"].get("content", ""), run["textRun"].get("textStyle", {}), style))
            elif "table" in el:
                for row in el["table"].get("tableRows", []):
                    for cell in row.get("tableCells", []):
                        walk(cell.get("content", []))

    walk(doc.get("body", {}).get("content", []))
    return out


def _check_doc(doc: dict, text: str, bold: bool | None, heading: str | None, absent: bool) -> str | None:
    runs = _doc_runs(doc)
    full = "".join(r[0] for r in runs)
    pos = full.find(text)
    if absent:
        return None if pos < 0 else f"still contains {text!r}"
    if pos < 0:
        return f"does not contain {text!r}; its text is {clip(short(full, 240))}"
    problems = []
    while pos >= 0:
        problems = []
        offset, chars = 0, []
        for content, style, para in runs:
            lo, hi = max(pos, offset), min(pos + len(text), offset + len(content))
            if lo < hi:
                chars.append((style, para))
            offset += len(content)
        if bold is not None and any(bool(s.get("bold")) != bold for s, _ in chars):
            problems.append(f"{text!r} is {'not ' if bold else ''}bold")
        if heading is not None and any(p != heading for _, p in chars):
            problems.append(f"{text!r} is in a {sorted({p for _, p in chars})} paragraph, not {heading}")
        if not problems:
            return None
        pos = full.find(text, pos + 1)
    return "; ".join(problems)


@judge("google.doc_contains")
def doc_contains(ctx: StepContext, title: str, text: str, bold: bool | None = None,
                 heading: str | None = None, absent: bool = False) -> Verdict:
    """The Google Doc titled (or with id) ``title`` contains ``text`` (exact, case-sensitive);
    ``bold``: that occurrence is (not) bold; ``heading``: its paragraph style, e.g. HEADING_1,
    TITLE; ``absent: true``: the text must not occur."""
    files = _find_by_title(ctx, title, MIME_SHORT["document"])
    if not files:
        return _missing_doc(ctx, title, MIME_SHORT["document"], "document")
    reports = []
    for f in files:
        doc = clients(ctx).docs.documents().get(documentId=f["id"]).execute()
        problem = _check_doc(doc, text, bold, heading, absent)
        if problem is None:
            return Verdict.ok(f"document {title!r} " + ("does not contain" if absent else "contains") + f" {text!r}")
        reports.append(problem)
    return Verdict.fail(f"document {title!r}: " + reports[0])


def _doc(ctx: StepContext, title: str) -> dict | Verdict:
    mime = MIME_SHORT["document"]
    found = _find_by_title(ctx, title, mime)
    if not found:
        return _missing_doc(ctx, title, mime, "document")
    return clients(ctx).docs.documents().get(documentId=found[0]["id"]).execute()


def _paragraphs(doc: dict) -> list[dict]:
    return [el["paragraph"] for el in doc.get("body", {}).get("content", []) if "paragraph" in el]


@judge("google.doc_link")
def doc_link(ctx: StepContext, title: str, text: str, url: str) -> Verdict:
    """In the Google Doc ``title``, the text ``text`` is a hyperlink to ``url`` (all of it, one link);
    ``url: ""`` means none of it is a link."""
    doc = _doc(ctx, title)
    if isinstance(doc, Verdict):
        return doc
    runs = [(r["textRun"].get("content", ""), (r["textRun"].get("textStyle", {}).get("link") or {}).get("url"))
            for p in _paragraphs(doc) for r in p.get("elements", []) if "textRun" in r]
    full, pos = "".join(t for t, _ in runs), 0
    start = full.find(text)
    if start < 0:
        return Verdict.fail(f"document {title!r} does not contain {text!r}")
    links = set()
    for content, link in runs:
        if pos < start + len(text) and start < pos + len(content):
            links.add(link)
        pos += len(content)
    if links == {url or None}:
        return Verdict.ok(f"{text!r} links to {url}" if url else f"{text!r} is not a link")
    shown = sorted(str(x) for x in links if x) or ["nothing"]
    return Verdict.fail(f"{text!r} in document {title!r} links to {shown if len(shown) > 1 else shown[0]}, "
                        + (f"not {url}" if url else "but should not be a link"))


@judge("google.doc_outline")
def doc_outline(ctx: StepContext, title: str, headings: list[str]) -> Verdict:
    """The headings of the Google Doc ``title``, in order, are exactly ``headings``, each written as
    "LEVEL text" with LEVEL one of TITLE, SUBTITLE, H1 ... H6 (e.g. ["H1 Results", "H2 Costs"])."""
    doc = _doc(ctx, title)
    if isinstance(doc, Verdict):
        return doc
    have = []
    for p in _paragraphs(doc):
        style = p.get("paragraphStyle", {}).get("namedStyleType", "NORMAL_TEXT")
        if style != "NORMAL_TEXT":
            text = "".join(r.get("textRun", {}).get("content", "") for r in p.get("elements", [])).strip()
            have.append(f"{style.replace('HEADING_', 'H')} {text}")
    want = [" ".join(h.split()) for h in headings]
    if have == want:
        return Verdict.ok(f"document {title!r} has the headings {want}")
    return Verdict.fail(f"document {title!r} has the headings {clip(have, 300)}, not {clip(want, 300)}")


def _cell_text(cell: dict) -> str:
    text = "".join(r.get("textRun", {}).get("content", "") for el in cell.get("content", [])
                   for r in el.get("paragraph", {}).get("elements", []))
    return " ".join(text.split())


def _diff_row(have: list[str], want: list[str], where: str) -> str | None:
    """Where ``have`` first differs from ``want`` (None when equal)."""
    for col, (h, w) in enumerate(zip(have, want), 1):
        if h != " ".join(w.split()):
            return f"{where}, column {col} is {h!r}, want {w!r}"
    return None if len(have) == len(want) else f"{where} has {len(have)} cells, want {len(want)}"


@judge("google.doc_table")
def doc_table(ctx: StepContext, title: str, rows: list[list[str]], index: int = 1, header: list[str] | None = None,
              contains: bool = False, row_count: int | None = None, column_count: int | None = None) -> Verdict:
    """The ``index``-th table (from 1) of the Google Doc ``title``, or the first whose first row is
    ``header``, has exactly the ``rows`` of cell texts (whitespace collapsed); ``contains: true``:
    each of ``rows`` is one of its rows, in any order. ``row_count``/``column_count`` check its size."""
    doc = _doc(ctx, title)
    if isinstance(doc, Verdict):
        return doc
    tables = [[[_cell_text(c) for c in r.get("tableCells", [])] for r in el["table"].get("tableRows", [])]
              for el in doc.get("body", {}).get("content", []) if "table" in el]
    if header is not None:
        picked = [t for t in tables if t and _diff_row(t[0], header, "") is None]
        if not picked:
            return Verdict.fail(f"no table in {title!r} has the header {header}; first rows: {[t[0] for t in tables if t]}")
        table, name = picked[0], f"the table headed {header}"
    elif not 1 <= index <= len(tables):
        return Verdict.fail(f"document {title!r} has {len(tables)} table(s), not a table number {index}")
    else:
        table, name = tables[index - 1], f"table {index} of {title!r}"
    columns = max((len(r) for r in table), default=0)
    if (row_count is not None and len(table) != row_count) or (column_count is not None and columns != column_count):
        return Verdict.fail(f"{name} is {len(table)}x{columns}, want {row_count or len(table)}x{column_count or columns}")
    if contains:
        for want in rows:
            if all(_diff_row(have, want, "") for have in table):
                near = max(table, key=lambda h: sum(a == " ".join(b.split()) for a, b in zip(h, want)))
                return Verdict.fail(f"{name} has no row {want}; nearest: "
                                    f"{_diff_row(near, want, f'row {table.index(near) + 1}')}")
        return Verdict.ok(f"{name} has the rows {clip(rows, 200)}")
    for r, want in enumerate(rows):
        if r >= len(table):
            return Verdict.fail(f"{name} has {len(table)} rows, want {len(rows)}: row {r + 1} {want} is missing")
        if (diff := _diff_row(table[r], want, f"row {r + 1}")) is not None:
            return Verdict.fail(f"in {name}, {diff}")
    if len(table) != len(rows):
        return Verdict.fail(f"{name} has {len(table)} rows, want {len(rows)}; row {len(rows) + 1} is {table[len(rows)]}")
    return Verdict.ok(f"{name} is exactly {clip(rows, 200)}")
