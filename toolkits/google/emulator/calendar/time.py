"""Calendar time handling: event times, time zones, recurrence expansion.

Recurrence follows RFC 5545 as Google uses it: ``RRULE`` (FREQ, INTERVAL,
COUNT, UNTIL, BYDAY, BYMONTHDAY, BYMONTH, ... via dateutil), ``EXDATE`` and
``RDATE`` lines. Rules are expanded in the event's *local wall time* and then
localised, so a weekly 09:00 meeting stays at 09:00 across DST changes, as it
does in Google Calendar.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dateutil.rrule import rrule, rruleset, rrulestr

from ..errors import ApiError

MAX_INSTANCES = 2000  # per series when the rule is unbounded and the window is open


def zone(name: str, what: str = "time zone") -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ApiError(400, f"Invalid {what}: '{name}'", "invalid") from None


def rfc3339(value: datetime) -> str:
    """``2024-01-05T09:00:00-05:00`` (``Z`` for UTC), seconds precision, as Google renders."""
    text = value.isoformat(timespec="seconds")
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def stamp(value: datetime | None = None) -> str:
    """``created``/``updated`` form: UTC with milliseconds."""
    value = (value or datetime.now(UTC)).astimezone(UTC)
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"


@dataclass(frozen=True)
class EventTime:
    """A parsed ``start``/``end``: all-day (``day``) or timed (``at``, aware)."""

    day: date | None
    at: datetime | None
    tz: str | None

    @property
    def all_day(self) -> bool:
        return self.day is not None

    def instant(self, cal_tz: ZoneInfo) -> datetime:
        """The UTC instant; all-day dates start at midnight in the calendar's zone."""
        if self.day is not None:
            return datetime.combine(self.day, datetime.min.time(), cal_tz).astimezone(UTC)
        assert self.at is not None
        return self.at.astimezone(UTC)


def parse_event_time(value: Any, field: str) -> EventTime:
    """Validate an event's ``start``/``end`` object the way Google does."""
    if not isinstance(value, dict) or not (value.get("date") or value.get("dateTime")):
        raise ApiError(400, f"Missing {field} time.", "required")
    key = (value.get("date"), value.get("dateTime"), value.get("timeZone"))
    if all(isinstance(k, (str, type(None))) for k in key):
        return _parse_cached(*key, field)
    return _parse(value, field)


@lru_cache(maxsize=4096)
def _parse_cached(day: str | None, at: str | None, tz_name: str | None, field: str) -> EventTime:
    return _parse({"date": day, "dateTime": at, "timeZone": tz_name}, field)


def _parse(value: dict[str, Any], field: str) -> EventTime:
    tz_name = value.get("timeZone")
    if tz_name:
        zone(tz_name, f"time zone definition for {field} time")
    if value.get("date") and value.get("dateTime"):
        raise ApiError(400, f"Invalid {field} time: both date and dateTime are set.", "invalid")
    if value.get("date"):
        try:
            return EventTime(date.fromisoformat(value["date"]), None, tz_name)
        except (TypeError, ValueError):
            raise ApiError(400, f"Invalid {field} time.", "invalid") from None
    try:
        at = datetime.fromisoformat(str(value["dateTime"]).replace("z", "Z"))
    except ValueError:
        raise ApiError(400, f"Invalid {field} time.", "invalid") from None
    if at.tzinfo is None:
        if not tz_name:
            raise ApiError(400, f"Missing time zone definition for {field} time.", "required")
        at = at.replace(tzinfo=ZoneInfo(tz_name))
    return EventTime(None, at, tz_name)


def render_time(value: dict[str, Any], out_tz: ZoneInfo | None) -> dict[str, Any]:
    """A stored start/end as Google returns it: dateTime with the offset of ``out_tz``."""
    if value.get("date") or out_tz is None:
        return dict(value)
    parsed = parse_event_time(value, "start")
    out = dict(value)
    assert parsed.at is not None
    out["dateTime"] = rfc3339(parsed.at.astimezone(out_tz))
    return out


