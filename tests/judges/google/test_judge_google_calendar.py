"""google.event_exists, event_absent and event_fields on the emulator: a passing and a failing
case each, with the feedback asserted."""

from __future__ import annotations

from typing import Any

from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge, run_reset


def c(g: StepContext) -> Any:
    return g.services["google"]["clients"]


def ok(name: str, params: dict[str, Any], g: StepContext) -> Verdict:
    v = run_judge(name, params, g)
    assert v.passed and not v.error, v.feedback
    return v


def bad(name: str, params: dict[str, Any], g: StepContext, *expected: str) -> Verdict:
    v = run_judge(name, params, g)
    assert not v.passed and not v.error, v.feedback
    for text in expected:
        assert text in v.feedback, v.feedback
    return v


def j(judge_name: str, g: StepContext, **params: object) -> Verdict:
    v = run_judge(judge_name, params, g)
    assert not v.error, v.feedback
    return v


def test_event_exists(g: StepContext) -> None:
    run_reset("google.calendar_events", {"time_zone": "Europe/Berlin", "events": [
        {"summary": "Design review", "start": "tomorrow 14:00", "attendees": ["ann@x.com"], "location": "Room 4",
         "description": "Bring the mockups"},
        {"summary": "Standup", "start": "2025-09-01 09:30", "end": "2025-09-01 09:45",
         "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=10"]},
        {"summary": "Offsite", "start": "2025-04-17", "end": "2025-04-19"}]}, g)
    ok("google.event_exists", {"summary": "design REVIEW", "start": "tomorrow 14:00", "end": "tomorrow 15:00",
                               "attendees": ["Ann@x.com"], "location": "room 4", "description_contains": "mockups"}, g)
    ok("google.event_exists", {"summary": "Standup", "start": "2025-09-01T07:30:00Z", "recurrence": "FREQ=WEEKLY",
                               "count": 1}, g)
    ok("google.event_exists", {"summary": "Offsite", "start": "2025-04-17", "end": "2025-04-19"}, g)
    bad("google.event_exists", {"summary": "Design review", "start": "tomorrow 15:00"}, g,
        "exists but starts", "14:00 +0", "instead of", "15:00 +0")
    bad("google.event_exists", {"summary": "Design review", "attendees": ["bob@x.com"]}, g,
        "lacks attendees ['bob@x.com'] (has ['ann@x.com'])")
    bad("google.event_exists", {"summary": "Design review", "location": "Room 5"}, g,
        "has location 'Room 4' instead of 'Room 5'")
    bad("google.event_exists", {"summary": "Standup", "recurrence": "FREQ=DAILY"}, g, "has recurrence")
    bad("google.event_exists", {"summary": "Offsite", "start": "2025-04-17 00:00"}, g, "2025-04-17 (all day)")
    bad("google.event_exists", {"summary": "Design reveiw"}, g,
        "no event titled 'Design reveiw'", "events found: 'Design review'")
    bad("google.event_exists", {"summary": "Offsite", "count": 2}, g, "1 events are titled 'Offsite'", "expected 2")
    bad("google.event_exists", {"summary": "X", "calendar": "Nope"}, g, "no calendar 'Nope'")


def test_event_absent(g: StepContext) -> None:
    run_reset("google.calendar_events", {"events": [{"summary": "Old sync", "start": "2025-02-03 10:00"}]}, g)
    ok("google.event_absent", {"summary": "New sync"}, g)
    ok("google.event_absent", {"summary": "Old sync", "start": "2025-02-04 10:00"}, g)
    bad("google.event_absent", {"summary": "old sync"}, g, "1 event(s) titled 'old sync' still in calendar",
        "2025-02-03 10:00")


def test_event_reminders_attendees_and_recurrence(g: StepContext) -> None:
    c(g).calendar.events().insert(calendarId="primary", body={
        "summary": "Standup", "start": {"dateTime": "2025-09-01T09:30:00", "timeZone": "UTC"},
        "end": {"dateTime": "2025-09-01T09:45:00", "timeZone": "UTC"},
        "attendees": [{"email": "ann@example.com"}, {"email": "Bob@example.com"}],
        "reminders": {"useDefault": False, "overrides": [{"method": "popup", "minutes": 10}]},
        "recurrence": ["RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10"]}).execute()
    v = j("google.event_fields", g, summary="standup", attendees=["bob@example.com", "ann@example.com"],
          reminders=["popup:10"], recurrence=["RRULE:FREQ=WEEKLY;COUNT=10;BYDAY=MO"])
    assert v.passed, v.feedback
    assert j("google.event_fields", g, summary="Standup", attendees_at_least=["ann@example.com"]).passed
    v = j("google.event_fields", g, summary="Standup", attendees=["ann@example.com"])  # one attendee too many
    assert not v.passed and "not exactly ['ann@example.com']" in v.feedback
    assert not j("google.event_fields", g, summary="Standup", reminders=["popup:30"]).passed
    assert not j("google.event_fields", g, summary="Standup", reminders=["default"]).passed
    v = j("google.event_fields", g, summary="Standup", recurrence=["RRULE:FREQ=WEEKLY;BYDAY=MO"])
    assert not v.passed and "COUNT=10" in v.feedback
    assert "no event titled 'Retro'" in j("google.event_fields", g, summary="Retro", attendees=[]).feedback
