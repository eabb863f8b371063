"""Official OSWorld tasks converted by the translations of files.names (check_moved_jpgs),
sqlite.value (run_sqlite3), the GNOME terminal closed before judging and apps.open of a PDF
(Chromium's viewer), compare_pdfs over lists, and browser.bookmark_folder (liked_authors_websites_urls), given hand-written references, counterexamples and
stand-in input files built here, pass `deskact validate`: the reference passes, a do-nothing agent,
the explorer and the counterexamples fail. The real input and gold files are not public offline;
the stand-ins are made here from the instructions. The task files are unmodified copies
(fixtures/osworld_open_terminal, README)."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from imported_suite import validate_imported

pytestmark = pytest.mark.slow

EXAMPLES = Path(__file__).parent / "fixtures" / "osworld_open_terminal" / "examples"
JPGS = "os/23393935-50c7-4a86-aeea-2b78fd089c5c.json"
KILL = "multi_apps/2b9493d7-49b8-493a-a71b-56cd1f4d6908.json"
BOOK = "multi_apps/5df7b33a-9f77-4101-823e-02f863e1c1ae.json"
STARS = "thunderbird/3d1682a7-0fb0-49ae-a4dc-a73afd2d06d5.json"
AUTHORS = "multi_apps/a82b78bb-7fde-4cb3-94a4-035baf10bcf0.json"
FORMS = "multi_apps/185f29bd-5da0-40a6-b69c-ba7f4e0324ef.json"
CONVERT = "multi_apps/ee9a3c83-f437-4879-8918-be5efbb9fac7.json"
TO_CSV = "soffice --headless --convert-to csv file_example_ODS_5000.ods"
# The conversion runs in the terminal: the reference ends once its CSV is there (closing the terminal
# before judging would stop it).
WAIT_FOR_CSV = ("import os\nfor _ in range(240):\n"
                "    if os.path.exists(os.path.expanduser('~/Desktop/file_example_ODS_5000.csv')):\n        break\n"
                "    time.sleep(0.5)\ntime.sleep(2)\n")
EMPLOYEES = {"Alex Lee": "Excellent", "David Wilson": "Good", "Emily Johnson": "Excellent", "John Doe": "Fair",
             "Linda Green": "Good", "Michael Brown": "Excellent", "Sophia Carter": "Good"}


def _review(name: str, rating: str) -> str:
    return f"Employee Review\nName: {name}\nOverall rating: {rating}\n"


# Each filled review exported by LibreOffice (the golds are made the same way): what matters to the
# judge is each PDF's text under the employee's name.
FILL_FORMS = ("import os, subprocess, tempfile\nd = tempfile.mkdtemp()\nreviews = {reviews}\n"
              "for name, text in reviews.items():\n"
              "    open(f'{{d}}/{{name}}.txt', 'w').write(text)\n"
              "subprocess.run(['soffice', '-env:UserInstallation=file:///tmp/deskact-reference-lo', '--headless',"
              " '--convert-to', 'pdf', '--outdir', os.path.expanduser('~/Desktop'),"
              " *[f'{{d}}/{{n}}.txt' for n in reviews]], check=True, capture_output=True)\nexit()\n")

COPY_JPGS = ("import os, shutil\nhome = os.path.expanduser('~/Desktop')\n"
             "for folder, _, names in os.walk(f'{home}/photos'):\n"
             "    for name in names:\n"
             "        if name.endswith('.jpg'):\n"
             "            shutil.copy(f'{folder}/{name}', f'{home}/cpjpg/{name}')\n")
TYPE_IN_TERMINAL = "import time\nkeyboard.type({text!r})\nkeyboard.press('enter')\ntime.sleep(3)\nexit()\n"
CHAPTER_2 = ('!cd ~/Desktop/book && printf "Chapter 2\\nSpectra of graphs.\\n" > ch2.txt'
             ' && soffice -env:UserInstallation=file:///tmp/deskact-reference-lo --headless --convert-to pdf ch2.txt'
             ' >/dev/null && mv ch2.pdf "Chapter 2 Spectra.pdf" && rm ch2.txt\nexit()\n')
TB_PROFILE = "t5q2a5hp.default-release"
STAR_MAILS = (  # Thunderbird quit, then its message database given a starred mail of folder 13 (Bills)
    "import os, sqlite3, subprocess, time\n"
    "subprocess.run(['pkill', '-f', 'thunderbird'])\ntime.sleep(3)\n"
    f"db = sqlite3.connect(os.path.expanduser('~/.thunderbird/{TB_PROFILE}/global-messages-db.sqlite'))\n"
    "def insert(table, values):\n"
    "    info = db.execute(f'pragma table_info({table})').fetchall()\n"
    "    row = {c[1]: 0 for c in info if c[3] and c[4] is None and not c[5]}\n"
    "    row.update(values)\n"
    "    db.execute(f'insert into {table} ({\",\".join(row)}) values ({\",\".join(\"?\" * len(row))})', list(row.values()))\n"
    "db.execute('create table if not exists messages (id integer primary key, folderID integer)')\n"
    "db.execute('create table if not exists messageAttributes (attributeID integer, value numeric, messageID integer)')\n"
    "insert('messages', {'id': 424242, 'folderID': {folder}})\n"
    "insert('messageAttributes', {'attributeID': 58, 'value': 1, 'messageID': 424242})\n"
    "db.commit()\ndb.close()\nexit()\n")
PAGES = ["https://jimfan.me/", "https://ai.stanford.edu/~dahuang/", "https://yukezhu.me/",
         "https://www.eas.caltech.edu/people/anima"]
# The task's browser (not the PDF viewer) gets the folder, through Chromium's own bookmarks page.
BOOKMARK = ('browser.open("chrome://bookmarks")\n'
            'browser.evaluate("new Promise(r => chrome.bookmarks.create({{parentId: \'1\', title: \'{folder}\'}}, f =>'
            ' Promise.all({urls}.map(u => new Promise(q => chrome.bookmarks.create({{parentId: f.id, url: u}}, q))))'
            '.then(r)))")\nexit()\n')
REFERENCES = {
    "osworld-os-23393935": COPY_JPGS + "exit()\n",
    "osworld-multi-apps-2b9493d7": TYPE_IN_TERMINAL.format(text="pkill soffice"),
    "osworld-multi-apps-5df7b33a": CHAPTER_2,
    "osworld-thunderbird-3d1682a7": STAR_MAILS.replace("{folder}", "13"),
    "osworld-multi-apps-a82b78bb": BOOKMARK.format(folder="Liked Authors", urls=str(PAGES)),
    "osworld-multi-apps-185f29bd": FILL_FORMS.format(reviews={n: _review(n, r) for n, r in EMPLOYEES.items()}),
    # Typed in the terminal (its shell is in ~/Desktop): the history records it when the terminal closes.
    "osworld-multi-apps-ee9a3c83": TYPE_IN_TERMINAL.format(text=TO_CSV).replace("time.sleep(3)\n", WAIT_FOR_CSV),
}
COUNTEREXAMPLES = {
    "osworld-os-23393935": [
        {"note": "the png copied too", "code": COPY_JPGS.replace("name.endswith('.jpg')", "'.' in name") + "exit()\n"},
        {"note": "the folders' tree copied", "code": "import os, shutil\nd = os.path.expanduser('~/Desktop')\n"
         "shutil.rmtree(f'{d}/cpjpg')\nshutil.copytree(f'{d}/photos', f'{d}/cpjpg')\nexit()\n"}],
    "osworld-multi-apps-2b9493d7": [
        {"note": "killed, but not from the terminal", "code": "!pkill soffice\nimport time\ntime.sleep(2)\nexit()\n"},
        # Ubuntu's bash (HISTCONTROL=ignoreboth) leaves a line typed with a leading space out of its history.
        {"note": "killed from the terminal by a line that stays out of the history",
         "code": TYPE_IN_TERMINAL.format(text=" pkill soffice")}],
    "osworld-multi-apps-5df7b33a": [
        {"note": "the chapter saved under another name", "code": CHAPTER_2.replace("Chapter 2 Spectra.pdf", "ch2.pdf")}],
    "osworld-thunderbird-3d1682a7": [
        {"note": "a mail of another folder starred", "code": STAR_MAILS.replace("{folder}", "7")}],
    "osworld-multi-apps-a82b78bb": [
        {"note": "the last author left out", "code": BOOKMARK.format(folder="Liked Authors", urls=str(PAGES[:3]))},
        {"note": "the folder named otherwise", "code": BOOKMARK.format(folder="Liked authors", urls=str(PAGES))}],
    "osworld-multi-apps-ee9a3c83": [
        {"note": "converted, but not from the terminal",
         "code": f"!cd ~/Desktop && {TO_CSV} >/dev/null 2>&1\nexit()\n"}],
    "osworld-multi-apps-185f29bd": [
        {"note": "one rating wrong", "code": FILL_FORMS.format(
            reviews={n: _review(n, "Poor" if n == "John Doe" else r) for n, r in EMPLOYEES.items()})},
        {"note": "one review left out", "code": FILL_FORMS.format(
            reviews={n: _review(n, r) for n, r in EMPLOYEES.items() if n != "Sophia Carter"})}],
}


def _id(url: str) -> str:
    return parse_qs(urlsplit(url).query)["id"][0]


def _downloads(task: dict[str, Any]) -> dict[str, str]:
    """VM path -> Drive id of every file the task's set-up and postconfig download."""
    items = [*task["config"], *task["evaluator"].get("postconfig", [])]
    return {f["path"]: _id(f["url"]) for c in items if c["type"] == "download" for f in c["parameters"]["files"]}


