"""Calendar v3 conformance: googleapiclient against the emulator."""

from __future__ import annotations

import json
from typing import Any

import pytest
from googleapiclient.errors import HttpError

USER = "me@deskact.test"


def _status(exc: pytest.ExceptionInfo[HttpError]) -> tuple[int, dict[str, Any]]:
    err = json.loads(exc.value.content)["error"]
    return exc.value.resp.status, err


@pytest.fixture
def cal(emu: Any) -> Any:
    return emu.build("calendar", "v3")


def timed(summary: str, start: str, end: str, **extra: Any) -> dict[str, Any]:
    return {"summary": summary, "start": {"dateTime": start}, "end": {"dateTime": end}, **extra}


def test_primary_calendar_and_calendar_list(cal: Any) -> None:
    primary = cal.calendars().get(calendarId="primary").execute()
    assert primary["id"] == USER and primary["kind"] == "calendar#calendar"
    entries = cal.calendarList().list().execute()["items"]
    assert [e["id"] for e in entries] == [USER]
    assert entries[0]["primary"] is True and entries[0]["accessRole"] == "owner"


def test_calendars_insert_get_delete_clear(cal: Any) -> None:
    new = cal.calendars().insert(body={"summary": "Team", "timeZone": "Europe/Paris"}).execute()
    assert new["id"].endswith("@group.calendar.google.com")
    assert cal.calendarList().get(calendarId=new["id"]).execute()["summary"] == "Team"
    cal.events().insert(calendarId=new["id"], body=timed("x", "2024-01-01T10:00:00Z", "2024-01-01T11:00:00Z")).execute()
    with pytest.raises(HttpError) as exc:
        cal.calendars().clear(calendarId=new["id"]).execute()
    assert exc.value.resp.status == 400
    cal.calendars().delete(calendarId=new["id"]).execute()
    with pytest.raises(HttpError) as exc:
        cal.calendars().get(calendarId=new["id"]).execute()
    assert _status(exc)[0] == 404
    assert [e["id"] for e in cal.calendarList().list().execute()["items"]] == [USER]
    # primary: cannot be deleted, can be cleared
    with pytest.raises(HttpError) as exc:
        cal.calendars().delete(calendarId="primary").execute()
    assert exc.value.resp.status == 400
    cal.events().insert(calendarId="primary", body=timed("y", "2024-01-01T10:00:00Z", "2024-01-01T11:00:00Z")).execute()
    cal.calendars().clear(calendarId="primary").execute()
    assert cal.events().list(calendarId="primary").execute()["items"] == []


def test_calendars_insert_requires_summary(cal: Any) -> None:
    with pytest.raises(HttpError) as exc:
        cal.calendars().insert(body={"timeZone": "UTC"}).execute()
    status, err = _status(exc)
    assert status == 400 and err["errors"][0]["reason"] == "required"


def test_event_insert_get_and_shape(cal: Any) -> None:
    ev = cal.events().insert(
        calendarId="primary",
        body=timed("Standup", "2024-03-04T09:00:00-05:00", "2024-03-04T09:15:00-05:00",
                   attendees=[{"email": "bob@example.com"}, {"email": USER}], location="Room 1"),
    ).execute()
    assert ev["kind"] == "calendar#event" and ev["status"] == "confirmed"
    assert ev["etag"].startswith('"') and ev["iCalUID"] == ev["id"] + "@google.com"
    assert ev["organizer"] == {"email": USER, "self": True}
    assert ev["attendees"][0]["responseStatus"] == "needsAction"
    assert ev["attendees"][1].get("self") is True
    got = cal.events().get(calendarId="primary", eventId=ev["id"]).execute()
    assert got["summary"] == "Standup" and got["etag"] == ev["etag"]
    # rendered in the calendar's zone (UTC) unless timeZone is asked for
    assert got["start"]["dateTime"] == "2024-03-04T14:00:00Z"
    ny = cal.events().get(calendarId="primary", eventId=ev["id"], timeZone="America/New_York").execute()
    assert ny["start"]["dateTime"] == "2024-03-04T09:00:00-05:00"


