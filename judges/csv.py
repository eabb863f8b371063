"""csv.rows: a CSV file's rows, compared like spreadsheet cells; csv.compare: its lines against a gold file's;
csv.records: its rows as records (the first line names the fields) matched against expected ones."""

from __future__ import annotations

import csv
import io
from typing import Any

from ..runtime.tasks.helpers import clip, gold_file
from ..runtime.tasks.steps import StepContext, Verdict, judge
from .xlsx.cells import cell_equal


def _row_equal(actual: list[str], expected: list[Any]) -> bool:
    return len(actual) == len(expected) and all(cell_equal(a, e) for a, e in zip(actual, expected))


@judge("csv.rows", one_of=("equals", "contains"))
def csv_rows(
    ctx: StepContext, path: str, equals: list[list[Any]] | None = None,
    contains: list[list[Any]] | None = None, delimiter: str = ",", ordered: bool = True,
) -> Verdict:
    """The CSV's rows (header included) are exactly ``equals`` (in order unless ``ordered:
    false``), or include every row of ``contains``. Cells compare like spreadsheet cells
    (trimmed; "3.0" equals 3)."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a CSV file but does not exist")
    with p.open(newline="", encoding="utf-8-sig", errors="replace") as f:
        rows = [r for r in csv.reader(f, delimiter=delimiter) if any(c.strip() for c in r)]
    if contains is not None:
        missing = [e for e in contains if not any(_row_equal(r, e) for r in rows)]
        if missing:
            return Verdict.fail(f"{p.name} lacks rows {clip(missing, 160)}; it has {len(rows)} rows, first {clip(rows[:5], 200)}")
        return Verdict.ok(f"{p.name} has all {len(contains)} expected rows")
    assert equals is not None
    if len(rows) != len(equals):
        return Verdict.fail(f"{p.name} should have {len(equals)} rows but has {len(rows)}: {clip(rows[:6], 240)}")
    if ordered:
        for i, (r, e) in enumerate(zip(rows, equals)):
            if not _row_equal(r, e):
                return Verdict.fail(f"{p.name} row {i} should be {clip(e, 120)} but is {clip(r, 120)}")
    else:
        pool = list(rows)
        for e in equals:
            hit = next((i for i, r in enumerate(pool) if _row_equal(r, e)), None)
            if hit is None:
                return Verdict.fail(f"{p.name} lacks row {clip(e, 120)} (rows: {clip(rows[:6], 200)})")
            pool.pop(hit)
    return Verdict.ok(f"{p.name} has the expected {len(equals)} rows")


def _text_lines(path: Any) -> list[str]:
    # UTF-8, else Latin-1 (which reads any bytes): the first two of OSWorld's encodings that can
    # fail; its later ones are never reached.
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return text.splitlines()


def _without_trailing_blank(lines: list[str]) -> list[str]:
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    return lines[:end]


@judge("csv.compare")
def csv_compare(ctx: StepContext, path: str, reference: str, strip: bool = False,
                ignore_case: bool = False, ignore_trailing_blank: bool = False) -> Verdict:
    """``path`` has the lines of the gold file ``reference`` (in the suite's gold/ folder), as
    OSWorld's ``compare_csv`` decides: line by line, exactly (a final newline does not count);
    ``strip`` trims each line (OSWorld's ``strict: false``), ``ignore_case`` lowercases them,
    ``ignore_trailing_blank`` drops blank lines at the end (``compare_table``'s ``sheet_print``)."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a CSV file like {reference} but does not exist")
    actual, expected = _text_lines(p), _text_lines(gold_file(ctx, reference))
    if strip:
        actual, expected = [line.strip() for line in actual], [line.strip() for line in expected]
    if ignore_case:
        actual, expected = [line.lower() for line in actual], [line.lower() for line in expected]
    if ignore_trailing_blank:
        actual, expected = _without_trailing_blank(actual), _without_trailing_blank(expected)
    if actual == expected:
        return Verdict.ok(f"{p} has the {len(expected)} lines of {reference}")
    at = next((i for i, (a, e) in enumerate(zip(actual, expected)) if a != e), min(len(actual), len(expected)))
    got = clip(actual[at], 100) if at < len(actual) else "no line (end of file)"
    want = clip(expected[at], 100) if at < len(expected) else "no line (end of file)"
    return Verdict.fail(f"{p} has {len(actual)} lines ({len(expected)} in {reference}); line {at + 1} is {got}"
                        f" where the gold file has {want}", first_difference=at + 1)


def _record_matches(pattern: dict[str, Any], record: dict[Any, Any]) -> bool:
    return all(k in record and record[k] == v for k, v in pattern.items())


@judge("csv.records")
def csv_records(ctx: StepContext, path: str, expect: list[dict[str, Any]] | None = None,
                unexpect: list[dict[str, Any]] | None = None, fields: list[str] | None = None) -> Verdict:
    """The CSV read as records (its first line names the fields, as Python's ``csv.DictReader``
    reads it): every ``expect`` record is matched by some row (the row has each key with exactly
    that text) and no row matches an ``unexpect`` one (OSWorld's ``check_csv``). ``fields``: the
    first line must name these, so an empty file (a tool that wrote nothing) is not a pass."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p.name} does not exist")
    # As OSWorld reads it: the file in text mode (universal newlines), then csv's reading of its lines.
    reader = csv.DictReader(io.StringIO(p.read_text()))
    rows = list(reader)
    header = list(reader.fieldnames or [])
    missing_fields = [k for k in fields or [] if k not in header]
    if missing_fields:
        return Verdict.fail(f"{p.name}'s first line should name {', '.join(missing_fields)} but is {clip(header)}")
    missing = [r for r in expect or [] if not any(_record_matches(r, row) for row in rows)]
    unwanted = [row for row in rows if any(_record_matches(r, row) for r in unexpect or [])]
    if missing or unwanted:
        said = [f"no row matches {clip(r)}" for r in missing] + [f"row {clip(row)} should not be there" for row in unwanted]
        return Verdict.fail(f"{p.name} ({len(rows)} rows): " + "; ".join(said))
    return Verdict.ok(f"{p.name}: {len(expect or [])} expected record(s) found, none unexpected ({len(rows)} rows)")
