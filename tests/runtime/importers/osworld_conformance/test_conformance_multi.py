"""OSWorld's multi_apps file metrics agree with the judges they translate to (osworld_metrics_multi):
fuzzy_place_math (docx.words), check_mp3_meta (audio.tags), compare_archive with PDFs
(archive.same_pdfs), is_in_vm_clickboard (shell.output), compare_epub (epub.same) and
compare_zip_files (archive.same_members), on right and near-miss files."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.conformance

ANSWERS = ["深圳市福田区益田路5055号信息枢纽大厦西门一楼", "福田区正义街1号", "深圳市福田区香梅路2002-4号",
           "福田区水围村龙景楼一楼", "深圳市福田区振兴路108号", "福田区振兴路108号"]


def _agree(desktop_env: Any, deskact: Any, module: str, func: str, args: list[Any], evaluator: dict[str, Any],
           gold: dict[str, Path] | None = None) -> bool:
    theirs = desktop_env.passes(module, func, *args)
    ours = deskact.passes(evaluator, gold)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does the opposite"
    return ours


# --- fuzzy_place_math ---------------------------------------------------------------------------

DOCX = "/home/user/Desktop/AllLocations.docx"


def _document(path: Path, paragraphs: list[str], table: list[str] | None = None) -> None:
    import docx

    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    if table:
        cells = document.add_table(rows=1, cols=len(table)).rows[0].cells
        for cell, text in zip(cells, table):
            cell.text = text
    document.save(str(path))


@pytest.mark.parametrize(("paragraphs", "table", "verdict"), [
    (ANSWERS[:3], None, True),
    (["", ANSWERS[0], "", ANSWERS[3], "  " + ANSWERS[4] + "  ", ""], None, True),  # blank lines, spaces around
    (["  ".join(ANSWERS[:3])], None, True),  # three words on one line
    (["\u3000".join(ANSWERS[1:4])], None, True),  # the ideographic space separates words too
    ([ANSWERS[0], ANSWERS[0], ANSWERS[0]], None, True),  # the metric does not ask for different answers
    (ANSWERS[:5], None, False),  # five addresses, as the instruction asks: the metric wants three
    (ANSWERS[:2], None, False),
    (ANSWERS[:2] + [ANSWERS[2] + "。"], None, False),
    (ANSWERS[:2] + ["深圳市福田区正义街1号"], None, False),  # a near miss of an answer
    (ANSWERS[:2], [ANSWERS[2]], False),  # the third in a table: the metric reads body paragraphs only
    ([f"1. {ANSWERS[0]}", ANSWERS[1], ANSWERS[2]], None, False),  # a numbered line is a fourth word
    ([], None, False),
])
def test_fuzzy_place_math(desktop_env: Any, deskact: Any, paragraphs: list[str], table: list[str] | None,
                          verdict: bool) -> None:
    path = deskact.home_file(DOCX)
    _document(path, paragraphs, table)
    rules = {"expected": ANSWERS}
    evaluator = {"func": "fuzzy_place_math", "result": {"type": "vm_file", "path": DOCX, "dest": "AllLocations.docx"},
                 "expected": {"type": "rule", "rules": rules}}
    assert _agree(desktop_env, deskact, "general", "fuzzy_place_math", [str(path), rules], evaluator) is verdict


def test_fuzzy_place_math_missing_document(desktop_env: Any, deskact: Any) -> None:
    rules = {"expected": ANSWERS}
    evaluator = {"func": "fuzzy_place_math", "result": {"type": "vm_file", "path": DOCX, "dest": "AllLocations.docx"},
                 "expected": {"type": "rule", "rules": rules}}
    missing = deskact.home_file(DOCX)
    assert _agree(desktop_env, deskact, "general", "fuzzy_place_math", [str(missing), rules], evaluator) is False


# --- check_mp3_meta -------------------------------------------------------------------------------

MP3 = "/home/user/Music/Cheng Xiang - Missing You.mp3"
FRAME = b"\xff\xfb\x90\x64" + bytes(413)  # one MPEG-1 layer III frame header and silence


def _mp3(path: Path, tags: dict[str, list[str]] | None, v2_version: int = 4) -> None:
    from mutagen.easyid3 import EasyID3

    path.write_bytes(FRAME * 4)
    if tags is None:
        return
    id3 = EasyID3()
    for key, values in tags.items():
        id3[key] = values
    id3.save(str(path), v2_version=v2_version)


RULES = {"title": {"method": "eq", "ref": "Missing You"}, "artist": {"method": "eq", "ref": "Cheng Xiang"}}


@pytest.mark.parametrize(("tags", "version", "rules", "verdict"), [
    ({"title": ["Missing You"], "artist": ["Cheng Xiang"]}, 4, RULES, True),
    ({"title": ["Missing You"], "artist": ["Cheng Xiang"]}, 3, RULES, True),  # ID3v2.3, as many taggers write
    ({"title": ["Missing You"], "artist": ["Cheng Xiang"], "album": ["Hits"]}, 4, RULES, True),
    ({"title": ["Missing you"], "artist": ["Cheng Xiang"]}, 4, RULES, False),
    ({"title": ["Missing You "], "artist": ["Cheng Xiang"]}, 4, RULES, False),
    ({"title": ["Missing You"], "artist": ["Cheng Xiang", "Other"]}, 4, RULES, False),  # read "Cheng Xiang,Other"
    ({"title": ["Missing You"]}, 4, RULES, False),
    ({"artist": ["Cheng Xiang"], "title": ["Cheng Xiang - Missing You"]}, 4, RULES, False),
    ({}, 4, RULES, False),  # an empty tag
    (None, 4, RULES, False),  # no ID3 tag at all: EasyID3 raises
    ({"title": ["Missing You"], "artist": ["Cheng Xiang", "Other"]}, 4,
     {"artist": {"method": "eq", "ref": "Cheng Xiang,Other"}}, True),
    ({"title": ["Missing You"]}, 4, {"title": {"method": "re", "ref": "^Miss"}}, True),
    ({"title": ["Kissing You"]}, 4, {"title": {"method": "re", "ref": "^Miss"}}, False),
    ({"title": ["Kissing You"]}, 4, {"title": {"method": "ne", "ref": "Missing You"}}, True),
])
def test_check_mp3_meta(desktop_env: Any, deskact: Any, tags: dict[str, list[str]] | None, version: int,
                        rules: dict[str, Any], verdict: bool) -> None:
    path = deskact.home_file(MP3)
    _mp3(path, tags, version)
    evaluator = {"func": "check_mp3_meta", "result": {"type": "vm_file", "path": MP3, "dest": path.name},
                 "expected": {"type": "rule", "rules": rules}}
    assert _agree(desktop_env, deskact, "others", "check_mp3_meta", [str(path), rules], evaluator) is verdict


# --- compare_archive ------------------------------------------------------------------------------

ZIP = "/home/user/lecture_slides.zip"
GOLD_ZIP_URL = "https://example.org/gold/gold_lecture_slides.zip"


def _pdf(lines: list[str], x: int = 72) -> bytes:
    """A one-page PDF drawing ``lines`` in Helvetica, one below the other, from ``x``."""
    text = "".join(f"BT /F1 12 Tf {x} {720 - 20 * i} Td ({line}) Tj ET\n" for i, line in enumerate(lines))
    bodies = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
              "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
              ("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R"
               " /Resources << /Font << /F1 3 0 R >> >> >>"),
              f"<< /Length {len(text)} >>\nstream\n{text}endstream"]
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(bodies, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode()
    table = b"".join(b"%010d 00000 n \n" % o for o in offsets)
    trailer = f"trailer\n<< /Size {len(bodies) + 1} /Root 1 0 R >>\nstartxref\n{len(out)}\n%%EOF\n".encode()
    return out + f"xref\n0 {len(bodies) + 1}\n0000000000 65535 f \n".encode() + table + trailer


def _zip(path: Path, members: dict[str, bytes | None]) -> Path:
    """A zip of ``members`` (None: a folder entry), in this order."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, b"" if data is None else data)
    path.write_bytes(buffer.getvalue())
    return path


