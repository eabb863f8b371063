"""Judge suggestions from a world's change: snapshot the state before and after a demonstration, diff, propose.

A snapshot (:func:`snapshot`, host side, the world frozen as for judges) holds what judges can
check: the workspace's files (size and digest; the text of small text files; every cell value of
an .xlsx workbook), the window titles on the task's display, the rows of each offline web app's
database, and the Google emulator's sent mail, calendar events and Drive files. :func:`suggest`
turns the difference into judge steps with parameters (``files.content``, ``xlsx.cells``,
``windows.title``, ``site.state``, ``google.email_sent``...), each with the change that made it,
for the task creator to pick and tune. Hidden files (``.config``, lock files) are left out: they
are the apps' own state, not what a task asks for.
"""

from __future__ import annotations

import hashlib
from contextlib import nullcontext
from datetime import date, datetime, time
from pathlib import PurePosixPath
from typing import Any

from pydantic import BaseModel, Field

from ...tasks.steps import StepContext

MAX_FILES = 5000
TEXT_BYTES = 64 * 1024
"""Files up to this size that decode as UTF-8 keep their text (``files.content`` suggestions)."""
EQUALS_CHARS = 2000
"""A changed text up to this long is suggested as ``equals``; a longer one as ``contains`` its new lines."""
MAX_CELLS = 5000
MAX_ROWS = 2000
"""Rows read per web app table."""
SUGGESTED_CELLS = 30


class FileState(BaseModel):
    kind: str
    """``file`` or ``dir``."""
    size: int = 0
    digest: str = ""
    text: str | None = None
    cells: dict[str, Any] | None = None
    """``Sheet!A1`` -> value, for .xlsx workbooks."""


class WorldState(BaseModel):
    workspace: str
    files: dict[str, FileState] = Field(default_factory=dict)
    """Workspace-relative path -> state."""
    windows: list[str] = Field(default_factory=list)
    sites: dict[str, dict[str, list[dict[str, Any]]]] = Field(default_factory=dict)
    """App -> table -> rows (column -> value, ``rowid`` included)."""
    google: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    """``sent`` mail, ``events``, ``drive`` files, as the judges see them."""
    notes: list[str] = Field(default_factory=list)
    """What could not be read (a part left out, a limit reached)."""


class Suggestion(BaseModel):
    judge: str
    params: dict[str, Any]
    why: str
    """The change it checks, in words."""
    source: str
    """``file``, ``cells``, ``window``, ``site`` or ``google``."""


# --- snapshot ------------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    """A cell or column value as JSON and YAML can hold it (dates as ISO text)."""
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def _cells(data: bytes) -> dict[str, Any]:
    import io

    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(data), data_only=True, read_only=True)
    out: dict[str, Any] = {}
    try:
        for sheet in book.worksheets:
            for row in sheet.iter_rows():
                for cell in row:
                    if cell.value is not None and getattr(cell, "coordinate", None):
                        out[f"{sheet.title}!{cell.coordinate}"] = _plain(cell.value)
                        if len(out) >= MAX_CELLS:
                            return out
    finally:
        book.close()
    return out


def _files(ctx: StepContext, state: WorldState) -> None:
    root = ctx.path(str(ctx.workspace))
    if not root.is_dir():
        state.notes.append("the workspace is not a folder")
        return
    for path in root.rglob("*"):
        rel = PurePosixPath(path.relative_to(root))
        if any(part.startswith(".") for part in rel.parts):
            continue
        if len(state.files) >= MAX_FILES:
            state.notes.append(f"more than {MAX_FILES} files: the rest left out")
            return
        try:
            if path.is_symlink():
                continue
            if path.is_dir():
                state.files[str(rel)] = FileState(kind="dir")
                continue
            if not path.is_file():
                continue
            data = path.read_bytes(limit=64 * 1024 * 1024)
        except (OSError, ValueError) as exc:
            state.notes.append(f"{rel}: not read ({exc})")
            continue
        entry = FileState(kind="file", size=len(data), digest=hashlib.sha256(data).hexdigest())
        if len(data) <= TEXT_BYTES and b"\0" not in data:
            try:
                entry.text = data.decode("utf-8")
            except UnicodeDecodeError:
                pass
        if rel.suffix.lower() in (".xlsx", ".xlsm"):
            try:
                entry.cells = _cells(data)
            except Exception as exc:  # noqa: BLE001 - a half-written workbook: its digest still counts
                state.notes.append(f"{rel}: cells not read ({type(exc).__name__})")
        state.files[str(rel)] = entry


def _windows(ctx: StepContext, state: WorldState) -> None:
    if not ctx.display:
        return
    from ....reset_scripts._x11 import list_windows

    try:
        state.windows = sorted(w.title for w in list_windows(ctx.display) if w.title)
    except Exception as exc:  # noqa: BLE001 - the display went away: no window suggestions
        state.notes.append(f"windows not read ({exc})")


