"""OSWorld's compare_pdfs over lists of PDFs (desktop-env's chrome.py: the mean of the pairs'
ratios, pairs by position) and deskact's one pdf.same_text per pair agree, with the getters of
multi_apps-185f29bd: the gold PDFs as the result (cloud_file, multi, every file given), the
agent's as the expected (vm_file); a file the agent did not write is None, as the getter gives it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.conformance

NAMES = ["Alex Lee", "David Wilson", "Emily Johnson"]
FORM = ["Employee: {name}", "Rating: {rating}", "Punctuality: \u221a"]


Field = tuple[str, float, int]
"""(value, y of its box, annotation flags) of a filled text field drawn by its own appearance stream."""


def _pdf(path: Path, lines: list[str], fields: list[Field] = ()) -> Path:  # type: ignore[assignment]
    """A one-page PDF drawing ``lines`` with Helvetica (WinAnsi: the check mark becomes '?'), and
    ``fields`` as form widgets whose appearance streams draw their values (as a viewer saves a
    filled form: the page's contents do not have them)."""
    ops = "".join(f"BT /F1 12 Tf 72 {720 - 20 * i} Td ({line}) Tj ET\n" for i, line in enumerate(lines))
    body = ops.encode("cp1252", "replace")
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    widgets = [6 + 2 * i for i in range(len(fields))]
    objects = [b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [%s] >> >>"
               % b" ".join(b"%d 0 R" % w for w in widgets), b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
                b" /Resources << /Font << /F1 5 0 R >> >> /Annots [%s] >>" % b" ".join(b"%d 0 R" % w for w in widgets)),
               b"<< /Length %d >>\nstream\n" % len(body) + body + b"endstream", font]
    for i, (value, y, flags) in enumerate(fields):
        shown = f"/Tx BMC BT /F1 12 Tf 2 5 Td ({value}) Tj ET EMC".encode("cp1252", "replace")
        objects.append(b"<< /Type /Annot /Subtype /Widget /FT /Tx /T (field%d) /V (%s) /F %d /Rect [300 %g 500 %g]"
                       b" /AP << /N %d 0 R >> >>" % (i, value.encode("cp1252", "replace"), flags, y, y + 20, 7 + 2 * i))
        objects.append(b"<< /Type /XObject /Subtype /Form /BBox [0 0 200 20] /Resources << /Font << /F1 5 0 R >> >>"
                       b" /Length %d >>\nstream\n" % len(shown) + shown + b"\nendstream")
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for i, obj in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def _form(name: str, rating: str = "Excellent") -> list[str]:
    return [line.format(name=name, rating=rating) for line in FORM]


CASES = [
    ("all filled right", {n: _form(n) for n in NAMES}, True),
    ("one rating wrong", {**{n: _form(n) for n in NAMES}, "David Wilson": _form("David Wilson", "Good")}, False),
    ("one form not written", {n: _form(n) for n in NAMES if n != "Emily Johnson"}, False),
    ("two forms swapped", {**{n: _form(n) for n in NAMES}, "Alex Lee": _form("David Wilson"),
                           "David Wilson": _form("Alex Lee")}, False),
    ("a form left blank", {**{n: _form(n) for n in NAMES}, "Alex Lee": []}, False),
]


@pytest.mark.parametrize(("what", "written", "verdict"), CASES, ids=[c[0] for c in CASES])
def test_compare_pdfs_over_lists(desktop_env: Any, deskact: Any, what: str, written: dict[str, list[str]],
                                 verdict: bool) -> None:
    gold_dir = deskact.ctx.gold.parent / "golds"
    gold_dir.mkdir()
    golds = {f"https://example.org/{i}": _pdf(gold_dir / f"{n}_Gold.pdf", _form(n)) for i, n in enumerate(NAMES)}
    vm_paths = [f"/home/user/Desktop/{n}.pdf" for n in NAMES]
    agent = [_pdf(deskact.home_file(p), written[n]) if n in written else None for p, n in zip(vm_paths, NAMES)]
    evaluator = {"func": "compare_pdfs",
                 "result": {"type": "cloud_file", "path": list(golds), "dest": [f"{n}_Gold.pdf" for n in NAMES],
                            "multi": True, "gives": list(range(len(NAMES)))},
                 "expected": {"type": "vm_file", "path": vm_paths, "dest": [f"{n}.pdf" for n in NAMES],
                              "multi": True, "gives": list(range(len(NAMES)))}}
    theirs = desktop_env.passes("chrome", "compare_pdfs", [str(g) for g in golds.values()],
                                [str(a) if a else None for a in agent])
    ours = deskact.passes(evaluator, golds)
    assert ours == theirs == verdict, f"deskact {ours} ({deskact.feedback}); desktop-env {theirs}"


HIDDEN = 2
FORM_CASES = [
    ("the fields filled as the gold", [("Excellent", 600, 4), ("Yes", 560, 4)], True),
    ("one field's value wrong", [("Good", 600, 4), ("Yes", 560, 4)], False),
    ("a field left empty", [("", 600, 4), ("Yes", 560, 4)], False),
    ("the values written into the page instead", None, True),  # lines after the page's: the same text
    ("a wrong value in a hidden field more", [("Excellent", 600, 4), ("Yes", 560, 4), ("Poor", 520, HIDDEN)], True),
    ("the fields in another order", [("Yes", 560, 4), ("Excellent", 600, 4)], False),
    ("a field on a label's baseline", [("Excellent", 715, 4), ("Yes", 560, 4)], True),
]


@pytest.mark.parametrize(("what", "fields", "verdict"), FORM_CASES, ids=[c[0] for c in FORM_CASES])
def test_compare_pdfs_on_filled_forms(desktop_env: Any, deskact: Any, what: str, fields: list[Field] | None,
                                      verdict: bool) -> None:
    """Filled form fields: PyMuPDF's text has each visible field's drawn value after the page's text;
    pdf.same_text reads them the same way (a reading without them would pass a wrong value)."""
    gold_fields = [("Excellent", 715 if "baseline" in what else 600, 4), ("Yes", 560, 4)]
    gold = _pdf(deskact.ctx.gold.parent / "gold.pdf", _form("Alex Lee"), gold_fields)
    agent = deskact.home_file("/home/user/Desktop/Alex Lee.pdf")
    if fields is None:
        _pdf(agent, [*_form("Alex Lee"), "Excellent", "Yes"])
    else:
        _pdf(agent, _form("Alex Lee"), fields)
    evaluator = {"func": "compare_pdfs", "result": {"type": "vm_file", "path": "/home/user/Desktop/Alex Lee.pdf",
                                                    "dest": "Alex Lee.pdf"},
                 "expected": {"type": "cloud_file", "path": "https://example.org/gold", "dest": "gold.pdf"}}
    theirs = desktop_env.passes("chrome", "compare_pdfs", str(agent), str(gold))
    ours = deskact.passes(evaluator, {"https://example.org/gold": gold})
    assert ours == theirs == verdict, f"deskact {ours} ({deskact.feedback}); desktop-env {theirs}"