SLIDES = {"lecture_slides/": None, **{f"lecture_slides/lecture{i}.pdf": _pdf([f"CS50 Python, lecture {i}", "Functions"])
                                      for i in range(3)}}


def _without(members: dict[str, bytes | None], name: str) -> dict[str, bytes | None]:
    return {k: v for k, v in members.items() if k != name}


@pytest.mark.parametrize(("members", "gold", "verdict"), [
    (SLIDES, SLIDES, True),
    (_without(SLIDES, "lecture_slides/"), SLIDES, True),  # no folder entry: the folder is unpacked all the same
    ({**SLIDES, "lecture_slides/lecture1.pdf": _pdf(["CS50 Python, lecture 1", "Functions"], x=90)}, SLIDES, True),
    (_without(SLIDES, "lecture_slides/lecture2.pdf"), SLIDES, False),
    ({**SLIDES, "lecture_slides/lecture3.pdf": _pdf(["CS50 Python, lecture 3"])}, SLIDES, False),
    ({**SLIDES, "lecture_slides/lecture1.pdf": _pdf(["CS50 Python, lecture 1", "Function"])}, SLIDES, False),
    ({**SLIDES, "lecture_slides/lecture1.pdf": _pdf(["CS50 Python, lecture 1"])}, SLIDES, False),
    ({**SLIDES, "lecture_slides/extra/": None}, SLIDES, False),  # a sub-folder is a name too
    ({k.replace("lecture_slides/", "slides/"): v for k, v in SLIDES.items()}, SLIDES, False),
    ({**SLIDES, "notes.txt": b"not in the folder"}, SLIDES, True),  # outside the compared folder
    ({**SLIDES, "lecture_slides/lecture1.pdf": b"not a PDF"}, {**SLIDES, "lecture_slides/lecture1.pdf": b"not a PDF"},
     False),  # the same bytes, but no PDF text to compare
    ({"lecture_slides/": None}, {"lecture_slides/": None}, False),  # nothing to compare: the metric divides by 0
    ({**SLIDES, "lecture_slides/x/../lecture9.pdf": _pdf(["skipped"])}, SLIDES, True),  # '..' members are skipped
    ({**SLIDES, "lecture_slides/lecture1.pdf ": None}, SLIDES, False),  # a folder named like a file, one space on
])
def test_compare_archive(desktop_env: Any, deskact: Any, tmp_path: Path, members: dict[str, bytes | None],
                         gold: dict[str, bytes | None], verdict: bool) -> None:
    path = _zip(deskact.home_file(ZIP), members)
    gold_zip = _zip(tmp_path / "gold_lecture_slides.zip", gold)
    options = {"file_path": "lecture_slides", "file_type": "pdf"}
    evaluator = {"func": "compare_archive", "result": {"type": "vm_file", "path": ZIP, "dest": "lecture_slides.zip"},
                 "expected": {"type": "cloud_file", "path": GOLD_ZIP_URL, "dest": "gold_lecture_slides.zip"},
                 "options": options}
    # desktop-env unpacks next to the files it is given: copies, so the judge reads the originals.
    theirs_pred = tmp_path / "theirs" / "lecture_slides.zip"
    theirs_pred.parent.mkdir()
    theirs_pred.write_bytes(path.read_bytes())
    theirs_gold = tmp_path / "theirs_gold" / "gold_lecture_slides.zip"
    theirs_gold.parent.mkdir()
    theirs_gold.write_bytes(gold_zip.read_bytes())
    theirs = desktop_env.passes("chrome", "compare_archive", str(theirs_pred), str(theirs_gold), **options)
    ours = deskact.passes(evaluator, {GOLD_ZIP_URL: gold_zip})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does the opposite"
    assert ours is verdict


