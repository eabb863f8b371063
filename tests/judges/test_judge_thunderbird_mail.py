"""thunderbird.message and thunderbird.folder on mbox files as apps.thunderbird seeds them and as
Thunderbird rewrites them (status bits in place, moved messages left expunged)."""

from __future__ import annotations

from pathlib import Path

import pytest
from deskact.judges.thunderbird_mail import folder_file, read_mbox
from deskact.reset_scripts.apps.thunderbird import MailMessage, mbox
from deskact.runtime.tasks.steps import StepContext, run_judge

STORE = ".thunderbird/deskact.default-release/Mail/Local Folders"


def _store(ctx: StepContext) -> Path:
    store = ctx.home / STORE
    store.mkdir(parents=True, exist_ok=True)
    return store


def _seed(ctx: StepContext, name: str, messages: list[dict[str, object]]) -> Path:
    target = _store(ctx) / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(mbox([MailMessage.model_validate(m) for m in messages], name))
    return target


def test_mbox_round_trip_keeps_from_lines_in_bodies() -> None:
    data = mbox([MailMessage.model_validate({"from": "A <a@x.org>", "subject": "Hi", "body": "From here on\nok",
                                             "read": True}),
                 MailMessage.model_validate({"from": "B <b@x.org>", "subject": "=?utf-8?q?Caf=C3=A9?= two",
                                             "flagged": True})], "Inbox")
    assert b"\n>From here on\n" in data and data.count(b"\nX-Mozilla-Keys: " + b" " * 80 + b"\n") == 2
    msgs = read_mbox(data)
    assert [(m.subject, m.sender, m.status) for m in msgs] == [("Hi", "A <a@x.org>", 1), ("Café two", "B <b@x.org>", 4)]


def test_message_in_folder_with_state(ctx: StepContext) -> None:
    _seed(ctx, "Inbox", [{"from": "Alice <alice@example.com>", "subject": "Report", "read": True},
                         {"from": "Bob <bob@example.com>", "subject": "Lunch", "flagged": True}])
    assert run_judge("thunderbird.message", {"folder": "Inbox", "subject": "Report", "from": "ALICE"}, ctx).passed
    assert run_judge("thunderbird.message", {"folder": "Inbox", "subject": "Lunch", "flagged": True, "read": False}, ctx).passed
    v = run_judge("thunderbird.message", {"folder": "Inbox", "subject": "Report", "flagged": True}, ctx)
    assert not v.passed and "should be flagged" in v.feedback
    v = run_judge("thunderbird.message", {"folder": "Inbox", "subject": "Report", "from": "bob"}, ctx)
    assert not v.passed and "has no message" in v.feedback and "'Lunch'" in v.feedback
    assert run_judge("thunderbird.message", {"folder": "Inbox", "subject": "Nope", "present": False}, ctx).passed
    assert not run_judge("thunderbird.message", {"folder": "Inbox", "subject": "Lunch", "present": False}, ctx).passed
    v = run_judge("thunderbird.message", {"folder": "Archive", "subject": "Lunch"}, ctx)
    assert not v.passed and "no folder 'Archive'" in v.feedback
    assert run_judge("thunderbird.message", {"folder": "Archive", "subject": "Lunch", "present": False}, ctx).passed


def test_expunged_message_is_gone_and_subfolders(ctx: StepContext) -> None:
    inbox = _seed(ctx, "Inbox", [{"from": "a@x.org", "subject": "Moved"}])
    inbox.write_bytes(inbox.read_bytes().replace(b"X-Mozilla-Status: 0000", b"X-Mozilla-Status: 0009"))
    _seed(ctx, "Work.sbd/Projects", [{"from": "a@x.org", "subject": "Moved"}])
    assert run_judge("thunderbird.message", {"folder": "Inbox", "subject": "Moved", "present": False}, ctx).passed
    assert run_judge("thunderbird.message", {"folder": "Work/Projects", "subject": "Moved"}, ctx).passed
    assert run_judge("thunderbird.folder", {"folder": "Work/Projects", "count": 1}, ctx).passed
    assert run_judge("thunderbird.folder", {"folder": "Inbox", "count": 0}, ctx).passed
    v = run_judge("thunderbird.folder", {"folder": "Inbox", "count": 1}, ctx)
    assert not v.passed and "0 message(s), 1 wanted" in v.feedback
    assert not run_judge("thunderbird.folder", {"folder": "Work"}, ctx).passed  # a .sbd alone is no mbox
    (_store(ctx) / "Inbox.sbd").mkdir()
    (_store(ctx) / "Inbox.sbd" / "Clients").write_bytes(b"")  # a new folder: an empty mbox
    assert run_judge("thunderbird.folder", {"folder": "Inbox/Clients", "count": 0}, ctx).passed
    assert run_judge("thunderbird.message", {"folder": "Inbox/Clients", "subject": "Moved", "present": False}, ctx).passed
    assert run_judge("thunderbird.folder", {"folder": "Spam", "exists": False}, ctx).passed
    assert not run_judge("thunderbird.folder", {"folder": "Inbox", "exists": False}, ctx).passed


def test_needs_subject_or_from(ctx: StepContext) -> None:
    _seed(ctx, "Inbox", [])
    v = run_judge("thunderbird.message", {"folder": "Inbox"}, ctx)
    assert not v.passed and v.error
    with pytest.raises(ValueError, match="not a folder name"):
        folder_file("../x")
