"""files.* judges: what the agent left in the workspace (or, in its world, anywhere).

Existence, content, ownership and modes; ``files.same_text`` (line by line against a
reference) and ``files.stat`` (size, mode, owner, changed since the reset) below.
"""

from __future__ import annotations

import fnmatch
import json
import re
import stat
from datetime import datetime
from typing import Any, Literal

from ..reset_scripts._accounts import group_id, group_name, owner, user_id, user_name
from ..runtime.tasks.helpers import FileMode, Regex, check_text, clip, gold_file, shown
from ..runtime.tasks.steps import StepContext, Verdict, judge


@judge("files.exists")
def files_exists(ctx: StepContext, path: str, kind: Literal["file", "dir", "any"] = "any") -> Verdict:
    """``path`` exists (and is a regular file / a directory when ``kind`` says so)."""
    p = ctx.path(path)
    if not p.exists():
        siblings = sorted(c.name for c in p.parent.iterdir())[:15] if p.parent.is_dir() else None
        where = f"{shown(ctx, p.parent)} holds {siblings}" if siblings is not None else f"{shown(ctx, p.parent)} does not exist either"
        return Verdict.fail(f"{shown(ctx, p)} does not exist ({where})")
    found = "directory" if p.is_dir() else "file" if p.is_file() else "special file"
    if (kind == "file" and not p.is_file()) or (kind == "dir" and not p.is_dir()):
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


# --- files.same_text: a text file matches a reference file line by line. --------------
#
# ``files.same`` compares bytes, which fails an agent over a missing final
# newline or CRLF line ends; task outputs such as "the ERROR lines of a log"
# are judged by their lines instead, and the feedback names the first line
# that differs so the agent can act on it.


def _lines(text: str) -> list[str]:
    # Trailing whitespace per line and blank lines at the end carry no meaning here.
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


@judge("files.same_text")
def files_same_text(ctx: StepContext, path: str, reference: str, sort: bool = False) -> Verdict:
    """``path`` has the same lines as ``reference`` (in the suite's gold/ folder, or ${FILES}),
    ignoring line endings and trailing whitespace; ``sort: true`` ignores line order."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a text file like {reference} but {'is a directory' if p.is_dir() else 'does not exist'}")
    actual = _lines(p.read_text(encoding="utf-8", errors="replace"))
    expected = _lines(gold_file(ctx, reference).read_text(encoding="utf-8"))
    if sort:
        actual, expected = sorted(actual), sorted(expected)
    if actual == expected:
        return Verdict.ok(f"{p} has the expected {len(expected)} lines")
    if len(actual) != len(expected):
        count = f"{len(actual)} lines instead of {len(expected)}"
    else:
        count = f"{len(actual)} lines as expected"
    first = next((i for i, (a, e) in enumerate(zip(actual, expected)) if a != e), min(len(actual), len(expected)))
    want = clip(expected[first], 100) if first < len(expected) else "no line (end of file)"
    got = clip(actual[first], 100) if first < len(actual) else "no line (end of file)"
    order = " (sorted)" if sort else ""
    return Verdict.fail(
        f"{p} has {count}; line {first + 1}{order} should be {want} but is {got}",
        first_difference=first + 1,
    )


def _squeeze_blanks(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[\t\n]", " ", text).strip())


def _as_number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _result_matches(actual: str, expected: str) -> bool:
    """OSWorld's ``compare_result_files`` on stripped texts: a number in the gold file is found in
    the output (which may say more around it) or equals the output's number within 1e-4."""
    gold_number = _as_number(expected)
    if gold_number is None:
        return actual == expected
    if expected in actual:
        return True
    number = _as_number(actual)
    return (number is not None and abs(number - gold_number) < 1e-4) or actual == expected


