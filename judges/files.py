"""files.* judges: what the agent left in the workspace (or, in its world, anywhere)."""

from __future__ import annotations

import fnmatch
import json
import stat
from typing import Any, Literal

from ..reset_scripts._accounts import group_id, group_name, owner, user_id, user_name
from ..reset_scripts._common import FileMode, clip, gold_file, shown
from ..runtime.tasks.steps import StepContext, Verdict, judge
from ._common import Regex, check_text


@judge("files.exists")
def files_exists(ctx: StepContext, path: str, kind: Literal["file", "dir", "any"] = "any") -> Verdict:
    """``path`` exists (and is a regular file / a directory when ``kind`` says so)."""
    p = ctx.path(path)
    if not p.exists():
        siblings = sorted(c.name for c in p.parent.iterdir())[:15] if p.parent.is_dir() else None
        where = f"{shown(ctx, p.parent)} holds {siblings}" if siblings is not None else f"{shown(ctx, p.parent)} does not exist either"
        return Verdict.fail(f"{shown(ctx, p)} does not exist ({where})")
    found = "directory" if p.is_dir() else "file" if p.is_file() else "special file"
    if kind == "file" and not p.is_file() or kind == "dir" and not p.is_dir():
        return Verdict.fail(f"{shown(ctx, p)} exists but is a {found}, not a {'directory' if kind == 'dir' else 'file'}")
    return Verdict.ok(f"{shown(ctx, p)} exists ({found})")


@judge("files.absent")
def files_absent(ctx: StepContext, path: str) -> Verdict:
    """``path`` does not exist (not even as a broken symlink)."""
    p = ctx.path(path)
    if p.exists() or p.is_symlink():
        what = "directory" if p.is_dir() else "file"
        return Verdict.fail(f"{shown(ctx, p)} should not exist but is still there (a {what})")
    return Verdict.ok(f"{shown(ctx, p)} does not exist")


def _read_text(ctx: StepContext, path: str) -> str:
    p = ctx.path(path)
    if not p.is_file():
        raise FileNotFoundError(f"{shown(ctx, p)} is not a file" if p.exists() else f"{shown(ctx, p)} does not exist")
    return p.read_text(encoding="utf-8", errors="replace")


@judge("files.content", one_of=("equals", "contains", "regex"))
def files_content(
    ctx: StepContext, path: str, equals: str | None = None, contains: str | None = None,
    regex: Regex | None = None,
) -> Verdict:
    """The text of ``path`` equals (ignoring trailing whitespace), contains, or matches a regex."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} should be a file but {'is a directory' if p.is_dir() else 'does not exist'}")
    return check_text(shown(ctx, p), _read_text(ctx, path), equals, contains, regex)


_MISSING = object()


def resolve_pointer(doc: Any, pointer: str) -> Any:
    """RFC 6901 JSON pointer ("" is the whole document, "/a/0/b~1c" reads doc["a"][0]["b/c"]).

    Returns _MISSING (with no exception) when a step does not exist.
    """
    if pointer == "":
        return doc
    if not pointer.startswith("/"):
        raise ValueError(f"JSON pointer {pointer!r} must be empty or start with '/'")
    node = doc
    for token in pointer[1:].split("/"):
        key = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict):
            if key not in node:
                return _MISSING
            node = node[key]
        elif isinstance(node, list):
            if not key.isdigit() or (len(key) > 1 and key[0] == "0") or int(key) >= len(node):
                return _MISSING
            node = node[int(key)]
        else:
            return _MISSING
    return node


def _json_equal(a: Any, b: Any) -> bool:
    """Deep equality where 3 == 3.0 but True != 1 (JSON has distinct booleans)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


