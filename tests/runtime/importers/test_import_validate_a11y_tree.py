"""An imported OSWorld task judged on the desktop's accessibility tree (thunderbird-12086550:
check_accessibility_tree, the "About Profiles" tab in Thunderbird's tab strip) validates in a world:
Thunderbird 153 really exports the tree a11y.selectors reads; the reference opens about:profiles as a
person does (Help > Troubleshooting Information, its about:profiles link), doing nothing fails, and
stopping at the Troubleshooting Information tab fails.

The task file is OSWorld's, its profile download answered with a stand-in profile (one Local Folders
account, as apps.thunderbird's: the 3-pane window opens, not the account hub)."""

from __future__ import annotations

import io
import json
import shutil
import tarfile
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml
from deskact.reset_scripts.apps.thunderbird import SETTLED, pref_line
from deskact.runtime.config import Config
from deskact.runtime.importers import ImportOptions
from deskact.runtime.importers.common import SUITE_FILE
from deskact.runtime.importers.osworld import import_osworld
from deskact.runtime.run.validate import validate

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


def _profile_tar() -> bytes:
    buf = io.BytesIO()
    prefs = "".join(pref_line(k, v) for k, v in SETTLED.items())
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
    suite = tmp_path / "suite"
    report = import_osworld(src.parent, ImportOptions(out=suite, fetch=True,
                                                      mirror=file_host.mirror(src.parent, tmp_path / "m.json")))
    assert not report.skipped, [s.reasons for s in report.skipped]
    path = suite / SUITE_FILE
    (task,) = yaml.safe_load(path.read_text())["tasks"]
    assert task["judge"] == [{"a11y.selectors": {"rules": TASK["evaluator"]["expected"]["rules"]}}]
    task.update(reference=REFERENCE, counterexamples=[
        {"note": "Troubleshooting Information open, not about:profiles", "code": TROUBLESHOOTING + "exit()\n"}])
    path.write_text(yaml.safe_dump({"tasks": [task]}, sort_keys=False))
    config = Config()
    config.runner.workers = 1
    problems, checked = validate(config, [str(suite)], workers=1, out=tmp_path / "runs")
    assert checked == 1
    assert not problems, "\n".join(f"{p.task_id} [{p.model}] {p.status}: {p.detail}" for p in problems)