def test_all_day_event_and_time_zone_field(cal: Any) -> None:
    ev = cal.events().insert(calendarId="primary", body={
        "summary": "Holiday", "start": {"date": "2024-07-04"}, "end": {"date": "2024-07-05"}}).execute()
    assert ev["start"] == {"date": "2024-07-04"}
    tz = cal.events().insert(calendarId="primary", body={
        "summary": "Tokyo call",
        "start": {"dateTime": "2024-07-04T10:00:00", "timeZone": "Asia/Tokyo"},
        "end": {"dateTime": "2024-07-04T11:00:00", "timeZone": "Asia/Tokyo"}}).execute()
    assert tz["start"] == {"dateTime": "2024-07-04T10:00:00+09:00", "timeZone": "Asia/Tokyo"}
    # a naive dateTime without timeZone is rejected
    with pytest.raises(HttpError) as exc:
        cal.events().insert(calendarId="primary", body={
            "start": {"dateTime": "2024-07-04T10:00:00"}, "end": {"dateTime": "2024-07-04T11:00:00"}}).execute()
    assert _status(exc)[0] == 400
    with pytest.raises(HttpError) as exc:
        cal.events().insert(calendarId="primary", body={
            "summary": "x", "start": {"dateTime": "2024-07-04T10:00:00", "timeZone": "Mars/Base"},
            "end": {"dateTime": "2024-07-04T11:00:00", "timeZone": "Mars/Base"}}).execute()
    assert _status(exc)[0] == 400


def test_event_errors_404_400_409(cal: Any) -> None:
    with pytest.raises(HttpError) as exc:
        cal.events().get(calendarId="primary", eventId="doesnotexist").execute()
    status, err = _status(exc)
    assert status == 404 and err["errors"][0]["reason"] == "notFound" and err["status"] == "NOT_FOUND"
    with pytest.raises(HttpError) as exc:
        cal.events().get(calendarId="nosuchcal@example.com", eventId="abcdef").execute()
    assert _status(exc)[0] == 404
    with pytest.raises(HttpError) as exc:  # missing end
        cal.events().insert(calendarId="primary", body={"start": {"date": "2024-01-01"}}).execute()
    assert _status(exc) [0] == 400
    with pytest.raises(HttpError) as exc:  # end before start
        cal.events().insert(calendarId="primary", body=timed("x", "2024-01-01T10:00:00Z", "2024-01-01T09:00:00Z")).execute()
    assert _status(exc)[1]["errors"][0]["reason"] == "timeRangeEmpty"
    body = timed("x", "2024-01-01T10:00:00Z", "2024-01-01T11:00:00Z", id="meeting0001")
    assert cal.events().insert(calendarId="primary", body=body).execute()["id"] == "meeting0001"
    with pytest.raises(HttpError) as exc:
        cal.events().insert(calendarId="primary", body=body).execute()
    status, err = _status(exc)
    assert status == 409 and err["errors"][0]["reason"] == "duplicate"
    with pytest.raises(HttpError) as exc:  # ids are base32hex: 'x', 'y', 'z' and upper case are invalid
        cal.events().insert(calendarId="primary", body={**body, "id": "BAD_ID!"}).execute()
    assert _status(exc)[0] == 400


def test_bad_parameters_are_400(cal: Any, emu: Any) -> None:
    with pytest.raises(HttpError) as exc:
        cal.events().list(calendarId="primary", timeMin="yesterday").execute()
    assert _status(exc)[0] == 400
    with pytest.raises(HttpError) as exc:  # orderBy=startTime needs singleEvents
        cal.events().list(calendarId="primary", orderBy="startTime").execute()
    assert _status(exc)[0] == 400
    import httplib2

    http = httplib2.Http()
    resp, content = http.request(f"{emu.url}/calendar/v3/calendars/primary/events?maxResults=abc")
    assert resp.status == 400 and json.loads(content)["error"]["errors"][0]["location"] == "maxResults"
    # googleapiclient checks enums itself; the emulator checks them for raw callers
    resp, content = http.request(f"{emu.url}/calendar/v3/calendars/primary/events?orderBy=nonsense")
    assert resp.status == 400 and json.loads(content)["error"]["errors"][0]["location"] == "orderBy"
    resp, content = http.request(f"{emu.url}/calendar/v3/calendars/primary/events?bogus=1")
    assert resp.status == 400
    resp, content = http.request(f"{emu.url}/calendar/v3/no/such/method")
    assert resp.status == 404 and json.loads(content)["error"]["code"] == 404
    # in the discovery document but not emulated: 501 naming the method
    resp, content = http.request(f"{emu.url}/calendar/v3/calendars/primary/acl")
    assert resp.status == 501 and "calendar.acl.list" in json.loads(content)["error"]["message"]


