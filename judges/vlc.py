"""vlc.* judges: VLC's preferences in the agent's ``${HOME}/.config/vlc/vlcrc``, where OSWorld's
``vlc_config`` getter reads them.

VLC writes vlcrc when its Preferences dialog is saved (and with ``--save-config``): one line per
setting, ``key=value``, and a setting left at its default as a comment, ``#key=default``. The
judge reads a setting as OSWorld's VLC metrics do: the value after the last ``=`` of the last line
that contains ``key=``, commented or not, and the setting's default where no line has it.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Literal

from ..runtime.tasks.steps import StepContext, Verdict, judge

VLCRC = ".config/vlc/vlcrc"

BLACKISH_BELOW = 100
"""A colour is black-ish when each of its red, green and blue is below this (OSWorld's threshold)."""


def setting_line(text: str, key: str, uncommented: bool = False) -> str | None:
    """The last line containing ``key=`` (comments included: VLC writes defaults as ``#key=...``);
    with ``uncommented``, the first such line not starting with ``#``."""
    found = None
    for line in text.split("\n"):
        if f"{key}=" not in line:
            continue
        if not uncommented:
            found = line
        elif not line.startswith("#"):
            return line
    return found


def blackish(colours: str) -> bool:
    """Every ``r;g;b`` triplet of a ``;``-separated list is black-ish."""
    values = [int(v) for v in colours.split(";")]
    triplets = zip(values[0::3], values[1::3], values[2::3], strict=False)
    return all(c < BLACKISH_BELOW for triplet in triplets for c in triplet)


@judge("vlc.config")
def vlc_config(ctx: StepContext, key: str, value: str | None = None, default: str = "",
               test: Literal["equals", "set", "empty", "blackish"] = "equals", uncommented: bool = False) -> Verdict:
    """VLC's setting ``key`` in the agent's vlcrc (``${HOME}/.config/vlc/vlcrc``), read from the last
    line containing ``key=`` (a ``#key=...`` comment is the default in effect) or ``default`` where
    no line has it, passes ``test``: ``equals`` ``value`` (as written in the file: ``0``, ``200``,
    ``/home/user/Desktop``), ``set`` (not empty, such as a global hot key), ``empty``, or
    ``blackish`` (a ``r;g;b;...`` colour list whose every component is below 100). With
    ``uncommented`` only a line VLC did not comment out counts (a setting at its default is then
    ``default``), the first one, as OSWorld's recordings-folder check reads it."""
    if test == "equals" and value is None:
        raise ValueError("vlc.config: test equals needs a value")
    p = ctx.path(str(PurePosixPath(str(ctx.home), VLCRC)))
    if not p.is_file():
        return Verdict.fail(f"VLC's setting {key} should be checked in {p}, which does not exist"
                            " (VLC writes it when its preferences are saved)")
    line = setting_line(p.read_text(errors="replace"), key, uncommented)
    current = line.split("=")[-1].strip() if line is not None else default
    shown = f"{key}={current}" + (" (the default, commented out)" if line is not None and line.startswith("#")
                                  else " (the default: no line sets it)" if line is None else "")
    if test == "equals":
        ok = current == value
        want = f"should be {value}"
    elif test == "set":
        ok, want = current != "", "should be set"
    elif test == "empty":
        ok, want = current == "", "should be empty"
    else:
        try:
            ok = blackish(current)
        except ValueError:
            ok = False
        want = f"should list only black-ish colours (each component below {BLACKISH_BELOW})"
    if ok:
        return Verdict.ok(f"VLC's vlcrc has {shown}")
    return Verdict.fail(f"VLC's {key} {want} but vlcrc has {shown}")