# --- is_in_vm_clickboard --------------------------------------------------------------------------

SECRET = "/home/user/Data3/List3/secret.docx"


@pytest.mark.parametrize(("clipboard", "expected", "verdict"), [
    (SECRET, SECRET, True),
    (SECRET + "\n", SECRET, True),
    ("file://" + SECRET, SECRET, True),  # a file manager's copy: the path is in it
    ("/home/user/Data3/List3", SECRET, False),
    ("/home/user/Data3/List3/secret.doc", SECRET, False),
    ("~/Data3/List3/secret.docx", SECRET, False),
    ("", SECRET, False),
    (SECRET, [SECRET, "/home/user/Data1"], False),
    (SECRET + " /home/user/Data1", [SECRET, "/home/user/Data1"], True),
    ("secret.docx", "secret.docx", True),  # a text without the home
])
def test_is_in_vm_clickboard(desktop_env: Any, deskact: Any, clipboard: str, expected: str | list[str],
                             verdict: bool) -> None:
    import shlex

    rules = {"expected": expected}
    # The clipboard holds the task's own paths: the VM's /home/user is the task's home here.
    mine = clipboard.replace("/home/user", str(deskact.ctx.home))
    command = f"printf '%s' {shlex.quote(mine)}"
    evaluator = {"func": "is_in_vm_clickboard", "result": {"type": "rule", "rules": rules},
                 "expected": {"type": "vm_command_line", "command": command, "shell": "true"}}
    assert _agree(desktop_env, deskact, "basic_os", "is_in_vm_clickboard", [rules, clipboard], evaluator) is verdict