def test_update_patch_delete_show_deleted(cal: Any) -> None:
    ev = cal.events().insert(calendarId="primary", body=timed(
        "Draft", "2024-05-01T10:00:00Z", "2024-05-01T11:00:00Z", description="d", location="L")).execute()
    patched = cal.events().patch(calendarId="primary", eventId=ev["id"], body={"summary": "Final"}).execute()
    assert patched["summary"] == "Final" and patched["location"] == "L"
    assert patched["etag"] != ev["etag"] and patched["sequence"] == 1
    updated = cal.events().update(calendarId="primary", eventId=ev["id"], body=timed(
        "Replaced", "2024-05-02T10:00:00Z", "2024-05-02T11:00:00Z")).execute()
    assert "location" not in updated and updated["summary"] == "Replaced"
    with pytest.raises(HttpError) as exc:
        cal.events().update(calendarId="primary", eventId="missing123", body=timed(
            "x", "2024-05-02T10:00:00Z", "2024-05-02T11:00:00Z")).execute()
    assert exc.value.resp.status == 404
    cal.events().delete(calendarId="primary", eventId=ev["id"]).execute()
    assert cal.events().list(calendarId="primary").execute()["items"] == []
    deleted = cal.events().list(calendarId="primary", showDeleted=True).execute()["items"]
    assert [d["status"] for d in deleted] == ["cancelled"]
    with pytest.raises(HttpError) as exc:
        cal.events().delete(calendarId="primary", eventId=ev["id"]).execute()
    assert exc.value.resp.status == 410


def test_list_time_window_q_order_and_paging(cal: Any) -> None:
    for day in range(1, 8):
        cal.events().insert(calendarId="primary", body=timed(
            f"Day {day} {'review' if day % 2 else 'sync'}",
            f"2024-02-0{day}T10:00:00Z", f"2024-02-0{day}T11:00:00Z")).execute()
    window = cal.events().list(calendarId="primary", timeMin="2024-02-03T10:30:00Z",
                               timeMax="2024-02-05T10:00:00Z", singleEvents=True, orderBy="startTime").execute()
    # end > timeMin and start < timeMax
    assert [e["summary"] for e in window["items"]] == ["Day 3 review", "Day 4 sync"]
    found = cal.events().list(calendarId="primary", q="REVIEW").execute()["items"]
    assert len(found) == 4
    seen: list[str] = []
    token = None
    pages = 0
    while True:
        page = cal.events().list(calendarId="primary", maxResults=3, pageToken=token,
                                 singleEvents=True, orderBy="startTime").execute()
        seen += [e["summary"] for e in page["items"]]
        pages += 1
        token = page.get("nextPageToken")
        if not token:
            break
    assert pages == 3 and seen == [f"Day {d} {'review' if d % 2 else 'sync'}" for d in range(1, 8)]
    with pytest.raises(HttpError) as exc:
        cal.events().list(calendarId="primary", pageToken="garbage").execute()
    assert exc.value.resp.status == 400


def test_fields_partial_response(cal: Any) -> None:
    cal.events().insert(calendarId="primary", body=timed(
        "A", "2024-01-01T10:00:00Z", "2024-01-01T11:00:00Z", location="here")).execute()
    out = cal.events().list(calendarId="primary", fields="items(summary,start/dateTime),kind").execute()
    assert out == {"kind": "calendar#events",
                   "items": [{"summary": "A", "start": {"dateTime": "2024-01-01T10:00:00Z"}}]}
    with pytest.raises(HttpError) as exc:
        cal.events().list(calendarId="primary", fields="items(nope)").execute()
    assert exc.value.resp.status == 400


