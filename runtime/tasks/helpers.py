"""The step author's helpers: what built-in reset steps and judges use, public for plugins.

Import them from ``deskact`` (``from deskact import clip, fixture, check_text``).
Everything here runs on the host. The path helpers keep the world rule of
HACKING.md: a step that writes where the agent can reach goes through
``step_path`` and hands what it made to the world's root (``make_dirs``,
``give_to_world``); feedback names paths as the agent knows them (``shown``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, PlainSerializer, WithJsonSchema

from .step_paths import StepPath
from .steps import StepContext, StepFailed, Verdict

__all__ = [
    "FileMode", "Regex", "check_text", "clip", "fixture", "give_to_world", "gold_file",
    "make_dirs", "normalize", "short", "shown", "step_path",
]

# --- text ---------------------------------------------------------------------------


def clip(value: Any, limit: int = 200) -> str:
    """repr() of a value cut to ``limit`` characters, saying how long it really was."""
    text = repr(value)
    if len(text) <= limit:
        return text
    length = f" ({len(value)} chars)" if isinstance(value, (str, bytes)) else ""
    return text[: limit - 1] + "…" + length


def short(text: str, limit: int = 80) -> str:
    """``text`` itself (no quotes), cut to ``limit`` characters with an ellipsis."""
    text = " ".join(text.split()) if "\n" in text else text
    return text if len(text) <= limit else text[: limit - 1] + "…"


def normalize(text: str) -> str:
    """CRLF -> LF and no trailing whitespace: editors and `echo` disagree on final newlines."""
    return text.replace("\r\n", "\n").rstrip()


# --- parameter types ---------------------------------------------------------------
# steps_doc.py names these validators in the generated reference: keep their names.


def _parse_mode(value: Any) -> int:
    """Accept "0644", "644", "0o644" (octal strings) or an int (YAML reads 0644 as 420).

    An unquoted ``644`` arrives as the decimal 644 = 0o1204, which sets the sticky
    bit: that is almost always a quoting mistake, so it is rejected.
    """
    if isinstance(value, bool):
        raise ValueError(f"file mode must be an octal string like \"0644\", got {value!r}")  # noqa: TRY004 - pydantic wants ValueError
    if isinstance(value, int):
        if value & ~0o777:
            raise ValueError(
                f"file mode {value} is not a permission mask; quote it as an octal string, e.g. \"0{value}\""
            )
        return value
    if isinstance(value, str) and re.fullmatch(r"(0o?)?[0-7]{3,4}", value.strip()):
        return int(value.strip().removeprefix("0o"), 8)
    raise ValueError(f"file mode must be an octal string like \"0644\", got {value!r}")


def _format_mode(value: int) -> str:
    """Parsed params are saved (and parsed again when the step runs) as the octal string: an int
    with setuid/setgid/sticky bits ("2775") could not pass ``_parse_mode``'s int check twice."""
    return f"{value:04o}"


FileMode = Annotated[
    int,
    BeforeValidator(_parse_mode),
    PlainSerializer(_format_mode),
    # Editors see what people write in YAML, not the parsed int.
    WithJsonSchema({"anyOf": [{"type": "string", "pattern": "^(0o?)?[0-7]{3,4}$"},
                              {"type": "integer", "minimum": 0, "maximum": 511}]}),
]
"""A permission mask written as an octal string ("0644") or a YAML octal int (0644)."""


def _compiles(pattern: str) -> str:
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"bad regular expression {pattern!r}: {exc}") from None
    return pattern


Regex = Annotated[str, AfterValidator(_compiles)]
"""A Python regular expression, checked when the task loads."""


# --- checks ------------------------------------------------------------------------


