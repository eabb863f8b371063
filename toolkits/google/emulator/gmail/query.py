"""Gmail search (``q``): the operators people and agents actually use.

Supported: ``from:`` ``to:`` ``cc:`` ``bcc:`` ``subject:`` ``label:`` ``is:``
(unread, read, starred, important, snoozed-free subset) ``in:`` (inbox, sent,
drafts, trash, spam, anywhere, starred) ``has:attachment`` ``filename:``
``after:``/``before:`` (``YYYY/MM/DD`` or epoch seconds) ``older_than:``/
``newer_than:`` (``3d``, ``2m``, ``1y``), plain words and ``"quoted phrases"``,
``-`` negation, ``OR``, ``{a b}`` (any of), ``( ... )`` grouping (also as an
operator argument: ``subject:(quarterly report)``). Words match whole words,
case-insensitively, as Gmail does; address operators match parts of the
name or address. Dates are interpreted in UTC.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..errors import ApiError

# A compiled query: takes the indexed message (see ``gmail._indexed``) and answers.
Predicate = Callable[[dict[str, Any]], bool]

_TOKEN = re.compile(r'\s*(-?)(?:(\w+):)?("[^"]*"|\(|\)|\{|\}|[^\s(){}"]+)')


@dataclass
class _Tok:
    neg: bool
    op: str | None
    value: str  # '(' ')' '{' '}' or a word/phrase (quotes kept)


def _tokenize(q: str) -> list[_Tok]:
    out = []
    pos = 0
    while pos < len(q):
        if q[pos:].strip() == "":
            break
        m = _TOKEN.match(q, pos)
        if not m:
            raise ApiError(400, f"Invalid search query near '{q[pos:]}'", "invalidArgument", location="q")
        out.append(_Tok(bool(m.group(1)), m.group(2).lower() if m.group(2) else None, m.group(3)))
        pos = m.end()
    return out


def _words(text: str) -> list[str]:
    return re.findall(r"[\w']+", text.lower())


def _date_ms(value: str) -> int:
    if value.isdigit():
        return int(value) * 1000
    for fmt in ("%Y/%m/%d", "%Y-%m-%d", "%m/%d/%Y"):
        try:
            return int(datetime.strptime(value, fmt).replace(tzinfo=UTC).timestamp() * 1000)
        except ValueError:
            continue
    raise ApiError(400, f"Invalid date in search query: '{value}'", "invalidArgument", location="q")


def _age_ms(value: str) -> int:
    m = re.fullmatch(r"(\d+)([dmy])", value.lower())
    if not m:
        raise ApiError(400, f"Invalid age in search query: '{value}'", "invalidArgument", location="q")
    days = {"d": 1, "m": 30, "y": 365}[m.group(2)] * int(m.group(1))
    return days * 86_400_000


def _label_matches(name: str, msg: dict[str, Any]) -> bool:
    wanted = name.lower().replace("/", "-").replace(" ", "-")
    return any(
        label.lower().replace("/", "-").replace(" ", "-") == wanted for label in msg["_label_names"]
    ) or any(lid.lower() == wanted for lid in msg["labelIds"])


_IS = {
    "unread": lambda m: "UNREAD" in m["labelIds"],
    "read": lambda m: "UNREAD" not in m["labelIds"],
    "starred": lambda m: "STARRED" in m["labelIds"],
    "important": lambda m: "IMPORTANT" in m["labelIds"],
}
_IN = {
    "inbox": "INBOX", "sent": "SENT", "drafts": "DRAFT", "draft": "DRAFT", "trash": "TRASH",
    "spam": "SPAM", "starred": "STARRED", "important": "IMPORTANT",
}


def _text_matcher(raw: str, fields: tuple[str, ...]) -> Predicate:
    phrase = _words(raw.strip('"'))
    if not phrase:
        return lambda m: True
    # Whole words in sequence, separated by anything that is not a word character.
    pattern = re.compile(r"(?<![\w'])" + r"[^\w']+".join(map(re.escape, phrase)) + r"(?![\w'])")

    def match(m: dict[str, Any]) -> bool:
        index = m["_index"]
        for f in fields:
            value = index[f]
            if pattern.search(value if isinstance(value, str) else " ".join(value)):
                return True
        return False

    return match


def _address_matcher(raw: str, fields: tuple[str, ...]) -> Predicate:
    needle = raw.strip('"').lower()
    return lambda m: any(needle in m["_index"][f] for f in fields)


def _operator(op: str, value: str) -> Predicate:
    v = value.strip('"')
    if op in ("from", "to", "cc", "bcc"):
        fields = ("to", "cc", "bcc") if op == "to" else (op,)
        return _address_matcher(v, fields)
    if op == "subject":
        return _text_matcher(v, ("subject",))
    if op == "label":
        return lambda m: _label_matches(v, m)
    if op == "is":
        if v.lower() not in _IS:
            raise ApiError(400, f"Unsupported search operator is:{v}", "invalidArgument", location="q")
        return _IS[v.lower()]
    if op == "in":
        if v.lower() == "anywhere":
            return lambda m: True
        if v.lower() not in _IN:
            raise ApiError(400, f"Unsupported search operator in:{v}", "invalidArgument", location="q")
        label = _IN[v.lower()]
        return lambda m: label in m["labelIds"]
    if op == "has":
        if v.lower() != "attachment":
            raise ApiError(400, f"Unsupported search operator has:{v}", "invalidArgument", location="q")
        return lambda m: bool(m["_index"]["filenames"])
    if op == "filename":
        low = v.lower()
        return lambda m: any(low == n or low in n for n in m["_index"]["filenames"])
    if op in ("after", "before"):
        ms = _date_ms(v)
        if op == "after":
            return lambda m: int(m["internalDate"]) >= ms
        return lambda m: int(m["internalDate"]) < ms
    if op in ("older_than", "newer_than"):
        age = _age_ms(v)
        now = int(time.time() * 1000)
        if op == "older_than":
            return lambda m: int(m["internalDate"]) < now - age
        return lambda m: int(m["internalDate"]) >= now - age
    if op in ("rfc822msgid",):
        return lambda m: m["_index"]["message_id"].strip("<>") == v.strip("<>")
    raise ApiError(400, f"Unsupported search operator {op}:", "invalidArgument", location="q")


class _Parser:
    def __init__(self, tokens: list[_Tok]) -> None:
        self.toks = tokens
        self.pos = 0

    def peek(self) -> _Tok | None:
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def expr(self, closer: str | None = None) -> Predicate:
        """AND of OR-chains until ``closer`` (or the end)."""
        parts: list[Predicate] = []
        while (tok := self.peek()) is not None and not (tok.op is None and tok.value == closer):
            parts.append(self.or_chain(closer))
        return lambda m: all(p(m) for p in parts)

    def or_chain(self, closer: str | None) -> Predicate:
        options = [self.unary()]
        while (tok := self.peek()) is not None and tok.op is None and tok.value == "OR" and not tok.neg:
            self.pos += 1
            if self.peek() is None or (self.peek().op is None and self.peek().value == closer):  # type: ignore[union-attr]
                break
            options.append(self.unary())
        if len(options) == 1:
            return options[0]
        return lambda m: any(p(m) for p in options)

    def group(self, close: str) -> list[Predicate]:
        items = []
        while (tok := self.peek()) is not None and not (tok.op is None and tok.value == close):
            items.append(self.or_chain(close))
        if self.peek() is None:
            raise ApiError(400, f"Unbalanced '{close}' in search query", "invalidArgument", location="q")
        self.pos += 1
        return items

    def unary(self) -> Predicate:
        tok = self.toks[self.pos]
        self.pos += 1
        pred: Predicate
        if tok.value == "(" and tok.op is None:
            pred = _all_of(self.group(")"))
        elif tok.value == "{" and tok.op is None:
            pred = _any_of(self.group("}"))
        elif tok.value in (")", "}"):
            raise ApiError(400, f"Unbalanced '{tok.value}' in search query", "invalidArgument", location="q")
        elif tok.op is not None and tok.value == "(":
            # operator applied to a group: subject:(a b) = subject:a subject:b
            words = []
            while (nxt := self.peek()) is not None and nxt.value != ")":
                words.append(nxt.value)
                self.pos += 1
            if self.peek() is None:
                raise ApiError(400, "Unbalanced '(' in search query", "invalidArgument", location="q")
            self.pos += 1
            preds = [_operator(tok.op, w) for w in words if w != "OR"]
            pred = (lambda m: any(p(m) for p in preds)) if "OR" in words else (lambda m: all(p(m) for p in preds))
        elif tok.op is not None:
            pred = _operator(tok.op, tok.value)
        else:
            pred = _text_matcher(tok.value, ("subject", "text", "from", "to", "cc", "filenames"))
        if tok.neg:
            inner = pred
            return lambda m: not inner(m)
        return pred


def _all_of(preds: list[Predicate]) -> Predicate:
    return lambda msg: all(p(msg) for p in preds)


def _any_of(preds: list[Predicate]) -> Predicate:
    return lambda msg: any(p(msg) for p in preds)


def compile_query(q: str) -> Predicate:
    tokens = _tokenize(q)
    parser = _Parser(tokens)
    pred = parser.expr()
    if parser.pos != len(tokens):
        raise ApiError(400, "Unbalanced parenthesis in search query", "invalidArgument", location="q")
    return pred
