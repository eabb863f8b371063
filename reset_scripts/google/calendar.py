"""google.calendar_events and google.clear_calendar: seed or empty a calendar."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ...runtime.tasks.steps import StepContext, reset_step
from ...toolkits.google import when
from .account import (
    RelTime,
    _repeat,
    _require_reset,
    anchor,
    calendar_id,
    calendar_tz,
    clients,
    list_all,
)


class EventSpec(BaseModel):
    """One event to create. ``start``/``end``: absolute or relative times; a date alone makes an
    all-day event (end exclusive). ``repeat`` > 1 creates copies, ``{i}`` in text becomes 1..n,
    each copy ``repeat_every_minutes`` later."""

    model_config = ConfigDict(extra="forbid")
    summary: str
    start: RelTime
    end: RelTime | None = None
    """Default: one hour after start (the next day for all-day events)."""
    description: str | None = None
    location: str | None = None
    attendees: list[str] = Field(default_factory=list)
    recurrence: list[str] = Field(default_factory=list)
    """RRULE lines, e.g. ["RRULE:FREQ=WEEKLY;COUNT=5"]."""
    time_zone: str | None = None
    """Zone of wall times (default: the calendar's)."""
    repeat: int = Field(1, ge=1, le=2000)
    repeat_every_minutes: int = 1440


@reset_step("google.calendar_events")
def calendar_events(ctx: StepContext, events: list[EventSpec], calendar: str = "primary",
                    time_zone: str | None = None) -> None:
    """Create events in ``calendar`` ("primary", or a calendar's name: created if missing).
    ``time_zone`` (IANA name) first sets the calendar's own time zone."""
    _require_reset(ctx)
    cal = clients(ctx).calendar
    cal_id = calendar_id(ctx, calendar, create=True)
    if time_zone:
        cal.calendars().patch(calendarId=cal_id, body={"timeZone": time_zone}).execute()
    default_tz = time_zone or calendar_tz(ctx, cal_id)
    for spec in events:
        tz = spec.time_zone or default_tz
        start = when.resolve(spec.start, tz, anchor(ctx))
        if spec.end is not None:
            end = when.resolve(spec.end, tz, anchor(ctx))
        else:
            end = start + (timedelta(hours=1) if isinstance(start, datetime) else timedelta(days=1))
        for i in range(1, spec.repeat + 1):
            shift = timedelta(minutes=spec.repeat_every_minutes * (i - 1))
            body: dict[str, Any] = {
                "summary": _repeat(spec.repeat, spec.summary, i),
                "start": when.event_time(start + shift, tz), "end": when.event_time(end + shift, tz),
            }
            if spec.description is not None:
                body["description"] = _repeat(spec.repeat, spec.description, i)
            if spec.location is not None:
                body["location"] = spec.location
            if spec.attendees:
                body["attendees"] = [{"email": a} for a in spec.attendees]
            if spec.recurrence:
                body["recurrence"] = spec.recurrence
            cal.events().insert(calendarId=cal_id, body=body).execute()


@reset_step("google.clear_calendar")
def clear_calendar(ctx: StepContext, calendar: str = "primary") -> None:
    """Delete every event of a calendar ("primary" or a calendar's name or id)."""
    cal = clients(ctx).calendar
    cal_id = calendar_id(ctx, calendar)
    if cal_id == "primary":
        cal.calendars().clear(calendarId="primary").execute()
        return
    for event in list_all(cal.events().list, "items", calendarId=cal_id):
        cal.events().delete(calendarId=cal_id, eventId=event["id"]).execute()
