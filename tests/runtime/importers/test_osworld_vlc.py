"""OSWorld's VLC tasks: their preference metrics and their launch of VLC, translated (verdicts
against desktop-env: osworld_conformance/test_conformance_vlc.py)."""

from __future__ import annotations

from typing import Any

import pytest
from deskact.runtime.importers.common import Untranslatable
from deskact.runtime.importers.osworld_metrics import Translation, translate_evaluator
from deskact.runtime.importers.osworld_setup import Setup, vlc_start


def translate(func: str, rules: dict[str, Any], result_type: str = "vlc_config") -> Translation:
    evaluator = {"func": func, "result": {"type": result_type, "dest": "vlcrc"}, "expected": {"type": "rule", "rules": rules}}
    return translate_evaluator(evaluator, lambda url, name: f"t/{name}",
                               lambda p: "${HOME}" + p.removeprefix("/home/user"), lambda c: str(c))


def test_settings_carry_the_metrics_defaults_and_ints_become_digits() -> None:
    out = translate("check_qt_max_volume", {"expected_qt_max_volume": 200})
    assert out.judge == [{"vlc.config": {"key": "qt-max-volume", "value": "200", "default": "125"}}], out
    out = translate("check_global_key_play_pause", {"expected_global_key_play_pause": 0})
    assert out.judge == [{"vlc.config": {"key": "global-key-play-pause", "test": "empty"}}], out
    out = translate("check_qt_slider_colours", {"type": "blackish"})
    assert out.judge[0]["vlc.config"]["test"] == "blackish", out


def test_the_recordings_folder_is_the_agents_home_and_read_uncommented() -> None:
    out = translate("is_vlc_recordings_folder", {"recording_file_path": "/home/user/Desktop"})
    assert out.judge == [{"vlc.config": {"key": "input-record-path", "value": "${HOME}/Desktop", "uncommented": True}}]


def test_what_no_judge_decides_alike_is_reported() -> None:
    assert translate("check_qt_bgcone", {"expected_qt_bgcone": True}).reasons
    assert translate("check_qt_bgcone", {"expected_qt_bgcone": 0}, "vm_file").reasons
    assert translate("check_global_key_play_pause", {"expected_global_key_play_pause": 2}).reasons
    assert translate("check_qt_slider_colours", {"type": "reddish"}).reasons
    assert translate("is_vlc_recordings_folder", {"recording_file_path": ""}).reasons


def test_a_launch_of_vlc_becomes_apps_vlc() -> None:
    assert vlc_start("vlc") == {}
    assert vlc_start(["vlc", "/home/user/Desktop/a b.mp4"]) == {"path": "${HOME}/Desktop/a b.mp4", "paused": False}
    assert vlc_start(["vlc", "--start-time=15", "/home/user/Desktop/a.mp4"]) is None
    assert vlc_start(["vlc", "/tmp/a.mp4"]) is None
    assert vlc_start("gimp") is None


def test_a_launch_of_vlc_apps_vlc_cannot_take_is_reported() -> None:
    """apps.launch would start VLC as the world's root, which VLC refuses."""
    setup = Setup(lambda url, path: {})
    into: list[dict[str, Any]] = []
    setup.item({"type": "launch", "parameters": {"command": "vlc"}}, into, "config")
    assert into == [{"apps.vlc": {}}]
    with pytest.raises(Untranslatable, match="launch of VLC with flags"):
        setup.item({"type": "launch", "parameters": {"command": ["vlc", "--start-time=15", "/home/user/a.mp4"]}},
                   into, "config")
