"""OSWorld's VLC preference metrics (desktop-env's metrics/vlc.py) and vlc.config, the judge the
importer translates them to, agree on right and near-miss vlcrc files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.conformance

VLCRC = """\
# VLC media player preferences
[qt] # Qt interface
#qt-minimal-view=0
#qt-slider-colours=153;210;153;20;210;20;255;199;15;245;39;29
#qt-bgcone=1
#qt-bgcone-expands=0
#qt-max-volume=125
[core] # core program
#input-record-path=
#one-instance=0
#one-instance-when-started-from-file=1
#global-key-play-pause=
#key-play-pause=Space
"""


def _set(text: str, line: str) -> str:
    """``text`` with ``line`` in place of its key's commented default, as VLC writes a changed setting."""
    key = line.split("=")[0]
    lines = [line if old.startswith(f"#{key}=") else old for old in text.split("\n")]
    return "\n".join(lines)


def _run(desktop_env: Any, deskact: Any, func: str, rule: dict[str, Any], text: str, verdict: bool,
         home_text: str | None = None) -> None:
    """``home_text``: the same file as deskact's agent writes it (its own home in paths)."""
    path: Path = deskact.home_file("/home/user/.config/vlc/vlcrc")
    path.write_text(text)
    theirs = desktop_env.passes("vlc", func, str(path), rule)
    if home_text is not None:
        path.write_text(home_text.replace("/home/user", str(deskact.ctx.home)))
    evaluator = {"func": func, "result": {"type": "vlc_config", "dest": "vlcrc"},
                 "expected": {"type": "rule", "rules": rule}}
    ours = deskact.passes(evaluator)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


@pytest.mark.parametrize(("func", "rule", "line", "verdict"), [
    ("check_qt_bgcone", {"expected_qt_bgcone": 0}, "qt-bgcone=0", True),
    ("check_qt_bgcone", {"expected_qt_bgcone": 0}, None, False),
    ("check_qt_bgcone", {"expected_qt_bgcone": 0}, "qt-bgcone-expands=0", False),
    ("check_qt_bgcone", {"expected_qt_bgcone": 1}, None, True),
    ("check_qt_max_volume", {"expected_qt_max_volume": 200}, "qt-max-volume=200", True),
    ("check_qt_max_volume", {"expected_qt_max_volume": 200}, "qt-max-volume=150", False),
    ("check_qt_max_volume", {"expected_qt_max_volume": "200"}, "qt-max-volume=200 ", True),
    ("check_qt_minimal_view", {"expected_qt_minimal_view": 1}, "qt-minimal-view=1", True),
    ("check_qt_minimal_view", {"expected_qt_minimal_view": 1}, None, False),
    ("check_one_instance_when_started_from_file", {"expected_one_instance_when_started_from_file": 0},
     "one-instance-when-started-from-file=0", True),
    ("check_one_instance_when_started_from_file", {"expected_one_instance_when_started_from_file": 0},
     "one-instance=1", False),
    ("check_global_key_play_pause", {"expected_global_key_play_pause": 1}, "global-key-play-pause=Ctrl+Alt+Space", True),
    ("check_global_key_play_pause", {"expected_global_key_play_pause": 1}, "key-play-pause=Ctrl+Alt+Space", False),
    ("check_global_key_play_pause", {"expected_global_key_play_pause": 0}, None, True),
    ("check_qt_slider_colours", {"type": "blackish"}, "qt-slider-colours=1;2;3;40;50;60;99;99;99;0;0;0", True),
    ("check_qt_slider_colours", {"type": "blackish"}, "qt-slider-colours=1;2;3;40;50;60;99;99;100;0;0;0", False),
    ("check_qt_slider_colours", {"type": "blackish"}, None, False),
    ("check_qt_slider_colours", {"type": "match", "expected_qt_slider_colours": "1;2;3"}, "qt-slider-colours=1;2;3", True),
    ("check_qt_slider_colours", {"type": "match", "expected_qt_slider_colours": "1;2;3"}, "qt-slider-colours=1;2;4", False),
])
def test_vlcrc_settings(desktop_env: Any, deskact: Any, func: str, rule: dict[str, Any], line: str | None,
                        verdict: bool) -> None:
    _run(desktop_env, deskact, func, rule, VLCRC if line is None else _set(VLCRC, line), verdict)


def test_a_key_without_any_line_takes_the_metrics_default(desktop_env: Any, deskact: Any) -> None:
    _run(desktop_env, deskact, "check_qt_max_volume", {"expected_qt_max_volume": 125}, "[qt]\n", True)
    _run(desktop_env, deskact, "check_qt_bgcone", {"expected_qt_bgcone": 0}, "[qt]\n", False)


@pytest.mark.parametrize(("line", "verdict"), [
    ("input-record-path=/home/user/Desktop", True),
    ("input-record-path=/home/user/Videos", False),
    ("#input-record-path=/home/user/Desktop", False),  # a comment is not a setting here
    (None, False),
])
def test_recordings_folder(desktop_env: Any, deskact: Any, line: str | None, verdict: bool) -> None:
    text = VLCRC.replace("#input-record-path=\n", "") + (line + "\n" if line else "")
    _run(desktop_env, deskact, "is_vlc_recordings_folder", {"recording_file_path": "/home/user/Desktop"}, text,
         verdict, home_text=text)