def test_etag_if_none_match(cal: Any, emu: Any) -> None:
    import httplib2

    ev = cal.events().insert(calendarId="primary", body=timed("A", "2024-01-01T10:00:00Z", "2024-01-01T11:00:00Z")).execute()
    url = f"{emu.url}/calendar/v3/calendars/primary/events/{ev['id']}"
    resp, _ = httplib2.Http().request(url, headers={"If-None-Match": ev["etag"]})
    assert resp.status == 304
    resp, _ = httplib2.Http().request(url, headers={"If-None-Match": '"stale"'})
    assert resp.status == 200 and resp["etag"] == ev["etag"]


def test_recurring_weekly_byday_count_single_events(cal: Any) -> None:
    series = cal.events().insert(calendarId="primary", body={
        "summary": "Gym",
        "start": {"dateTime": "2024-03-04T07:00:00", "timeZone": "America/New_York"},
        "end": {"dateTime": "2024-03-04T08:00:00", "timeZone": "America/New_York"},
        "recurrence": ["RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4"],
    }).execute()
    masters = cal.events().list(calendarId="primary").execute()["items"]
    assert len(masters) == 1 and masters[0]["recurrence"] == ["RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4"]
    inst = cal.events().list(calendarId="primary", singleEvents=True, orderBy="startTime",
                             timeZone="America/New_York").execute()["items"]
    # DST starts 2024-03-10 in New York: wall time stays 07:00, offset changes
    assert [i["start"]["dateTime"] for i in inst] == [
        "2024-03-04T07:00:00-05:00", "2024-03-06T07:00:00-05:00",
        "2024-03-11T07:00:00-04:00", "2024-03-13T07:00:00-04:00"]
    assert all(i["recurringEventId"] == series["id"] for i in inst)
    assert inst[0]["id"] == f"{series['id']}_20240304T120000Z"
    assert inst[0]["originalStartTime"]["dateTime"] == "2024-03-04T07:00:00-05:00"
    got = cal.events().get(calendarId="primary", eventId=inst[2]["id"]).execute()
    assert got["recurringEventId"] == series["id"]
    listed = cal.events().instances(calendarId="primary", eventId=series["id"]).execute()["items"]
    assert len(listed) == 4


def test_recurring_daily_interval_until_monthly_yearly(cal: Any) -> None:
    def starts(rule: str, start: str = "2024-01-31") -> list[str]:
        cal.calendars().clear(calendarId="primary").execute()
        cal.events().insert(calendarId="primary", body={
            "summary": "r", "start": {"date": start}, "end": {"date": "2024-02-01" if start == "2024-01-31" else start},
            "recurrence": [rule]} if False else {
            "summary": "r", "start": {"dateTime": f"{start}T12:00:00", "timeZone": "UTC"},
            "end": {"dateTime": f"{start}T13:00:00", "timeZone": "UTC"}, "recurrence": [rule]}).execute()
        items = cal.events().list(calendarId="primary", singleEvents=True, orderBy="startTime",
                                  timeMax="2027-01-01T00:00:00Z").execute()["items"]
        return [i["start"]["dateTime"][:10] for i in items]

    assert starts("RRULE:FREQ=DAILY;INTERVAL=2;UNTIL=20240206T235959Z") == [
        "2024-01-31", "2024-02-02", "2024-02-04", "2024-02-06"]
    # Jan 31 monthly: months without a 31st are skipped (RFC 5545, as Google does)
    assert starts("RRULE:FREQ=MONTHLY;COUNT=3") == ["2024-01-31", "2024-03-31", "2024-05-31"]
    assert starts("RRULE:FREQ=YEARLY;COUNT=3") == ["2024-01-31", "2025-01-31", "2026-01-31"]
    assert starts("RRULE:FREQ=MONTHLY;BYDAY=1FR;COUNT=2") == ["2024-02-02", "2024-03-01"]


