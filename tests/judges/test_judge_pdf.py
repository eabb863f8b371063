"""pdf.same_text: two PDFs' texts, every page in order, spaces as drawn."""

from pathlib import Path

from deskact.runtime.tasks.steps import StepContext, run_judge


def _pdf(path: Path, lines: list[tuple[int, str]]) -> None:
    ops = "".join(f"BT /F1 12 Tf 72 {y} Td ({text}) Tj ET\n" for y, text in lines)
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
               "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
               ("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R"
                " /Resources << /Font << /F1 3 0 R >> >> >>"),
               f"<< /Length {len(ops)} >>\nstream\n{ops}endstream"]
    out, offsets = "%PDF-1.4\n", []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n{body}\nendobj\n"
    xref = len(out)
    out += "xref\n0 6\n0000000000 65535 f \n" + "".join(f"{o:010d} 00000 n \n" for o in offsets)
    path.write_text(out + f"trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", encoding="latin-1")


def test_same_text(ctx: StepContext) -> None:
    _pdf(ctx.gold / "gold.pdf", [(700, "Total:  42"), (680, "Paid")])
    _pdf(ctx.workspace / "out.pdf", [(600, "Total:  42"), (500, "Paid")])  # elsewhere on the page: same text
    v = run_judge("pdf.same_text", {"path": "out.pdf", "reference": "gold.pdf"}, ctx)
    assert v.passed and not v.error, v.feedback
    _pdf(ctx.workspace / "out.pdf", [(700, "Total: 42"), (680, "Paid")])  # one space fewer
    v = run_judge("pdf.same_text", {"path": "out.pdf", "reference": "gold.pdf"}, ctx)
    assert not v.passed and not v.error and "at character 7" in v.feedback, v.feedback
    _pdf(ctx.workspace / "out.pdf", [(680, "Paid"), (700, "Total:  42")])  # drawn in another order
    assert not run_judge("pdf.same_text", {"path": "out.pdf", "reference": "gold.pdf"}, ctx).passed


def test_missing_or_broken(ctx: StepContext) -> None:
    _pdf(ctx.gold / "gold.pdf", [(700, "x")])
    v = run_judge("pdf.same_text", {"path": "none.pdf", "reference": "gold.pdf"}, ctx)
    assert not v.passed and not v.error and "does not exist" in v.feedback
    (ctx.workspace / "bad.pdf").write_text("not a pdf")
    v = run_judge("pdf.same_text", {"path": "bad.pdf", "reference": "gold.pdf"}, ctx)
    assert not v.passed and not v.error and "is not a PDF" in v.feedback, v.feedback


def test_pages(ctx: StepContext) -> None:
    _pdf(ctx.workspace / "one.pdf", [(700, "x")])
    assert run_judge("pdf.pages", {"path": "one.pdf", "relation": "eq", "count": 1}, ctx).passed
    v = run_judge("pdf.pages", {"path": "one.pdf", "relation": "gt", "count": 1}, ctx)
    assert not v.passed and v.feedback == "one.pdf has 1 page(s); it should have > 1"
    (ctx.workspace / "bad.pdf").write_text("no")
    assert not run_judge("pdf.pages", {"path": "bad.pdf", "relation": "eq", "count": 1}, ctx).passed
