"""Imported OSWorld tasks judged on the desktop's accessibility tree validate in worlds: the apps
really export the tree a11y.selectors reads.

thunderbird-12086550 (check_accessibility_tree, the "About Profiles" tab in Thunderbird's tab strip):
the reference opens about:profiles as a person does (Help > Troubleshooting Information, its
about:profiles link); doing nothing, and stopping at the Troubleshooting Information tab, fail. The
task file is OSWorld's, its profile download answered with a stand-in profile (one Local Folders
account, as apps.thunderbird's: the 3-pane window opens, not the account hub).

libreoffice_impress-ef9d12bd (check_left_panel) and multi_apps-f5c13cdd (the compose window's address
pills): see their tests."""

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
import yaml
from deskact.reset_scripts.apps.thunderbird import SETTLED, pref_line
from deskact.runtime.importers import ImportOptions
from deskact.runtime.importers.common import SUITE_FILE
from deskact.runtime.importers.osworld import import_osworld

sys.path.insert(0, str(Path(__file__).parent))
from imported_suite import assert_validates, import_suite, write_tasks

PROFILE_URL = ("https://drive.usercontent.google.com/download?id=1EHLRWzBCOsyERkSMUnTF2pnsR0n6ZvtR&export=download"
               "&authuser=0&confirm=t")
TASK = {
    "id": "12086550-11c0-466b-b367-1d9e75b3910e", "snapshot": "thunderbird",
    "instruction": "Could you help me open up the Thunderbird profile manager utility?",
    "config": [
        {"type": "download", "parameters": {"files": [{"url": PROFILE_URL, "path": "/home/user/thunderbird-profile.tar.gz"}]}},
        {"type": "execute", "parameters": {"command": ["tar", "-xzv", "--recursive-unlink", "-f",
                                                       "/home/user/thunderbird-profile.tar.gz", "-C", "/home/user/"]}},
        {"type": "launch", "parameters": {"command": ["/usr/bin/thunderbird"]}}],
    "evaluator": {"result": {"type": "accessibility_tree"}, "func": "check_accessibility_tree", "expected": {
        "type": "rule", "rules": [{"selectors": [
            'application[name=Thunderbird] page-tab-list[attr|id="tabmail-tabs"]>page-tab[name="About Profiles"]']}]}},
}
TB_PROFILE = "t5q2a5hp.default-release"
# Thunderbird opens the unpacked profile only when profiles.ini names it for this installation.
PROFILES_INI = (f"[Profile0]\nName=default-release\nIsRelative=1\nPath={TB_PROFILE}\nDefault=1\n\n"
                "[General]\nStartWithLastProfile=1\nVersion=2\n\n"
                f"[InstallFDC34C9F024745EB]\nDefault={TB_PROFILE}\nLocked=1\n")
TROUBLESHOOTING = """import time
keyboard.hotkey("alt", "h")
time.sleep(1.5)
a11y.click("Troubleshooting Information", "menu item")
time.sleep(4)
"""
REFERENCE = TROUBLESHOOTING + """keyboard.hotkey("ctrl", "f")
time.sleep(1)
keyboard.type("about:profiles")
time.sleep(1)
keyboard.press("escape")
time.sleep(1)
a11y.click("about:profiles", "link")
time.sleep(4)
exit()
"""


CLOSE_SLIDE_PANE = ("import pyautogui; import time; pyautogui.click(960, 540); time.sleep(5); pyautogui.press('esc');"
                    " time.sleep(0.3); pyautogui.press('f10'); time.sleep(0.3); pyautogui.press('right', presses=2,"
                    " interval=0.1); time.sleep(0.3); pyautogui.press('down', presses=11, interval=0.1);"
                    " pyautogui.press('enter')")
"""OSWorld's set-up script, as in the task file: View's eleventh item (Slide Pane) through the keyboard."""
IMPRESS = {
    "id": "ef9d12bd-bcee-4ba0-a40e-918400f43ddf", "snapshot": "libreoffice_impress",
    "instruction": "I closed the slide panel on the left and idk how to get it back please help",
    "config": [
        {"type": "launch", "parameters": {"command": ["libreoffice", "--impress"]}},
        {"type": "execute", "parameters": {"command": ["python", "-c", CLOSE_SLIDE_PANE]}}],
    "evaluator": {"func": "check_left_panel", "result": {"type": "accessibility_tree"}},
}
VIEW_MENU = """import time
a11y.click("View", "menu")
time.sleep(1.5)
a11y.click("{}")
time.sleep(3)
exit()
"""