def test_recurring_all_day_exdate_and_instance_edit_delete(cal: Any) -> None:
    series = cal.events().insert(calendarId="primary", body={
        "summary": "Daily",
        "start": {"date": "2024-04-01"}, "end": {"date": "2024-04-02"},
        "recurrence": ["RRULE:FREQ=DAILY;COUNT=5", "EXDATE;VALUE=DATE:20240403"],
    }).execute()
    inst = cal.events().list(calendarId="primary", singleEvents=True, orderBy="startTime").execute()["items"]
    assert [i["start"]["date"] for i in inst] == ["2024-04-01", "2024-04-02", "2024-04-04", "2024-04-05"]
    assert inst[0]["id"] == f"{series['id']}_20240401"
    cal.events().patch(calendarId="primary", eventId=inst[1]["id"], body={"summary": "Moved"}).execute()
    cal.events().delete(calendarId="primary", eventId=inst[2]["id"]).execute()
    after = cal.events().list(calendarId="primary", singleEvents=True, orderBy="startTime").execute()["items"]
    assert [(i["start"]["date"], i["summary"]) for i in after] == [
        ("2024-04-01", "Daily"), ("2024-04-02", "Moved"), ("2024-04-05", "Daily")]
    assert after[1]["recurringEventId"] == series["id"]


def test_recurring_in_window_and_unbounded(cal: Any) -> None:
    cal.events().insert(calendarId="primary", body={
        "summary": "Forever", "start": {"dateTime": "2024-01-01T09:00:00", "timeZone": "UTC"},
        "end": {"dateTime": "2024-01-01T10:00:00", "timeZone": "UTC"}, "recurrence": ["RRULE:FREQ=WEEKLY"]}).execute()
    items = cal.events().list(calendarId="primary", singleEvents=True, orderBy="startTime",
                              timeMin="2025-06-01T00:00:00Z", timeMax="2025-06-30T00:00:00Z").execute()["items"]
    assert [i["start"]["dateTime"][:10] for i in items] == ["2025-06-02", "2025-06-09", "2025-06-16", "2025-06-23"]
    # not expanded: the series shows once when any instance is in the window
    masters = cal.events().list(calendarId="primary", timeMin="2025-06-01T00:00:00Z",
                                timeMax="2025-06-30T00:00:00Z").execute()["items"]
    assert len(masters) == 1
    with pytest.raises(HttpError) as exc:
        cal.events().insert(calendarId="primary", body={
            "summary": "bad", "start": {"dateTime": "2024-01-01T09:00:00Z"},
            "end": {"dateTime": "2024-01-01T10:00:00Z"}, "recurrence": ["RRULE:FREQ=WEEKLY"]}).execute()
    assert exc.value.resp.status == 400  # recurring events need start.timeZone
    with pytest.raises(HttpError) as exc:
        cal.events().insert(calendarId="primary", body={
            "summary": "bad", "start": {"dateTime": "2024-01-01T09:00:00", "timeZone": "UTC"},
            "end": {"dateTime": "2024-01-01T10:00:00", "timeZone": "UTC"}, "recurrence": ["RRULE:FREQ=SOMETIMES"]}).execute()
    assert exc.value.resp.status == 400


def test_move_and_quick_add(cal: Any) -> None:
    other = cal.calendars().insert(body={"summary": "Other"}).execute()
    ev = cal.events().insert(calendarId="primary", body=timed("M", "2024-01-01T10:00:00Z", "2024-01-01T11:00:00Z")).execute()
    moved = cal.events().move(calendarId="primary", eventId=ev["id"], destination=other["id"]).execute()
    assert moved["id"] == ev["id"] and moved["organizer"]["email"] == other["id"]
    assert cal.events().list(calendarId="primary").execute()["items"] == []
    assert len(cal.events().list(calendarId=other["id"]).execute()["items"]) == 1
    with pytest.raises(HttpError) as exc:
        cal.events().move(calendarId=other["id"], eventId=ev["id"], destination="nope@example.com").execute()
    assert exc.value.resp.status == 404
    qa = cal.events().quickAdd(calendarId="primary", text="Dentist on 2024-09-10 at 3pm").execute()
    assert qa["summary"] == "Dentist" and qa["start"]["dateTime"] == "2024-09-10T15:00:00Z"


