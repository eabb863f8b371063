"""gimp.* judges: GIMP's own files in the agent's profile (``${HOME}/.config/GIMP/2.10``):
preferences (``gimprc``), window layout (``sessionrc``), recently used filters (``action-history``).

GIMP writes ``gimprc`` when its Preferences dialog is closed with OK and the session files when it
quits; a judge reads what is on disk.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Annotated

from pydantic import Field

from ..runtime.tasks.helpers import clip
from ..runtime.tasks.steps import StepContext, Verdict, judge

PROFILE_DIR = ".config/GIMP/2.10"


def matching_line(text: str, key: str | list[str], value: str) -> str | None:
    """The first setting line whose first word is ``key`` (or whose first two words are the two of a
    list) and whose last word is ``value``, read as OSWorld's ``check_config_status`` reads lines:
    comments and empty lines skipped, the line's opening and closing parentheses stripped, words
    split at whitespace (so a nested entry's inner lines count as lines of their own)."""
    for line in text.splitlines(keepends=True):
        if line.startswith("#") or line == "\n":
            continue
        words = line.strip().lstrip("(").rstrip(")\n").split()
        if not words:
            raise ValueError(f"a blank line {line!r} that OSWorld's reader cannot parse")
        if isinstance(key, str):
            if words[0] == key and words[-1] == value:
                return line.strip()
        elif len(words) >= 2 and words[0] == key[0] and words[1] == key[1] and words[-1] == value:
            return line.strip()
    return None


@judge("gimp.config")
def gimp_config(ctx: StepContext, key: str | list[str], value: str,
                file: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")] = "gimprc") -> Verdict:
    """A line of ``file`` in the agent's GIMP profile (``gimprc`` by default; ``sessionrc``,
    ``action-history``, ...) sets ``key`` to ``value``: its first word is ``key`` (or its first two
    words are those of a two-item ``key`` such as ``[history-item, '"filters-vignette"']``) and its
    last word is ``value``, written as in the file (``'"Light"'`` with its quotes, ``100``, ``yes``)."""
    if isinstance(key, list) and len(key) != 2:
        raise ValueError(f"gimp.config: key {key!r} should be one word or a list of two")
    p = ctx.path(str(PurePosixPath(str(ctx.home), PROFILE_DIR, file)))
    if not p.is_file():
        return Verdict.fail(f"GIMP's {file} should set {key} to {value} but {p} does not exist")
    text = p.read_text(errors="replace")
    try:
        found = matching_line(text, key, value)
    except ValueError as exc:
        return Verdict.fail(f"GIMP's {file} has {exc}")
    if found is not None:
        return Verdict.ok(f"GIMP's {file} has {found}")
    words = key if isinstance(key, str) else " ".join(key)
    same_key = [line.strip() for line in text.splitlines() if line.strip().lstrip("(").startswith(words + " ")]
    return Verdict.fail(f"GIMP's {file} should set {words} to {value} but "
                        + (f"has {clip(same_key)}" if same_key else "does not set it"))
