"""Lookups the google.* judges share: files by title or id, calendars' events, near misses for feedback."""

from __future__ import annotations

import difflib

from ...reset_scripts.google.account import clients, drive_find, list_all
from ...runtime.tasks.steps import StepContext, Verdict


def _nearest(name: str, found: list[str], what: str) -> str:
    if not found:
        return f"there are no {what}"
    close = difflib.get_close_matches(name, found, n=3, cutoff=0.3)
    shown = close or found[:5]
    return f"{what} found: {', '.join(repr(x) for x in shown)}" + (f" (of {len(found)})" if len(found) > len(shown) else "")


def _lower_set(values: list[str]) -> set[str]:
    return {v.strip().lower() for v in values}


def _events(ctx: StepContext, cal_id: str) -> list[dict]:
    return list_all(clients(ctx).calendar.events().list, "items", calendarId=cal_id, maxResults=2500)


def _find_by_title(ctx: StepContext, title: str, mime: str) -> list[dict]:
    """Files of a Google type by exact title, or by id when ``title`` is an existing id."""
    found = drive_find(ctx, title, mime, None, False)
    if found:
        return found
    try:
        f = clients(ctx).drive.files().get(fileId=title, fields="id, name, mimeType").execute()
    except Exception:  # noqa: BLE001 - not an id either
        return []
    return [f] if f.get("mimeType") == mime else []


def _missing_doc(ctx: StepContext, title: str, mime: str, what: str) -> Verdict:
    names = [f["name"] for f in list_all(clients(ctx).drive.files().list, "files",
                                         q=f"mimeType = '{mime}' and trashed = false", fields="nextPageToken, files(name)")]
    return Verdict.fail(f"no {what} titled {title!r}; " + _nearest(title, names, f"{what}s"))


def _as_list(value: str | list[str] | None) -> list[str]:
    return [] if value is None else [value] if isinstance(value, str) else value
