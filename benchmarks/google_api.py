"""Google API emulator: request latency and reset time.

    .venv/bin/python benchmarks/google.py [--repeat 200]

Starts one in-process emulator (TCP and Unix socket), seeds a realistic state
(50 calendar events incl. recurring ones, 200 Gmail messages, labels, drafts),
then times:

- each call of a representative mix through googleapiclient (what an agent's
  code pays, client overhead included), and the whole mix;
- the same kind of calls as raw keep-alive HTTP over TCP and over the Unix
  socket (server cost only);
- reset to empty and to a named snapshot, in Python and over HTTP.

Prints markdown tables (median and p95, milliseconds) for BENCHMARKS.md.
Other services add their calls to ``MIX`` (one ``(name, fn(services))`` each).
"""

from __future__ import annotations

import os
import sys

# This file is named google.py: drop its folder from sys.path so that
# ``import google.api_core`` (inside googleapiclient) finds the real package.
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]

import argparse
import base64
import http.client
import json
import socket
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from deskact.toolkits.google.client import build_service
from deskact.toolkits.google.emulator import Emulator

Services = dict[str, Any]


def measure(fn: Callable[[], object], repeat: int) -> list[float]:
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return times


def p50_p95(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def raw_mail(i: int) -> str:
    msg = EmailMessage()
    msg["From"] = f"sender{i % 17}@example.com"
    msg["To"] = "me@deskact.test"
    msg["Subject"] = f"Message {i} about {'invoice' if i % 5 == 0 else 'meeting'}"
    msg.set_content(f"Hello,\n\nthis is message number {i}.\n" * 5)
    return base64.urlsafe_b64encode(msg.as_bytes()).decode()


def seed(svc: Services) -> dict[str, str]:
    cal, gm = svc["calendar"], svc["gmail"]
    ids: dict[str, str] = {}
    for i in range(50):
        body: dict[str, Any] = {
            "summary": f"Event {i}", "location": "Room", "attendees": [{"email": f"p{i}@example.com"}],
            "start": {"dateTime": f"2024-06-{1 + i % 28:02d}T{8 + i % 9:02d}:00:00", "timeZone": "Europe/Berlin"},
            "end": {"dateTime": f"2024-06-{1 + i % 28:02d}T{9 + i % 9:02d}:00:00", "timeZone": "Europe/Berlin"},
        }
        if i % 10 == 0:
            body["recurrence"] = ["RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=20"]
        ids["event"] = cal.events().insert(calendarId="primary", body=body).execute()["id"]
    label = gm.users().labels().create(userId="me", body={"name": "Invoices"}).execute()
    for i in range(200):
        labels = ["INBOX"] + (["UNREAD"] if i % 3 else []) + ([label["id"]] if i % 5 == 0 else [])
        ids["message"] = gm.users().messages().insert(userId="me", body={"raw": raw_mail(i), "labelIds": labels}).execute()["id"]
    gm.users().drafts().create(userId="me", body={"message": {"raw": raw_mail(999)}}).execute()
    return ids


def build_mix(ids: dict[str, str]) -> list[tuple[str, Callable[[Services], Any]]]:
    return [
        ("calendar events.list (week, singleEvents)", lambda s: s["calendar"].events().list(
            calendarId="primary", timeMin="2024-06-03T00:00:00Z", timeMax="2024-06-10T00:00:00Z",
            singleEvents=True, orderBy="startTime").execute()),
        ("calendar events.get", lambda s: s["calendar"].events().get(calendarId="primary", eventId=ids["event"]).execute()),
        ("calendar events.insert", lambda s: s["calendar"].events().insert(calendarId="primary", body={
            "summary": "bench", "start": {"dateTime": "2024-07-01T10:00:00Z"},
            "end": {"dateTime": "2024-07-01T11:00:00Z"}}).execute()),
        ("calendar events.patch", lambda s: s["calendar"].events().patch(
            calendarId="primary", eventId=ids["event"], body={"description": "x"}).execute()),
        ("calendar calendarList.list", lambda s: s["calendar"].calendarList().list().execute()),
        ("gmail messages.list q=is:unread invoice", lambda s: s["gmail"].users().messages().list(
            userId="me", q="is:unread invoice", maxResults=20).execute()),
        ("gmail messages.list labelIds=INBOX", lambda s: s["gmail"].users().messages().list(
            userId="me", labelIds=["INBOX"], maxResults=50).execute()),
        ("gmail messages.get full", lambda s: s["gmail"].users().messages().get(userId="me", id=ids["message"]).execute()),
        ("gmail messages.send", lambda s: s["gmail"].users().messages().send(
            userId="me", body={"raw": raw_mail(7)}).execute()),
        ("gmail messages.modify", lambda s: s["gmail"].users().messages().modify(
            userId="me", id=ids["message"], body={"addLabelIds": ["STARRED"]}).execute()),
        ("gmail labels.list", lambda s: s["gmail"].users().labels().list(userId="me").execute()),
    ]


def seed_workspace(svc: Services) -> dict[str, str]:
    """Drive/Sheets/Docs state: 3 folders of 40 files, a 200-row sheet with formulas, a 60-paragraph doc."""
    drive, sheets, docs = svc["drive"], svc["sheets"], svc["docs"]
    ids: dict[str, str] = {}
    for f in range(3):
        folder = drive.files().create(body={"name": f"Folder {f}", "mimeType": "application/vnd.google-apps.folder"}).execute()
        for i in range(40):
            ids["file"] = drive.files().create(body={"name": f"report {f}-{i}.txt", "parents": [folder["id"]],
                                                     "mimeType": "text/plain"}).execute()["id"]
        ids["folder"] = folder["id"]
    ids["sheet"] = sheets.spreadsheets().create(body={"properties": {"title": "Sales"}}).execute()["spreadsheetId"]
    rows = [["Region", "Q1", "Q2", "Q3", "Total"]] + [
        [f"r{i}", str(i), str(i * 2), str(i * 3), f"=SUM(B{i + 2}:D{i + 2})"] for i in range(200)]
    sheets.spreadsheets().values().update(spreadsheetId=ids["sheet"], range="A1", valueInputOption="USER_ENTERED",
                                          body={"values": rows}).execute()
    ids["doc"] = docs.documents().create(body={"title": "Minutes"}).execute()["documentId"]
    text = "".join(f"Paragraph {i}: the quarterly numbers look fine.\n" for i in range(60))
    docs.documents().batchUpdate(documentId=ids["doc"], body={"requests": [
        {"insertText": {"location": {"index": 1}, "text": text}}]}).execute()
    return ids


def build_workspace_mix(ids: dict[str, str]) -> list[tuple[str, Callable[[Services], Any]]]:
    import io

    from googleapiclient.http import MediaIoBaseUpload
    return [
        ("drive files.list q (name contains, in parents, trashed)", lambda s: s["drive"].files().list(
            q=f"name contains 'report' and '{ids['folder']}' in parents and trashed = false",
            pageSize=20, orderBy="name", fields="nextPageToken,files(id,name)").execute()),
        ("drive files.get", lambda s: s["drive"].files().get(fileId=ids["file"], fields="*").execute()),
        ("drive files.create (metadata)", lambda s: s["drive"].files().create(
            body={"name": "bench.txt", "mimeType": "text/plain"}).execute()),
        ("drive files.create (multipart upload, 10 KB)", lambda s: s["drive"].files().create(
            body={"name": "up.bin"}, media_body=MediaIoBaseUpload(io.BytesIO(b"x" * 10240), "application/octet-stream")).execute()),
        ("drive files.export (doc as text/plain)", lambda s: s["drive"].files().export(
            fileId=ids["doc"], mimeType="text/plain").execute()),
        ("sheets values.get (A1:E201, 200 formulas)", lambda s: s["sheets"].spreadsheets().values().get(
            spreadsheetId=ids["sheet"], range="Sheet1!A1:E201").execute()),
        ("sheets values.update (10x5, USER_ENTERED)", lambda s: s["sheets"].spreadsheets().values().update(
            spreadsheetId=ids["sheet"], range="Sheet1!G1", valueInputOption="USER_ENTERED",
            body={"values": [[str(i * j) for j in range(5)] for i in range(10)]}).execute()),
        ("sheets values.append", lambda s: s["sheets"].spreadsheets().values().append(
            spreadsheetId=ids["sheet"], range="Sheet1", valueInputOption="RAW", body={"values": [["x", 1, 2, 3]]}).execute()),
        ("docs documents.get (60 paragraphs)", lambda s: s["docs"].documents().get(documentId=ids["doc"]).execute()),
        ("docs batchUpdate (insertText + replaceAllText)", lambda s: s["docs"].documents().batchUpdate(
            documentId=ids["doc"], body={"requests": [
                {"insertText": {"location": {"index": 1}, "text": "New line\n"}},
                {"replaceAllText": {"containsText": {"text": "fine"}, "replaceText": "great"}}]}).execute()),
    ]


# Other services append here: MIX_EXTRA.append(("drive files.list", lambda s: ...)).
MIX_EXTRA: list[tuple[str, Callable[[Services], Any]]] = []


def raw_calls(conn_factory: Callable[[], http.client.HTTPConnection], ids: dict[str, str], repeat: int) -> list[float]:
    conn = conn_factory()
    paths = [
        ("GET", f"/calendar/v3/calendars/primary/events/{ids['event']}"),
        ("GET", "/calendar/v3/users/me/calendarList"),
        ("GET", f"/gmail/v1/users/me/messages/{ids['message']}?format=metadata"),
        ("GET", "/gmail/v1/users/me/labels"),
    ]

    def one_round() -> None:
        for method, path in paths:
            conn.request(method, path)
            resp = conn.getresponse()
            resp.read()
            assert resp.status == 200, (path, resp.status)

    return [t / len(paths) for t in measure(one_round, repeat)]


class UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path: str) -> None:
        super().__init__("localhost")
        self._path = path

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(self._path)


