"""OSWorld's getters of media inside a slide (desktop-env's getters/impress.py) with the metric
that compares what they find: ``compare_images`` on ``background_image_in_slide`` -> the
``pptx.background_image`` judge, which finds the picture as the getter does and compares it as
``image.same_gray`` does. ``audio_in_slide`` feeds only ``compare_audios``, which is reported."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePosixPath

from .common import Untranslatable
from .osworld_metrics_env import MetricEnv, Part, known_options, listed_files, needs_judge

Translate = Callable[[MetricEnv, Part], None]


def _slide_background(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "pptx.background_image")
    known_options(part, set(), {"reference_base_result": "scores the gain over a base similarity, not a match"})
    result = part["result"]
    path, slide = result.get("ppt_file_path"), result.get("slide_index")
    if not isinstance(path, str) or isinstance(slide, bool) or not isinstance(slide, int | str) \
            or not str(slide).lstrip("-").isdigit() or int(slide) < 0:
        raise Untranslatable(f"result type background_image_in_slide: ppt_file_path {path!r}, slide_index {slide!r}"
                             " are not a path and a slide number")
    url, name = listed_files(part, "expected", "cloud_file")[0]
    reference = env.gold(url, (part["expected"].get("dest") and name) or PurePosixPath(url).name)
    env.judge("pptx.background_image", path=env.agent_path(path), slide=int(slide), reference=reference)


def compare_images(other: Translate) -> Translate:
    """compare_images's translation: on a slide's background picture here, else ``other``'s."""
    def convert(env: MetricEnv, part: Part) -> None:
        if (part.get("result") or {}).get("type") == "background_image_in_slide":
            _slide_background(env, part)
        else:
            other(env, part)

    return convert
