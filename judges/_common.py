"""Shared judge helpers: text matching with feedback that shows what was found."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator

from ..reset_scripts._common import clip
from ..runtime.tasks.steps import Verdict


def _compiles(pattern: str) -> str:
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"bad regular expression {pattern!r}: {exc}") from None
    return pattern


Regex = Annotated[str, AfterValidator(_compiles)]
"""A Python regular expression, checked when the task loads."""


def normalize(text: str) -> str:
    """CRLF -> LF and no trailing whitespace: editors and `echo` disagree on final newlines."""
    return text.replace("\r\n", "\n").rstrip()


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