# --- compare_epub ---------------------------------------------------------------------------------

EPUB = "/home/user/Documents/Novels/Pass Through/Pass Through.epub"
GOLD_EPUB_URL = "https://example.org/gold/Pass%20Through%20Gold.epub"

TOC = """<?xml version="1.0" encoding="UTF-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
<head><meta name="dtb:uid" content="urn:uuid:{uid}"/></head>
<docTitle><text>Pass Through</text></docTitle>
<navMap>
<navPoint id="c1" playOrder="1"><navLabel><text>Chapter 1</text></navLabel><content src="chapter1.html"/></navPoint>
</navMap>
</ncx>
"""
OPF = """<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:title>Pass Through</dc:title>
<dc:identifier id="id">urn:uuid:{uid}</dc:identifier>
<dc:language>{lang}</dc:language>
</metadata>
<manifest><item id="c1" href="chapter1.html" media-type="application/xhtml+xml"/></manifest>
<spine toc="ncx"><itemref idref="c1"/></spine>
</package>
"""


def _chapter(n: int, text: str = "It was raining in Beijing.") -> bytes:
    return (f"<html>\r\n<head><title>Chapter {n}</title></head>\n<body>\n<h1>Chapter {n}</h1>\n"
            f"<p>{text}</p>\n</body>\n</html>\n").encode()


def _book(uid: str = "1111", lang: str = "en", **changes: bytes | None) -> dict[str, bytes | None]:
    members: dict[str, bytes | None] = {
        "mimetype": b"application/epub+zip", "toc.ncx": TOC.format(uid=uid).encode(),
        "content.opf": OPF.format(uid=uid, lang=lang).encode(), "chapter1.html": _chapter(1),
        "chapter2.html": _chapter(2, "The train left at noon.")}
    for name, data in changes.items():
        name = name.replace("__", "/").replace("_html", ".html")
        if data is None:
            members.pop(name, None)
        else:
            members[name] = data
    return members


GOLD_BOOK = _book()


@pytest.mark.parametrize(("members", "verdict"), [
    (GOLD_BOOK, True),
    (_book(**{"content.opf": OPF.format(uid="2222", lang="en").encode()}), True),  # dc:identifier lines are dropped
    (_book(uid="2222"), False),  # but toc.ncx's dtb:uid line is compared
    (_book(chapter1_html=_chapter(1).replace(b"\r\n", b"").replace(b"\n", b"")), True),  # line breaks are removed
    (_book(chapter1_html=_chapter(1).replace(b"<p>", b"<p >")), True),  # the same page once parsed
    (_book(lang="zh"), False),
    (_book(chapter2_html=_chapter(2, "The train left at one.")), False),
    (_book(chapter2_html=None), False),  # a chapter missing: the pairs by sorted name are shifted
    (_book(chapter1_html=None), False),
    (_book(chapter3_html=_chapter(3)), False),  # more files than the reference
    (_book(**{"toc.ncx": None}), True),  # toc.ncx sorts last: the metric pairs only the book's files
    (_book(**{"content.opf": None}), False),
    (_book(OEBPS__chapter1_html=_chapter(1), chapter1_html=None), False),  # a page in a folder: the metric raises
    (_book(chapter1_html=b"\xff\xfe not UTF-8"), False),
    (_book(chapter1_html=b"\r\n"), False),  # an empty page: lxml's parser raises
    ({"mimetype": b"application/epub+zip", "OEBPS/content.opf": b"x"}, False),  # nothing the metric compares
])
def test_compare_epub(desktop_env: Any, deskact: Any, tmp_path: Path, members: dict[str, bytes | None],
                      verdict: bool) -> None:
    path = _zip(deskact.home_file(EPUB), members)
    gold = _zip(tmp_path / "Pass Through Gold.epub", GOLD_BOOK)
    evaluator = {"func": "compare_epub", "result": {"type": "vm_file", "path": EPUB, "dest": "Pass Through.epub"},
                 "expected": {"type": "cloud_file", "path": GOLD_EPUB_URL, "dest": "Pass Through Gold.epub"}}
    # desktop-env writes its readings beside the files it is given: copies, so the judge reads the originals.
    (tmp_path / "theirs").mkdir()
    theirs = [tmp_path / "theirs" / "Pass Through.epub", tmp_path / "theirs" / "Pass Through Gold.epub"]
    theirs[0].write_bytes(path.read_bytes())
    theirs[1].write_bytes(gold.read_bytes())
    assert _agree(desktop_env, deskact, "others", "compare_epub", [str(t) for t in theirs], evaluator,
                  {GOLD_EPUB_URL: gold}) is verdict


