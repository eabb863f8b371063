"""thunderbird.message and thunderbird.folder: mail in a Thunderbird profile's Local Folders, read
from its mbox files as OSWorld's Thunderbird getters read them (no ``.msf`` summary: Thunderbird
rewrites a message's ``X-Mozilla-Status`` header in place when it is read, flagged or deleted).

A folder ``Work/Projects`` is the mbox file ``Work.sbd/Projects`` under the store. A message moved
out of a folder stays in its mbox, marked expunged (status bit 0x0008), until the folder is
compacted: such a message is not in the folder.
"""

from __future__ import annotations

import email
import email.policy
import re
from pathlib import PurePosixPath

from ..runtime.tasks.helpers import shown
from ..runtime.tasks.step_paths import StepPath
from ..runtime.tasks.steps import StepContext, Verdict, judge

PROFILE = ".thunderbird/deskact.default-release"
"""The profile apps.thunderbird makes under $HOME."""

STORE = "Mail/Local Folders"

READ, FLAGGED, EXPUNGED = 0x0001, 0x0004, 0x0008
"""X-Mozilla-Status bits (nsMsgMessageFlags)."""

MAX_MBOX_BYTES = 64 * 1024 * 1024

_SEPARATOR = re.compile(rb"^From ", re.MULTILINE)


def store_path(ctx: StepContext, profile: str | None) -> StepPath:
    base = profile if profile is not None else str(PurePosixPath(str(ctx.home), PROFILE))
    return ctx.path(str(PurePosixPath(base, STORE)))


def folder_file(name: str) -> str:
    """``Work/Projects`` -> ``Work.sbd/Projects``."""
    parts = [p for p in name.split("/") if p]
    if not parts or any(p in (".", "..") for p in parts):
        raise ValueError(f"{name!r} is not a folder name")
    return "/".join([p + ".sbd" for p in parts[:-1]] + [parts[-1]])


class Message:
    """One message of an mbox: its headers (decoded) and Thunderbird's status bits."""

    def __init__(self, raw: bytes) -> None:
        msg = email.message_from_bytes(raw.split(b"\n", 1)[1] if b"\n" in raw else b"", policy=email.policy.default)
        self.subject = str(msg.get("Subject", "") or "").strip()
        self.sender = str(msg.get("From", "") or "").strip()
        self.to = str(msg.get("To", "") or "").strip()
        try:
            self.status = int(str(msg.get("X-Mozilla-Status", "0")).strip() or "0", 16)
        except ValueError:
            self.status = 0

    @property
    def deleted(self) -> bool:
        return bool(self.status & EXPUNGED)

    def describe(self) -> str:
        marks = [w for w, bit in (("read", READ), ("flagged", FLAGGED)) if self.status & bit]
        return f"{_cut(self.subject)!r} from {_cut(self.sender)}" + (f" ({', '.join(marks)})" if marks else "")


def _cut(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _listed(messages: list[Message], limit: int = 8) -> str:
    said = "; ".join(m.describe() for m in messages[:limit])
    return said + (f"; and {len(messages) - limit} more" if len(messages) > limit else "")


def read_mbox(data: bytes) -> list[Message]:
    """The messages of an mbox (``From `` separator lines; bodies quote theirs as ``>From``), the
    expunged ones included."""
    starts = [m.start() for m in _SEPARATOR.finditer(data)]
    ends = [*starts[1:], len(data)] if starts else []
    return [Message(data[a:b]) for a, b in zip(starts, ends, strict=True)]


def folder_messages(ctx: StepContext, folder: str, profile: str | None) -> tuple[StepPath, list[Message] | None]:
    """The folder's mbox and its live messages (None when there is no such folder)."""
    p = store_path(ctx, profile) / folder_file(folder)
    if not p.is_file():
        return p, None
    return p, [m for m in read_mbox(p.read_bytes(limit=MAX_MBOX_BYTES)) if not m.deleted]


@judge("thunderbird.message")
def thunderbird_message(ctx: StepContext, folder: str, subject: str | None = None, from_: str | None = None,
                        present: bool = True, read: bool | None = None, flagged: bool | None = None,
                        profile: str | None = None) -> Verdict:
    """A message whose subject is ``subject`` (exactly, spaces around ignored) and whose From
    contains ``from`` (case-insensitive) is in Local Folders' ``folder`` (``Inbox``,
    ``Work/Projects``), not deleted, and is ``read``/``flagged`` (or not) when those are given;
    with ``present: false``, no such message is there. ``profile``: the profile folder (default
    apps.thunderbird's, ``${HOME}/.thunderbird/deskact.default-release``)."""
    if subject is None and from_ is None:
        raise ValueError("thunderbird.message needs a subject or a from")
    p, messages = folder_messages(ctx, folder, profile)
    what = " and ".join(([f"subject {subject!r}"] if subject is not None else [])
                        + ([f"from containing {from_!r}"] if from_ is not None else []))
    if messages is None:
        if not present:
            return Verdict.ok(f"no folder {folder!r} ({shown(ctx, p)}), so no message with {what} in it")
        return Verdict.fail(f"Local Folders has no folder {folder!r} ({shown(ctx, p)} does not exist)")
    matching = [m for m in messages if (subject is None or m.subject == subject.strip())
                and (from_ is None or from_.lower() in m.sender.lower())]
    if not present:
        if matching:
            return Verdict.fail(f"{folder} should have no message with {what}, but has {matching[0].describe()}")
        return Verdict.ok(f"{folder} has no message with {what}")
    if not matching:
        return Verdict.fail(f"{folder} has no message with {what} (it has {len(messages)}: {_listed(messages)})")
    wanted = [(name, want, bit) for name, want, bit in (("read", read, READ), ("flagged", flagged, FLAGGED))
              if want is not None]
    good = [m for m in matching if all(bool(m.status & bit) == want for _, want, bit in wanted)]
    if not good:
        state = "; ".join(f"should be {'' if want else 'not '}{name}" for name, want, _ in wanted)
        return Verdict.fail(f"{folder}: {matching[0].describe()} {state}")
    return Verdict.ok(f"{folder} has {good[0].describe()}")


@judge("thunderbird.folder")
def thunderbird_folder(ctx: StepContext, folder: str, exists: bool = True, count: int | None = None,
                       profile: str | None = None) -> Verdict:
    """Local Folders has a folder ``folder`` (``Work/Projects`` is a subfolder of ``Work``) with
    ``count`` live messages when given, or, with ``exists: false``, has none of that name."""
    p, messages = folder_messages(ctx, folder, profile)
    if messages is None:
        if exists:
            return Verdict.fail(f"Local Folders has no folder {folder!r} ({shown(ctx, p)} does not exist)")
        return Verdict.ok(f"Local Folders has no folder {folder!r}")
    if not exists:
        return Verdict.fail(f"Local Folders should have no folder {folder!r}, but {shown(ctx, p)} exists")
    if count is not None and len(messages) != count:
        return Verdict.fail(f"{folder} has {len(messages)} message(s), {count} wanted: "
                            f"{_listed(messages)}")
    return Verdict.ok(f"Local Folders has {folder!r}" + (f" with {count} message(s)" if count is not None else ""))
