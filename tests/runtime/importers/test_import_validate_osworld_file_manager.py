"""Official OSWorld multi_apps tasks that open a folder in GNOME's Nautilus at set-up convert with
apps.files (the folder open in Thunar) and pass `deskact validate` in worlds: the file manager's
window is drawn in the model's first observation, the reference passes, a do-nothing agent, the
explorer and the counterexamples fail. multi_apps-788b3701 (diff_text_file: the next chapter of a
novel saved beside the old ones) gets stand-in chapters and a stand-in gold chapter;
multi_apps-b5062e3e (compare_table's sheet_fuzzy on the first authors of four papers) a stand-in gold
table. The task files are unmodified copies (fixtures/osworld_file_manager, README)."""

from __future__ import annotations

import io
import json
import shutil
import sys
import tarfile
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from imported_suite import assert_validates, import_suite, with_references, write_tasks

pytestmark = [pytest.mark.slow, pytest.mark.display, pytest.mark.bwrap]

EXAMPLES = Path(__file__).parent / "fixtures" / "osworld_file_manager" / "examples"
NOVEL = "multi_apps/788b3701-3ec9-4b67-b679-418bfa726c22.json"
AUTHORS = "multi_apps/b5062e3e-641c-4e3a-907b-ac864d2e7652.json"
OLD_CHAPTERS = {"Prologue.tex": "\\chapter{Prologue}\nThe train reached Beijing at dawn.\n",
                "Dormitory Nights.tex": "\\chapter{Dormitory Nights}\nFour of us shared one desk lamp.\n"}
NEXT_CHAPTER = ("\\chapter{Early Buildings}\nThe old library smelled of dust and rain.\n"
                "We walked past the Tsinghua Auditorium every morning.\n")
ROWS = [["Name", "Email", "Affiliation"],
        ["Boyuan Zheng", "zheng.2372@osu.edu", "The Ohio State University"],
        ["Chi Zhang", "chizhang@tencent.com", "Tencent"],
        ["Jing Yu Koh", "jykoh@cs.cmu.edu", "Carnegie Mellon University"],
        ["Runliang Niu", "niurl19@mails.jlu.edu.cn", "Jilin University"]]
SAVE_CHAPTER = ("import os\nfolder = os.path.expanduser('~/Documents/Novels/4th Year in Tsinghua')\n"
                "open(os.path.join(folder, {name!r}), 'w').write({text!r})\nexit()\n")
SAVE_TABLE = ("import os, openpyxl\nwb = openpyxl.Workbook()\nwb.active.title = 'Sheet1'\nfor row in {rows!r}:\n"
              "    wb.active.append(row)\n"
              "wb.save(os.path.expanduser('~/authors.xlsx'))\nexit()\n")
REFERENCES = {
    "osworld-multi-apps-788b3701": SAVE_CHAPTER.format(name="Early Buildings.tex", text=NEXT_CHAPTER),
    "osworld-multi-apps-b5062e3e": SAVE_TABLE.format(rows=ROWS),
}
COUNTEREXAMPLES = {
    "osworld-multi-apps-788b3701": [
        {"note": "the chapter saved under another name", "code": SAVE_CHAPTER.format(name="Chapter 3.tex",
                                                                                      text=NEXT_CHAPTER)},
        {"note": "an old chapter saved as the next one",
         "code": SAVE_CHAPTER.format(name="Early Buildings.tex", text=OLD_CHAPTERS["Dormitory Nights.tex"])}],
    "osworld-multi-apps-b5062e3e": [
        {"note": "the authors not sorted", "code": SAVE_TABLE.format(rows=[ROWS[0], ROWS[2], ROWS[1], *ROWS[3:]])},
        {"note": "one e-mail wrong", "code": SAVE_TABLE.format(rows=[*ROWS[:2], [*ROWS[2][:1], "chi@tencent.com",
                                                                                 ROWS[2][2]], *ROWS[3:]])}],
}


def _id(url: str) -> str:
    return parse_qs(urlsplit(url).query)["id"][0]


def _tar_xz(files: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:xz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _serve(file_host: Any) -> None:
    novel = json.loads((EXAMPLES / NOVEL).read_text())
    urls = {f["path"]: f["url"] for item in novel["config"] if item["type"] == "download"
            for f in item["parameters"]["files"]}
    file_host.served[_id(urls["/home/user/.old-chapters.tar.xz"])] = _tar_xz(OLD_CHAPTERS)
    file_host.served[_id(urls["/home/user/.projects.tar.xz"])] = _tar_xz({"README.md": "OSWorld notes\n"})
    file_host.served[_id(novel["evaluator"]["expected"]["path"])] = NEXT_CHAPTER.encode()
    authors = json.loads((EXAMPLES / AUTHORS).read_text())
    file_host.served[_id(authors["evaluator"]["expected"]["path"])] = file_host.workbook({"Sheet1": ROWS})


def test_tasks_that_open_a_folder_in_nautilus_validate_with_thunar(tmp_path: Path, file_host: Any) -> None:
    from deskact.runtime.world.world import world_status

    if not world_status()[0]:
        pytest.skip("these OSWorld tasks start with world.require")
    missing = [app for app in ("thunar", "soffice") if shutil.which(app) is None]
    if missing:
        pytest.skip(f"not installed: {missing}")
    src = tmp_path / "src"
    shutil.copytree(EXAMPLES, src)
    _serve(file_host)
    path, tasks = import_suite(src, tmp_path, file_host)
    assert {t["id"] for t in tasks} == set(REFERENCES)
    for t in tasks:
        assert any("apps.files" in s for s in t["reset"]), t["reset"]
    write_tasks(path, with_references(tasks, REFERENCES, COUNTEREXAMPLES))
    assert_validates(path.parent, tmp_path, len(REFERENCES))