def _dump_state(url: str) -> list[tuple[str, str, str, str]]:
    """The seeded documents, read back through the public APIs (calendar events, gmail messages)."""
    cal = build_service("calendar", "v3", url)
    gm = build_service("gmail", "v1", url)
    rows = []
    for ev in cal.events().list(calendarId="primary", maxResults=2500).execute()["items"]:
        rows.append(("calendar.event", "me@deskact.test", ev["id"], json.dumps(ev)))
    for m in gm.users().messages().list(userId="me", maxResults=500).execute().get("messages", []):
        full = gm.users().messages().get(userId="me", id=m["id"], format="minimal").execute()
        rows.append(("gmail.message", "", m["id"], json.dumps(full)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="deskact-bench-"))
    sock_path = tmp / "google.sock"
    # The emulator runs in its own process, as in real use (the agent's kernel
    # is another process): client and server do not share one GIL.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code = ("from deskact.toolkits.google.emulator.cli import serve; from pathlib import Path; "
            f"serve(port={port}, socket_path=Path({str(sock_path)!r}))")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    proc.stdout.readline()  # type: ignore[union-attr]  # "serving on ..." once it accepts
    url = f"http://127.0.0.1:{port}"
    admin = http.client.HTTPConnection("127.0.0.1", port)

    def post(path: str, body: bytes = b"") -> None:
        admin.request("POST", path, body=body)
        resp = admin.getresponse()
        resp.read()
        assert resp.status == 200, (path, resp.status)

    svc: Services = {api: build_service(api, ver, url) for api, ver in
                     (("calendar", "v3"), ("gmail", "v1"), ("drive", "v3"), ("sheets", "v4"), ("docs", "v1"))}
    ids = seed(svc)
    ids.update(seed_workspace(svc))
    post("/_emulator/snapshot/seeded")
    mix = build_mix(ids) + build_workspace_mix(ids) + MIX_EXTRA

    rows: list[tuple[str, float, float]] = []
    all_times: list[float] = []
    for name, fn in mix:
        post("/_emulator/reset", b'{"snapshot": "seeded"}')  # same state for every operation
        times = measure(lambda fn=fn: fn(svc), args.repeat)
        all_times += times
        rows.append((name, *p50_p95(times)))
    rows.append(("**whole mix (googleapiclient)**", *p50_p95(all_times)))
    rows.append(("client only: `calendar.events()` (googleapiclient builds the resource, no request)",
                 *p50_p95(measure(lambda: svc["calendar"].events(), args.repeat))))
    rows.append(("client only: `sheets.spreadsheets().values()`",
                 *p50_p95(measure(lambda: svc["sheets"].spreadsheets().values(), args.repeat))))
    rows.append(("client only: `docs.documents()`", *p50_p95(measure(lambda: svc["docs"].documents(), args.repeat))))

    host = "127.0.0.1"
    post("/_emulator/reset", b'{"snapshot": "seeded"}')
    rows.append(("raw HTTP keep-alive, TCP (4 GETs, per request)",
                 *p50_p95(raw_calls(lambda: http.client.HTTPConnection(host, int(port)), ids, args.repeat))))
    rows.append(("raw HTTP keep-alive, Unix socket (per request)",
                 *p50_p95(raw_calls(lambda: UnixHTTPConnection(str(sock_path)), ids, args.repeat))))
    heavy = http.client.HTTPConnection(host, int(port))
    for name, path in [
        ("raw HTTP: calendar events.list (week, singleEvents)",
         ("/calendar/v3/calendars/primary/events?timeMin=2024-06-03T00:00:00Z&timeMax=2024-06-10T00:00:00Z"
         "&singleEvents=true&orderBy=startTime")),
        ("raw HTTP: gmail messages.list q=is:unread invoice",
         "/gmail/v1/users/me/messages?q=is%3Aunread%20invoice&maxResults=20"),
        ("raw HTTP: drive files.list q (name contains, in parents, trashed)",
         (f"/drive/v3/files?q=name%20contains%20%27report%27%20and%20%27{ids['folder']}%27%20in%20parents"
         "%20and%20trashed%20%3D%20false&pageSize=20&orderBy=name")),
        ("raw HTTP: sheets values.get (A1:E201, 200 formulas)",
         f"/v4/spreadsheets/{ids['sheet']}/values/Sheet1%21A1%3AE201"),
        ("raw HTTP: docs documents.get (60 paragraphs)", f"/v1/documents/{ids['doc']}"),
    ]:
        def get(path: str = path) -> None:
            heavy.request("GET", path)
            resp = heavy.getresponse()
            resp.read()
            assert resp.status == 200
        rows.append((name, *p50_p95(measure(get, args.repeat))))

    def batch10() -> None:
        b = svc["calendar"].new_batch_http_request()
        for _i in range(10):
            b.add(svc["calendar"].events().get(calendarId="primary", eventId=ids["event"]))
        b.execute()

    rows.append(("batch of 10 events.get (whole batch)", *p50_p95(measure(batch10, args.repeat // 4 or 1))))

    # Python-API resets on an in-process copy holding the same seeded state.
    emulator = Emulator()
    admin.request("GET", "/_emulator/health")
    admin.getresponse().read()
    for kind, scope, id_, body in _dump_state(url):
        emulator.store.conn.execute("INSERT INTO docs (kind, scope, id, body) VALUES (?,?,?,?)", (kind, scope, id_, body))
    emulator.snapshot("seeded")
    reset_rows = [
        ("reset to empty (Python)", *p50_p95(measure(lambda: emulator.reset(), args.repeat))),
        ("reset to 'seeded' snapshot (Python)", *p50_p95(measure(lambda: emulator.reset("seeded"), args.repeat))),
    ]
    conn = http.client.HTTPConnection(host, int(port))

    def http_reset() -> None:
        conn.request("POST", "/_emulator/reset", body=b'{"snapshot": "seeded"}')
        resp = conn.getresponse()
        resp.read()
        assert resp.status == 200

    reset_rows.append(("reset to 'seeded' over HTTP (POST /_emulator/reset)", *p50_p95(measure(http_reset, args.repeat))))
    reset_rows.append(("snapshot 'seeded' (save)", *p50_p95(measure(lambda: emulator.snapshot("tmp"), args.repeat))))

    print(f"Requests ({args.repeat} each, state reset to the seeded snapshot before each operation)\n")
    print("| operation | p50 ms | p95 ms |\n|---|---:|---:|")
    for name, p50, p95 in rows:
        print(f"| {name} | {p50:.2f} | {p95:.2f} |")
    print("\n| state | p50 ms | p95 ms |\n|---|---:|---:|")
    for name, p50, p95 in reset_rows:
        print(f"| {name} | {p50:.3f} | {p95:.3f} |")
    proc.terminate()
    proc.wait(timeout=10)
    emulator.close()


if __name__ == "__main__":
    main()
