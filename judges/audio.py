"""audio.tags: an MP3's ID3 tags, read as mutagen's EasyID3 reads them.

OSWorld's ``check_mp3_meta`` reads the file's ID3 tag with EasyID3 (``title`` is TIT2, ``artist``
TPE1, ...), joins a tag's values with ``,`` (a missing tag reads as the empty text) and checks each
value against its rule. A file without an ID3 tag makes EasyID3 raise, and the metric scores 0:
here it fails. The file is read as bytes through the task's world (``ctx.path``).
"""

from __future__ import annotations

import operator
import re
from typing import Literal

from pydantic import BaseModel

from ..runtime.tasks.helpers import clip, shown
from ..runtime.tasks.steps import StepContext, Verdict, judge

Method = Literal["eq", "ne", "lt", "le", "gt", "ge", "re"]


class TagRule(BaseModel):
    """``method`` as Python's operator module names a comparison of the tag's text with ``ref``,
    or ``re``: ``ref`` is a regular expression found in it (``re.search``)."""

    method: Method
    ref: str


def tag_text(tags: object, key: str) -> str:
    """A tag's values joined by ``,``; the empty text for a tag the file lacks or EasyID3 does not know."""
    value = tags.get(key, "")  # type: ignore[attr-defined]  # EasyID3: a mapping whose get never raises
    return ",".join(value) if isinstance(value, list) else str(value)


def _holds(value: str, rule: TagRule) -> bool:
    if rule.method == "re":
        return re.search(rule.ref, value) is not None
    return bool(getattr(operator, rule.method)(value, rule.ref))


@judge("audio.tags")
def audio_tags(ctx: StepContext, path: str, rules: dict[str, TagRule]) -> Verdict:
    """``path`` is an MP3 with an ID3 tag whose EasyID3 keys (``title``, ``artist``, ``album``, ...)
    meet ``rules`` (a key's values joined by ``,``; a missing key is the empty text). A file
    without an ID3 tag, or missing, fails."""
    from mutagen.easyid3 import EasyID3

    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} should be an MP3 with ID3 tags but does not exist")
    try:
        tags = EasyID3(p.bytes_io())
    except Exception as exc:  # noqa: BLE001 - any error reading the tag: the metric raises and scores 0
        return Verdict.fail(f"{shown(ctx, p)} has no ID3 tag that can be read ({type(exc).__name__}: {exc})")
    wrong = []
    for key, rule in rules.items():
        value = tag_text(tags, key)
        if not _holds(value, rule):
            wrong.append(f"{key} is {clip(value, 80)} (wanted {rule.method} {clip(rule.ref, 80)})")
    if wrong:
        return Verdict.fail(f"{shown(ctx, p)}: " + "; ".join(wrong))
    return Verdict.ok(f"{shown(ctx, p)}'s tags {sorted(rules)} are as wanted")