@judge("files.json")
def files_json(ctx: StepContext, path: str, equals: Any, pointer: str = "") -> Verdict:
    """The JSON value at RFC 6901 ``pointer`` (default: the whole document) equals ``equals``."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} should be a JSON file but does not exist")
    text = p.read_text(encoding="utf-8", errors="replace")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        return Verdict.fail(f"{shown(ctx, p)} is not valid JSON ({exc.msg} at line {exc.lineno}): {clip(text, 120)}")
    where = f"{shown(ctx, p)} at {pointer!r}" if pointer else shown(ctx, p)
    value = resolve_pointer(doc, pointer)
    if value is _MISSING:
        return Verdict.fail(f"{shown(ctx, p)} has no value at pointer {pointer!r} (document: {clip(doc, 160)})")
    if _json_equal(value, equals):
        return Verdict.ok(f"{where} is {clip(equals, 120)}")
    return Verdict.fail(f"{where} should be {clip(equals, 120)} but is {clip(value)}", actual=value)


@judge("files.mode")
def files_mode(ctx: StepContext, path: str, mode: FileMode) -> Verdict:
    """The permission bits of ``path`` are exactly ``mode`` (e.g. "0600")."""
    p = ctx.path(path)
    if not p.exists():
        return Verdict.fail(f"{shown(ctx, p)} does not exist, so its mode cannot be {mode:04o}")
    actual = stat.S_IMODE(p.stat().st_mode)
    if actual == mode:
        return Verdict.ok(f"{shown(ctx, p)} has mode {mode:04o}")
    return Verdict.fail(f"{shown(ctx, p)} should have mode {mode:04o} but has {actual:04o}", actual=f"{actual:04o}")


@judge("files.count")
def files_count(ctx: StepContext, dir: str, count: int, pattern: str = "*", recursive: bool = False) -> Verdict:
    """Folder ``dir`` holds exactly ``count`` entries whose names match glob ``pattern``."""
    d = ctx.path(dir)
    if not d.is_dir():
        return Verdict.fail(f"{shown(ctx, d)} should be a directory but {'is a file' if d.exists() else 'does not exist'}")
    entries = d.rglob("*") if recursive else d.iterdir()
    names = sorted(str(e.relative_to(d)) for e in entries if fnmatch.fnmatch(e.name, pattern))
    if len(names) == count:
        return Verdict.ok(f"{shown(ctx, d)} holds {count} entries matching {pattern!r}")
    return Verdict.fail(
        f"{shown(ctx, d)} should hold {count} entries matching {pattern!r} but holds {len(names)}: {clip(names, 200)}",
        actual=names[:100],
    )


@judge("files.same")
def files_same(ctx: StepContext, path: str, reference: str) -> Verdict:
    """``path`` has the same bytes as a reference file (in the suite's gold/ folder, or ${FILES})."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} should be a file identical to {reference} but does not exist")
    ref = gold_file(ctx, reference)
    a, b = p.read_bytes(), ref.read_bytes()
    if a == b:
        return Verdict.ok(f"{shown(ctx, p)} is identical to {reference}")
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return Verdict.fail(
        f"{shown(ctx, p)} differs from {reference}: {len(a)} vs {len(b)} bytes, first difference at byte {first}"
    )


@judge("files.owner")
def files_owner(ctx: StepContext, path: str, user: str, group: str | None = None) -> Verdict:
    """``path`` belongs to ``user`` (and ``group``): names or numbers as the task's world knows
    them (its /etc/passwd and /etc/group)."""
    p = ctx.path(path)
    if not (p.exists() or p.is_symlink()):
        return Verdict.fail(f"{shown(ctx, p)} does not exist, so it cannot belong to {user}")
    uid, gid = owner(ctx, p)
    have = f"{user_name(ctx, uid)}:{group_name(ctx, gid)}"
    want = f"{user}:{group}" if group is not None else user
    try:
        right = uid == user_id(ctx, user) and (group is None or gid == group_id(ctx, group))
    except LookupError as exc:
        return Verdict.fail(f"{shown(ctx, p)} should belong to {want} but {exc}; it belongs to {have}")
    if right:
        return Verdict.ok(f"{shown(ctx, p)} belongs to {have}")
    return Verdict.fail(f"{shown(ctx, p)} should belong to {want} but belongs to {have}", actual=have)
