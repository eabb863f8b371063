"""OSWorld's compare_pdfs (desktop-env's chrome.py: PyMuPDF's text of every page, rapidfuzz's ratio)
and deskact's pdf.same_text (PDFium's text) agree on right and near-miss PDFs: PDFs written here
with the standard Helvetica font, and Writer's own export of a document."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.conformance

RESULT = "/home/user/Desktop/report.pdf"
GOLD_URL = "https://example.org/gold/report.pdf"

Page = list[tuple[float, float, float, str]]
"""(x, y, font size, text) of each line drawn on a page."""


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def write_pdf(path: Path, pages: list[Page]) -> Path:
    """A PDF drawing each line with Helvetica (a standard font: nothing embedded)."""
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", "",
               "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"]
    kids = []
    for lines in pages:
        ops = "".join(f"BT /F1 {size} Tf {x} {y} Td ({_escaped(text)}) Tj ET\n"
                      for x, y, size, text in lines).encode("latin-1")
        objects.append(f"<< /Length {len(ops)} >>\nstream\n{ops.decode('latin-1')}endstream")
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {len(objects)} 0 R"
                       " /Resources << /Font << /F1 3 0 R >> >> >>")
        kids.append(f"{len(objects)} 0 R")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>"
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(bytes(out))
    return path


INVOICE: list[Page] = [
    [(72, 720, 18, "Invoice # 243729"), (72, 690, 11, "Date: 2022-03-01"), (72, 670, 11, "Total: 1,250.00 USD")],
    [(72, 720, 11, "Thank you for your business.")],
]

CASES = [
    ("the same", INVOICE, True),
    ("drawn larger and elsewhere", [[(90, 700, 20, "Invoice # 243729"), (90, 650, 12, "Date: 2022-03-01"),
                                     (90, 620, 12, "Total: 1,250.00 USD")], INVOICE[1]], True),
    ("one digit off", [[*INVOICE[0][:2], (72, 670, 11, "Total: 1,250.01 USD")], INVOICE[1]], False),
    ("a line missing", [INVOICE[0][:2], INVOICE[1]], False),
    ("lines in another order", [[INVOICE[0][1], INVOICE[0][0], INVOICE[0][2]], INVOICE[1]], False),
    ("an extra page", [*INVOICE, [(72, 720, 11, "Notes")]], False),
    ("an empty page more", [*INVOICE, []], True),  # the texts are stripped: an empty last page adds nothing
    ("pages merged", [INVOICE[0] + [(72, 640, 11, "Thank you for your business.")]], True),
    ("one page only", [INVOICE[0]], False),
    ("case changed", [[(72, 720, 18, "INVOICE # 243729"), *INVOICE[0][1:]], INVOICE[1]], False),
]


@pytest.mark.parametrize(("what", "pages", "verdict"), CASES, ids=[c[0] for c in CASES])
def test_compare_pdfs(desktop_env: Any, deskact: Any, what: str, pages: list[Page], verdict: bool) -> None:
    gold = write_pdf(deskact.ctx.gold.parent / "expected.pdf", INVOICE)
    result = write_pdf(deskact.home_file(RESULT), pages)
    _agree(desktop_env, deskact, result, gold, verdict)


def _agree(desktop_env: Any, deskact: Any, result: Path, gold: Path, verdict: bool | None) -> None:
    evaluator = {"func": "compare_pdfs", "result": {"type": "vm_file", "path": RESULT, "dest": "report.pdf"},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "report_Gold.pdf"}}
    theirs = desktop_env.passes("chrome", "compare_pdfs", str(result), str(gold))
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert verdict is None or ours == verdict


def test_missing_broken_and_empty_pdfs(desktop_env: Any, deskact: Any, tmp_path: Path) -> None:
    gold = write_pdf(deskact.ctx.gold.parent / "expected.pdf", INVOICE)
    _agree(desktop_env, deskact, Path(tmp_path / "never-written.pdf"), gold, False)
    broken = deskact.home_file(RESULT)
    broken.write_bytes(b"%PDF-1.4\nnot really\n")
    _agree(desktop_env, deskact, broken, gold, False)
    broken.unlink()
    empty_gold = write_pdf(tmp_path / "blank.pdf", [[]])
    write_pdf(deskact.home_file(RESULT), [[], []])
    _agree(desktop_env, deskact, deskact.home_file(RESULT), empty_gold, True)  # two texts both empty


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_writer_exports(desktop_env: Any, deskact: Any, tmp_path: Path) -> None:
    """writer-4bcb1253's form: a document exported by Writer against an export of it, and of a near miss."""
    docx = pytest.importorskip("docx")

    def export(name: str, paragraphs: list[str]) -> Path:
        document = docx.Document()
        document.add_heading("Organizational Summary", 1)
        for text in paragraphs:
            document.add_paragraph(text)
        source = tmp_path / f"{name}.docx"
        document.save(str(source))
        subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp_path}/profile", "--headless",
                        "--convert-to", "pdf", "--outdir", str(tmp_path), str(source)],
                       check=True, capture_output=True, timeout=120)
        return tmp_path / f"{name}.pdf"

    text = ["Person: Ada Lovelace", "Unit: Analytical Engines", "Reports to: Charles Babbage  (since 1842)"]
    gold = export("gold", text)
    right, near = export("right", text), export("near", [*text[:2], "Reports to: Charles Babbage (since 1842)"])
    shutil.copy(right, deskact.home_file(RESULT))
    _agree(desktop_env, deskact, deskact.home_file(RESULT), gold, True)
    shutil.copy(near, deskact.home_file(RESULT))
    _agree(desktop_env, deskact, deskact.home_file(RESULT), gold, False)


PAGES_RESULT = "/home/user/Resize_Cells_Fit_Page.pdf"


@pytest.mark.parametrize(("pages", "rules", "verdict"), [
    (1, {"relation": "eq", "ref_value": 1}, True),  # calc-aa3a8974's rule
    (2, {"relation": "eq", "ref_value": 1}, False),
    (3, {"relation": "le", "ref_value": 2}, False),
    (2, {"relation": "le", "ref_value": 2}, True),
    (None, {"relation": "eq", "ref_value": 1}, False),  # not a PDF
])
def test_check_pdf_pages(desktop_env: Any, deskact: Any, pages: int | None, rules: dict[str, Any], verdict: bool) -> None:
    path = deskact.home_file(PAGES_RESULT)
    if pages is None:
        path.write_text("a sheet, not a PDF")
    else:
        write_pdf(path, [[(72, 720, 11, f"Page {i}")] for i in range(pages)])
    evaluator = {"func": "check_pdf_pages", "result": {"type": "vm_file", "path": PAGES_RESULT, "dest": "r.pdf"},
                 "expected": {"type": "rule", "rules": rules}}
    theirs = desktop_env.passes("pdf", "check_pdf_pages", str(path), rules)
    ours = deskact.passes(evaluator)
    assert ours == theirs == verdict, f"deskact {ours} ({deskact.feedback}); desktop-env {theirs}"


def test_check_pdf_pages_missing_file(desktop_env: Any, deskact: Any) -> None:
    rules = {"relation": "eq", "ref_value": 1}
    evaluator = {"func": "check_pdf_pages", "result": {"type": "vm_file", "path": PAGES_RESULT},
                 "expected": {"type": "rule", "rules": rules}}
    assert not desktop_env.passes("pdf", "check_pdf_pages", None, rules) and not deskact.passes(evaluator)
