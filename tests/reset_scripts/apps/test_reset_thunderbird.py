"""apps.thunderbird's profile: the settled template (made by Thunderbird itself), the Local Folders
seeded as mbox files, the folder it opens on. Starting Thunderbird in a world is exercised by the
thunderbird suite's validation (deskact validate task_suites/thunderbird)."""

from __future__ import annotations

import json
import shutil

import pytest
from deskact.reset_scripts.apps.thunderbird import (
    PROFILE,
    SETTLED,
    MailMessage,
    folder_file,
    mbox,
    pref_line,
    profile_template,
    seed_profile,
)
from deskact.runtime.tasks.steps import StepContext, StepFailed, run_reset

needs_thunderbird = pytest.mark.skipif(shutil.which("thunderbird") is None,
                                       reason="Thunderbird is not installed (scripts/setup.sh)")


def test_pref_lines_and_folder_files() -> None:
    assert pref_line("mail.rights.version", 1) == 'user_pref("mail.rights.version", 1);\n'
    assert pref_line("a", True) == 'user_pref("a", true);\n'
    assert pref_line("s", 'say "hi"') == 'user_pref("s", "say \\"hi\\"");\n'
    assert folder_file("Inbox") == "Inbox" and folder_file("Work/Projects/2026") == "Work.sbd/Projects.sbd/2026"
    for bad in ("", "../x", "a/..", "Inbox.msf", "x.sbd/y"):
        with pytest.raises(StepFailed, match="not a folder name"):
            folder_file(bad)


def test_mbox_headers_and_bad_dates() -> None:
    data = mbox([MailMessage.model_validate({"from": "A <a@x.org>", "subject": "S", "read": True, "flagged": True,
                                             "date": "Tue, 03 Nov 2026 11:40:00 +0000"})], "Inbox").decode()
    assert data.startswith("From - Tue Nov 03 11:40:00 2026\nX-Mozilla-Status: 0005\nX-Mozilla-Status2: 00000000\n")
    assert "\nFrom: A <a@x.org>\nTo: me@example.com\nSubject: S\n" in data and data.endswith("\n\n")
    assert mbox([], "Inbox") == b""
    with pytest.raises(StepFailed, match="not an RFC 2822 date"):
        mbox([MailMessage.model_validate({"from": "a@x.org", "subject": "S", "date": "yesterday"})], "Inbox")


def test_needs_a_display_and_a_seeded_selected_folder(ctx: StepContext) -> None:
    with pytest.raises(StepFailed, match="apps.thunderbird needs a display"):
        run_reset("apps.thunderbird", {}, ctx)
    ctx.display = ":4321"  # refused before anything is started on it
    with pytest.raises(StepFailed, match="selected folder 'Archive' is not one of the seeded"):
        run_reset("apps.thunderbird", {"selected": "Archive"}, ctx)
    with pytest.raises(Exception, match="unknown param"):
        run_reset("apps.thunderbird", {"folders": {"Inbox": [{"from": "a@x.org", "subject": "S", "cc": "b"}]}}, ctx)


@needs_thunderbird
@pytest.mark.slow
def test_template_is_settled_and_seeding_writes_the_mailbox(ctx: StepContext) -> None:
    template = profile_template()
    prefs = (template / "prefs.js").read_text()
    missing = [k for k in SETTLED if f'user_pref("{k}",' not in prefs]
    assert not missing, f"settled prefs missing from the template: {missing}"
    assert "extensions.lastAppVersion" in prefs, "Thunderbird did not start on the template"
    assert not (template / "lock").exists() and not (template / "session.json").exists()
    assert sorted(p.name for p in (template / "Mail" / "Local Folders").iterdir() if not p.name.endswith(".msf")) == [
        "Trash", "Unsent Messages"]
    folders = {"Inbox": [MailMessage.model_validate({"from": "a@x.org", "subject": "Hello"})], "Work/Projects": []}
    seed_profile(ctx, folders, {"mail.uidensity": 0}, "Work/Projects")
    profile = ctx.home / PROFILE
    assert b"Subject: Hello" in (profile / "Mail" / "Local Folders" / "Inbox").read_bytes()
    assert (profile / "Mail" / "Local Folders" / "Work.sbd" / "Projects").read_bytes() == b""
    assert (profile / "prefs.js").read_text().endswith('user_pref("mail.uidensity", 0);\n')
    state = json.loads((profile / "session.json").read_text())["windows"][0]["tabs"]["tabs"][0]["state"]
    assert state["folderURI"] == "mailbox://nobody@Local%20Folders/Work/Projects"
    assert "mailbox://nobody@Local%20Folders/Work" in json.loads((profile / "folderTree.json").read_text())["open"]["all"]
    assert "Path=deskact.default-release" in (ctx.home / ".thunderbird" / "profiles.ini").read_text()
    with pytest.raises(StepFailed, match="exists already"):
        seed_profile(ctx, folders, {}, "Inbox")