def _sites(ctx: StepContext, state: WorldState) -> None:
    web = ctx.services.get("web")
    if not isinstance(web, dict):
        return
    for app, running in sorted((web.get("sites") or {}).items()):
        try:
            tables = [r[0] for r in running.db.query(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
            state.sites[app] = {}
            for table in tables:
                cols = list(running.db.columns(table))
                rows = running.db.query(f'SELECT rowid, * FROM "{table}" ORDER BY rowid LIMIT {MAX_ROWS}')
                state.sites[app][table] = [dict(zip(["rowid", *cols], map(_plain, r), strict=False)) for r in rows]
        except Exception as exc:  # noqa: BLE001 - an app that is not served has no database yet
            state.notes.append(f"site {app}: not read ({exc})")


def _google(ctx: StepContext, state: WorldState) -> None:
    host = ctx.services.get("google")
    if not isinstance(host, dict) or "clients" not in host:
        return
    from ....reset_scripts.google import clients, list_all

    api = clients(ctx)
    try:
        from ....toolkits.google.api import message_fields

        gmail = api.gmail.users().messages()
        refs = list_all(gmail.list, "messages", userId="me", q="in:sent", maxResults=500)
        state.google["sent"] = [
            {k: _plain(v) if not isinstance(v, list) else v for k, v in message_fields(
                gmail.get(userId="me", id=m["id"], format="full").execute()).items()
             if k in ("to", "cc", "subject", "body")} for m in refs[:200]]
    except Exception as exc:  # noqa: BLE001 - each API on its own: one failing leaves the others
        state.notes.append(f"google mail: not read ({exc})")
    try:
        events = list_all(api.calendar.events().list, "items", calendarId="primary", maxResults=2500)
        state.google["events"] = [{"id": e.get("id"), "summary": e.get("summary", ""),
                                   "start": (e.get("start") or {}).get("dateTime") or (e.get("start") or {}).get("date"),
                                   "location": e.get("location")} for e in events]
    except Exception as exc:  # noqa: BLE001
        state.notes.append(f"google calendar: not read ({exc})")
    try:
        files = list_all(api.drive.files().list, "files", q="trashed = false", fields="files(id, name, mimeType)")
        state.google["drive"] = [{"id": f.get("id"), "name": f.get("name"), "mimeType": f.get("mimeType")} for f in files]
    except Exception as exc:  # noqa: BLE001
        state.notes.append(f"google drive: not read ({exc})")


def snapshot(ctx: StepContext) -> WorldState:
    """What judges could check in the world now (frozen while read, as judges read it)."""
    state = WorldState(workspace=str(ctx.workspace))
    with ctx.world.frozen() if ctx.world is not None else nullcontext():
        _files(ctx, state)
    _windows(ctx, state)
    _sites(ctx, state)
    _google(ctx, state)
    return state


# --- diff -> suggestions -------------------------------------------------------------------------


def _ws(rel: str) -> str:
    return "${WORKSPACE}/" + rel


def _file_suggestions(before: WorldState, after: WorldState) -> list[Suggestion]:
    out: list[Suggestion] = []
    for rel, new in sorted(after.files.items()):
        old = before.files.get(rel)
        if old is not None and old.kind == new.kind and old.digest == new.digest:
            continue
        if new.kind == "dir":
            if old is None:
                out.append(Suggestion(judge="files.exists", params={"path": _ws(rel), "kind": "dir"},
                                      why=f"folder {rel} was created", source="file"))
            continue
        verb = "created" if old is None else "changed"
        if new.cells is not None:
            old_cells = (old.cells or {}) if old is not None else {}
            changed = {ref: v for ref, v in new.cells.items() if old_cells.get(ref) != v}
            cleared = [ref for ref in old_cells if ref not in new.cells]
            picked = dict(list(changed.items())[:SUGGESTED_CELLS]) | dict.fromkeys(cleared[:SUGGESTED_CELLS])
            if picked:
                out.append(Suggestion(
                    judge="xlsx.cells", params={"path": _ws(rel), "cells": picked},
                    why=f"{len(changed)} cell(s) set and {len(cleared)} cleared in {rel} ({verb})"
                        + (f"; the first {SUGGESTED_CELLS} suggested" if len(changed) > SUGGESTED_CELLS else ""),
                    source="cells"))
                continue
        if new.text is not None and len(new.text) <= EQUALS_CHARS:
            out.append(Suggestion(judge="files.content", params={"path": _ws(rel), "equals": new.text},
                                  why=f"{rel} was {verb} with this text", source="file"))
        elif new.text is not None:
            old_lines = set((old.text or "").splitlines()) if old is not None else set()
            added = [line for line in new.text.splitlines() if line.strip() and line not in old_lines]
            if added:
                out.append(Suggestion(judge="files.content", params={"path": _ws(rel), "contains": added[0]},
                                      why=f"{rel} was {verb}; {len(added)} new line(s), the first suggested",
                                      source="file"))
        elif old is None:
            out.append(Suggestion(judge="files.exists", params={"path": _ws(rel), "kind": "file"},
                                  why=f"{rel} was created ({new.size} bytes)", source="file"))
        else:
            out.append(Suggestion(judge="files.stat", params={"path": _ws(rel), "size": new.size},
                                  why=f"{rel} changed ({old.size} -> {new.size} bytes)", source="file"))
    gone = {rel for rel in before.files if rel not in after.files}
    for rel in sorted(gone):
        if not any(rel.startswith(r + "/") for r in gone):  # a removed folder, not each file in it
            out.append(Suggestion(judge="files.absent", params={"path": _ws(rel)},
                                  why=f"{rel} was removed", source="file"))
    return out


def _window_suggestions(before: WorldState, after: WorldState) -> list[Suggestion]:
    out = []
    for title in after.windows:
        if title not in before.windows:
            out.append(Suggestion(judge="windows.title", params={"contains": title},
                                  why=f"a window titled {title!r} opened", source="window"))
    for title in before.windows:
        if title not in after.windows:
            out.append(Suggestion(judge="windows.title", params={"contains": title, "present": False},
                                  why=f"the window titled {title!r} closed", source="window"))
    return out


def _row_where(row: dict[str, Any], keys: list[str]) -> dict[str, Any]:
    """The columns that say what a row is: its text and number values, few enough to read. Not the
    row's own id or its timestamps (``*_at``): another run of the task gives them other values."""
    where = {k: row[k] for k in keys if k not in ("rowid", "id") and not k.endswith("_at") and row.get(k) not in (None, "")
             and isinstance(row[k], (str, int, float)) and not (isinstance(row[k], str) and len(row[k]) > 200)}
    return dict(list(where.items())[:5])


def _site_suggestions(before: WorldState, after: WorldState) -> list[Suggestion]:
    out = []
    for app, tables in sorted(after.sites.items()):
        for table, rows in sorted(tables.items()):
            old = {r["rowid"]: r for r in before.sites.get(app, {}).get(table, [])}
            new = {r["rowid"]: r for r in rows}
            for rowid, row in new.items():
                prev = old.get(rowid)
                if prev == row:
                    continue
                if prev is None:
                    where = _row_where(row, list(row))
                    if where:
                        out.append(Suggestion(judge="site.state", params={"app": app, "table": table, "where": where},
                                              why=f"{app}: a row was added to {table}", source="site"))
                    continue
                changed = [k for k in row if row.get(k) != prev.get(k)]
                ident = {k: v for k, v in _row_where(prev, list(prev)).items() if k not in changed}
                where = dict(list(ident.items())[:2]) | {k: row[k] for k in changed}
                out.append(Suggestion(judge="site.state", params={"app": app, "table": table, "where": where},
                                      why=f"{app}: {table} row {rowid} changed ({', '.join(changed)})", source="site"))
            for rowid, row in old.items():
                if rowid not in new:
                    where = _row_where(row, list(row))
                    if where:
                        out.append(Suggestion(judge="site.state",
                                              params={"app": app, "table": table, "where": where, "count": 0},
                                              why=f"{app}: a row was deleted from {table}", source="site"))
    return out


def _google_suggestions(before: WorldState, after: WorldState) -> list[Suggestion]:
    out = []
    sent_before = {(tuple(m.get("to") or []), m.get("subject")) for m in before.google.get("sent", [])}
    for m in after.google.get("sent", []):
        if (tuple(m.get("to") or []), m.get("subject")) in sent_before:
            continue
        params: dict[str, Any] = {"to": m.get("to") or []}
        if m.get("subject"):
            params["subject_contains"] = m["subject"]
        out.append(Suggestion(judge="google.email_sent", params=params,
                              why=f"a mail was sent to {', '.join(m.get('to') or [])}", source="google"))
    ids = {e["id"] for e in before.google.get("events", [])}
    for e in after.google.get("events", []):
        if e["id"] not in ids and e.get("summary"):
            out.append(Suggestion(judge="google.event_exists", params={"summary": e["summary"]},
                                  why=f"event {e['summary']!r} was created", source="google"))
    files = {f["id"] for f in before.google.get("drive", [])}
    for f in after.google.get("drive", []):
        if f["id"] not in files and f.get("name"):
            out.append(Suggestion(judge="google.drive_file", params={"name": f["name"]},
                                  why=f"Drive file {f['name']!r} was created", source="google"))
    return out


def suggest(before: WorldState, after: WorldState) -> list[Suggestion]:
    """Judge steps that check what changed between the two snapshots, most specific first."""
    return (_file_suggestions(before, after) + _site_suggestions(before, after)
            + _google_suggestions(before, after) + _window_suggestions(before, after))