def test_calendar_time_zone_applies_to_all_day_windows(cal: Any) -> None:
    tokyo = cal.calendars().insert(body={"summary": "JP", "timeZone": "Asia/Tokyo"}).execute()
    cal.events().insert(calendarId=tokyo["id"], body={
        "summary": "day", "start": {"date": "2024-05-10"}, "end": {"date": "2024-05-11"}}).execute()
    # 2024-05-10 in Tokyo is 2024-05-09T15:00Z .. 2024-05-10T15:00Z
    hit = cal.events().list(calendarId=tokyo["id"], timeMin="2024-05-09T15:30:00Z",
                            timeMax="2024-05-09T16:00:00Z").execute()["items"]
    miss = cal.events().list(calendarId=tokyo["id"], timeMin="2024-05-10T15:00:00Z").execute()["items"]
    assert len(hit) == 1 and miss == []
    listed = cal.events().list(calendarId=tokyo["id"]).execute()
    assert listed["timeZone"] == "Asia/Tokyo"


def test_freebusy(cal: Any) -> None:
    cal.events().insert(calendarId="primary", body=timed("a", "2024-01-01T10:00:00Z", "2024-01-01T11:00:00Z")).execute()
    cal.events().insert(calendarId="primary", body=timed("b", "2024-01-01T10:30:00Z", "2024-01-01T12:00:00Z")).execute()
    cal.events().insert(calendarId="primary", body=timed(
        "free", "2024-01-01T14:00:00Z", "2024-01-01T15:00:00Z", transparency="transparent")).execute()
    fb = cal.freebusy().query(body={"timeMin": "2024-01-01T00:00:00Z", "timeMax": "2024-01-02T00:00:00Z",
                                    "items": [{"id": "primary"}]}).execute()
    assert fb["calendars"]["primary"]["busy"] == [{"start": "2024-01-01T10:00:00Z", "end": "2024-01-01T12:00:00Z"}]


def test_batch_calendar(cal: Any) -> None:
    results: dict[str, Any] = {}

    def cb(request_id: str, response: Any, exception: Exception | None) -> None:
        results[request_id] = exception or response

    batch = cal.new_batch_http_request(callback=cb)
    for i in range(3):
        batch.add(cal.events().insert(calendarId="primary", body=timed(
            f"b{i}", "2024-01-01T10:00:00Z", "2024-01-01T11:00:00Z")), request_id=f"r{i}")
    batch.add(cal.events().get(calendarId="primary", eventId="missing00"), request_id="bad")
    batch.execute()
    assert {results[f"r{i}"]["summary"] for i in range(3)} == {"b0", "b1", "b2"}
    assert isinstance(results["bad"], HttpError) and results["bad"].resp.status == 404
    assert len(cal.events().list(calendarId="primary").execute()["items"]) == 3


def test_settings_and_colors(cal: Any) -> None:
    assert cal.settings().get(setting="timezone").execute()["value"] == "UTC"
    assert "1" in cal.colors().get().execute()["event"]


def test_reset_and_snapshots(cal: Any, emu: Any) -> None:
    cal.events().insert(calendarId="primary", body=timed("keep", "2024-01-01T10:00:00Z", "2024-01-01T11:00:00Z")).execute()
    emu.emulator.snapshot("one-event")
    cal.events().insert(calendarId="primary", body=timed("extra", "2024-01-01T10:00:00Z", "2024-01-01T11:00:00Z")).execute()
    emu.emulator.reset("one-event")
    assert [e["summary"] for e in cal.events().list(calendarId="primary").execute()["items"]] == ["keep"]
    import httplib2

    resp, _body = httplib2.Http().request(f"{emu.url}/_emulator/reset", "POST")
    assert resp.status == 200
    assert cal.events().list(calendarId="primary").execute()["items"] == []
    resp, _ = httplib2.Http().request(f"{emu.url}/_emulator/reset", "POST", body='{"snapshot": "nope"}')
    assert resp.status == 404
