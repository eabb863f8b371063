"""Office judges on files saved by LibreOffice (what GUI tasks produce), not only by python libs."""

import shutil
import subprocess
from pathlib import Path

import pytest
from deskact.runtime.tasks.steps import StepContext, run_judge, run_reset

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")]


def libreoffice_resave(src: Path, out_dir: Path, profile: Path) -> Path:
    subprocess.run(["soffice", "--headless", "--norestore", f"-env:UserInstallation=file://{profile}",
                    "--convert-to", src.suffix.lstrip("."), "--outdir", str(out_dir), str(src)],
                   check=True, capture_output=True, timeout=180)
    return out_dir / src.name


def test_judges_read_libreoffice_output(ctx: StepContext, tmp_path: Path) -> None:
    run_reset("office.docx", {"path": "src/m.docx", "paragraphs": [
        {"text": "Title", "style": "Heading 1"}, {"text": "Centered", "alignment": "center", "bold": True},
        "Left", {"text": "Right", "alignment": "right"}, {"text": "Just", "alignment": "justify"}]}, ctx)
    run_reset("office.pptx", {"path": "src/d.pptx", "slides": [{"title": "Welcome"}, {"title": "Agenda", "body": ["a", "b"]}]}, ctx)
    run_reset("office.xlsx", {"path": "src/s.xlsx", "sheets": {"S": [[2, 3, "=A1*B1"]]}}, ctx)
    out = ctx.workspace / "out"
    for name in ("m.docx", "d.pptx", "s.xlsx"):
        libreoffice_resave(ctx.workspace / "src" / name, out, tmp_path / "profile")

    expected = [("left", True), ("center", True), ("left", False), ("right", False), ("justify", False)]
    for i, (alignment, bold) in enumerate(expected):
        v = run_judge("docx.paragraph", {"path": "out/m.docx", "index": i, "alignment": alignment, "bold": bold}, ctx)
        assert v.passed, v.feedback
    v = run_judge("docx.paragraph", {"path": "out/m.docx", "index": 1, "alignment": "left"}, ctx)
    assert v.feedback == "m.docx paragraph 1 ('Centered'): alignment should be left but is center"
    assert run_judge("pptx.slide", {"path": "out/d.pptx", "index": 0, "title": "Welcome", "alignment": "center"}, ctx).passed
    assert run_judge("pptx.slide", {"path": "out/d.pptx", "index": 1, "contains": "b"}, ctx).passed
    # LibreOffice stores computed values: no recompute needed, and the formula is still there.
    assert run_judge("xlsx.cells", {"path": "out/s.xlsx", "cells": {"C1": 6}}, ctx).passed
    assert run_judge("xlsx.formula", {"path": "out/s.xlsx", "cells": {"C1": "=A1*B1"}}, ctx).passed
