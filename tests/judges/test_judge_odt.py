"""odt.same_text and odt.no_highlight on OpenDocument files written here (content.xml in a zip)."""

import zipfile
from pathlib import Path

from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge

_HEAD = ('<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
         'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
         'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
         'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0">')
_HIGHLIGHT = ('<office:automatic-styles><style:style style:name="T1" style:family="text">'
              '<style:text-properties fo:background-color="#ffff00"/></style:style></office:automatic-styles>')


def write_odt(path: Path, paragraphs: list[str], highlight: str | None = None) -> None:
    """An .odt whose body holds one text:p per paragraph; ``highlight`` is put in a highlighted span."""
    body = "".join(f"<text:p>{p}</text:p>" for p in paragraphs)
    if highlight is not None:
        body += f'<text:p>see <text:span text:style-name="T1">{highlight}</text:span> here</text:p>'
    styles = _HIGHLIGHT if highlight is not None else ""
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml", f"{_HEAD}{styles}<office:body><office:text>{body}</office:text>"
                                  "</office:body></office:document-content>")


def judge(name: str, ctx: StepContext, **params: object) -> Verdict:
    verdict = run_judge(name, params, ctx)
    assert not verdict.error, verdict.feedback
    return verdict


def test_same_text_compares_paragraphs_with_whitespace_squeezed(ctx: StepContext) -> None:
    assert ctx.gold is not None
    write_odt(ctx.gold / "gold.odt", ["Hello   world", "Second line"])
    write_odt(ctx.workspace / "doc.odt", ["Hello world", "Second  line"])
    assert judge("odt.same_text", ctx, path="doc.odt", reference="gold.odt").passed

    write_odt(ctx.workspace / "doc.odt", ["Hello world", "Second lime"])
    verdict = judge("odt.same_text", ctx, path="doc.odt", reference="gold.odt")
    assert not verdict.passed
    assert verdict.feedback == "doc.odt's text differs from gold.odt's at 'me' (gold: 'ne')"


def test_same_text_names_a_missing_or_wrong_file(ctx: StepContext) -> None:
    assert ctx.gold is not None
    write_odt(ctx.gold / "gold.odt", ["x"])
    assert "does not exist" in judge("odt.same_text", ctx, path="doc.odt", reference="gold.odt").feedback
    (ctx.workspace / "doc.txt").write_text("x")
    assert "is not an .odt file" in judge("odt.same_text", ctx, path="doc.txt", reference="gold.odt").feedback
    (ctx.workspace / "bad.odt").write_text("not a zip")
    verdict = judge("odt.same_text", ctx, path="bad.odt", reference="gold.odt")
    assert not verdict.passed and "is not an OpenDocument file" in verdict.feedback


def test_no_highlight_fails_on_a_highlighted_span(ctx: StepContext) -> None:
    write_odt(ctx.workspace / "doc.odt", ["plain"], highlight="marked words")
    verdict = judge("odt.no_highlight", ctx, path="doc.odt")
    assert not verdict.passed
    assert "marked words" in verdict.feedback and "#ffff00" in verdict.feedback

    write_odt(ctx.workspace / "doc.odt", ["plain", "see marked words here"])
    assert judge("odt.no_highlight", ctx, path="doc.odt").passed


def test_no_highlight_of_one_colour(ctx: StepContext) -> None:
    write_odt(ctx.workspace / "doc.odt", ["plain"], highlight="marked words")  # #ffff00
    verdict = judge("odt.no_highlight", ctx, path="doc.odt", colour="#00ff00")
    assert verdict.passed and verdict.feedback == "doc.odt has no span highlighted in #00ff00"
    assert not judge("odt.no_highlight", ctx, path="doc.odt", colour="#ffff00").passed