def _profile_tar(extra: dict[str, Any] | None = None) -> bytes:
    buf = io.BytesIO()
    prefs = "".join(pref_line(k, v) for k, v in {**SETTLED, **(extra or {})}.items())
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, text in ((".thunderbird/profiles.ini", PROFILES_INI),
                           (".thunderbird/installs.ini", f"[FDC34C9F024745EB]\nDefault={TB_PROFILE}\nLocked=1\n"),
                           (f".thunderbird/{TB_PROFILE}/prefs.js", prefs)):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


@pytest.mark.slow
@pytest.mark.display
@pytest.mark.bwrap
def test_the_about_profiles_task_validates(tmp_path: Path, file_host: Any) -> None:
    from deskact.runtime.world.world import world_status

    if not world_status()[0] or shutil.which("thunderbird") is None:
        pytest.skip("needs worlds and Thunderbird")
    src = tmp_path / "src" / "thunderbird"
    src.mkdir(parents=True)
    (src / f"{TASK['id']}.json").write_text(json.dumps(TASK))
    file_host.served[parse_qs(urlsplit(PROFILE_URL).query)["id"][0]] = _profile_tar()
    path, (task,) = import_suite(src.parent, tmp_path, file_host)
    assert task["judge"] == [{"a11y.selectors": {"rules": TASK["evaluator"]["expected"]["rules"]}}]
    task.update(reference=REFERENCE, counterexamples=[
        {"note": "Troubleshooting Information open, not about:profiles", "code": TROUBLESHOOTING + "exit()\n"}])
    write_tasks(path, [task])
    assert_validates(path.parent, tmp_path, 1)


@pytest.mark.slow
@pytest.mark.display
@pytest.mark.bwrap
def test_the_slide_pane_task_validates(tmp_path: Path) -> None:
    """libreoffice_impress-ef9d12bd (check_left_panel): the set-up's keys close the slide pane in this
    LibreOffice too (View's eleventh item), so doing nothing fails; View > Slide Pane brings back the
    "Slides View" document frame; View > Sidebar instead fails."""
    from deskact.runtime.world.world import world_status

    if not world_status()[0] or shutil.which("soffice") is None:
        pytest.skip("needs worlds and LibreOffice")
    src = tmp_path / "src" / "libreoffice_impress"
    src.mkdir(parents=True)
    (src / f"{IMPRESS['id']}.json").write_text(json.dumps(IMPRESS))
    suite = tmp_path / "suite"
    report = import_osworld(src.parent, ImportOptions(out=suite, fetch_gold=False))
    assert not report.skipped, [s.reasons for s in report.skipped]
    path = suite / SUITE_FILE
    (task,) = yaml.safe_load(path.read_text())["tasks"]
    assert task["judge"] == [{"a11y.selectors": {"rules": [{"xpath": "//document-frame[@name='Slides View']"}]}}]
    task.update(reference=VIEW_MENU.format("Slide Pane"),
                counterexamples=[{"note": "the sidebar toggled instead", "code": VIEW_MENU.format("Sidebar")}])
    write_tasks(path, [task])
    # Known, not mended: when the two xdist workers are busy, Impress's tree sometimes keeps no
    # document for 30 s and more after the set-up's keys closed the slide pane, though its window
    # shows the slide (seen in 3 of the last 5 full runs, never alone nor with 6 CPU hogs); the model's first
    # tree would lack the document then. The judging passes (reference, do-nothing, counterexample)
    # must hold all the same.
    assert_validates(path.parent, tmp_path, 1, tolerated=lambda p: (
        p.model == "observation" and "accessibility tree shows no document" in p.detail))



IDENTITY = {
    "mail.accountmanager.accounts": "account2,account1", "mail.accountmanager.defaultaccount": "account2",
    "mail.account.account2.server": "server2", "mail.account.account2.identities": "id1",
    "mail.server.server2.type": "pop3", "mail.server.server2.hostname": "localhost",
    "mail.server.server2.userName": "anonym-x2024", "mail.server.server2.name": "anonym-x2024@outlook.com",
    "mail.server.server2.login_at_startup": False, "mail.identity.id1.useremail": "anonym-x2024@outlook.com",
    "mail.identity.id1.fullName": "Anonym Tester", "mail.identity.id1.valid": True,
    "mail.smtpservers": "smtp1", "mail.smtpserver.smtp1.hostname": "localhost", "mail.identity.id1.smtpServer": "smtp1"}