def test_compare_epub_not_a_zip(desktop_env: Any, deskact: Any, tmp_path: Path) -> None:
    path = deskact.home_file(EPUB)
    path.write_text("Pass Through, chapter 1\n")
    gold = _zip(tmp_path / "Pass Through Gold.epub", GOLD_BOOK)
    evaluator = {"func": "compare_epub", "result": {"type": "vm_file", "path": EPUB, "dest": "Pass Through.epub"},
                 "expected": {"type": "cloud_file", "path": GOLD_EPUB_URL, "dest": "Pass Through Gold.epub"}}
    assert _agree(desktop_env, deskact, "others", "compare_epub", [str(path), str(gold)], evaluator,
                  {GOLD_EPUB_URL: gold}) is False


# --- compare_zip_files ----------------------------------------------------------------------------

SUBMISSION = "/home/user/Recruitment_and_retention_of_health_professionals_across_Europe.zip"
GOLD_SUBMISSION_URL = "https://example.org/gold/submission_Gold.zip"
ESSAY = "Recruitment and retention of health professionals across Europe, a review of forty studies."
DOCX_BYTES = b"PK\x03\x04 stands in for a Word document's bytes"
PAPER = {"essay.docx": DOCX_BYTES, "essay.pdf": _pdf([ESSAY])}


def _near(text: str, changes: int) -> str:
    """``text`` with ``changes`` of its letters replaced, spread over it."""
    chars = list(text)
    for i in range(changes):
        k = 3 + i * (len(text) - 6) // max(changes, 1)
        chars[k] = "#"
    return "".join(chars)


@pytest.fixture
def no_temp_pdf() -> Any:
    """compare_zip_files writes temp.pdf in its working folder (the checkout's): removed afterwards."""
    temp = Path(__file__).resolve().parents[4] / "temp.pdf"
    existed = temp.exists()
    yield
    if not existed:
        temp.unlink(missing_ok=True)


@pytest.mark.parametrize(("members", "verdict"), [
    (PAPER, True),
    ({"essay.pdf": _pdf([ESSAY], x=90), "essay.docx": DOCX_BYTES}, True),  # drawn elsewhere, members in another order
    ({**PAPER, "essay.pdf": _pdf([_near(ESSAY, 2)])}, True),  # 0.95 similar is enough, as in OSWorld
    ({**PAPER, "essay.pdf": _pdf([_near(ESSAY, 12)])}, False),
    ({**PAPER, "essay.pdf": _pdf(["A different essay."])}, False),
    ({**PAPER, "essay.docx": DOCX_BYTES + b" "}, False),  # other members byte for byte
    ({"essay.pdf": PAPER["essay.pdf"]}, False),
    ({**PAPER, "notes.txt": b"extra"}, False),
    ({"essay.docx": DOCX_BYTES, "Essay.pdf": PAPER["essay.pdf"]}, False),  # names compared exactly
    ({"essay.docx": DOCX_BYTES, "essay.pdf": b"not a PDF"}, False),
])
def test_compare_zip_files(desktop_env: Any, deskact: Any, tmp_path: Path, no_temp_pdf: Any,
                           members: dict[str, bytes | None], verdict: bool) -> None:
    path = _zip(deskact.home_file(SUBMISSION), members)
    gold = _zip(tmp_path / "submission_Gold.zip", PAPER)
    evaluator = {"func": "compare_zip_files", "result": {"type": "vm_file", "path": SUBMISSION, "dest": path.name},
                 "expected": {"type": "cloud_file", "path": GOLD_SUBMISSION_URL, "dest": "submission_Gold.zip"}}
    assert _agree(desktop_env, deskact, "vscode", "compare_zip_files", [str(path), str(gold)], evaluator,
                  {GOLD_SUBMISSION_URL: gold}) is verdict


