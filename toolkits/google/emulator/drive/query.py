"""The Drive v3 `q` search language: a parser and an evaluator.

Grammar (from Google's "Search for files and folders" guide)::

    query   := or
    or      := and ("or" and)*
    and     := not ("and" not)*
    not     := "not" not | "(" query ")" | term
    term    := field op value            name contains 'x', modifiedTime > '2024-01-01'
             | value "in" field          'folderId' in parents, 'me' in owners
             | field "has" "{" key = v and value = v "}"   properties has {...}

`compile_query(q)` returns a predicate over a Drive file record (a dict shaped
like the File resource, plus an optional `_fullText` string with the content
text the emulator could index). A malformed query raises `QueryError`, which
the Drive handler turns into Google's 400 "Invalid Value" error on `q`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

Predicate = Callable[[dict[str, Any]], bool]


class QueryError(ValueError):
    """The `q` string does not parse or uses an operator a field does not support."""


@dataclass(frozen=True)
class _Tok:
    kind: str  # "str", "word", "op", "(", ")", "{", "}", ","
    text: str
    pos: int


_OPS = ("<=", ">=", "!=", "=", "<", ">")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def _tokenize(q: str) -> list[_Tok]:
    toks: list[_Tok] = []
    i = 0
    while i < len(q):
        c = q[i]
        if c.isspace():
            i += 1
            continue
        if c in "(){},":
            toks.append(_Tok(c, c, i))
            i += 1
            continue
        if c in "'\"":
            # Drive escapes a quote or backslash inside a string with a backslash.
            start, i, buf = i, i + 1, []
            while True:
                if i >= len(q):
                    raise QueryError(f"unterminated string starting at offset {start}")
                ch = q[i]
                if ch == "\\" and i + 1 < len(q):
                    buf.append(q[i + 1])
                    i += 2
                    continue
                if ch == c:
                    i += 1
                    break
                buf.append(ch)
                i += 1
            toks.append(_Tok("str", "".join(buf), start))
            continue
        op = next((o for o in _OPS if q.startswith(o, i)), None)
        if op:
            toks.append(_Tok("op", op, i))
            i += len(op)
            continue
        m = _NUMBER.match(q, i) if (c.isdigit() or c == "-") else None
        if m:
            toks.append(_Tok("num", m.group(0), i))
            i = m.end()
            continue
        m = _WORD.match(q, i)
        if not m:
            raise QueryError(f"unexpected character {c!r} at offset {i}")
        toks.append(_Tok("word", m.group(0), i))
        i = m.end()
    return toks


# Which operators each field accepts (Drive's table, trimmed to what the
# emulator stores). Anything else is a 400, as it is on Google.
_STRING_FIELDS = {"name": {"contains", "=", "!="}, "mimeType": {"contains", "=", "!="},
                  "description": {"contains", "=", "!="}, "fullText": {"contains"}}
_DATE_FIELDS = {"modifiedTime", "createdTime", "viewedByMeTime", "sharedWithMeTime"}
_BOOL_FIELDS = {"trashed", "starred", "sharedWithMe", "hidden"}
_COLLECTION_FIELDS = {"parents", "owners", "writers", "readers"}
_HAS_FIELDS = {"properties", "appProperties"}
_OTHER_EQ_FIELDS = {"visibility", "shortcutDetails.targetId", "memberCount", "organizerCount"}


def _tokens_of(text: str) -> list[str]:
    return [t for t in re.split(r"[^\w]+", text.casefold()) if t]


def _name_contains(name: str, needle: str) -> bool:
    """Drive matches `name contains` by prefix: of the whole name, or of a word in it."""
    n, s = name.casefold(), needle.casefold()
    if not s:
        return True
    if n.startswith(s):
        return True
    words = re.split(r"[\s_\-.,;:()\[\]]+", n)
    return any(w.startswith(s) for w in words) or (" " in s and s in n)


def _fulltext_contains(text: str, needle: str) -> bool:
    """fullText matches whole tokens (a phrase is a run of consecutive tokens)."""
    hay, want = _tokens_of(text), _tokens_of(needle)
    if not want:
        return True
    k = len(want)
    return any(hay[i:i + k] == want for i in range(len(hay) - k + 1))


def parse_rfc3339(text: str) -> datetime:
    """Parse a Drive date literal; Drive assumes UTC when no offset is given."""
    s = text.strip()
    if s.endswith(("Z", "z")):
        s = s[:-1] + "+00:00"
    try:
        dt = datetime.fromisoformat(s)
    except ValueError as exc:
        raise QueryError(f"invalid date {text!r}: expected RFC 3339, e.g. 2024-01-31T12:00:00") from exc
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt


def _compare(a: Any, op: str, b: Any) -> bool:
    if op == "=":
        return a == b
    if op == "!=":
        return a != b
    if a is None:
        return False
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    if op == ">=":
        return a >= b
    raise QueryError(f"unsupported operator {op!r}")


def _collection_values(f: dict[str, Any], field: str) -> list[str]:
    if field == "parents":
        return list(f.get("parents") or [])
    people = f.get("_" + field) if ("_" + field) in f else f.get(field)
    out: list[str] = []
    for p in people or []:
        if isinstance(p, dict):
            out.extend(str(p[k]) for k in ("emailAddress", "permissionId", "id") if p.get(k))
        else:
            out.append(str(p))
    return out


class _Parser:
    def __init__(self, q: str, aliases: dict[str, str]) -> None:
        self.q = q
        self.toks = _tokenize(q)
        self.i = 0
        # 'root' in parents and 'me' in owners name the caller's root folder and account.
        self.aliases = aliases

    def peek(self, offset: int = 0) -> _Tok | None:
        j = self.i + offset
        return self.toks[j] if j < len(self.toks) else None

    def take(self) -> _Tok:
        t = self.peek()
        if t is None:
            raise QueryError("query ends too early")
        self.i += 1
        return t

    def is_word(self, t: _Tok | None, word: str) -> bool:
        return t is not None and t.kind == "word" and t.text.lower() == word

    def expect(self, kind: str, text: str | None = None) -> _Tok:
        t = self.take()
        if t.kind != kind or (text is not None and t.text.lower() != text):
            want = text or kind
            raise QueryError(f"expected {want!r} at offset {t.pos}, found {t.text!r}")
        return t

    def parse(self) -> Predicate:
        if not self.toks:
            return lambda f: True
        pred = self.parse_or()
        if self.peek() is not None:
            t = self.peek()
            assert t is not None
            raise QueryError(f"unexpected {t.text!r} at offset {t.pos}")
        return pred

    def parse_or(self) -> Predicate:
        parts = [self.parse_and()]
        while self.is_word(self.peek(), "or"):
            self.take()
            parts.append(self.parse_and())
        return parts[0] if len(parts) == 1 else (lambda f: any(p(f) for p in parts))

    def parse_and(self) -> Predicate:
        parts = [self.parse_not()]
        while self.is_word(self.peek(), "and"):
            self.take()
            parts.append(self.parse_not())
        return parts[0] if len(parts) == 1 else (lambda f: all(p(f) for p in parts))

    def parse_not(self) -> Predicate:
        t = self.peek()
        if self.is_word(t, "not"):
            self.take()
            inner = self.parse_not()
            return lambda f: not inner(f)
        if t is not None and t.kind == "(":
            self.take()
            inner = self.parse_or()
            self.expect(")")
            return inner
        return self.parse_term()

    def value(self) -> tuple[str, Any]:
        t = self.take()
        if t.kind == "str":
            return "str", t.text
        if t.kind == "num":
            return "num", float(t.text)
        if t.kind == "word" and t.text.lower() in ("true", "false"):
            return "bool", t.text.lower() == "true"
        raise QueryError(f"expected a value at offset {t.pos}, found {t.text!r}")

    def parse_term(self) -> Predicate:
        t = self.peek()
        if t is None:
            raise QueryError("query ends too early")
        if t.kind in ("str", "num"):
            # value in collection
            _, v = self.value()
            self.expect("word", "in")
            field = self.expect("word").text
            if field not in _COLLECTION_FIELDS:
                raise QueryError(f"field {field!r} does not support 'in'")
            needle = str(v)
            if field == "parents" and needle == "root":
                needle = self.aliases["root"]
            elif field != "parents" and needle == "me":
                needle = self.aliases["me"]
            return lambda f: needle in _collection_values(f, field)
        if t.kind != "word":
            raise QueryError(f"unexpected {t.text!r} at offset {t.pos}")
        field = self.take().text
        if field in _HAS_FIELDS:
            return self.parse_has(field)
        op_tok = self.take()
        op = op_tok.text.lower() if op_tok.kind == "word" else op_tok.text
        if op_tok.kind not in ("op", "word") or (op_tok.kind == "word" and op != "contains"):
            raise QueryError(f"expected an operator after {field!r} at offset {op_tok.pos}")
        kind, v = self.value()
        return self.comparison(field, op, kind, v)

    def parse_has(self, field: str) -> Predicate:
        self.expect("word", "has")
        self.expect("{")
        self.expect("word", "key")
        self.expect("op", "=")
        _, key = self.value()
        self.expect("word", "and")
        self.expect("word", "value")
        self.expect("op", "=")
        _, val = self.value()
        self.expect("}")
        return lambda f: (f.get(field) or {}).get(str(key)) == str(val)

    def comparison(self, field: str, op: str, kind: str, v: Any) -> Predicate:
        if field in _STRING_FIELDS:
            if op not in _STRING_FIELDS[field]:
                raise QueryError(f"operator {op!r} is not supported for field {field!r}")
            if kind != "str":
                raise QueryError(f"field {field!r} needs a quoted string value")
            s = str(v)
            if field == "fullText":
                return lambda f: _fulltext_contains(
                    " ".join(str(f.get(k) or "") for k in ("name", "description", "_fullText")), s)
            if op == "contains":
                if field == "name":
                    return lambda f: _name_contains(str(f.get("name") or ""), s)
                return lambda f: s.casefold() in str(f.get(field) or "").casefold()
            return lambda f: _compare(f.get(field), op, s)
        if field in _DATE_FIELDS:
            if op not in _OPS:
                raise QueryError(f"operator {op!r} is not supported for field {field!r}")
            if kind != "str":
                raise QueryError(f"field {field!r} needs a quoted RFC 3339 date")
            when = parse_rfc3339(str(v))

            def date_pred(f: dict[str, Any]) -> bool:
                raw = f.get(field)
                return _compare(parse_rfc3339(raw) if raw else None, op, when)
            return date_pred
        if field in _BOOL_FIELDS:
            if op not in ("=", "!="):
                raise QueryError(f"operator {op!r} is not supported for field {field!r}")
            if kind != "bool":
                raise QueryError(f"field {field!r} needs true or false")
            return lambda f: _compare(bool(f.get(field, False)), op, v)
        if field in _OTHER_EQ_FIELDS:
            if op not in ("=", "!="):
                raise QueryError(f"operator {op!r} is not supported for field {field!r}")
            def other_pred(f: dict[str, Any]) -> bool:
                cur: Any = f
                for part in field.split("."):
                    cur = cur.get(part) if isinstance(cur, dict) else None
                return _compare(cur, op, v)
            return other_pred
        raise QueryError(f"unknown field {field!r}")


def compile_query(q: str | None, *, root_id: str = "root", me: str = "me") -> Predicate:
    """Compile a Drive `q` string into a predicate over file records.

    `root_id` is what `'root' in parents` means; `me` is the caller's email,
    which `'me' in owners` (and writers/readers) resolves to.
    """
    return _Parser(q or "", {"root": root_id, "me": me}).parse()
