"""OSWorld's VLC preference metrics (desktop-env's metrics/vlc.py) -> ``vlc.config`` (``VLC``).

Each reads the ``vlcrc`` the ``vlc_config`` getter copies from ``~/.config/vlc``: the value after
the last ``=`` of the last line holding ``key=`` (a ``#key=default`` comment too), or the metric's
own default where no line does; ``is_vlc_recordings_folder`` reads the first uncommented line
instead and fails without one. An expected int is compared as its digits (as the metrics do);
other expected types never equal the file's text and are reported. The slider-colour and
recordings checks look for the key without its ``=``; VLC's own files have it in that setting's
line only, so vlc.config's ``key=`` finds the same line.

``is_vlc_playing`` with a ``file_name`` rule reads VLC's web interface's ``status.xml``
(``vlc_playing_info``): ``vlc.playing`` with ``state: playing`` and ``file_end`` (the metric's
endswith on the first non-empty of its meta fields); its ``url`` rule streams a web address and is
reported (no public site is reached here). ``is_vlc_fullscreen`` compares the first ``vlc``-class
window's size with the screen's (``windows.screen_sized``). The audio and video comparisons are
not translated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .common import Untranslatable, escape
from .osworld_metrics_env import MetricEnv, Part, known_options, needs_judge, result_and_gold, rule_value, rules_of

SLIDER_DEFAULT = "153;210;153;20;210;20;255;199;15;245;39;29"

SETTINGS: dict[str, tuple[str, str, str]] = {
    "check_qt_bgcone": ("qt-bgcone", "expected_qt_bgcone", "1"),
    "check_qt_max_volume": ("qt-max-volume", "expected_qt_max_volume", "125"),
    "check_qt_minimal_view": ("qt-minimal-view", "expected_qt_minimal_view", "0"),
    "check_one_instance_when_started_from_file": (
        "one-instance-when-started-from-file", "expected_one_instance_when_started_from_file", "1"),
}
"""func -> (vlcrc key, rule key, the metric's default where no line has the key)."""


def _vlcrc(part: Part) -> None:
    needs_judge(part["func"], "vlc.config")
    known_options(part, set(), {})
    result = part.get("result") or {}
    if result.get("type") != "vlc_config":
        raise Untranslatable(f"result type {result.get('type')}: {part['func']} is translated for vlc_config")


def _as_text(func: str, value: Any) -> str:
    """The expected value as the metric compares it: an int as its digits, a string as it is."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise Untranslatable(f"func {func}: expected {value!r} is neither an int nor a string")
    return str(value)


def _setting(key: str, rule_key: str, default: str) -> Callable[[MetricEnv, Part], None]:
    def convert(env: MetricEnv, part: Part) -> None:
        _vlcrc(part)
        value = _as_text(part["func"], rule_value(part, rule_key))
        env.judge("vlc.config", key=key, value=value, default=default)

    return convert


def _recordings(env: MetricEnv, part: Part) -> None:
    _vlcrc(part)
    path = _as_text(part["func"], rule_value(part, "recording_file_path"))
    if not path:
        raise Untranslatable("func is_vlc_recordings_folder: an empty expected folder fails without a line, passes"
                             " with an empty one; vlc.config cannot tell the two apart")
    value = env.agent_path(path) if path.startswith("/home/user") else path
    env.judge("vlc.config", key="input-record-path", value=value, uncommented=True)


def _global_play_pause(env: MetricEnv, part: Part) -> None:
    """The metric reduces the hot key to "1" (set) or "0" (empty or no line)."""
    _vlcrc(part)
    expected = _as_text(part["func"], rule_value(part, "expected_global_key_play_pause"))
    if expected not in {"0", "1"}:
        raise Untranslatable(f"func check_global_key_play_pause: expected {expected!r} is neither 0 nor 1 (never passes)")
    env.judge("vlc.config", key="global-key-play-pause", test="set" if expected == "1" else "empty")


def _slider_colours(env: MetricEnv, part: Part) -> None:
    _vlcrc(part)
    kind = rules_of(part).get("type")
    if kind == "blackish":
        env.judge("vlc.config", key="qt-slider-colours", test="blackish", default=SLIDER_DEFAULT)
    elif kind == "match":
        value = _as_text(part["func"], rule_value(part, "expected_qt_slider_colours"))
        env.judge("vlc.config", key="qt-slider-colours", value=value, default=SLIDER_DEFAULT)
    else:
        raise Untranslatable(f"func check_qt_slider_colours: rule type {kind!r} is neither match nor blackish")


def _playing(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "vlc.playing")
    known_options(part, set(), {})
    result = part.get("result") or {}
    if result.get("type") != "vlc_playing_info":
        raise Untranslatable(f"result type {result.get('type')}: is_vlc_playing is translated for vlc_playing_info")
    rules = rules_of(part)
    if rules.get("type") == "url":
        raise Untranslatable("func is_vlc_playing: rule url: VLC streams a web address, which this machine cannot reach")
    if rules.get("type") != "file_name" or not isinstance(rules.get("file_name"), str):
        raise Untranslatable(f"func is_vlc_playing: rule {str(rules)[:80]} is not a file_name string (never passes)")
    env.judge("vlc.playing", state="playing", file_end=escape(rules["file_name"]))


def _fullscreen(env: MetricEnv, part: Part) -> None:
    """The metric compares two getters' sizes: the screen's and the first window of a class's."""
    needs_judge(part["func"], "windows.screen_sized")
    known_options(part, set(), {})
    sizes = {str((part.get(w) or {}).get("type")): part.get(w) or {} for w in ("result", "expected")}
    window = sizes.get("vm_window_size", {}).get("app_class_name")
    if set(sizes) != {"vm_screen_size", "vm_window_size"} or not isinstance(window, str) or not window:
        raise Untranslatable(f"func is_vlc_fullscreen: getters {sorted(sizes)} are not vm_screen_size and a"
                             " vm_window_size with an app_class_name")
    env.judge("windows.screen_sized", wm_class=escape(window))


def _videos(env: MetricEnv, part: Part) -> None:
    """The agent's video against the expected one, frame by frame (video.same_frames)."""
    needs_judge(part["func"], "video.same_frames")
    options = known_options(part, {"max_frames_to_check", "threshold"}, {})
    frames, threshold = options.get("max_frames_to_check", 100), options.get("threshold", 5)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (frames, threshold)):
        raise Untranslatable(f"func compare_videos: options {options} are not whole numbers")
    path, reference = result_and_gold(env, part)
    params = {"path": path, "reference": reference}
    env.judge("video.same_frames", **params, **({"max_frames": frames} if frames != 100 else {}),
              **({"threshold": threshold} if threshold != 5 else {}))


def check_vlc_http(reset: list[dict[str, Any]], judge: list[dict[str, Any]]) -> None:
    """vlc.playing reads VLC's web interface: a task judged by it must start VLC with ``http``, as
    every VLC of OSWorld's VM has it on."""
    if any("vlc.playing" in s for s in judge) and not any((s.get("apps.vlc") or {}).get("http") for s in reset):
        raise Untranslatable("vlc_playing_info: the set-up starts no VLC with its web interface (OSWorld's VM"
                             " starts every VLC with it; here apps.vlc with http does)")


VLC: dict[str, Callable[[MetricEnv, Part], None]] = {
    **{func: _setting(*spec) for func, spec in SETTINGS.items()},
    "is_vlc_recordings_folder": _recordings,
    "check_global_key_play_pause": _global_play_pause,
    "check_qt_slider_colours": _slider_colours,
    "is_vlc_playing": _playing,
    "is_vlc_fullscreen": _fullscreen,
    "compare_videos": _videos,
}
"""OSWorld VLC metric func -> translation; conformance tests in
tests/runtime/importers/osworld_conformance/test_conformance_vlc.py."""