def check_text(
    what: str, actual: str, equals: str | None = None, contains: str | None = None, regex: str | None = None
) -> Verdict:
    """One of equals (ignoring trailing whitespace) / contains / regex (re.search, multiline).

    ``what`` names the thing checked, e.g. "/ws/a.txt" or "output of `ls`".
    """
    if equals is not None:
        if normalize(actual) == normalize(equals):
            return Verdict.ok(f"{what} equals the expected text")
        return Verdict.fail(
            f"{what} should equal {clip(equals, 120)} but is {clip(normalize(actual))}", actual=actual[:2000]
        )
    if contains is not None:
        if contains in actual:
            return Verdict.ok(f"{what} contains {clip(contains, 120)}")
        return Verdict.fail(
            f"{what} should contain {clip(contains, 120)} but is {clip(normalize(actual))}", actual=actual[:2000]
        )
    if regex is not None:
        if re.search(regex, actual, re.MULTILINE):
            return Verdict.ok(f"{what} matches /{regex}/")
        return Verdict.fail(
            f"{what} should match /{regex}/ but is {clip(normalize(actual))}", actual=actual[:2000]
        )
    raise ValueError("one of equals, contains, regex is required")


# --- the suite's files -------------------------------------------------------------


def fixture(ctx: StepContext, src: str) -> Path:
    """A path inside the suite's fixture folder; refuses to escape it."""
    root = ctx.files.resolve()
    p = (root / src).resolve()
    if p != root and root not in p.parents:
        raise StepFailed(f"fixture path {src!r} leaves the fixture folder {root}")
    if not p.exists():
        raise StepFailed(f"fixture {src!r} not found in {root}")
    return p


def gold_file(ctx: StepContext, ref: str) -> Path:
    """A judge's reference file: absolute, or in the suite's gold/ folder, else in its fixtures."""
    p = Path(ref)
    if p.is_absolute():
        candidates = [p]
    else:
        candidates = [d / ref for d in (ctx.gold, ctx.files) if d is not None]
    for c in candidates:
        if c.exists():
            return c
    raise FileNotFoundError(f"reference file {ref!r} not found (looked in {', '.join(map(str, candidates))})")


# --- paths in the task's world -----------------------------------------------------


def step_path(ctx: StepContext, value: str, step: str) -> StepPath:
    """``ctx.path(value)`` for a step that writes or removes there. Without a world only the
    workspace may be changed: an absolute path elsewhere would be the host's own file
    (``/etc/hosts``) and ``${WORKSPACE}/../..`` would leave it; both are refused (the kernel also
    refuses a symlink out of the workspace when the step opens the path)."""
    p = ctx.path(value)
    if ctx.world is not None and not p.root.writable:
        raise StepFailed(f"{step}: {value} is one of the suite's files: steps never change those")
    if ctx.world is None and (not p.root.writable or os.path.normpath(p.inner).split("/")[0] == ".."):
        raise StepFailed(
            f"{step}: {value} is outside the workspace and task {ctx.task_id or '?'} has no world"
            " (deskact doctor says why): a step never writes the host's own files"
        )
    return p


def _world_owner(ctx: StepContext) -> tuple[int, int] | None:
    return (ctx.world.uid, ctx.world.uid) if ctx.world is not None else None


def _step_path_of(ctx: StepContext, p: StepPath | Path) -> StepPath | None:
    """A host ``Path`` a plugin built (``/proc/PID/root/x`` or a workspace path) as a StepPath."""
    if isinstance(p, StepPath):
        return p
    found = ctx.path(shown(ctx, p))
    return found if found.root.writable else None  # the suite's own files: never chowned


def give_to_world(ctx: StepContext, *paths: StepPath | Path) -> None:
    """Files and folders the host made in the world become its root's (else they show as nobody's).
    The owner changes through a descriptor of each one's folder: a symlink is never followed."""
    if ctx.world is not None:
        for p in paths:
            target = _step_path_of(ctx, p)
            if target is not None:
                target.lchown(ctx.world.uid, ctx.world.uid)


def make_dirs(ctx: StepContext, p: StepPath | Path) -> None:
    """``mkdir -p`` whose new folders (only those) belong to the world's root."""
    target = _step_path_of(ctx, p)
    if target is None:
        raise StepFailed(f"{p} is one of the suite's files: steps never change those")
    target.make_dirs(owner=_world_owner(ctx))


def shown(ctx: StepContext, p: StepPath | Path) -> str:
    """Path ``p`` as the agent knows it (``/etc/hosts``, not ``/proc/123/root/etc/hosts``)."""
    if isinstance(p, StepPath):
        return str(p)
    if ctx.world is not None:
        root = ctx.world.root
        text = str(p)
        if text == root or text.startswith(root + "/"):
            return text[len(root):] or "/"
    return str(p)
