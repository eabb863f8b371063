"""OSWorld's multi_apps file metrics -> deskact judges (``MULTI``): a Word document's words, an
MP3's tags, zips, an EPUB, the X clipboard.

- ``fuzzy_place_math`` (general.py): the mean over exactly three body-paragraph words of each
  word's best rapidfuzz ratio against the answers; 1 only for three words each equal to an
  answer: ``docx.words`` ``count: 3``.
- ``check_mp3_meta`` (others.py): EasyID3's tags against rules: ``audio.tags``.
- ``compare_archive`` (chrome.py) with ``file_type: pdf``: the folder's names equal, each PDF's
  text equal (``compare_pdfs``): ``archive.same_pdfs``. Other file types are reported.
- ``compare_epub`` (others.py): ``epub.same``.
- ``compare_zip_files`` (vscode.py): the same member names, each member's bytes equal, a PDF's
  text (PyPDF2's, the library the metric reads it with) at a difflib ratio of at least 0.95:
  ``archive.same_members``.
- ``compare_pdf_images`` (chrome.py, desktop-env 1.0.2's): the images embedded in both PDFs, as
  many, each pair within 5 bits by perceptual hash: ``pdf.same_images``.
- ``is_in_vm_clickboard`` (basic_os.py): every expected text is in the output of the command the
  ``expected`` getter runs (``xsel --clipboard --output``, in the world, on the task's display):
  ``shell.output`` ``contains``. A VM path in the expected text is the task's (``${HOME}``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .common import NULL, Untranslatable, escape
from .osworld_metrics_env import MetricEnv, Part, escaped, listed_files, needs_judge, result_and_gold, result_file


def _options(part: Part, read: set[str]) -> dict[str, Any]:
    """The options the metric reads; any other one is passed on to a function that takes none, and
    the metric raises (scores 0): such a task cannot pass in OSWorld and is reported."""
    options = dict(part.get("options") or {})
    extra = sorted(set(options) - read)
    if extra:
        raise Untranslatable(f"func {part['func']}: options {extra} make OSWorld's metric raise (the task cannot pass)")
    return options


def _rules(part: Part) -> dict[str, Any]:
    expected = part.get("expected") or {}
    if expected.get("type") != "rule" or not isinstance(expected.get("rules"), dict):
        raise Untranslatable(f"expected type {expected.get('type')}: {part['func']} is translated for fixed rules")
    return expected["rules"]


def _fuzzy_place_math(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "docx.words")
    _options(part, set())
    answers = _rules(part).get("expected")
    if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
        raise Untranslatable("func fuzzy_place_math: its expected rule is not a list of answers")
    env.judge("docx.words", path=result_file(env, part), count=3, allowed=escaped(answers))


_TAG_METHODS = {"eq", "ne", "lt", "le", "gt", "ge", "re"}


def _check_mp3_meta(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "audio.tags")
    _options(part, set())
    rules = _rules(part)
    for key, rule in rules.items():
        if not (isinstance(rule, dict) and set(rule) == {"method", "ref"} and rule["method"] in _TAG_METHODS
                and isinstance(rule["ref"], str)):
            raise Untranslatable(f"func check_mp3_meta: rule {key}: {str(rule)[:60]} is not a text comparison"
                                 f" ({', '.join(sorted(_TAG_METHODS))}) with a text")
    env.judge("audio.tags", path=result_file(env, part), rules=escaped(rules))


def _compare_archive(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "archive.same_pdfs")
    options = _options(part, {"file_path", "file_type"})
    if options.get("file_type", "text") != "pdf":
        raise Untranslatable(f"func compare_archive: file_type {options.get('file_type', 'text')!r}: only pdf"
                             " archives are translated")
    folder = options.get("file_path", "")
    if not isinstance(folder, str) or folder.startswith("/") or ".." in folder.split("/"):
        raise Untranslatable(f"func compare_archive: file_path {str(folder)[:60]!r} is not a folder inside the archive")
    # shutil.unpack_archive picks the format by the saved file's name (the getters' dest).
    for where, kind in (("result", "vm_file"), ("expected", "cloud_file")):
        _, name = listed_files(part, where, kind)[0]
        if not name.endswith(".zip"):
            raise Untranslatable(f"func compare_archive: {where} {name!r} is not a .zip (only zips are translated)")
    path, reference = result_and_gold(env, part)
    env.judge("archive.same_pdfs", path=path, reference=reference, folder=escape(folder))


def _compare_epub(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "epub.same")
    _options(part, set())
    path, reference = result_and_gold(env, part)
    env.judge("epub.same", path=path, reference=reference)


def _compare_zip_files(env: MetricEnv, part: Part) -> None:
    """The same member names, equal bytes, PDFs by PyPDF2's text at a ratio of 0.95; the metric takes
    options and reads none (ignored, as there)."""
    needs_judge(part["func"], "archive.same_members")
    path, reference = result_and_gold(env, part)
    env.judge("archive.same_members", path=path, reference=reference)


def _compare_pdf_images(env: MetricEnv, part: Part) -> None:
    """desktop-env 1.0.2's: the PDFs' embedded images, as many, each within 5 bits by perceptual hash."""
    needs_judge(part["func"], "pdf.same_images")
    path, reference = result_and_gold(env, part)
    env.judge("pdf.same_images", path=path, reference=reference)


def _task_text(text: str) -> str:
    """A text with the VM's home in it (``/home/user/...``) as the task's (``${HOME}/...``)."""
    return "${HOME}".join(escape(piece) for piece in re.split(r"/home/user(?![^/\s])", text))


def _is_in_vm_clickboard(env: MetricEnv, part: Part) -> None:
    # Called as metric(result, expected): the result getter is the rule, the expected one the command.
    _options(part, set())
    result, expected = part.get("result") or {}, part.get("expected") or {}
    if result.get("type") != "rule" or not isinstance(result.get("rules"), dict):
        raise Untranslatable(f"result type {result.get('type')}: is_in_vm_clickboard is translated for a fixed rule")
    if expected.get("type") != "vm_command_line":
        raise Untranslatable(f"expected type {expected.get('type')}: is_in_vm_clickboard is translated for"
                             " vm_command_line output")
    wanted = result["rules"].get("expected")
    texts = wanted if isinstance(wanted, list) else [wanted]
    if not texts or not all(isinstance(t, str) for t in texts):
        raise Untranslatable("func is_in_vm_clickboard: its rule's expected is not a text or a list of texts")
    # The command reads the task's display: the task gets one (it is visual, as every OSWorld task is).
    env.out.needs_world = env.out.needs_display = True
    cmd = env.shell_text(expected["command"])
    for text in texts:
        env.judge("shell.output", cmd=cmd, contains=_task_text(text), exit_code=NULL)
    if any("/home/user" in t for t in texts):
        env.out.notes.append("is_in_vm_clickboard: the VM's home (/home/user) in the expected text is the task's ${HOME}")


MULTI: dict[str, Callable[[MetricEnv, Part], None]] = {
    "fuzzy_place_math": _fuzzy_place_math,
    "check_mp3_meta": _check_mp3_meta,
    "compare_archive": _compare_archive,
    "compare_epub": _compare_epub,
    "compare_zip_files": _compare_zip_files,
    "compare_pdf_images": _compare_pdf_images,
    "is_in_vm_clickboard": _is_in_vm_clickboard,
}
