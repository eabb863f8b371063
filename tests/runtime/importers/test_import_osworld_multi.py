"""osworld_metrics_multi's translations: what they write, and what they report instead of judging looser."""

from __future__ import annotations

from typing import Any

import pytest
from deskact.runtime.importers.osworld_metrics import Translation, translate_evaluator


def _translate(evaluator: dict[str, Any]) -> Translation:
    return translate_evaluator(evaluator, lambda url, name: name,
                               lambda p: "${HOME}" + p.removeprefix("/home/user"),
                               lambda c: c if isinstance(c, str) else " ".join(c))


ZIP = {"type": "vm_file", "path": "/home/user/lecture_slides.zip", "dest": "lecture_slides.zip"}
GOLD_ZIP = {"type": "cloud_file", "path": "https://example.org/g.zip", "dest": "gold_lecture_slides.zip"}


def test_compare_archive_of_pdfs() -> None:
    out = _translate({"func": "compare_archive", "result": ZIP, "expected": GOLD_ZIP,
                      "options": {"file_path": "lecture_slides", "file_type": "pdf"}})
    assert not out.reasons
    assert out.judge == [{"archive.same_pdfs": {"path": "${HOME}/lecture_slides.zip",
                                                "reference": "gold_lecture_slides.zip", "folder": "lecture_slides"}}]


@pytest.mark.parametrize(("options", "result", "reason"), [
    ({"file_type": "text"}, ZIP, "file_type 'text'"),
    ({}, ZIP, "file_type 'text'"),  # the metric's default
    ({"file_type": "pdf", "ignore_case": True}, ZIP, "make OSWorld's metric raise"),
    ({"file_type": "pdf", "file_path": "../x"}, ZIP, "not a folder inside the archive"),
    ({"file_type": "pdf"}, {**ZIP, "dest": "lecture_slides.tar.gz"}, "is not a .zip"),
])
def test_compare_archive_reported(options: dict[str, Any], result: dict[str, Any], reason: str) -> None:
    out = _translate({"func": "compare_archive", "result": result, "expected": GOLD_ZIP, "options": options})
    assert not out.judge
    assert any(reason in r for r in out.reasons), out.reasons


def test_check_mp3_meta_rules() -> None:
    rules = {"title": {"method": "eq", "ref": "Missing You"}, "artist": {"method": "re", "ref": "^Cheng$"}}
    out = _translate({"func": "check_mp3_meta", "result": {"type": "vm_file", "path": "/home/user/Music/a.mp3"},
                      "expected": {"type": "rule", "rules": rules}})
    escaped = {**rules, "artist": {"method": "re", "ref": "^Cheng$$"}}  # a literal $ in a step is written $$
    assert out.judge == [{"audio.tags": {"path": "${HOME}/Music/a.mp3", "rules": escaped}}]
    approx = _translate({"func": "check_mp3_meta", "result": {"type": "vm_file", "path": "/home/user/Music/a.mp3"},
                         "expected": {"type": "rule", "rules": {"date": {"method": "approx:1", "ref": 1999}}}})
    assert not approx.judge and "not a text comparison" in approx.reasons[0]


def test_fuzzy_place_math_counts_three_words() -> None:
    out = _translate({"func": "fuzzy_place_math", "result": {"type": "vm_file", "path": "/home/user/Desktop/a.docx"},
                      "expected": {"type": "rule", "rules": {"expected": ["福田区正义街1号", "$5"]}}})
    assert out.judge == [{"docx.words": {"path": "${HOME}/Desktop/a.docx", "count": 3,
                                         "allowed": ["福田区正义街1号", "$$5"]}}]


def test_is_in_vm_clickboard_reads_the_display_in_the_world() -> None:
    out = _translate({"func": "is_in_vm_clickboard",
                      "result": {"type": "rule", "rules": {"expected": ["/home/user/Data3/secret.docx", "/home/username"]}},
                      "expected": {"type": "vm_command_line", "command": "xsel --clipboard --output", "shell": "true"}})
    assert not out.reasons
    assert out.needs_world and out.needs_display
    assert [j["shell.output"]["contains"] for j in out.judge] == ["${HOME}/Data3/secret.docx", "/home/username"]
    assert all(j["shell.output"]["exit_code"] is None for j in out.judge)


def test_compare_epub_and_zip_files() -> None:
    epub = _translate({"func": "compare_epub", "result": {"type": "vm_file", "path": "/home/user/b.epub", "dest": "b.epub"},
                       "expected": {"type": "cloud_file", "path": "https://example.org/g.epub", "dest": "g.epub"}})
    assert epub.judge == [{"epub.same": {"path": "${HOME}/b.epub", "reference": "g.epub"}}]
    zipped = _translate({"func": "compare_zip_files", "result": ZIP, "expected": GOLD_ZIP})
    assert zipped.judge == [{"archive.same_members": {"path": "${HOME}/lecture_slides.zip",
                                                      "reference": "gold_lecture_slides.zip"}}]