"""A mail account with OSWorld's sender as its identity (Thunderbird composes only from one)."""
STUDENTS = ["fox@someuniversity.edu", "iron@someuniversity.edu", "nancy@someuniversity.edu", "stella@someuniversity.edu"]
TYPE_TO = """import time
windows.wait_for("Write: Reminder of Payment", timeout=60)
time.sleep(3)
keyboard.type("{}, ")
time.sleep(3)
exit()
"""


def _compose_task() -> dict[str, Any]:
    drive = "https://drive.google.com/uc?id={}&export=download"
    pill = 'tool-bar[attr|id=MsgHeadersToolbar] label[name=To]~[attr|class="address-pill"]>label[attr|class="pill-label"]'
    pills = [{"selectors": [f'{pill}[name*="{a}"]']} for a in STUDENTS]
    return {
        "id": "f5c13cdd-205c-4719-a562-348ae5cd1d91", "snapshot": "thunderbird",
        "instruction": "I've drafted an e-mail reminder for those who haven't paid tuition. Please help me to check out"
                       " their e-mails from the payment record and add to the receiver field.",
        "config": [
            {"type": "execute", "parameters": {"command": ["mkdir", "-p", "/home/user/Documents/Departments/finance"]}},
            {"type": "download", "parameters": {"files": [
                {"url": PROFILE_URL, "path": "/home/user/thunderbird-profile.tar.gz"},
                {"url": drive.format("1k0_69RKAx18bEX00EJXtWmSwdfNVP9NA"), "path": "/home/user/.payment-reminder-mail-body.html"},
                {"url": drive.format("1nNc0NoOuP3Of0eGsKY-1kctg63vIjXl5"),
                 "path": "/home/user/Documents/Departments/finance/tuition_payment.xlsx"}]}},
            TASK["config"][1],
            {"type": "launch", "parameters": {"shell": True, "command": (
                "/usr/bin/thunderbird -compose \"from='Anonym Tester <anonym-x2024@outlook.com>',subject='Reminder of"
                " Payment',body='$(cat /home/user/.payment-reminder-mail-body.html)'\"")}}],
        "evaluator": {"postconfig": [{"type": "sleep", "parameters": {"seconds": 10}}],
                      "func": "check_accessibility_tree", "result": {"type": "accessibility_tree"},
                      "expected": {"type": "rule", "rules": pills}},
    }


@pytest.mark.slow
@pytest.mark.display
@pytest.mark.bwrap
def test_the_address_pills_task_validates(tmp_path: Path, file_host: Any) -> None:
    """multi_apps-f5c13cdd (check_accessibility_tree on the compose window's To pills), without its
    launch of nautilus (not installed here) and with a stand-in profile whose account has OSWorld's
    sender: Thunderbird 153's compose window has the MsgHeadersToolbar, To label and address pills
    the selectors expect; typing the four addresses passes, three of them fails."""
    from deskact.runtime.world.world import world_status

    if not world_status()[0] or shutil.which("thunderbird") is None:
        pytest.skip("needs worlds and Thunderbird")
    task = _compose_task()
    src = tmp_path / "src" / "multi_apps"
    src.mkdir(parents=True)
    (src / f"{task['id']}.json").write_text(json.dumps(task))
    ids = [parse_qs(urlsplit(f["url"]).query)["id"][0] for f in task["config"][1]["parameters"]["files"]]
    file_host.served[ids[0]] = _profile_tar(IDENTITY)
    file_host.served[ids[1]] = b"<p>Dear student, your tuition is due.</p>"
    file_host.served[ids[2]] = file_host.workbook({"Sheet1": [["Name", "Email", "Paid"],
                                                              *[[a.split("@")[0], a, "no"] for a in STUDENTS]]})
    path, (converted,) = import_suite(src.parent, tmp_path, file_host)
    converted.update(reference=TYPE_TO.format(", ".join(STUDENTS)), counterexamples=[
        {"note": "one student left out", "code": TYPE_TO.format(", ".join(STUDENTS[:3]))}])
    write_tasks(path, [converted])
    assert_validates(path.parent, tmp_path, 1)
