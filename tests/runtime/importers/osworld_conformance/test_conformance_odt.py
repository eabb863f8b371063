"""OSWorld's check_highlighted_words (desktop-env docs.py: compare_docx_files' defaults on two .odt
files, then no span whose automatic style has background #ffff00) and deskact's odt.same_text with
odt.no_highlight colour #ffff00 agree (writer-6a33f9b9: remove the yellow highlights)."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.conformance

RESULT = "/home/user/Desktop/sample-recruitment-phone-script.odt"
GOLD_URL = "https://example.org/gold/script.odt"
_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
       'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
       'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
       'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"')
MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
            'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
            '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>'
            '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
            '<manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/>'
            '</manifest:manifest>')


def write_odt(path: Path, body: str, colours: dict[str, str] | None = None) -> Path:
    """An .odt with ``body`` (text:p elements) and automatic text styles T<n> of these background colours."""
    styles = "".join(f'<style:style style:name="{name}" style:family="text"><style:text-properties'
                     f' fo:background-color="{colour}"/></style:style>' for name, colour in (colours or {}).items())
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text", compress_type=zipfile.ZIP_STORED)
        z.writestr("META-INF/manifest.xml", MANIFEST)
        z.writestr("styles.xml", f'<?xml version="1.0" encoding="UTF-8"?><office:document-styles {_NS}'
                                 ' office:version="1.2"/>')
        z.writestr("content.xml", f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_NS}'
                                  f' office:version="1.2"><office:automatic-styles>{styles}</office:automatic-styles>'
                                  f"<office:body><office:text>{body}</office:text></office:body></office:document-content>")
    return path


GOLD = "<text:p>Hello, this is Ann from Acme.</text:p><text:p>Is now a good time to talk?</text:p>"
SPAN = '<text:p>Hello, this is <text:span text:style-name="{}">Ann</text:span> from Acme.</text:p>'
REST = "<text:p>Is now a good time to talk?</text:p>"

CASES = [
    (GOLD, None, True),
    (SPAN.format("T1") + REST, {"T1": "#ffff00"}, False),  # still yellow
    (SPAN.format("T1") + REST, {"T1": "transparent"}, True),
    (SPAN.format("T1") + REST, {"T1": "#00ff00"}, True),  # only yellow counts in OSWorld's metric
    (SPAN.format("T1") + REST, {"T1": "#FFFF00"}, True),  # compared as written
    (SPAN.format("T2") + REST, {"T1": "#ffff00"}, True),  # a yellow style no span uses
    (GOLD.replace("Ann", "Anne"), None, False),  # the words changed
    (GOLD.replace("Hello, this", "Hello,   this"), None, True),  # whitespace squeezed
    ("<text:p>Hello, this is Ann from Acme. Is now a good time to talk?</text:p>", None, True),  # paragraphs joined
    (GOLD + "<text:p>Bye</text:p>", None, False),
]


@pytest.mark.parametrize(("body", "colours", "verdict"), CASES)
def test_check_highlighted_words(desktop_env: Any, deskact: Any, body: str, colours: dict[str, str] | None,
                                 verdict: bool) -> None:
    gold = write_odt(deskact.ctx.gold.parent / "gold.odt", GOLD)
    result = write_odt(deskact.home_file(RESULT), body, colours)
    evaluator = {"func": "check_highlighted_words",
                 "result": {"type": "vm_file", "path": RESULT, "dest": "sample-recruitment-phone-script.odt"},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "sample-recruitment-phone-script_Gold.odt"}}
    theirs = desktop_env.passes("docs", "check_highlighted_words", str(result), str(gold))
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs == verdict, f"deskact {ours} ({deskact.feedback}); desktop-env {theirs}"