@pytest.mark.parametrize("changes", range(3, 8))
def test_compare_zip_files_at_the_similarity_limit(desktop_env: Any, deskact: Any, tmp_path: Path, no_temp_pdf: Any,
                                                   changes: int) -> None:
    """Around a ratio of 0.95 (the essay's 91 characters, a few replaced: 4 give 0.956, 5 give 0.945)."""
    path = _zip(deskact.home_file(SUBMISSION), {**PAPER, "essay.pdf": _pdf([_near(ESSAY, changes)])})
    gold = _zip(tmp_path / "submission_Gold.zip", PAPER)
    evaluator = {"func": "compare_zip_files", "result": {"type": "vm_file", "path": SUBMISSION, "dest": path.name},
                 "expected": {"type": "cloud_file", "path": GOLD_SUBMISSION_URL, "dest": "submission_Gold.zip"}}
    assert _agree(desktop_env, deskact, "vscode", "compare_zip_files", [str(path), str(gold)], evaluator,
                  {GOLD_SUBMISSION_URL: gold}) is (changes <= 4)


def test_compare_zip_files_not_a_zip(desktop_env: Any, deskact: Any, tmp_path: Path, no_temp_pdf: Any) -> None:
    path = deskact.home_file(SUBMISSION)
    path.write_bytes(PAPER["essay.pdf"])
    gold = _zip(tmp_path / "submission_Gold.zip", PAPER)
    evaluator = {"func": "compare_zip_files", "result": {"type": "vm_file", "path": SUBMISSION, "dest": path.name},
                 "expected": {"type": "cloud_file", "path": GOLD_SUBMISSION_URL, "dest": "submission_Gold.zip"}}
    assert _agree(desktop_env, deskact, "vscode", "compare_zip_files", [str(path), str(gold)], evaluator,
                  {GOLD_SUBMISSION_URL: gold}) is False


# --- compare_pdf_images ---------------------------------------------------------------------------

RECEIPT = "/home/user/Desktop/receipt.pdf"
GOLD_RECEIPT_URL = "https://example.org/gold/receipt_Gold.pdf"


def _picture(seed: int, size: tuple[int, int] = (120, 160)) -> Any:
    """A receipt-like picture: light paper, dark lines of 'text' placed by ``seed``."""
    import random

    from PIL import Image, ImageDraw

    rng = random.Random(seed)
    image = Image.new("RGB", size, (245, 240, 230))
    draw = ImageDraw.Draw(image)
    for y in range(10, size[1] - 10, 12):
        draw.rectangle([8, y, 8 + rng.randint(30, size[0] - 16), y + 5], fill=(40, 40, 40))
    return image


def _jpeg(image: Any, quality: int = 90) -> bytes:
    buf = io.BytesIO()
    image.save(buf, "JPEG", quality=quality)
    return buf.getvalue()


