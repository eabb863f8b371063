"""vlc.config: a setting of the agent's vlcrc, read as OSWorld's VLC metrics read it
(conformance: osworld_conformance/test_conformance_vlc.py)."""

from __future__ import annotations

import pytest
from deskact.judges.vlc import blackish, setting_line
from deskact.runtime.tasks.steps import StepContext, run_judge

VLCRC = """\
# VLC media player preferences
[qt] # Qt interface
# Show background cone or art (boolean)
#qt-bgcone=1
#qt-bgcone-expands=0
qt-max-volume=200
#qt-slider-colours=153;210;153;20;210;20;255;199;15;245;39;29
[core] # core program
#global-key-play-pause=
#key-play-pause=Space
"""


def _vlcrc(ctx: StepContext, text: str) -> None:
    folder = ctx.home / ".config" / "vlc"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "vlcrc").write_text(text)


def test_a_set_value_passes_and_a_commented_default_is_the_value_in_effect(ctx: StepContext) -> None:
    _vlcrc(ctx, VLCRC)
    v = run_judge("vlc.config", {"key": "qt-max-volume", "value": "200"}, ctx)
    assert v.passed and v.feedback == "VLC's vlcrc has qt-max-volume=200", v.feedback
    v = run_judge("vlc.config", {"key": "qt-bgcone", "value": "0"}, ctx)
    assert not v.passed and v.feedback == ("VLC's qt-bgcone should be 0 but vlcrc has qt-bgcone=1"
                                           " (the default, commented out)"), v.feedback
    assert run_judge("vlc.config", {"key": "qt-bgcone", "value": "1"}, ctx).passed


def test_a_key_without_a_line_takes_the_default(ctx: StepContext) -> None:
    _vlcrc(ctx, VLCRC)
    assert run_judge("vlc.config", {"key": "qt-minimal-view", "value": "0", "default": "0"}, ctx).passed
    v = run_judge("vlc.config", {"key": "qt-minimal-view", "value": "1", "default": "0"}, ctx)
    assert not v.passed and "no line sets it" in v.feedback, v.feedback


def test_set_empty_and_blackish(ctx: StepContext) -> None:
    _vlcrc(ctx, VLCRC)
    assert run_judge("vlc.config", {"key": "global-key-play-pause", "test": "empty"}, ctx).passed
    assert not run_judge("vlc.config", {"key": "global-key-play-pause", "test": "set"}, ctx).passed
    _vlcrc(ctx, VLCRC.replace("#global-key-play-pause=", "global-key-play-pause=Ctrl+Alt+Space"))
    assert run_judge("vlc.config", {"key": "global-key-play-pause", "test": "set"}, ctx).passed
    assert not run_judge("vlc.config", {"key": "qt-slider-colours", "test": "blackish"}, ctx).passed
    _vlcrc(ctx, VLCRC.replace("153;210;153;20;210;20;255;199;15;245;39;29", "1;2;3;4;5;6;99;99;99;0;0;0"))
    assert run_judge("vlc.config", {"key": "qt-slider-colours", "test": "blackish"}, ctx).passed


def test_a_missing_vlcrc_fails_and_equals_needs_a_value(ctx: StepContext) -> None:
    v = run_judge("vlc.config", {"key": "qt-bgcone", "value": "0"}, ctx)
    assert not v.passed and "does not exist" in v.feedback, v.feedback
    _vlcrc(ctx, VLCRC)
    v = run_judge("vlc.config", {"key": "qt-bgcone"}, ctx)
    assert not v.passed and "needs a value" in v.feedback, v.feedback


def test_lines_are_read_as_osworld_reads_them() -> None:
    assert setting_line(VLCRC, "qt-bgcone") == "#qt-bgcone=1"  # not qt-bgcone-expands
    assert setting_line(VLCRC, "key-play-pause") == "#key-play-pause=Space"
    assert setting_line("a=1\na=2\n", "a") == "a=2"
    assert blackish("0;0;0") and not blackish("0;0;100")
    with pytest.raises(ValueError, match="invalid literal"):
        blackish("dark")


def test_uncommented_reads_only_lines_vlc_wrote_as_set(ctx: StepContext) -> None:
    _vlcrc(ctx, "#input-record-path=/home/user/Desktop\n")
    params = {"key": "input-record-path", "value": "/home/user/Desktop"}
    assert run_judge("vlc.config", params, ctx).passed
    assert not run_judge("vlc.config", {**params, "uncommented": True}, ctx).passed
    _vlcrc(ctx, "#input-record-path=\ninput-record-path=/home/user/Desktop\n")
    assert run_judge("vlc.config", {**params, "uncommented": True}, ctx).passed
