"""Calendar v3: calendarList, calendars, events, settings, colors, freebusy.

Storage kinds: ``calendar.calendar`` (id -> Calendar), ``calendar.list``
(id -> CalendarListEntry), ``calendar.event`` (scope = calendar id). The
primary calendar's id is the user's email; ``primary`` is an alias.

Recurring events are stored once (the series, with ``recurrence``); instances
are computed on read (``singleEvents=true``, ``events.instances``, get by
instance id ``<id>_20240105T140000Z``). Changing or deleting one instance
stores an exception event with ``recurringEventId`` and ``originalStartTime``,
exactly the shape Google returns for modified instances.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from ..common import update_and_patch
from ..discovery import parse_datetime
from ..errors import ApiError, duplicate, not_found
from ..framework import Request, handler, on_reset
from ..paging import paginate
from ..store import Store
from .time import (
    UTC,
    EventTime,
    expand,
    instance_suffix,
    parse_event_time,
    recurrence_set,
    render_time,
    rfc3339,
    stamp,
    time_dict,
    zone,
)

CAL, ENTRY, EVENT = "calendar.calendar", "calendar.list", "calendar.event"
DEFAULT_TZ = "UTC"
_EVENT_ID = re.compile(r"^[a-v0-9]{5,1024}$")
_READ_ONLY = ("kind", "etag", "htmlLink", "created", "updated", "creator", "iCalUID", "recurringEventId")

_COLORS = {
    "1": ("#ac725e", "#1d1d1d"), "2": ("#d06b64", "#1d1d1d"), "3": ("#f83a22", "#1d1d1d"),
    "4": ("#fa573c", "#1d1d1d"), "5": ("#fa573c", "#1d1d1d"), "6": ("#ffad46", "#1d1d1d"),
    "7": ("#42d692", "#1d1d1d"), "8": ("#16a765", "#1d1d1d"), "9": ("#7bd148", "#1d1d1d"),
    "10": ("#b3dc6c", "#1d1d1d"), "11": ("#fbe983", "#1d1d1d"),
}


def _etag(store: Store) -> str:
    return f'"{3_000_000_000_000_000 + store.next_counter("calendar.etag")}"'


# ---- calendars ---------------------------------------------------------------
def _entry_for(cal: dict[str, Any], primary: bool, store: Store, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    entry = {
        "kind": "calendar#calendarListEntry",
        "etag": _etag(store),
        "id": cal["id"],
        "summary": cal["summary"],
        "timeZone": cal["timeZone"],
        "colorId": "14" if primary else "7",
        "backgroundColor": "#9fe1e7" if primary else "#42d692",
        "foregroundColor": "#000000",
        "selected": True,
        "accessRole": "owner",
        "defaultReminders": [{"method": "popup", "minutes": 30}] if primary else [],
        "conferenceProperties": {"allowedConferenceSolutionTypes": ["hangoutsMeet"]},
    }
    for key in ("description", "location"):
        if cal.get(key):
            entry[key] = cal[key]
    if primary:
        entry["primary"] = True
        entry["notificationSettings"] = {"notifications": []}
    entry.update(extra or {})
    return entry


@on_reset
def _seed(store: Store, user: str) -> None:
    cal = {"kind": "calendar#calendar", "etag": _etag(store), "id": user, "summary": user,
           "timeZone": DEFAULT_TZ,
           "conferenceProperties": {"allowedConferenceSolutionTypes": ["hangoutsMeet"]}}
    store.put(CAL, user, cal)
    store.put(ENTRY, user, _entry_for(cal, True, store))


def _cal_id(req: Request, name: str = "calendarId") -> str:
    cal_id = req.params[name]
    return req.user if cal_id == "primary" else cal_id


def _calendar(req: Request, name: str = "calendarId") -> dict[str, Any]:
    cal = req.store.get(CAL, _cal_id(req, name))
    if cal is None:
        raise not_found()
    return cal


def _cal_tz(cal: dict[str, Any]) -> ZoneInfo:
    return ZoneInfo(cal.get("timeZone") or DEFAULT_TZ)


@handler("calendar.calendars.insert")
def calendars_insert(req: Request) -> dict[str, Any]:
    body = req.body or {}
    if not body.get("summary"):
        raise ApiError(400, "Missing title.", "required")
    tz = body.get("timeZone") or DEFAULT_TZ
    zone(tz)
    cal_id = f"{Store.new_id(26)}@group.calendar.google.com"
    cal = {"kind": "calendar#calendar", "etag": _etag(req.store), "id": cal_id, "summary": body["summary"],
           "timeZone": tz, "conferenceProperties": {"allowedConferenceSolutionTypes": ["hangoutsMeet"]}}
    for key in ("description", "location"):
        if key in body:
            cal[key] = body[key]
    req.store.put(CAL, cal_id, cal)
    req.store.put(ENTRY, cal_id, _entry_for(cal, False, req.store))
    return cal


@handler("calendar.calendars.get")
def calendars_get(req: Request) -> dict[str, Any]:
    return _calendar(req)


def _update_calendar(req: Request, patch: bool) -> dict[str, Any]:
    cal = _calendar(req)
    body = req.body or {}
    if not patch and not body.get("summary"):
        raise ApiError(400, "Missing title.", "required")
    if body.get("timeZone"):
        zone(body["timeZone"])
    new = dict(cal) if patch else {k: cal[k] for k in ("kind", "id", "conferenceProperties")}
    new.update({k: v for k, v in body.items() if k in ("summary", "description", "location", "timeZone")})
    new.setdefault("timeZone", cal["timeZone"])
    new["etag"] = _etag(req.store)
    req.store.put(CAL, cal["id"], new)
    entry = req.store.get(ENTRY, cal["id"])
    if entry is not None:
        entry.update({k: new[k] for k in ("summary", "timeZone") if k in new})
        req.store.put(ENTRY, cal["id"], entry)
    return new


update_and_patch("calendar.calendars.update", "calendar.calendars.patch", _update_calendar)


@handler("calendar.calendars.delete")
def calendars_delete(req: Request) -> None:
    cal = _calendar(req)
    if cal["id"] == req.user:
        raise ApiError(400, "Cannot delete primary calendar.", "cannotDeletePrimaryCalendar")
    req.store.delete(CAL, cal["id"])
    req.store.delete(ENTRY, cal["id"])
    req.store.delete_scope(EVENT, cal["id"])


@handler("calendar.calendars.clear")
def calendars_clear(req: Request) -> None:
    cal = _calendar(req)
    if cal["id"] != req.user:
        # Google: clear works on the primary calendar only; others are deleted instead.
        raise ApiError(400, "Invalid Value: calendars.clear only clears the primary calendar", "invalid")
    req.store.delete_scope(EVENT, cal["id"])


# ---- calendarList ------------------------------------------------------------
_ROLES = ["freeBusyReader", "reader", "writer", "owner"]


@handler("calendar.calendarList.list")
def calendar_list_list(req: Request) -> dict[str, Any]:
    entries = req.store.list(ENTRY)
    if not req.params.get("showHidden"):
        entries = [e for e in entries if not e.get("hidden")]
    min_role = req.params.get("minAccessRole")
    if min_role:
        entries = [e for e in entries if _ROLES.index(e["accessRole"]) >= _ROLES.index(min_role)]
    page, token = paginate(entries, req.params, default_size=100, max_size=250)
    out: dict[str, Any] = {"kind": "calendar#calendarList", "etag": _etag(req.store), "items": page}
    if token:
        out["nextPageToken"] = token
    return out


@handler("calendar.calendarList.get")
def calendar_list_get(req: Request) -> dict[str, Any]:
    entry = req.store.get(ENTRY, _cal_id(req))
    if entry is None:
        raise not_found()
    return entry


@handler("calendar.calendarList.insert")
def calendar_list_insert(req: Request) -> dict[str, Any]:
    body = req.body or {}
    cal_id = body.get("id")
    if not cal_id:
        raise ApiError(400, "Required: id", "required")
    cal = req.store.get(CAL, cal_id)
    if cal is None:
        raise not_found()
    if req.store.exists(ENTRY, cal_id):
        raise duplicate()
    extra = {k: body[k] for k in ("summaryOverride", "colorId", "hidden", "selected", "defaultReminders")
             if k in body}
    entry = _entry_for(cal, cal_id == req.user, req.store, extra)
    req.store.put(ENTRY, cal_id, entry)
    return entry


def _update_entry(req: Request, patch: bool) -> dict[str, Any]:
    entry = req.store.get(ENTRY, _cal_id(req))
    if entry is None:
        raise not_found()
    editable = ("summaryOverride", "colorId", "backgroundColor", "foregroundColor", "hidden",
                "selected", "defaultReminders", "notificationSettings")
    if not patch:
        for key in editable:
            entry.pop(key, None)
        entry["selected"] = False
    entry.update({k: v for k, v in (req.body or {}).items() if k in editable})
    entry["etag"] = _etag(req.store)
    req.store.put(ENTRY, entry["id"], entry)
    return entry


update_and_patch("calendar.calendarList.update", "calendar.calendarList.patch", _update_entry)


@handler("calendar.calendarList.delete")
def calendar_list_delete(req: Request) -> None:
    cal_id = _cal_id(req)
    if cal_id == req.user:
        raise ApiError(400, "Cannot remove primary calendar from the list.", "cannotDeletePrimaryCalendar")
    if not req.store.delete(ENTRY, cal_id):
        raise not_found()


# ---- settings, colors ------------------------------------------------------------
def _settings(req: Request) -> list[dict[str, Any]]:
    tz = req.store.get(CAL, req.user)["timeZone"]  # type: ignore[index]
    values = {"timezone": tz, "locale": "en", "dateFieldOrder": "MDY", "format24HourTime": "false",
              "weekStart": "0", "defaultEventLength": "60", "hideWeekends": "false"}
    return [{"kind": "calendar#setting", "etag": f'"{abs(hash((k, v))) % 10**12}"', "id": k, "value": v}
            for k, v in values.items()]


@handler("calendar.settings.list")
def settings_list(req: Request) -> dict[str, Any]:
    return {"kind": "calendar#settings", "etag": '"settings"', "items": _settings(req)}


@handler("calendar.settings.get")
def settings_get(req: Request) -> dict[str, Any]:
    for item in _settings(req):
        if item["id"] == req.params["setting"]:
            return item
    raise not_found()


@handler("calendar.colors.get")
def colors_get(req: Request) -> dict[str, Any]:
    palette = {k: {"background": bg, "foreground": fg} for k, (bg, fg) in _COLORS.items()}
    return {"kind": "calendar#colors", "updated": "2012-02-14T00:00:00.000Z",
            "calendar": palette, "event": palette}


# ---- events: building and validating --------------------------------------------
def _html_link(event_id: str, cal_id: str) -> str:
    eid = base64.urlsafe_b64encode(f"{event_id} {cal_id}".encode()).decode().rstrip("=")
    return f"https://www.google.com/calendar/event?eid={eid}"


def _check_times(ev: dict[str, Any]) -> tuple[EventTime, EventTime]:
    start = parse_event_time(ev.get("start"), "start")
    end = parse_event_time(ev.get("end"), "end")
    if start.all_day != end.all_day:
        raise ApiError(400, "Invalid start time.", "invalid")
    if start.all_day:
        if end.day <= start.day:  # type: ignore[operator]
            raise ApiError(400, "The specified time range is empty.", "timeRangeEmpty")
    elif end.at < start.at:  # type: ignore[operator]
        raise ApiError(400, "The specified time range is empty.", "timeRangeEmpty")
    if ev.get("recurrence"):
        if not isinstance(ev["recurrence"], list) or not all(isinstance(x, str) for x in ev["recurrence"]):
            raise ApiError(400, "Invalid recurrence rule.", "invalid")
        if not start.all_day and not start.tz:
            raise ApiError(400, "Missing time zone definition for start time.", "required")
        recurrence_set(ev["recurrence"], start, ZoneInfo(DEFAULT_TZ))  # validates the rule
    return start, end


def _normalise(ev: dict[str, Any], req: Request, cal: dict[str, Any]) -> dict[str, Any]:
    """Fill server-side fields and validate a full event resource."""
    _check_times(ev)
    if ev.get("status", "confirmed") not in ("confirmed", "tentative", "cancelled"):
        raise ApiError(400, f"Invalid value for status: {ev['status']}", "invalid")
    attendees = ev.get("attendees")
    if attendees is not None:
        if not isinstance(attendees, list):
            raise ApiError(400, "Invalid attendees: expected a list", "invalid")
        for a in attendees:
            if not isinstance(a, dict) or not a.get("email"):
                raise ApiError(400, "Missing attendee email.", "required")
            a.setdefault("responseStatus", "needsAction")
            if a["email"].lower() == req.user.lower():
                a["self"] = True
            if a["email"].lower() == cal["id"].lower():
                a["organizer"] = True
    ev["kind"] = "calendar#event"
    ev.setdefault("status", "confirmed")
    ev.setdefault("reminders", {"useDefault": True})
    ev.setdefault("eventType", "default")
    ev["creator"] = ev.get("creator") or {"email": req.user, "self": True}
    if cal["id"] == req.user:
        ev["organizer"] = {"email": req.user, "self": True}
    else:
        ev["organizer"] = {"email": cal["id"], "displayName": cal["summary"], "self": True}
    ev["htmlLink"] = _html_link(ev["id"], cal["id"])
    ev["etag"] = _etag(req.store)
    ev["updated"] = stamp()
    ev.setdefault("created", ev["updated"])
    ev.setdefault("sequence", 0)
    return ev


def _render(ev: dict[str, Any], req: Request, cal: dict[str, Any]) -> dict[str, Any]:
    """An event as returned: times shown in the requested/event/calendar zone."""
    tz_param = req.params.get("timeZone")
    out = dict(ev)
    for key in ("start", "end", "originalStartTime"):
        if key in out:
            name = tz_param or out[key].get("timeZone") or cal.get("timeZone") or DEFAULT_TZ
            out[key] = render_time(out[key], zone(name))
    max_att = req.params.get("maxAttendees")
    if max_att is not None and len(out.get("attendees", [])) > max_att:
        out["attendees"] = out["attendees"][:max_att]
        out["attendeesOmitted"] = True
    return out


def _instance(master: dict[str, Any], s: EventTime, e: EventTime) -> dict[str, Any]:
    inst = {k: v for k, v in master.items() if k != "recurrence"}
    inst["id"] = f"{master['id']}_{instance_suffix(s)}"
    inst["recurringEventId"] = master["id"]
    inst["start"] = time_dict(s, master["start"])
    inst["end"] = time_dict(e, master["end"])
    inst["originalStartTime"] = dict(inst["start"])
    return inst


def _split_instance_id(event_id: str) -> tuple[str, str] | None:
    base, sep, suffix = event_id.rpartition("_")
    if sep and re.fullmatch(r"\d{8}(T\d{6}Z)?", suffix):
        return base, suffix
    return None


def _lookup(req: Request, cal: dict[str, Any], event_id: str) -> tuple[dict[str, Any], bool]:
    """(event, stored?) for a stored event or a computed recurring instance; 404 otherwise."""
    ev = req.store.get(EVENT, event_id, cal["id"])
    if ev is not None:
        return ev, True
    split = _split_instance_id(event_id)
    if split:
        master = req.store.get(EVENT, split[0], cal["id"])
        if master and master.get("recurrence"):
            start, end = _check_times(master)
            for s, e in expand(master["recurrence"], start, end, _cal_tz(cal), None):
                suffix = instance_suffix(s)
                if suffix == split[1]:
                    return _instance(master, s, e), False
                if suffix > split[1] and len(suffix) == len(split[1]):
                    break
    raise not_found()


# ---- events: list ----------------------------------------------------------------------
def _bounds(ev: dict[str, Any], cal_tz: ZoneInfo) -> tuple[datetime, datetime]:
    s = parse_event_time(ev["start"], "start").instant(cal_tz)
    e = parse_event_time(ev["end"], "end").instant(cal_tz)
    return s, e


def _matches_q(ev: dict[str, Any], q: str) -> bool:
    hay = " ".join(
        [str(ev.get(k, "")) for k in ("summary", "description", "location")]
        + [f"{a.get('email', '')} {a.get('displayName', '')}" for a in ev.get("attendees", [])]
        + [str(ev.get("organizer", {}).get("email", "")), str(ev.get("organizer", {}).get("displayName", ""))]
    ).lower()
    return all(word in hay for word in q.lower().split())


def _occurrences(
    events: list[dict[str, Any]], cal: dict[str, Any], single: bool,
    t_min: datetime | None, t_max: datetime | None,
) -> list[dict[str, Any]]:
    cal_tz = _cal_tz(cal)

    def overlaps(s: datetime, e: datetime) -> bool:
        return (t_min is None or e > t_min or (s == e and s >= t_min)) and (t_max is None or s < t_max)

    exceptions = {ev["id"] for ev in events if ev.get("recurringEventId")}
    out = []
    for ev in events:
        if not ev.get("recurrence"):
            if overlaps(*_bounds(ev, cal_tz)):
                out.append(ev)
            continue
        start, end = _check_times(ev)
        for s, e in expand(ev["recurrence"], start, end, cal_tz, t_max):
            if not overlaps(s.instant(cal_tz), e.instant(cal_tz)):
                continue
            if not single:
                out.append(ev)
                break
            inst = _instance(ev, s, e)
            if inst["id"] in exceptions:
                continue  # the stored exception is listed on its own
            if ev.get("status") == "cancelled":
                inst["status"] = "cancelled"
            out.append(inst)
    return out


def _sort_key_start(cal_tz: ZoneInfo) -> Callable[[dict[str, Any]], tuple[datetime, str]]:
    return lambda ev: (_bounds(ev, cal_tz)[0], ev["id"])


@handler("calendar.events.list")
def events_list(req: Request) -> dict[str, Any]:
    cal = _calendar(req)
    p = req.params
    if p.get("syncToken"):
        raise ApiError(501, "syncToken (incremental sync) is not emulated by deskact", "notImplemented")
    single = bool(p.get("singleEvents"))
    if p.get("orderBy") == "startTime" and not single:
        raise ApiError(400, "The requested ordering is not available for the particular query.", "invalid")
    t_min = parse_datetime(p["timeMin"], "timeMin").astimezone(UTC) if p.get("timeMin") else None
    t_max = parse_datetime(p["timeMax"], "timeMax").astimezone(UTC) if p.get("timeMax") else None
    if t_min and t_max and t_max <= t_min:
        raise ApiError(400, "The specified time range is empty.", "timeRangeEmpty")
    events = req.store.list(EVENT, cal["id"])
    if not single:
        pass  # exceptions are listed alongside their series
    items = _occurrences(events, cal, single, t_min, t_max)
    if not p.get("showDeleted"):
        items = [ev for ev in items if ev.get("status") != "cancelled"]
    if p.get("q"):
        items = [ev for ev in items if _matches_q(ev, p["q"])]
    if p.get("updatedMin"):
        after = parse_datetime(p["updatedMin"], "updatedMin")
        items = [ev for ev in items if datetime.fromisoformat(ev["updated"].replace("Z", "+00:00")) >= after]
    if p.get("iCalUID"):
        items = [ev for ev in items if ev.get("iCalUID") == p["iCalUID"]]
    for prop in ("privateExtendedProperty", "sharedExtendedProperty"):
        scope = "private" if prop.startswith("private") else "shared"
        for cond in p.get(prop, []):
            key, _, value = cond.partition("=")
            items = [ev for ev in items
                     if ev.get("extendedProperties", {}).get(scope, {}).get(key) == value]
    cal_tz = _cal_tz(cal)
    if p.get("orderBy") == "updated":
        items.sort(key=lambda ev: ev["updated"])
    else:
        items.sort(key=_sort_key_start(cal_tz))
    page, token = paginate(items, p, default_size=250, max_size=2500)
    entry = req.store.get(ENTRY, cal["id"]) or {}
    out: dict[str, Any] = {
        "kind": "calendar#events",
        "etag": _etag(req.store),
        "summary": cal["summary"],
        "description": cal.get("description", ""),
        "updated": max((ev["updated"] for ev in items), default=stamp()),
        "timeZone": p.get("timeZone") or cal["timeZone"],
        "accessRole": "owner",
        "defaultReminders": entry.get("defaultReminders", []),
        "items": [_render(ev, req, cal) for ev in page],
    }
    if token:
        out["nextPageToken"] = token
    return out


@handler("calendar.events.instances")
def events_instances(req: Request) -> dict[str, Any]:
    cal = _calendar(req)
    master = req.store.get(EVENT, req.params["eventId"], cal["id"])
    if master is None:
        raise not_found()
    p = req.params
    t_min = parse_datetime(p["timeMin"], "timeMin").astimezone(UTC) if p.get("timeMin") else None
    t_max = parse_datetime(p["timeMax"], "timeMax").astimezone(UTC) if p.get("timeMax") else None
    related = [ev for ev in req.store.list(EVENT, cal["id"])
               if ev["id"] == master["id"] or ev.get("recurringEventId") == master["id"]]
    items = _occurrences(related, cal, True, t_min, t_max)
    if not p.get("showDeleted"):
        items = [ev for ev in items if ev.get("status") != "cancelled"]
    items.sort(key=_sort_key_start(_cal_tz(cal)))
    page, token = paginate(items, p, default_size=250, max_size=2500)
    out: dict[str, Any] = {"kind": "calendar#events", "etag": _etag(req.store), "summary": cal["summary"],
                           "timeZone": cal["timeZone"], "accessRole": "owner",
                           "items": [_render(ev, req, cal) for ev in page]}
    if token:
        out["nextPageToken"] = token
    return out


# ---- events: single-resource methods ---------------------------------------------------
def _insert(req: Request, cal: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    ev = {k: v for k, v in body.items() if k not in _READ_ONLY}
    if "id" in body:
        if not isinstance(body["id"], str) or not _EVENT_ID.match(body["id"]):
            raise ApiError(400, "Invalid resource id value.", "invalid")
        ev["id"] = body["id"]
    else:
        ev["id"] = Store.new_id(26)
    ev["iCalUID"] = body.get("iCalUID") or f"{ev['id']}@google.com"
    _normalise(ev, req, cal)
    if not req.store.insert(EVENT, ev["id"], ev, cal["id"]):
        raise duplicate()
    return ev


@handler("calendar.events.insert")
def events_insert(req: Request) -> dict[str, Any]:
    cal = _calendar(req)
    return _render(_insert(req, cal, req.body or {}), req, cal)


@handler("calendar.events.import")
def events_import(req: Request) -> dict[str, Any]:
    cal = _calendar(req)
    body = req.body or {}
    if not body.get("iCalUID"):
        raise ApiError(400, "Missing iCalUID.", "required")
    for ev in req.store.list(EVENT, cal["id"]):
        if ev.get("iCalUID") == body["iCalUID"]:  # import updates the existing copy
            new = {k: v for k, v in body.items() if k not in _READ_ONLY}
            new.update(id=ev["id"], iCalUID=ev["iCalUID"], created=ev["created"],
                       sequence=ev.get("sequence", 0) + 1)
            req.store.put(EVENT, ev["id"], _normalise(new, req, cal), cal["id"])
            return _render(new, req, cal)
    return _render(_insert(req, cal, body), req, cal)


@handler("calendar.events.get")
def events_get(req: Request) -> dict[str, Any]:
    cal = _calendar(req)
    ev, _ = _lookup(req, cal, req.params["eventId"])
    return _render(ev, req, cal)


def _merge(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """Patch semantics: objects merge recursively, arrays and scalars replace, null clears."""
    out = dict(base)
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _write(req: Request, patch: bool) -> dict[str, Any]:
    cal = _calendar(req)
    old, _ = _lookup(req, cal, req.params["eventId"])
    body = {k: v for k, v in (req.body or {}).items() if k not in _READ_ONLY and k != "id"}
    if patch:
        new = _merge(old, body)
        for key in ("start", "end"):  # a new date replaces dateTime and vice versa
            if key in body and isinstance(body[key], dict):
                if "date" in body[key]:
                    new[key].pop("dateTime", None)
                if "dateTime" in body[key]:
                    new[key].pop("date", None)
    else:
        keep = ("id", "iCalUID", "created", "recurringEventId", "originalStartTime", "creator", "sequence")
        new = {k: old[k] for k in keep if k in old}
        new.update(body)
    new["sequence"] = old.get("sequence", 0) + 1
    _normalise(new, req, cal)
    req.store.put(EVENT, new["id"], new, cal["id"])
    return _render(new, req, cal)


update_and_patch("calendar.events.update", "calendar.events.patch", _write)


@handler("calendar.events.delete")
def events_delete(req: Request) -> None:
    cal = _calendar(req)
    ev, _ = _lookup(req, cal, req.params["eventId"])
    if ev.get("status") == "cancelled":
        raise ApiError(410, "Resource has been deleted", "deleted", status="NOT_FOUND")
    # Deleted events stay visible with showDeleted=true, as in Google Calendar.
    ev["status"] = "cancelled"
    ev["updated"] = stamp()
    ev["etag"] = _etag(req.store)
    req.store.put(EVENT, ev["id"], ev, cal["id"])
    if ev.get("recurrence"):
        for other in req.store.list(EVENT, cal["id"]):
            if other.get("recurringEventId") == ev["id"]:
                other["status"] = "cancelled"
                req.store.put(EVENT, other["id"], other, cal["id"])


@handler("calendar.events.move")
def events_move(req: Request) -> dict[str, Any]:
    cal = _calendar(req)
    ev = req.store.get(EVENT, req.params["eventId"], cal["id"])
    if ev is None:
        raise not_found()
    if ev.get("recurringEventId"):
        raise ApiError(400, "Cannot change the organizer of an instance.", "cannotChangeOrganizerOfInstance")
    dest_id = req.params["destination"]
    dest_id = req.user if dest_id == "primary" else dest_id
    dest = req.store.get(CAL, dest_id)
    if dest is None:
        raise not_found()
    if req.store.exists(EVENT, ev["id"], dest_id):
        raise duplicate()
    moving = [ev] + [o for o in req.store.list(EVENT, cal["id"]) if o.get("recurringEventId") == ev["id"]]
    for item in moving:
        req.store.delete(EVENT, item["id"], cal["id"])
        _normalise(item, req, dest)
        req.store.put(EVENT, item["id"], item, dest_id)
    return _render(ev, req, dest)


_QUICK_TIME = re.compile(r"\b(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)\b|\bat\s+(\d{1,2}):(\d{2})\b", re.IGNORECASE)
_QUICK_DATE = re.compile(r"\b(?:on\s+)?(\d{4}-\d{2}-\d{2}|today|tomorrow)\b", re.IGNORECASE)


@handler("calendar.events.quickAdd")
def events_quick_add(req: Request) -> dict[str, Any]:
    """A small subset of Google's parser: ``<title> [on] YYYY-MM-DD|today|tomorrow [at] 3pm|15:30``.

    Without a time the event is all-day; without a date it is today. One hour long.
    """
    cal = _calendar(req)
    text = req.params["text"]
    tz = _cal_tz(cal)
    today = datetime.now(tz).date()
    day = today
    dm = _QUICK_DATE.search(text)
    if dm:
        word = dm.group(1).lower()
        day = today if word == "today" else today + timedelta(days=1) if word == "tomorrow" \
            else datetime.fromisoformat(word).date()
        text = text.replace(dm.group(0), " ")
    tm = _QUICK_TIME.search(text)
    body: dict[str, Any]
    if tm:
        if tm.group(4):
            hour, minute = int(tm.group(4)), int(tm.group(5))
        else:
            hour, minute = int(tm.group(1)) % 12, int(tm.group(2) or 0)
            hour += 12 if tm.group(3).lower() == "pm" else 0
        text = text.replace(tm.group(0), " ")
        start = datetime(day.year, day.month, day.day, hour, minute, tzinfo=tz)
        body = {"start": {"dateTime": rfc3339(start), "timeZone": cal["timeZone"]},
                "end": {"dateTime": rfc3339(start + timedelta(hours=1)), "timeZone": cal["timeZone"]}}
    else:
        body = {"start": {"date": day.isoformat()}, "end": {"date": (day + timedelta(days=1)).isoformat()}}
    body["summary"] = " ".join(text.split()) or req.params["text"]
    return _render(_insert(req, cal, body), req, cal)


# ---- freebusy ------------------------------------------------------------------------------
@handler("calendar.freebusy.query")
def freebusy_query(req: Request) -> dict[str, Any]:
    body = req.body or {}
    for key in ("timeMin", "timeMax"):
        if not body.get(key):
            raise ApiError(400, f"Missing {key}.", "required")
    t_min = parse_datetime(body["timeMin"], "timeMin").astimezone(UTC)
    t_max = parse_datetime(body["timeMax"], "timeMax").astimezone(UTC)
    out_tz = zone(body.get("timeZone") or "UTC")
    calendars: dict[str, Any] = {}
    for item in body.get("items", []):
        cal_id = req.user if item.get("id") == "primary" else item.get("id", "")
        cal = req.store.get(CAL, cal_id)
        if cal is None:
            calendars[item.get("id", "")] = {"errors": [{"domain": "global", "reason": "notFound"}], "busy": []}
            continue
        cal_tz = _cal_tz(cal)
        busy = []
        for ev in _occurrences(req.store.list(EVENT, cal_id), cal, True, t_min, t_max):
            if ev.get("status") == "cancelled" or ev.get("transparency") == "transparent":
                continue
            s, e = _bounds(ev, cal_tz)
            busy.append((max(s, t_min), min(e, t_max)))
        busy.sort()
        merged: list[list[datetime]] = []
        for s, e in busy:
            if merged and s <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], e)
            else:
                merged.append([s, e])
        calendars[item["id"]] = {"busy": [{"start": rfc3339(s.astimezone(out_tz)),
                                           "end": rfc3339(e.astimezone(out_tz))} for s, e in merged]}
    return {"kind": "calendar#freeBusy", "timeMin": body["timeMin"], "timeMax": body["timeMax"],
            "calendars": calendars}