def _pdf(text: str, tmp: Path, name: str) -> bytes:
    """LibreOffice's PDF of a text file (the world's LibreOffice makes the reference's the same way)."""
    tmp.mkdir(exist_ok=True)
    (tmp / f"{name}.txt").write_text(text)
    subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp}/profile", "--headless", "--convert-to", "pdf",
                    "--outdir", str(tmp), str(tmp / f"{name}.txt")], check=True, capture_output=True, timeout=180)
    return (tmp / f"{name}.pdf").read_bytes()


def _sheet(tmp: Path) -> bytes:
    """An .ods of a few rows, made by LibreOffice from a CSV."""
    tmp.mkdir(exist_ok=True)
    (tmp / "file_example_ODS_5000.csv").write_text("First Name,Last Name,Age\nDulce,Abril,32\nMara,Hashimoto,25\n")
    subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp}/profile", "--headless", "--convert-to", "ods",
                    "--outdir", str(tmp / "out"), str(tmp / "file_example_ODS_5000.csv")],
                   check=True, capture_output=True, timeout=180)
    return (tmp / "out" / "file_example_ODS_5000.ods").read_bytes()


def _csv_of(ods: bytes, tmp: Path) -> bytes:
    """LibreOffice's CSV of the .ods (the gold: what the command the task asks for writes)."""
    (tmp / "gold").mkdir(exist_ok=True)
    (tmp / "gold" / "file_example_ODS_5000.ods").write_bytes(ods)
    subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp}/profile", "--headless", "--convert-to", "csv",
                    "--outdir", str(tmp / "gold"), str(tmp / "gold" / "file_example_ODS_5000.ods")],
                   check=True, capture_output=True, timeout=180)
    return (tmp / "gold" / "file_example_ODS_5000.csv").read_bytes()


