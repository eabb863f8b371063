
import docx
import openpyxl
import pytest
from deskact.runtime.tasks.steps import StepContext, StepFailed, lookup, run_reset
from pptx import Presentation


def test_shell_run_cwd_env_and_placeholders(ctx: StepContext) -> None:
    run_reset("shell.run", {"cmd": 'echo "$WORKSPACE|$FILES" > here.txt && pwd >> here.txt && echo ${HOME} >> here.txt'}, ctx)
    lines = (ctx.workspace / "here.txt").read_text().splitlines()
    assert lines == [f"{ctx.workspace}|{ctx.files}", str(ctx.workspace), str(ctx.home)]


def test_shell_run_failure_has_stderr(ctx: StepContext) -> None:
    with pytest.raises(StepFailed, match=r"exited with 3: boom"):
        run_reset("shell.run", {"cmd": "echo boom >&2; exit 3"}, ctx)


def test_shell_run_timeout_kills_the_pipeline(ctx: StepContext) -> None:
    with pytest.raises(StepFailed, match="did not finish within 0.5 s"):
        run_reset("shell.run", {"cmd": "sleep 30 | cat", "timeout": 0.5}, ctx)


def test_shell_run_background_process_does_not_block(ctx: StepContext) -> None:
    # The background sleep keeps running; the step must return when bash exits.
    run_reset("shell.run", {"cmd": "sleep 5 & echo $! > pid", "timeout": 3}, ctx)
    pid = int((ctx.workspace / "pid").read_text())
    import os
    import signal
    os.kill(pid, signal.SIGKILL)


def test_office_xlsx(ctx: StepContext) -> None:
    run_reset("office.xlsx", {"path": "${WORKSPACE}/b.xlsx",
                              "sheets": {"Q1": [["Region", "Sales"], ["N", 10], ["S", "=B2*2"]], "Empty": []}}, ctx)
    wb = openpyxl.load_workbook(ctx.workspace / "b.xlsx")
    assert wb.sheetnames == ["Q1", "Empty"]
    assert wb["Q1"]["B2"].value == 10 and wb["Q1"]["B3"].value == "=B2*2"


def test_office_xlsx_needs_a_sheet(ctx: StepContext) -> None:
    with pytest.raises(StepFailed, match="`sheets` is empty"):
        run_reset("office.xlsx", {"path": "b.xlsx", "sheets": {}}, ctx)


def test_office_docx(ctx: StepContext) -> None:
    run_reset("office.docx", {"path": "m.docx", "paragraphs": [
        {"text": "Title", "style": "Heading 1"}, "plain", {"text": "B", "bold": True, "alignment": "center"}]}, ctx)
    d = docx.Document(str(ctx.workspace / "m.docx"))
    assert [p.text for p in d.paragraphs] == ["Title", "plain", "B"]
    assert d.paragraphs[0].style.name == "Heading 1"
    assert d.paragraphs[2].runs[0].bold is True
    assert d.paragraphs[2].alignment == 1
    with pytest.raises(StepFailed, match="unknown style 'Nope'"):
        run_reset("office.docx", {"path": "m.docx", "paragraphs": [{"text": "x", "style": "Nope"}]}, ctx)


def test_office_docx_bad_paragraph_field_at_load() -> None:
    with pytest.raises(ValueError, match="paragraphs"):
        lookup("reset", "office.docx").validate({"path": "m.docx", "paragraphs": [{"text": "x", "colour": "red"}]})


def test_office_pptx(ctx: StepContext) -> None:
    run_reset("office.pptx", {"path": "d.pptx", "slides": [
        {"title": "Hello", "body": ["one", "two"]}, {"title": "Only title"}, {}]}, ctx)
    prs = Presentation(str(ctx.workspace / "d.pptx"))
    slides = list(prs.slides)
    assert len(slides) == 3
    assert slides[0].shapes.title.text == "Hello"
    assert "one\ntwo" in [s.text_frame.text for s in slides[0].shapes if s.has_text_frame]
    assert slides[1].shapes.title.text == "Only title"
    with pytest.raises(StepFailed, match="layout 99 out of range"):
        run_reset("office.pptx", {"path": "d.pptx", "slides": [{"layout": 99}]}, ctx)
