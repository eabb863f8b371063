"""``fields`` partial responses (Google's field-mask syntax).

Grammar (what Google accepts): a comma-separated list of selections; a
selection is a path ``a/b/c`` optionally followed by a parenthesised
sub-selection ``items(id,summary,start/dateTime)``; ``*`` selects everything
at its level. Selecting a field of an array applies to every element.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import ApiError

# A parsed mask: name -> sub-mask, or None for "the whole value".
FieldTree = dict[str, "FieldTree | None"]


def _bad(text: str, why: str) -> ApiError:
    return ApiError(400, f"Invalid field selection {text}: {why}", "invalidParameter", location="fields")


def parse_fields(text: str) -> FieldTree:
    tree: FieldTree = {}
    pos = _parse_list(text, 0, tree)
    if pos != len(text):
        raise _bad(text, f"unexpected '{text[pos]}' at offset {pos}")
    return tree


def _merge(tree: FieldTree, path: list[str], sub: FieldTree | None) -> None:
    for name in path[:-1]:
        nxt = tree.get(name, {})
        if nxt is None:  # already selected whole
            return
        tree[name] = nxt
        tree = nxt
    last = path[-1]
    if sub is None or tree.get(last, {}) is None:
        tree[last] = None
        return
    existing = tree.setdefault(last, {})
    assert existing is not None
    for key, value in sub.items():
        _merge(existing, [key], value)


def _parse_list(text: str, pos: int, tree: FieldTree) -> int:
    while True:
        start = pos
        while pos < len(text) and text[pos] not in ",()":
            pos += 1
        # Newer APIs (Sheets, Docs, Slides) accept dots as well as slashes.
        path = [p.strip() for p in text[start:pos].replace(".", "/").split("/")]
        if not all(path):
            raise _bad(text, f"empty field name at offset {start}")
        sub: FieldTree | None = None
        if pos < len(text) and text[pos] == "(":
            sub = {}
            pos = _parse_list(text, pos + 1, sub)
            if pos >= len(text) or text[pos] != ")":
                raise _bad(text, "unbalanced parenthesis")
            pos += 1
        _merge(tree, path, sub)
        if pos < len(text) and text[pos] == ",":
            pos += 1
            continue
        return pos


def apply_fields(value: Any, tree: FieldTree | None) -> Any:
    """Keep only the selected parts of ``value`` (a JSON-like structure)."""
    if tree is None or ("*" in tree and tree["*"] is None and len(tree) == 1):
        return value
    if isinstance(value, list):
        return [apply_fields(v, tree) for v in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    star = tree.get("*", ...) if "*" in tree else ...
    for key, item in value.items():
        if key in tree:
            out[key] = apply_fields(item, tree[key])
        elif star is not ...:
            out[key] = apply_fields(item, star)
    return out


SchemaResolver = Callable[[str], "dict[str, Any] | None"]


def check_fields(tree: FieldTree, schema: dict[str, Any] | None, resolve: SchemaResolver, text: str) -> None:
    """400 for a selection naming a field the response schema does not have (as Google does)."""
    if schema is None:
        return
    while True:
        if "$ref" in schema:
            schema = resolve(schema["$ref"])
            if schema is None:
                return
        elif schema.get("type") == "array" and "items" in schema:
            schema = schema["items"]
        else:
            break
    props = schema.get("properties")
    if props is None:  # free-form object or map: anything may be selected
        return
    for name, sub in tree.items():
        if name == "*":
            continue
        if name not in props:
            raise _bad(text, f"field '{name}' does not exist")
        if sub:
            check_fields(sub, props[name], resolve, text)
