"""A JSON object against expected values as OSWorld's ``check_direct_json_object`` decides
(desktop-env general.py). ``difference`` returns what differs, or None when it passes."""

from __future__ import annotations

import json
from typing import Any

from ..runtime.tasks.helpers import clip


def parse(text: str) -> Any:
    """The metric's reading of a command's output: stripped, every ' made ", then JSON."""
    return json.loads(text.strip().replace("'", '"'))


def difference(result: Any, expected: dict[str, Any], expect_in_result: bool = False) -> str | None:
    if result is None:
        return "the output is null"
    if any(value == "__EVALUATION_FAILED__" for value in expected.values()):
        return "the expected values mark the evaluation as failed"
    try:
        return _in_result(result, expected) if expect_in_result else _equal(result, expected)
    except (AttributeError, TypeError) as exc:  # OSWorld's metric gives 0 for these
        return f"the output cannot be checked: {exc}"


def _equal(result: Any, expected: dict[str, Any]) -> str | None:
    for key, want in expected.items():
        got = result.get(key)
        if expected.get("ignore_list_order", False):
            if sorted(want) != sorted(got):
                return f"{key} is {clip(got, 80)}, not {clip(want, 80)} (in any order)"
        elif want != got:
            return f"{key} is {clip(got, 80)}, not {clip(want, 80)}"
    return None


def _in_result(result: Any, expected: dict[str, Any]) -> str | None:
    for key, want in expected.items():
        got = result.get(key)
        if isinstance(want, list):
            if not any((isinstance(got, list) and w in got) or (isinstance(got, str) and w == got) for w in want):
                return f"{key} is {clip(got, 80)}, holding none of {clip(want, 80)}"
        elif isinstance(want, str):
            if want not in got:
                return f"{key} is {clip(got, 80)}, without {want!r}"
        else:
            return f"{key}: an expected value that is neither text nor a list ({clip(want, 40)}) never matches"
    return None
