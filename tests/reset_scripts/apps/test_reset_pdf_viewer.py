"""apps.open of a .pdf: Chromium's PDF viewer in its own app window, found by its class and drawn."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from deskact.runtime.tasks.steps import StepContext, run_reset

pytestmark = [pytest.mark.display, pytest.mark.slow,
              pytest.mark.skipif(shutil.which("chromium") is None, reason="Chromium is not installed")]


def minimal_pdf(text: str, title: str | None = None) -> bytes:
    """A one-page PDF showing ``text`` in Helvetica (xref offsets computed)."""
    stream = f"BT /F1 36 Tf 72 700 Td ({text}) Tj ET".encode()
    info = f"<< /Title ({title}) >>" if title else "<< >>"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
                b" /Resources << /Font << /F1 5 0 R >> >> >>"),
               b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", info.encode()]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info 6 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _viewer_titles(display: str) -> list[str]:
    from deskact.reset_scripts._x11 import list_windows
    from deskact.reset_scripts.apps.pdf_viewer import _viewer_windows

    ids = set(_viewer_windows(display))
    return [w.title for w in list_windows(display) if w.id in ids]


def _screen(display: str) -> Any:
    from PIL import Image
    from Xlib import X
    from Xlib import display as xdisplay

    d = xdisplay.Display(display)
    try:
        root = d.screen().root
        geometry = root.get_geometry()
        raw = root.get_image(0, 0, geometry.width, geometry.height, X.ZPixmap, 0xFFFFFFFF)
        return Image.frombytes("RGB", (geometry.width, geometry.height), raw.data, "raw", "BGRX").convert("L")
    finally:
        d.close()


@pytest.mark.parametrize("title", [None, "Lecture 2: Data Structures"])
def test_a_pdf_opens_in_the_viewer_drawn(ctx: StepContext, xdisplay: Any, title: str | None) -> None:
    """The window is found whatever its title (the PDF's own title, or the file's name) and the
    page is drawn before the step returns: the screen is not blank."""
    ctx.display = xdisplay.name
    (ctx.workspace / "lecture.pdf").write_bytes(minimal_pdf("Hello PDF", title))
    try:
        run_reset("apps.open", {"path": "${WORKSPACE}/lecture.pdf"}, ctx)
        (shown,) = _viewer_titles(xdisplay.name)
        assert shown == (title or "lecture.pdf")
        assert len(set(_screen(xdisplay.name).getdata())) > 2, "the viewer's window is blank"
    finally:
        run_reset("apps.kill", {"name": "deskact-pdf-viewer"}, ctx)
