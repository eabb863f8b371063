"""google.calendar_events and google.clear_calendar against the emulator, checked through the API; relative times."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from deskact.runtime.tasks.steps import StepContext, lookup, run_reset
from deskact.toolkits.google import when


def c(g: StepContext) -> Any:
    return g.services["google"]["clients"]


def _events(g: StepContext, cal: str = "primary") -> list[dict]:
    return c(g).calendar.events().list(calendarId=cal, maxResults=2500).execute().get("items", [])


def test_calendar_events_relative_times_zone_repeat_and_all_day(g: StepContext) -> None:
    run_reset("google.calendar_events", {"time_zone": "Asia/Tokyo", "events": [
        {"summary": "Standup", "start": "tomorrow 09:30", "attendees": ["a@x.com"], "location": "Room 1"},
        {"summary": "Holiday", "start": "2025-05-01"},
        {"summary": "Sync {i}", "start": "2025-01-06 10:00", "repeat": 3, "repeat_every_minutes": 60},
        {"summary": "Weekly", "start": "2025-01-06 08:00", "end": "2025-01-06 08:15",
         "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=3"], "time_zone": "UTC"},
    ]}, g)
    assert c(g).calendar.calendars().get(calendarId="primary").execute()["timeZone"] == "Asia/Tokyo"
    by_title = {e["summary"]: e for e in _events(g)}
    anchor = g.services["google"]["state"]["anchor"]
    tomorrow = anchor.astimezone(ZoneInfo("Asia/Tokyo")).date() + timedelta(days=1)
    start = when.parse_event_time(by_title["Standup"]["start"])
    assert start == datetime.combine(tomorrow, datetime.min.time(), ZoneInfo("Asia/Tokyo")).replace(hour=9, minute=30)
    assert when.parse_event_time(by_title["Standup"]["end"]) - start == timedelta(hours=1)
    assert by_title["Standup"]["attendees"][0]["email"] == "a@x.com"
    assert by_title["Holiday"]["start"] == {"date": "2025-05-01"} and by_title["Holiday"]["end"] == {"date": "2025-05-02"}
    assert {"Sync 1", "Sync 2", "Sync 3"} <= set(by_title)
    assert when.parse_event_time(by_title["Sync 3"]["start"]).hour == 12
    assert by_title["Weekly"]["recurrence"] == ["RRULE:FREQ=WEEKLY;COUNT=3"]


def test_calendar_events_secondary_calendar_and_bad_time(g: StepContext) -> None:
    run_reset("google.calendar_events", {"calendar": "Gym", "events": [{"summary": "Swim", "start": "2025-05-05 07:00"}]}, g)
    cals = {e["summary"]: e["id"] for e in c(g).calendar.calendarList().list().execute()["items"]}
    assert [e["summary"] for e in _events(g, cals["Gym"])] == ["Swim"]
    with pytest.raises(ValueError, match="cannot read the time 'next blursday'"):
        lookup("reset", "google.calendar_events").validate({"events": [{"summary": "x", "start": "next blursday"}]})


def test_clear_calendar(g: StepContext) -> None:
    run_reset("google.calendar_events", {"events": [{"summary": "A", "start": "2025-01-01"}]}, g)
    run_reset("google.calendar_events", {"calendar": "Side", "events": [{"summary": "B", "start": "2025-01-01"}]}, g)
    run_reset("google.clear_calendar", {}, g)
    assert _events(g) == []
    run_reset("google.clear_calendar", {"calendar": "Side"}, g)
    side = next(e["id"] for e in c(g).calendar.calendarList().list().execute()["items"] if e["summary"] == "Side")
    assert _events(g, side) == []
    with pytest.raises(LookupError, match="no calendar 'Nope'"):
        run_reset("google.clear_calendar", {"calendar": "Nope"}, g)


def test_relative_time_resolver() -> None:
    anchor = datetime(2025, 3, 5, 23, 30, tzinfo=ZoneInfo("UTC"))  # a Wednesday; already the 6th in Tokyo
    assert when.resolve("tomorrow", "UTC", anchor) == date(2025, 3, 6)
    assert when.resolve("tomorrow", "Asia/Tokyo", anchor) == date(2025, 3, 7)
    assert when.resolve("wednesday 10:00", "UTC", anchor) == datetime(2025, 3, 12, 10, 0, tzinfo=ZoneInfo("UTC"))
    assert when.resolve("-2d", "UTC", anchor) == date(2025, 3, 3)
    assert when.resolve("2025-06-10T09:00:00+09:00", "UTC") == datetime(2025, 6, 10, 0, 0, tzinfo=ZoneInfo("UTC"))
    assert not when.same_time(date(2025, 1, 1), datetime(2025, 1, 1, tzinfo=ZoneInfo("UTC")))
