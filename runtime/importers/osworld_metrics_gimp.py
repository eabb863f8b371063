"""OSWorld's GIMP metrics (desktop-env's metrics/gimp.py) -> deskact judges (``GIMP``).

GIMP tasks compare the agent's export (``result``, a vm_file) with the task's original image,
which is a vm_file too: read from the VM after the agent's turn, so the judges get it as
``original`` (the world's file as it is then), never as a gold copy. Expected files on the web
(cloud_file) become ``reference``. The metrics that locate a background, text or a shape by
colour rules (check_green_background, check_textbox_on_leftside, check_triangle_position) and
the size and resize checks with their transparency rules (check_image_size,
check_structure_sim_resized) become the image.* judges of judges/image_layout.py, which keep
those rules. check_sharper (the variance of OpenCV's Laplacian of OpenCV's own grayscale
decoding) stays reported.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from .common import Untranslatable
from .osworld_metrics_env import MetricEnv, Part, known_options, listed_files, needs_judge, rules_of


def _compared(env: MetricEnv, part: Part) -> tuple[str, dict[str, str]]:
    """(agent path of the result, the judge's ``original`` or ``reference`` param for the expected)."""
    result = env.agent_path(listed_files(part, "result", "vm_file")[0][0])
    expected = part.get("expected") or {}
    if expected.get("type") == "vm_file":
        return result, {"original": env.agent_path(listed_files(part, "expected", "vm_file")[0][0])}
    url, name = listed_files(part, "expected", "cloud_file")[0]
    return result, {"reference": env.gold(url, name)}


def _structure(flip: str | None = None, min_ssim: float = 0.9) -> Callable[[MetricEnv, Part], None]:
    def convert(env: MetricEnv, part: Part) -> None:
        needs_judge(part["func"], "image.structure_similar")
        path, other = _compared(env, part)
        params: dict[str, Any] = {"path": path, **other, "min_ssim": min_ssim}
        if flip is not None:
            params["flip"] = flip
        env.judge("image.structure_similar", **params)

    return convert


def _adjusted(change: str) -> Callable[[MetricEnv, Part], None]:
    def convert(env: MetricEnv, part: Part) -> None:
        needs_judge(part["func"], "image.adjusted")
        # Options reach a metric as keywords: only the brightness check has one, its MSE threshold,
        # which image.adjusted holds at the metric's default.
        threshold = known_options(part, {"threshold"}, {}).get("threshold", 0.03)
        if change != "darker" or threshold != 0.03:
            known_options(part, set(), {"threshold": "is not one image.adjusted takes (it keeps the 0.03 default)"})
        path, other = _compared(env, part)
        env.judge("image.adjusted", path=path, **other, change=change)

    return convert


def _palette(env: MetricEnv, part: Part) -> None:
    """Palette-based (mode P) and, converted to RGB, the structure of the expected image."""
    needs_judge(part["func"], "image.properties")
    path, other = _compared(env, part)
    env.judge("image.properties", path=path, mode="P")
    env.judge("image.structure_similar", path=path, **other, min_ssim=0.9)


def _config_status(env: MetricEnv, part: Part) -> None:
    """A line of the GIMP profile file the ``gimp_config_file`` getter copies from
    ``~/.config/GIMP/2.10``: first word(s) the key, last word the value."""
    needs_judge(part["func"], "gimp.config")
    known_options(part, set(), {})
    result = part.get("result") or {}
    if result.get("type") != "gimp_config_file" or not isinstance(result.get("file_name"), str):
        raise Untranslatable(f"result type {result.get('type')}: check_config_status is translated for gimp_config_file")
    name = result["file_name"]
    if PurePosixPath(name).name != name:
        raise Untranslatable(f"result file_name {name!r}: only a file of the GIMP profile folder is translated")
    rule = rules_of(part)
    key, value = rule.get("key"), rule.get("value")
    if not (isinstance(key, str) or (isinstance(key, list) and len(key) == 2 and all(isinstance(k, str) for k in key))):
        raise Untranslatable(f"func check_config_status: key {key!r} is neither a word nor a list of two")
    if not isinstance(value, str):
        raise Untranslatable(f"func check_config_status: value {value!r} is not a string, so no line's word equals it")
    env.judge("gimp.config", file=name, key=key, value=value)


def _file_size(env: MetricEnv, part: Part) -> None:
    """``size < max_size`` (bytes): files.stat's ``max_size`` is inclusive, so one byte less."""
    needs_judge(part["func"], "files.stat")
    limit = rules_of(part).get("max_size")
    if isinstance(limit, bool) or not isinstance(limit, int | float):
        raise Untranslatable(f"func check_image_file_size: max_size {limit!r} is not a number")
    path = env.agent_path(listed_files(part, "result", "vm_file")[0][0])
    env.judge("files.stat", path=path, max_size=math.ceil(limit) - 1)


def _green_background(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "image.green_background")
    known_options(part, set(), {})
    path, other = _compared(env, part)
    env.judge("image.green_background", path=path, **other)


def _one_image(judge_name: str, **params: Any) -> Callable[[MetricEnv, Part], None]:
    """A metric of the result alone (no expected): its judge on the result file."""
    def convert(env: MetricEnv, part: Part) -> None:
        needs_judge(part["func"], judge_name)
        known_options(part, set(), {})
        if part.get("expected"):
            raise Untranslatable(f"func {part['func']}: an expected value, which the metric takes no argument for")
        env.judge(judge_name, path=env.agent_path(listed_files(part, "result", "vm_file")[0][0]), **params)

    return convert


def _size_rule(rule: dict[str, Any], key: str) -> int | None:
    value = rule.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise Untranslatable(f"func check_image_size: {key} {value!r} is not a whole number of pixels")
    return int(value)


def _image_size(env: MetricEnv, part: Part) -> None:
    """Width and height as the metric measures them (the opaque box where it looks at transparency)."""
    needs_judge(part["func"], "image.content_size")
    known_options(part, set(), {})
    rule = rules_of(part)
    ignore = rule.get("ignore_transparent", False)
    if not isinstance(ignore, bool):
        raise Untranslatable(f"func check_image_size: ignore_transparent {ignore!r} is not true or false")
    sizes = {key: _size_rule(rule, key) for key in ("width", "height")}
    path = env.agent_path(listed_files(part, "result", "vm_file")[0][0])
    env.judge("image.content_size", path=path, **{k: v for k, v in sizes.items() if v is not None},
              **({"ignore_transparent": True} if ignore else {}))


def _structure_resized(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "image.structure_resized")
    known_options(part, set(), {})
    path, other = _compared(env, part)
    env.judge("image.structure_resized", path=path, **other, min_ssim=0.9)


GIMP: dict[str, Callable[[MetricEnv, Part], None]] = {
    "check_structure_sim": _structure(),
    "check_file_exists_and_structure_sim": _structure(),
    "check_image_mirror": _structure(flip="horizontal", min_ssim=0.99),
    "check_brightness_decrease_and_structure_sim": _adjusted("darker"),
    "check_saturation_increase_and_structure_sim": _adjusted("more_saturated"),
    "check_contrast_increase_and_structure_sim": _adjusted("more_contrast"),
    "check_palette_and_structure_sim": _palette,
    "check_config_status": _config_status,
    "check_image_file_size": _file_size,
    "check_green_background": _green_background,
    "check_textbox_on_leftside": _one_image("image.dark_at_left", within=0.05),
    "check_triangle_position": _one_image("image.shape_centred", tolerance=0.05),
    "check_image_size": _image_size,
    "check_structure_sim_resized": _structure_resized,
}
"""OSWorld GIMP metric func -> translation; conformance tests in
tests/runtime/importers/osworld_conformance/test_conformance_gimp.py."""