def instance_suffix(start: EventTime) -> str:
    """Google's instance id suffix: ``20240105T140000Z`` (timed) or ``20240105`` (all-day)."""
    if start.day is not None:
        return start.day.strftime("%Y%m%d")
    assert start.at is not None
    return start.at.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def _parse_rdate_values(line: str, local: tzinfo | None) -> list[datetime]:
    """EXDATE/RDATE values as naive local wall times (matching the expansion)."""
    head, _, values = line.partition(":")
    params = dict(p.split("=", 1) for p in head.split(";")[1:] if "=" in p)
    src_tz = ZoneInfo(params["TZID"]) if "TZID" in params else None
    out = []
    for raw in values.split(","):
        raw = raw.strip()
        if not raw:
            continue
        if "T" not in raw:
            out.append(datetime.strptime(raw, "%Y%m%d"))
            continue
        utc = raw.endswith("Z")
        parsed = datetime.strptime(raw.rstrip("Z"), "%Y%m%dT%H%M%S")
        if utc or src_tz:
            aware = parsed.replace(tzinfo=UTC if utc else src_tz)
            parsed = aware.astimezone(local).replace(tzinfo=None) if local else aware.replace(tzinfo=None)
        out.append(parsed)
    return out


def _local_until(rule: str, local: tzinfo | None, all_day: bool) -> str:
    """Rewrite UNTIL to naive local wall time, since we expand naive local times."""
    parts = []
    for part in rule.split(";"):
        key, _, value = part.partition("=")
        if key.upper() == "UNTIL":
            if "T" not in value:
                value = value + "T235959"
            elif value.endswith("Z"):
                aware = datetime.strptime(value[:-1], "%Y%m%dT%H%M%S").replace(tzinfo=UTC)
                if local is not None and not all_day:
                    aware = aware.astimezone(local)
                value = aware.strftime("%Y%m%dT%H%M%S")
        parts.append(f"{key}={value}" if _ else key)
    return ";".join(parts)


def recurrence_set(lines: list[str], start: EventTime, cal_tz: ZoneInfo) -> rruleset:
    """A dateutil rruleset over naive local wall times of the series' start."""
    local = None if start.all_day else (ZoneInfo(start.tz) if start.tz else start.at.tzinfo)  # type: ignore[union-attr]
    if start.all_day:
        dtstart = datetime.combine(start.day, datetime.min.time())  # type: ignore[arg-type]
    else:
        assert start.at is not None
        dtstart = start.at.astimezone(local).replace(tzinfo=None)
    rset = rruleset()
    has_rule = False
    for line in lines:
        name = line.split(":", 1)[0].split(";", 1)[0].upper()
        try:
            if name == "RRULE":
                rule = rrulestr(_local_until(line.split(":", 1)[1], local, start.all_day), dtstart=dtstart)
                assert isinstance(rule, rrule)  # one RRULE and no forceset: never an rruleset
                rset.rrule(rule)
                has_rule = True
            elif name == "EXDATE":
                for value in _parse_rdate_values(line, local):
                    rset.exdate(value)
            elif name == "RDATE":
                for value in _parse_rdate_values(line, local):
                    rset.rdate(value)
            elif name != "EXRULE":
                raise ValueError(f"unknown recurrence line type {name}")
        except (ValueError, KeyError, IndexError, ZoneInfoNotFoundError) as exc:
            raise ApiError(400, f"Invalid recurrence rule '{line}': {exc}", "invalid") from None
    if not has_rule:
        rset.rdate(dtstart)
    return rset


def expand(
    lines: list[str],
    start: EventTime,
    end: EventTime,
    cal_tz: ZoneInfo,
    window_end: datetime | None,
) -> Iterator[tuple[EventTime, EventTime]]:
    """(start, end) of each instance, in order, up to ``window_end`` (UTC) or MAX_INSTANCES."""
    rset = recurrence_set(lines, start, cal_tz)
    if start.all_day:
        length = end.day - start.day  # type: ignore[operator]
        local = cal_tz
    else:
        assert start.at is not None and end.at is not None
        length = end.at - start.at
        local = ZoneInfo(start.tz) if start.tz else start.at.tzinfo  # type: ignore[assignment]
    for n, wall in enumerate(rset):
        if n >= MAX_INSTANCES:
            return
        if start.all_day:
            s = EventTime(wall.date(), None, start.tz)
            e = EventTime(wall.date() + length, None, end.tz)
        else:
            aware = wall.replace(tzinfo=local)
            s = EventTime(None, aware, start.tz)
            e = EventTime(None, aware + length, end.tz)
        if window_end is not None and s.instant(cal_tz) >= window_end:
            return
        yield s, e


def time_dict(t: EventTime, template: dict[str, Any]) -> dict[str, Any]:
    """Serialise an instance's start/end, keeping the series' timeZone field."""
    out: dict[str, Any] = {}
    if t.day is not None:
        out["date"] = t.day.isoformat()
    else:
        assert t.at is not None
        out["dateTime"] = rfc3339(t.at)
    if template.get("timeZone"):
        out["timeZone"] = template["timeZone"]
    return out


def day_after(d: date) -> date:
    return d + timedelta(days=1)