@judge("files.compare_text")
def files_compare_text(ctx: StepContext, path: str, reference: str, ignore_blanks: bool = False,
                       ignore_case: bool = False, by_lines: bool = False, result_number: bool = False) -> Verdict:
    """``path``'s text equals the gold file ``reference``'s (in the suite's gold/ folder) exactly, as
    OSWorld's ``compare_text_file`` decides: every character counts, the final newline too (line
    endings are read as Python reads text: CRLF is LF); ``ignore_blanks`` squeezes every run of
    whitespace to one space and trims the ends, ``ignore_case`` lowercases both; ``by_lines``
    compares the lists of lines instead, so a final newline does not count (``diff_text_file``);
    ``result_number`` compares the stripped texts, and where the gold file holds a number, the file
    passes by containing it or holding a number within 1e-4 of it (``compare_result_files``)."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a text file like {reference} but {'is a directory' if p.is_dir() else 'does not exist'}")
    actual, expected = p.read_text(encoding="utf-8"), gold_file(ctx, reference).read_text(encoding="utf-8")
    if ignore_blanks:
        actual, expected = _squeeze_blanks(actual), _squeeze_blanks(expected)
    if ignore_case:
        actual, expected = actual.lower(), expected.lower()
    if result_number and _result_matches(actual.strip(), expected.strip()):
        return Verdict.ok(f"{p} has the result of {reference}")
    if not result_number and (actual == expected or (by_lines and actual.splitlines() == expected.splitlines())):
        return Verdict.ok(f"{p} has the text of {reference}")
    at = next((i for i, (a, e) in enumerate(zip(actual, expected)) if a != e), min(len(actual), len(expected)))
    line = actual.count("\n", 0, at) + 1
    return Verdict.fail(f"{p} differs from {reference} at line {line}, character {at + 1}:"
                        f" {clip(actual[at:at + 60] or 'end of file', 70)} where the gold file has"
                        f" {clip(expected[at:at + 60] or 'end of file', 70)}", first_difference=at + 1)


@judge("files.lines")
def files_lines(ctx: StepContext, path: str, expect: list[Regex] = [], unexpect: list[Regex] = []) -> Verdict:  # noqa: B006
    """Line by line, as OSWorld's ``check_list`` reads a file: each ``expect`` regex is found
    (re.search) in some line, and no line holds any ``unexpect`` regex. A line keeps its newline."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a text file but {'is a directory' if p.is_dir() else 'does not exist'}")
    with p.open(encoding="utf-8", errors="replace") as f:
        lines = list(f)
    problems = [f"no line matches /{pattern}/" for pattern in expect
                if not any(re.search(pattern, line) for line in lines)]
    for pattern in unexpect:
        hit = next((line for line in lines if re.search(pattern, line)), None)
        if hit is not None:
            problems.append(f"the line {clip(hit.rstrip(), 80)} matches /{pattern}/")
    if problems:
        return Verdict.fail(f"{p} ({len(lines)} lines): " + "; ".join(problems))
    return Verdict.ok(f"{p} has lines matching every expected pattern and none of the others")


# --- files.stat: a file's size, mode, owner and whether it changed after the reset, in one judge. ---
#
# Size bounds catch a truncated download or an empty export that still "exists";
# ``modified`` tells a file the agent wrote from one the reset left there (or the
# reverse: a file the task said to leave alone).


@judge("files.stat")
def files_stat(ctx: StepContext, path: str, size: int | None = None, min_size: int | None = None,
               max_size: int | None = None, mode: FileMode | None = None, owner: str | None = None,
               group: str | None = None, modified: bool | None = None) -> Verdict:
    """``path`` exists and has every property given: ``size`` (bytes, exact) or ``min_size``/``max_size``,
    ``mode`` ("0644"), ``owner``/``group`` (names in the task's world), and ``modified``: true = its
    content changed after the reset ended (the agent wrote it), false = not since."""
    p = ctx.path(path)
    if not (p.exists() or p.is_symlink()):
        return Verdict.fail(f"{shown(ctx, p)} does not exist")
    st = p.lstat()
    problems = []
    if size is not None and st.st_size != size:
        problems.append(f"is {st.st_size} bytes, not {size}")
    if min_size is not None and st.st_size < min_size:
        problems.append(f"is {st.st_size} bytes, less than {min_size}")
    if max_size is not None and st.st_size > max_size:
        problems.append(f"is {st.st_size} bytes, more than {max_size}")
    if mode is not None and stat.S_IMODE(st.st_mode) != mode:
        problems.append(f"has mode {stat.S_IMODE(st.st_mode):04o}, not {mode:04o}")
    if owner is not None:
        verdict = files_owner(ctx, path, owner, group)
        if not verdict.passed:
            problems.append(verdict.feedback.split(" should ", 1)[-1].replace("belong", "should belong", 1))
    if modified is not None:
        if ctx.reset_at is None:
            raise RuntimeError("files.stat `modified` needs the reset's end time, which this context lacks")
        changed = st.st_mtime > ctx.reset_at
        when = datetime.fromtimestamp(st.st_mtime).isoformat(timespec="seconds")
        if changed != modified:
            problems.append(f"was last modified {when}, {'before' if modified else 'after'} the reset ended")
    if problems:
        return Verdict.fail(f"{shown(ctx, p)} " + "; ".join(problems), size=st.st_size)
    return Verdict.ok(f"{shown(ctx, p)} has the expected properties", size=st.st_size)


@judge("files.names")
def files_names(ctx: StepContext, dir: str, names: list[str]) -> Verdict:
    """Folder ``dir`` holds exactly the entries ``names`` (files and folders, hidden ones too, not
    what is inside its folders), each once: a name listed twice can never be met."""
    d = ctx.path(dir)
    if not d.is_dir():
        return Verdict.fail(f"{shown(ctx, d)} should be a folder holding {clip(sorted(names), 200)} but"
                            f" {'is a file' if d.exists() else 'does not exist'}")
    found = sorted(e.name for e in d.iterdir())
    if found == sorted(names):
        return Verdict.ok(f"{shown(ctx, d)} holds exactly the {len(found)} expected entries")
    missing = sorted(set(names) - set(found))
    extra = sorted(set(found) - set(names))
    twice = sorted({n for n in names if names.count(n) > 1})
    why = "; ".join(part for part in (
        f"lacks {clip(missing, 200)}" if missing else "", f"also holds {clip(extra, 200)}" if extra else "",
        f"cannot hold {clip(twice, 100)} twice" if twice else "") if part)
    return Verdict.fail(f"{shown(ctx, d)} should hold exactly {len(names)} entries: {why}", actual=found[:100])
