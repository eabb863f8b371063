"""Times in Google task YAML: absolute, or relative to the day the task was reset.

``google.reset`` records the instant it ran (``anchor``); reset steps and
judges resolve relative times against that same instant, in the calendar's
time zone, so a task whose judge runs after midnight still agrees with its
reset. Accepted forms (case-insensitive)::

    2025-03-04                   all-day date
    2025-03-04 10:30             wall time in the given time zone
    2025-03-04T10:30:00+01:00    an RFC 3339 instant (Z allowed)
    today | tomorrow | yesterday | +3d | -2d | monday .. sunday (the next one, never today)
    any of those followed by a time: "tomorrow 10:00", "+2d 09:15", "friday 16:30"
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

_DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_REL = re.compile(r"^(today|tomorrow|yesterday|[+-]\d+d|" + "|".join(_DAYS) + r")(?:\s+(\d{1,2}):(\d{2}))?$")
_WALL = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$")


def anchor_date(anchor: datetime, tz: str) -> date:
    """The calendar day of ``anchor`` in time zone ``tz``."""
    return anchor.astimezone(ZoneInfo(tz)).date()


def resolve(value: str, tz: str, anchor: datetime | None = None) -> date | datetime:
    """A ``date`` (all-day) or an aware ``datetime``. Raises ValueError naming the value."""
    text = value.strip()
    zone = ZoneInfo(tz)
    anchor = anchor or datetime.now(UTC)
    m = _REL.match(text.lower())
    if m:
        word, hour, minute = m.groups()
        today = anchor_date(anchor, tz)
        if word == "today":
            day = today
        elif word == "tomorrow":
            day = today + timedelta(days=1)
        elif word == "yesterday":
            day = today - timedelta(days=1)
        elif word in _DAYS:
            ahead = (_DAYS.index(word) - today.weekday()) % 7 or 7
            day = today + timedelta(days=ahead)
        else:
            day = today + timedelta(days=int(word[:-1]))
        if hour is None:
            return day
        return datetime.combine(day, time(int(hour), int(minute)), zone)
    m = _WALL.match(text)
    if m:
        day_s, hour, minute, second = m.groups()
        day = date.fromisoformat(day_s)
        if hour is None:
            return day
        return datetime.combine(day, time(int(hour), int(minute), int(second or 0)), zone)
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(
            f"cannot read the time {value!r}: use 2025-03-04, '2025-03-04 10:30', an RFC 3339 time, "
            "or today/tomorrow/yesterday/+Nd/a weekday, optionally followed by HH:MM"
        ) from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=zone)


def check(value: str) -> str:
    """Validate the syntax when a task loads (pydantic validator)."""
    resolve(value, "UTC")
    return value


def event_time(value: date | datetime, tz: str) -> dict[str, str]:
    """The Calendar API's EventDateTime for a resolved value."""
    if isinstance(value, datetime):
        return {"dateTime": value.isoformat(), "timeZone": tz}
    return {"date": value.isoformat()}


def parse_event_time(raw: dict) -> date | datetime | None:
    """Back from an EventDateTime (as the API returns it) to a date or an aware datetime."""
    if not raw:
        return None
    if "dateTime" in raw:
        parsed = datetime.fromisoformat(raw["dateTime"])
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=ZoneInfo(raw.get("timeZone") or "UTC"))
        return parsed
    if "date" in raw:
        return date.fromisoformat(raw["date"])
    return None


def same_time(a: date | datetime | None, b: date | datetime | None) -> bool:
    """Same instant (datetimes in any zones) or same day (dates); a date never equals a datetime."""
    if a is None or b is None:
        return a is b
    if isinstance(a, datetime) != isinstance(b, datetime):
        return False
    return a == b


def show(value: date | datetime | None, tz: str | None = None) -> str:
    """A readable form for feedback, in ``tz`` when given."""
    if value is None:
        return "none"
    if isinstance(value, datetime):
        shown = value.astimezone(ZoneInfo(tz)) if tz else value
        return shown.strftime("%Y-%m-%d %H:%M %z")
    return value.isoformat() + " (all day)"