def _zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
    return buf.getvalue()


def _docx() -> bytes:
    import docx

    document = docx.Document()
    document.add_paragraph("A large document Writer is stuck on.")
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


def _profile_tar() -> bytes:
    """A stand-in Thunderbird profile (OSWorld's is not public): profiles.ini naming it for this
    installation (Thunderbird 153 opens it only then) and its prefs."""
    ini = (f"[Profile0]\nName=default-release\nIsRelative=1\nPath={TB_PROFILE}\nDefault=1\n\n"
           f"[General]\nStartWithLastProfile=1\nVersion=2\n\n[InstallFDC34C9F024745EB]\nDefault={TB_PROFILE}\nLocked=1\n")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, text in ((".thunderbird/profiles.ini", ini),
                           (".thunderbird/installs.ini", f"[FDC34C9F024745EB]\nDefault={TB_PROFILE}\nLocked=1\n"),
                           (f".thunderbird/{TB_PROFILE}/prefs.js", 'user_pref("mail.shell.checkDefaultClient", false);\n')):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _serve(file_host: Any, tmp: Path) -> None:
    """Stand-ins: a real docx, a book of PDFs with its gold split, a paper's PDF, a workbook of ratings
    with a review template and the filled reviews' golds, a sheet and its CSV, a Thunderbird profile.
    The photos are any bytes (only their names are judged)."""
    served = file_host.served
    kill = _downloads(json.loads((EXAMPLES / KILL).read_text()))
    served[kill["/home/user/Desktop/15-MB-docx-file-download.docx"]] = _docx()
    book = json.loads((EXAMPLES / BOOK).read_text())
    whole = _pdf("Spectral Graph Theory\nChapter 1\nEigenvalues.\nChapter 2\nSpectra of graphs.\n", tmp, "whole")
    chapter_1 = _pdf("Chapter 1\nEigenvalues.\n", tmp, "ch1")
    served[_downloads(book)["/home/user/Desktop/book.zip"]] = _zip(
        {"book/Spectral Graph Theory.pdf": whole, "book/Chapter 1 Eigenvalues.pdf": chapter_1})
    served[_id(book["evaluator"]["expected"]["path"])] = _zip(
        {"Spectral Graph Theory.pdf": whole, "Chapter 1 Eigenvalues.pdf": chapter_1,
         "Chapter 2 Spectra.pdf": _pdf("Chapter 2\nSpectra of graphs.\n", tmp, "ch2")})
    paper = _downloads(json.loads((EXAMPLES / AUTHORS).read_text()))
    served[paper["/home/user/Desktop/2206.08853.pdf"]] = _pdf(
        "MineDojo: Building Open-Ended Embodied Agents\nLinxi Fan, De-An Huang, Yuke Zhu, Anima Anandkumar\n", tmp, "paper")
    forms = json.loads((EXAMPLES / FORMS).read_text())
    inputs = _downloads(forms)
    served[inputs["/home/user/Desktop/Employee Performance Evaluation Summary.xlsx"]] = file_host.workbook(
        {"Sheet1": [["Employee", "Overall rating"], *EMPLOYEES.items()]})
    served[inputs["/home/user/Desktop/review_template.pdf"]] = _pdf(_review("", ""), tmp, "template")
    for url, dest in zip(forms["evaluator"]["result"]["path"], forms["evaluator"]["result"]["dest"]):
        name = dest.removesuffix("_Gold.pdf")
        served[_id(url)] = _pdf(_review(name, EMPLOYEES[name]), tmp / "golds", name)
    convert = json.loads((EXAMPLES / CONVERT).read_text())
    ods = _sheet(tmp / "sheet")
    served[_downloads(convert)["/home/user/Desktop/file_example_ODS_5000.ods"]] = ods
    served[_id(convert["evaluator"]["expected"][1]["path"])] = _csv_of(ods, tmp / "sheet")
    stars = _downloads(json.loads((EXAMPLES / STARS).read_text()))
    served[stars["/home/user/thunderbird-profile.tar.gz"]] = _profile_tar()


@pytest.mark.timeout(1800)  # LibreOffice, Chromium and Thunderbird start for each task and model
def test_open_and_terminal_translations_validate_with_references(tmp_path: Path, file_host: Any) -> None:
    from deskact.runtime.world.world import world_status

    if not world_status()[0]:
        pytest.skip("these OSWorld tasks start with world.require")
    missing = [app for app in ("soffice", "chromium", "thunderbird", "xterm") if shutil.which(app) is None]
    if missing:
        pytest.skip(f"not installed: {missing}")
    src = tmp_path / "src"
    shutil.copytree(EXAMPLES, src)
    (src / "multi_apps" / "9f3bb592-209d-43bc-bb47-d77d9df56504.json").unlink()  # reported: pip install offline
    _serve(file_host, tmp_path)
    validate_imported(src, tmp_path, file_host, REFERENCES, COUNTEREXAMPLES)
