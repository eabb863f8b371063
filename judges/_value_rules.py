"""OSWorld's ``_match_value_to_rule`` (desktop-env metrics/utils.py): one value against a reference
by a method name. Shared by the judges that translate rules written with it (check_cell, zoom,
check_json). ``match`` raises where OSWorld's function raises (a regex on None, None < 3), so
that a caller can tell "does not match" from "OSWorld's metric fails outright"."""

from __future__ import annotations

import operator
import re
from typing import Any

METHODS = ("re[.FLAG...]", "eq", "ne", "lt", "le", "gt", "ge", "approx:<tolerance>", "range.<ee|et|te|tt>",
           "str_list_eq", "str_set_eq", "spreadsheet_range")


def known(method: str) -> bool:
    return (method.startswith(("re", "approx:")) or (method.startswith("range.") and len(method) == 8)
            or method in ("eq", "ne", "lt", "le", "gt", "ge", "str_list_eq", "str_set_eq", "spreadsheet_range"))


def match(value: Any, method: str, ref: Any) -> bool:
    if method.startswith("re"):
        flags = re.RegexFlag(0)
        for name in method.split(".")[1:]:
            flags |= getattr(re, name)
        return re.search(ref, value, flags) is not None
    if method in ("eq", "ne", "lt", "le", "gt", "ge"):
        return bool(getattr(operator, method)(value, ref))
    if method.startswith("approx:"):
        try:
            number = float(value)
        except (TypeError, ValueError):
            return False
        return abs(number - ref) <= float(method.split(":", 1)[1])
    if method.startswith("range."):
        left, right = method[6], method[7]
        return bool(getattr(operator, "l" + left)(ref[0], value) and getattr(operator, "l" + right)(value, ref[1]))
    if method == "spreadsheet_range":  # value: a MultiCellRange within [ref[0], ref[1]]
        from openpyxl.worksheet.cell_range import MultiCellRange

        low, high = MultiCellRange(ref[0]), MultiCellRange(ref[1])
        return all(r in value for r in low) and all(r in high for r in value)
    if method in ("str_list_eq", "str_set_eq"):
        kind = list if method == "str_list_eq" else set
        return kind(value.strip("\"'").split(",")) == kind(ref)
    raise ValueError(f"method {method!r} is not one of OSWorld's ({', '.join(METHODS)})")


def matches(value: Any, method: str, ref: Any) -> bool:
    """``match``, where OSWorld's metric would fail outright counting as no match."""
    try:
        return match(value, method, ref)
    except (TypeError, AttributeError, re.error):
        return False
