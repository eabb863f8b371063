"""OSWorld's VLC tasks: their preference metrics and their launch of VLC, translated (verdicts
against desktop-env: osworld_conformance/test_conformance_vlc.py)."""

from __future__ import annotations

from typing import Any

import pytest
from deskact.runtime.importers.common import Untranslatable
from deskact.runtime.importers.osworld_metrics import Translation, translate_evaluator
from deskact.runtime.importers.osworld_metrics_vlc import check_vlc_http
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


def test_a_launch_of_vlc_becomes_apps_vlc_with_its_web_interface_and_options() -> None:
    assert vlc_start("vlc") == {"http": True}
    assert vlc_start(["vlc", "/home/user/Desktop/a b.mp4"]) == {"path": "${HOME}/Desktop/a b.mp4", "paused": False,
                                                              "http": True}
    assert vlc_start(["vlc", "--start-time=120.5", "--stop-time=121", "--play-and-pause", "/home/user/Desktop/a.mp4"]) == {
        "path": "${HOME}/Desktop/a.mp4", "paused": False, "http": True,
        "options": ["--start-time=120.5", "--stop-time=121", "--play-and-pause"]}
    assert vlc_start(["vlc", "--repeat", "~/Desktop/a.mp4"])["options"] == ["--repeat"]  # type: ignore[index]  # not None here
    assert vlc_start(["vlc", "/tmp/a.mp4"]) is None
    assert vlc_start("gimp") is None


@pytest.mark.parametrize("argv", [
    ["vlc", "--fullscreen", "/home/user/a.mp4"],          # an option not in VLC_OPTIONS
    ["vlc", "--start-time", "/home/user/a.mp4"],          # its value missing
    ["vlc", "--start-time=$(x)", "/home/user/a.mp4"],     # a value that is not a number
    ["vlc", "--repeat=1", "/home/user/a.mp4"],            # a value where none is taken
    ["vlc", "--repeat"],                                  # options without media
    ["vlc", "/home/user/a.mp4", "/home/user/b.mp4"],      # two files
])
def test_a_launch_of_vlc_apps_vlc_is_not_given_is_reported(argv: list[str]) -> None:
    """apps.launch would start VLC as the world's root, which VLC refuses."""
    setup = Setup(lambda url, path: {})
    into: list[dict[str, Any]] = []
    setup.item({"type": "launch", "parameters": {"command": "vlc"}}, into, "config")
    assert into == [{"apps.vlc": {"http": True}}]
    with pytest.raises(Untranslatable, match="launch of VLC with options other than"):
        setup.item({"type": "launch", "parameters": {"command": argv}}, into, "config")


def playing(rules: dict[str, Any], result: dict[str, Any] | None = None) -> Translation:
    evaluator = {"func": "is_vlc_playing", "result": result or {"type": "vlc_playing_info", "dest": "status.xml"},
                 "expected": {"type": "rule", "rules": rules}}
    return translate_evaluator(evaluator, lambda url, name: name, lambda p: p, lambda c: str(c))


def test_is_vlc_playing_a_file_name_becomes_vlc_playing_with_file_end() -> None:
    out = playing({"type": "file_name", "file_name": "Rick $1.mp4"})
    assert out.judge == [{"vlc.playing": {"state": "playing", "file_end": "Rick $$1.mp4"}}], out


def test_is_vlc_playing_a_url_or_another_getter_is_reported() -> None:
    assert "cannot reach" in playing({"type": "url", "url": "https://www.youtube.com/watch?v=x"}).reasons[0]
    assert playing({"type": "file_name"}).reasons
    assert playing({"type": "title", "title": "x"}).reasons
    assert playing({"type": "file_name", "file_name": "a.mp4"}, {"type": "vm_file", "path": "/tmp/s.xml"}).reasons


def test_vlc_playing_needs_a_vlc_started_with_its_web_interface() -> None:
    judge = [{"vlc.playing": {"state": "playing", "file_end": "a.mp4"}}]
    check_vlc_http([{"apps.vlc": {"http": True}}], judge)
    check_vlc_http([], [{"vlc.config": {"key": "k", "value": "v"}}])
    with pytest.raises(Untranslatable, match="web interface"):
        check_vlc_http([{"apps.vlc": {}}], judge)


def fullscreen(result: dict[str, Any], expected: dict[str, Any]) -> Translation:
    evaluator = {"func": "is_vlc_fullscreen", "result": result, "expected": expected}
    return translate_evaluator(evaluator, lambda url, name: name, lambda p: p, lambda c: str(c))


def test_is_vlc_fullscreen_becomes_windows_screen_sized_either_way_round() -> None:
    screen, window = {"type": "vm_screen_size"}, {"type": "vm_window_size", "app_class_name": "vlc"}
    assert fullscreen(screen, window).judge == [{"windows.screen_sized": {"wm_class": "vlc"}}]
    assert fullscreen(window, screen).judge == [{"windows.screen_sized": {"wm_class": "vlc"}}]
    assert fullscreen(screen, {"type": "vm_window_size"}).reasons
    assert fullscreen(screen, screen).reasons


def videos(options: dict[str, Any] | None = None, result: str = "1984.mp4") -> Translation:
    evaluator = {"func": "compare_videos", "options": options or {},
                 "expected": {"type": "cloud_file", "path": "https://x.invalid/g", "dest": "gold.mp4"},
                 "result": {"type": "vm_file", "path": result, "dest": "r.mp4"}}
    return translate_evaluator(evaluator, lambda url, name: f"t/{name}", lambda p: "${HOME}/" + p.removeprefix("/home/user/"),
                               lambda c: str(c))


def test_compare_videos_becomes_video_same_frames_with_the_metrics_options() -> None:
    assert videos().judge == [{"video.same_frames": {"path": "${HOME}/1984.mp4", "reference": "t/gold.mp4"}}]
    out = videos({"max_frames_to_check": 50, "threshold": 3})
    assert out.judge[0]["video.same_frames"] | {} == {"path": "${HOME}/1984.mp4", "reference": "t/gold.mp4",
                                                       "max_frames": 50, "threshold": 3}
    assert videos({"threshold": 2.5}).reasons