def _image_pdf(images: list[tuple[str, Any]], form: bool = False) -> bytes:
    """A one-page PDF drawing each image: ("jpeg", bytes) stored as DCTDecode, ("rgb", PIL image)
    as FlateDecode pixels; with ``form``, the images sit in a form XObject the page draws."""
    import zlib

    objects: list[tuple[str, bytes | None]] = [("<< /Type /Catalog /Pages 2 0 R >>", None),
                                               ("<< /Type /Pages /Kids [3 0 R] /Count 1 >>", None),
                                               ("", None), ("", None)]
    names = []
    for i, (kind, data) in enumerate(images):
        if kind == "jpeg":
            from PIL import Image

            width, height = Image.open(io.BytesIO(data)).size
            head, body = "/Filter /DCTDecode", data
        else:
            width, height = data.size
            head, body = "/Filter /FlateDecode", zlib.compress(data.tobytes())
        objects.append(((f"<< /Type /XObject /Subtype /Image /Width {width} /Height {height} /ColorSpace /DeviceRGB"
                        f" /BitsPerComponent 8 {head} /Length {len(body)} >>"), body))
        names.append(f"/Im{i} {len(objects)} 0 R")
    draws = "".join(f"q 100 0 0 130 {40 + i * 120} 500 cm /Im{i} Do Q\n" for i in range(len(images))).encode()
    xobjects = " ".join(names)
    if form:
        objects.append(((f"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /XObject << {xobjects} >> >>"
                        f" /Length {len(draws)} >>"), draws))
        xobjects, draws = f"/Fm0 {len(objects)} 0 R", b"/Fm0 Do\n"
    objects[2] = ((f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
                  f" /Resources << /XObject << {xobjects} >> >> >>"), None)
    objects[3] = (f"<< /Length {len(draws)} >>", draws)
    out, offsets = b"%PDF-1.4\n", []
    for number, (head, body) in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{head}\n".encode() + (b"stream\n" + body + b"\nendstream\n" if body is not None else b"")
        out += b"endobj\n"
    table = b"".join(b"%010d 00000 n \n" % o for o in offsets)
    return (out + f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode() + table
            + f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{len(out)}\n%%EOF\n".encode())


GOLD_RECEIPT = _image_pdf([("jpeg", _jpeg(_picture(1)))])


@pytest.mark.parametrize(("pdf", "gold", "verdict"), [
    (GOLD_RECEIPT, GOLD_RECEIPT, True),
    (_image_pdf([("jpeg", _jpeg(_picture(1), quality=60))]), GOLD_RECEIPT, True),  # re-encoded: hashes near
    (_image_pdf([("rgb", _picture(1))]), GOLD_RECEIPT, True),  # the pixels, not a JPEG
    (_image_pdf([("jpeg", _jpeg(_picture(1)))], form=True), GOLD_RECEIPT, True),  # inside a form XObject
    (_image_pdf([("jpeg", _jpeg(_picture(2)))]), GOLD_RECEIPT, False),  # another receipt
    (_image_pdf([("jpeg", _jpeg(_picture(1).transpose(0)))]), GOLD_RECEIPT, False),  # mirrored
    (_image_pdf([("jpeg", _jpeg(_picture(1))), ("jpeg", _jpeg(_picture(1)))]), GOLD_RECEIPT, False),  # two
    (_image_pdf([]), GOLD_RECEIPT, False),
    (_image_pdf([]), _image_pdf([]), True),  # no images on either side: a match, as the metric says
    (_pdf(["Receipt", "Total 12.00"]), _image_pdf([]), True),  # text only, no images either
    (_image_pdf([("rgb", _picture(3)), ("jpeg", _jpeg(_picture(4)))]),
     _image_pdf([("rgb", _picture(3)), ("jpeg", _jpeg(_picture(4)))]), True),
    (_image_pdf([("jpeg", _jpeg(_picture(4))), ("rgb", _picture(3))]),
     _image_pdf([("rgb", _picture(3)), ("jpeg", _jpeg(_picture(4)))]), False),  # paired in the file's order
    (b"not a PDF", GOLD_RECEIPT, False),
])
def test_compare_pdf_images(desktop_env: Any, deskact: Any, tmp_path: Path, pdf: bytes, gold: bytes,
                            verdict: bool) -> None:
    path = deskact.home_file(RECEIPT)
    path.write_bytes(pdf)
    gold_path = tmp_path / "receipt_Gold.pdf"
    gold_path.write_bytes(gold)
    evaluator = {"func": "compare_pdf_images", "result": {"type": "vm_file", "path": RECEIPT, "dest": "receipt.pdf"},
                 "expected": {"type": "cloud_file", "path": GOLD_RECEIPT_URL, "dest": "receipt_Gold.pdf"}}
    (tmp_path / "theirs").mkdir()
    theirs = tmp_path / "theirs" / "receipt.pdf"
    theirs.write_bytes(pdf)
    assert _agree(desktop_env, deskact, "chrome", "compare_pdf_images", [str(theirs), str(gold_path)], evaluator,
                  {GOLD_RECEIPT_URL: gold_path}) is verdict
