"""google.reset and google.snapshot, and the account access every google.* step and judge shares.

Every Google task lists ``google.reset`` first: on the emulator it restores the
empty state (or a named snapshot) in milliseconds and records the instant that
relative times ("tomorrow 10:00") are resolved against, for seeding steps and
judges alike. The seeding steps call the Google APIs through host-side
googleapiclient clients (``ctx.services["google"]["clients"]``), so the same
task YAML works on the emulator and on a real account.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import AfterValidator

from ...runtime.tasks.steps import StepContext, StepFailed, reset_step
from ...toolkits.google import when

RelTime = Annotated[str, AfterValidator(when.check)]
"""An absolute or relative time (see deskact.toolkits.google.when)."""

MIME_SHORT = {
    "folder": "application/vnd.google-apps.folder", "document": "application/vnd.google-apps.document",
    "spreadsheet": "application/vnd.google-apps.spreadsheet",
    "presentation": "application/vnd.google-apps.presentation", "form": "application/vnd.google-apps.form",
}
FOLDER = MIME_SHORT["folder"]


# Shared with judges/google/.


def google_host(ctx: StepContext) -> dict[str, Any]:
    host = ctx.services.get("google")
    if not host:
        raise StepFailed("the google service is not running: add `toolkits: [google]` to the task")
    return host


def clients(ctx: StepContext) -> Any:
    return google_host(ctx)["clients"]


def anchor(ctx: StepContext) -> datetime:
    """The instant google.reset ran for this task (relative times resolve against it)."""
    return google_host(ctx).setdefault("state", {}).get("anchor") or datetime.now(UTC)


def _require_reset(ctx: StepContext) -> None:
    state = google_host(ctx).setdefault("state", {})
    if state.get("task_id") != ctx.task_id:
        raise StepFailed("list `google.reset` first in this task's reset steps (the account would keep "
                         "the previous task's data)")


def calendar_id(ctx: StepContext, name: str, create: bool = False) -> str:
    """A calendar id from "primary", an id, or a calendar's summary (created if asked)."""
    cal = clients(ctx).calendar
    if name == "primary":
        return "primary"
    entries = cal.calendarList().list().execute().get("items", [])
    for entry in entries:
        if name in (entry["id"], entry.get("summary")):
            return entry["id"]
    if not create:
        raise LookupError(f"no calendar {name!r}; calendars: {[e.get('summary') for e in entries]}")
    return cal.calendars().insert(body={"summary": name}).execute()["id"]


def calendar_tz(ctx: StepContext, cal_id: str) -> str:
    return clients(ctx).calendar.calendars().get(calendarId=cal_id).execute().get("timeZone") or "UTC"


def list_all(method: Any, key: str, **params: Any) -> list[dict]:
    out: list[dict] = []
    token = None
    while True:
        page = method(**params, **({"pageToken": token} if token else {})).execute()
        out += page.get(key, [])
        token = page.get("nextPageToken")
        if not token:
            return out


def quote(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def drive_find(ctx: StepContext, name: str, mime_type: str | None = None, parent: str | None = None,
               trashed: bool | None = False) -> list[dict]:
    clauses = [f"name = {quote(name)}"]
    if mime_type:
        clauses.append(f"mimeType = {quote(mime_type)}")
    if parent:
        clauses.append(f"{quote(parent)} in parents")
    if trashed is not None:
        clauses.append(f"trashed = {str(trashed).lower()}")
    return list_all(clients(ctx).drive.files().list, "files", q=" and ".join(clauses),
                    fields="nextPageToken, files(id, name, mimeType, parents, trashed, webViewLink, modifiedTime)")


def folder_path(ctx: StepContext, path: str, create: bool) -> str | None:
    """The id of a folder path like "Projects/2024" under My Drive ("" = root)."""
    parent = "root"
    for part in [p for p in path.split("/") if p]:
        found = drive_find(ctx, part, FOLDER, parent)
        if found:
            parent = found[0]["id"]
        elif create:
            parent = clients(ctx).drive.files().create(
                body={"name": part, "mimeType": FOLDER, "parents": [parent]}, fields="id").execute()["id"]
        else:
            return None
    return parent


def _repeat(n: int, text: str | None, i: int) -> str | None:
    return text.replace("{i}", str(i)) if (text is not None and n > 1) else text


@reset_step("google.reset")
def google_reset(ctx: StepContext, snapshot: str | None = None) -> None:
    """Start from an empty account (emulator: in milliseconds), or from a snapshot saved by
    ``google.snapshot``. On a real account this deletes the account's events, mail, labels and
    Drive files, and refuses unless ``google.allow_wipe`` is true in the config (use a
    throwaway account). Also records the instant relative times resolve against."""
    host = google_host(ctx)
    if host.get("backend") == "emulator":
        emulator = host["emulator"]
        from ...toolkits.google.emulator.store import SnapshotError

        try:
            emulator.reset(snapshot)
        except SnapshotError as exc:
            raise StepFailed(f"google.reset: {exc}") from exc
    else:
        if snapshot:
            raise StepFailed("google.reset: snapshots exist only on the emulator backend")
        if not getattr(ctx.config.google, "allow_wipe", False):
            raise StepFailed("google.reset on a real account deletes its events, mail and Drive files; "
                             "set google.allow_wipe: true in the config for a dedicated test account")
        _wipe_real_account(host["clients"])
    host["state"] = {"task_id": ctx.task_id, "anchor": datetime.now(UTC)}


def _wipe_real_account(c: Any) -> None:
    c.calendar.calendars().clear(calendarId="primary").execute()
    for entry in list_all(c.calendar.calendarList().list, "items"):
        if entry.get("accessRole") == "owner" and not entry.get("primary"):
            c.calendar.calendars().delete(calendarId=entry["id"]).execute()
    for msg in list_all(c.gmail.users().messages().list, "messages", userId="me", includeSpamTrash=False):
        c.gmail.users().messages().trash(userId="me", id=msg["id"]).execute()
    for draft in list_all(c.gmail.users().drafts().list, "drafts", userId="me"):
        c.gmail.users().drafts().delete(userId="me", id=draft["id"]).execute()
    for label in c.gmail.users().labels().list(userId="me").execute().get("labels", []):
        if label.get("type") == "user":
            c.gmail.users().labels().delete(userId="me", id=label["id"]).execute()
    for f in list_all(c.drive.files().list, "files", q="'me' in owners", fields="nextPageToken, files(id)"):
        c.drive.files().delete(fileId=f["id"]).execute()


@reset_step("google.snapshot")
def google_snapshot(ctx: StepContext, name: str) -> None:
    """Save the emulator's current state as ``name`` (for ``google.reset: {snapshot: name}``)."""
    host = google_host(ctx)
    if host.get("backend") != "emulator":
        raise StepFailed("google.snapshot works only on the emulator backend")
    host["emulator"].snapshot(name)
