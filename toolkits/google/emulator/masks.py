"""Field masks (`fields` in Sheets/Docs/Slides update requests, `updateMask` in Forms).

`apply_mask(dest, src, "bold,italic")` copies each named path from `src` into
`dest`; a path named in the mask but absent from `src` is *cleared*, which is
how Google's update requests reset a property. `"*"` copies every key; the nested
form `userEnteredFormat(textFormat,backgroundColor)` names two paths.
"""

from __future__ import annotations

import copy
from typing import Any

from .errors import ApiError


def mask_paths(mask: str | None, where: str) -> list[list[str]]:
    if mask is None or not str(mask).strip():
        raise ApiError(400, f"Invalid {where}: the fields mask is required (use '*' for all fields).",
                       "badRequest")
    return [p.split(".") for p in _expand(str(mask).replace(" ", ""))]


def _expand(mask: str) -> list[str]:
    """Google's nested form ``a(b,c.d),e`` as flat paths: ``a.b``, ``a.c.d``, ``e``."""
    paths, depth, start = [], 0, 0
    for i, ch in enumerate(mask + ","):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            part = mask[start:i]
            start = i + 1
            if "(" in part and part.endswith(")"):
                head, inner = part.split("(", 1)
                paths += [f"{head}.{sub}" for sub in _expand(inner[:-1])]
            elif part:
                paths.append(part)
    return paths


def apply_mask(dest: dict[str, Any], src: dict[str, Any], mask: str | None, where: str,
               allowed: set[str] | None = None) -> None:
    for path in mask_paths(mask, where):
        if path == ["*"]:
            for key in list(dest):
                if allowed is None or key in allowed:
                    dest.pop(key)
            for key, value in src.items():
                if allowed is None or key in allowed:
                    dest[key] = copy.deepcopy(value)
            continue
        if allowed is not None and path[0] not in allowed:
            raise ApiError(400, f"Invalid {where}: field '{'.'.join(path)}' cannot be updated "
                                f"(known: {sorted(allowed)}).", "badRequest")
        s: Any = src
        for part in path:
            s = s.get(part) if isinstance(s, dict) else None
        d = dest
        for part in path[:-1]:
            nxt = d.get(part)
            if not isinstance(nxt, dict):
                nxt = {}
                d[part] = nxt
            d = nxt
        if s is None:
            d.pop(path[-1], None)
        else:
            d[path[-1]] = copy.deepcopy(s)
