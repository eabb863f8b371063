"""google.reset and google.snapshot against the worker service (emulator backend), and the seeding steps' need for a reset first."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

import pytest
from deskact.runtime.tasks.steps import StepContext, StepFailed, run_reset


def c(g: StepContext) -> Any:
    return g.services["google"]["clients"]


def _events(g: StepContext, cal: str = "primary") -> list[dict]:
    return c(g).calendar.events().list(calendarId=cal, maxResults=2500).execute().get("items", [])


def test_reset_empties_the_account_and_records_the_anchor(g: StepContext) -> None:
    run_reset("google.calendar_events", {"events": [{"summary": "X", "start": "2025-01-01 10:00"}]}, g)
    run_reset("google.drive_files", {"files": [{"name": "a.txt", "content": "a"}]}, g)
    before = datetime.now().astimezone()
    run_reset("google.reset", {}, g)
    assert _events(g) == []
    assert c(g).drive.files().list().execute()["files"] == []
    state = g.services["google"]["state"]
    assert state["task_id"] == g.task_id and state["anchor"] >= before


def test_snapshot_then_reset_to_it(g: StepContext) -> None:
    run_reset("google.labels", {"names": ["Keep"]}, g)
    run_reset("google.snapshot", {"name": "with-label"}, g)
    run_reset("google.labels", {"names": ["Later"]}, g)
    run_reset("google.reset", {"snapshot": "with-label"}, g)
    names = {lab["name"] for lab in c(g).gmail.users().labels().list(userId="me").execute()["labels"]}
    assert "Keep" in names and "Later" not in names
    with pytest.raises(StepFailed, match="'nope' does not exist"):
        run_reset("google.reset", {"snapshot": "nope"}, g)


def test_seeding_without_reset_in_this_task_is_refused(g: StepContext) -> None:
    other = replace(g, task_id="another-task")
    with pytest.raises(StepFailed, match="list `google.reset` first"):
        run_reset("google.labels", {"names": ["A"]}, other)


def test_real_account_reset_needs_allow_wipe(g: StepContext) -> None:
    real = replace(g, services={"google": {"backend": "google", "clients": None, "state": {}}})
    with pytest.raises(StepFailed, match="allow_wipe"):
        run_reset("google.reset", {}, real)
