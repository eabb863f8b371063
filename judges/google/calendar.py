"""google.event_* judges: Calendar events by summary and time, and their reminders, attendees and recurrence."""

from __future__ import annotations

from typing import Any

from ...reset_scripts.google.account import RelTime, anchor, calendar_id, calendar_tz
from ...runtime.tasks.helpers import clip
from ...runtime.tasks.steps import StepContext, Verdict, judge
from ...toolkits.google import when
from ._lookup import _events, _lower_set, _nearest


def _event_problems(ev: dict, tz: str, start: Any, end: Any, attendees: list[str] | None,
                    location: str | None, description_contains: str | None, recurrence: str | None) -> list[str]:
    problems = []
    actual_start = when.parse_event_time(ev.get("start", {}))
    actual_end = when.parse_event_time(ev.get("end", {}))
    if start is not None and not when.same_time(actual_start, start):
        problems.append(f"starts {when.show(actual_start, tz)} instead of {when.show(start, tz)}")
    if end is not None and not when.same_time(actual_end, end):
        problems.append(f"ends {when.show(actual_end, tz)} instead of {when.show(end, tz)}")
    if attendees is not None:
        have = _lower_set([a.get("email", "") for a in ev.get("attendees", [])])
        missing = sorted(_lower_set(attendees) - have)
        if missing:
            problems.append(f"lacks attendees {missing} (has {sorted(have)})")
    if location is not None and (ev.get("location") or "").strip().lower() != location.strip().lower():
        problems.append(f"has location {ev.get('location')!r} instead of {location!r}")
    if description_contains is not None and description_contains.lower() not in (ev.get("description") or "").lower():
        problems.append(f"has description {clip(ev.get('description') or '', 100)}, "
                        f"which does not contain {description_contains!r}")
    if recurrence is not None and not any(recurrence.upper() in r.upper() for r in ev.get("recurrence", [])):
        problems.append(f"has recurrence {ev.get('recurrence', [])} instead of one containing {recurrence!r}")
    return problems


@judge("google.event_exists")
def event_exists(ctx: StepContext, summary: str, start: RelTime | None = None, end: RelTime | None = None,
                 attendees: list[str] | None = None, location: str | None = None,
                 description_contains: str | None = None, recurrence: str | None = None,
                 calendar: str = "primary", time_zone: str | None = None, count: int | None = None) -> Verdict:
    """An event titled ``summary`` (case-insensitive) exists in ``calendar`` with the given start/end
    (absolute or relative times, wall times in ``time_zone`` or the calendar's zone; a date alone
    means all-day), attendees (at least these), location, description text and recurrence rule
    text (e.g. "FREQ=WEEKLY"). ``count``: exactly this many events carry the title."""
    try:
        cal_id = calendar_id(ctx, calendar)
    except LookupError as exc:
        return Verdict.fail(str(exc))
    tz = time_zone or calendar_tz(ctx, cal_id)
    want_start = when.resolve(start, tz, anchor(ctx)) if start else None
    want_end = when.resolve(end, tz, anchor(ctx)) if end else None
    events = _events(ctx, cal_id)
    named = [e for e in events if (e.get("summary") or "").strip().lower() == summary.strip().lower()]
    if not named:
        return Verdict.fail(f"no event titled {summary!r} in calendar {calendar!r}; "
                            + _nearest(summary, [e.get("summary") or "" for e in events], "events"))
    if count is not None and len(named) != count:
        return Verdict.fail(f"{len(named)} events are titled {summary!r} in calendar {calendar!r}, expected {count}")
    reports = []
    for ev in named:
        problems = _event_problems(ev, tz, want_start, want_end, attendees, location, description_contains, recurrence)
        if not problems:
            return Verdict.ok(f"event {summary!r} exists with the expected fields", event_id=ev["id"])
        reports.append("; ".join(problems))
    return Verdict.fail(f"event {summary!r} exists but " + (reports[0] if len(reports) == 1 else
                        " / ".join(f"copy {n + 1} {r}" for n, r in enumerate(reports[:3]))))


@judge("google.event_absent")
def event_absent(ctx: StepContext, summary: str, calendar: str = "primary", start: RelTime | None = None,
                 time_zone: str | None = None) -> Verdict:
    """No event titled ``summary`` (case-insensitive) in ``calendar`` (only at ``start`` when given)."""
    try:
        cal_id = calendar_id(ctx, calendar)
    except LookupError as exc:
        return Verdict.fail(str(exc))
    tz = time_zone or calendar_tz(ctx, cal_id)
    want = when.resolve(start, tz, anchor(ctx)) if start else None
    left = [e for e in _events(ctx, cal_id) if (e.get("summary") or "").strip().lower() == summary.strip().lower()
            and (want is None or when.same_time(when.parse_event_time(e.get("start", {})), want))]
    if left:
        starts = [when.show(when.parse_event_time(e.get("start", {})), tz) for e in left[:3]]
        return Verdict.fail(f"{len(left)} event(s) titled {summary!r} still in calendar {calendar!r} (starting {starts})")
    return Verdict.ok(f"no event titled {summary!r} in calendar {calendar!r}")


def _rule_key(rule: str) -> str:
    """RRULE:FREQ=WEEKLY;COUNT=10;BYDAY=MO and RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10 are the same rule."""
    head, _, body = rule.strip().upper().partition(":")
    return head + ":" + ";".join(sorted(body.split(";")))


def _reminders(ev: dict) -> list[str]:
    rem = ev.get("reminders") or {}
    if rem.get("useDefault", False):
        return ["default"]
    return sorted(f"{r.get('method')}:{r.get('minutes')}" for r in rem.get("overrides", []))


@judge("google.event_fields")
def event_fields(ctx: StepContext, summary: str, calendar: str = "primary", attendees: list[str] | None = None,
                 attendees_at_least: list[str] | None = None, reminders: list[str] | None = None,
                 recurrence: list[str] | None = None) -> Verdict:
    """Every event titled ``summary`` in ``calendar`` has exactly the ``attendees`` (or at least
    ``attendees_at_least``), exactly the ``reminders`` ("popup:10", "email:1440"; ["default"] = the
    calendar's defaults) and exactly the ``recurrence`` rules (part order ignored)."""
    try:
        cal = calendar_id(ctx, calendar)
    except LookupError as exc:
        return Verdict.fail(str(exc))
    events = _events(ctx, cal)
    named = [e for e in events if (e.get("summary") or "").strip().lower() == summary.strip().lower()]
    if not named:
        return Verdict.fail(f"no event titled {summary!r}; " + _nearest(summary, [e.get("summary") or "" for e in events], "events"))
    for ev in named:
        have = _lower_set([a.get("email", "") for a in ev.get("attendees", [])])
        problems = []
        if attendees is not None and have != _lower_set(attendees):
            problems.append(f"has attendees {sorted(have)}, not exactly {sorted(_lower_set(attendees))}")
        if attendees_at_least is not None and (missing := _lower_set(attendees_at_least) - have):
            problems.append(f"lacks attendees {sorted(missing)}")
        if reminders is not None and _reminders(ev) != sorted(r.strip().lower() for r in reminders):
            problems.append(f"has reminders {_reminders(ev)}, not {sorted(reminders)}")
        if recurrence is not None and sorted(map(_rule_key, ev.get("recurrence", []))) != sorted(map(_rule_key, recurrence)):
            problems.append(f"has recurrence {ev.get('recurrence', [])}, not {recurrence}")
        if problems:
            return Verdict.fail(f"event {summary!r} " + "; ".join(problems))
    return Verdict.ok(f"event {summary!r}: attendees, reminders and recurrence as expected")
