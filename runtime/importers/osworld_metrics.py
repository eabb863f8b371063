"""OSWorld evaluators -> deskact judges: one table, one entry point (``translate_evaluator``).

An OSWorld ``evaluator`` is ``{func, result, expected, options}``, or lists of them joined by
``conj`` ("and" unless it says "or"). Each func is a metric of ``desktop-env``
(``desktop_env/evaluators/metrics/*.py``); ``result`` and ``expected`` name getters (the output
of a command in the VM, a file in the VM, a file on the web, a fixed rule). A translation is
written only where a deskact judge decides exactly as the metric does, proved by a conformance
test that runs the metric itself on the same files (tests/runtime/importers/osworld_conformance/).
Anything else comes back as a reason sentence, never as a looser judge.

OSWorld scores a metric in [0, 1]; deskact's verdict is pass/fail. A task passes in OSWorld with
score 1, so a translated judge passes exactly when the metric returns 1; options that make a
metric return a partial similarity (``fuzzy_match``, ``content_only``) are reported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import osworld_chrome as chrome
from . import osworld_metrics_slide_media as slide_media
from .common import Untranslatable, step
from .osworld_metrics_a11y import A11Y
from .osworld_metrics_env import GoldFetcher, MetricEnv, Part, Translation
from .osworld_metrics_files import FILES
from .osworld_metrics_gimp import GIMP
from .osworld_metrics_multi import MULTI
from .osworld_metrics_office import OFFICE
from .osworld_metrics_tables import TABLES
from .osworld_metrics_thunderbird import THUNDERBIRD
from .osworld_metrics_vlc import VLC

__all__ = ["METRICS", "GoldFetcher", "Translation", "split_parts", "translate_evaluator"]


def _infeasible(env: MetricEnv, part: Part) -> None:
    raise Untranslatable("func infeasible: a whole task's evaluator, translated by the importer (answer.infeasible),"
                         " not one metric among others")


METRICS: dict[str, Callable[[MetricEnv, Part], None]] = {
    **FILES, **OFFICE, **TABLES, **GIMP, **VLC, **THUNDERBIRD, **A11Y, **MULTI,
    **chrome.metrics(FILES["exact_match"], FILES["is_in_list"]), "infeasible": _infeasible,
    "compare_images": slide_media.compare_images(FILES["compare_images"])}
"""OSWorld metric func -> translation (the families' tables: ``osworld_metrics_files``,
``osworld_metrics_office``, ``osworld_metrics_tables``, ``osworld_metrics_gimp``, ``osworld_metrics_thunderbird``,
``osworld_metrics_multi``, ``osworld_metrics_a11y``,
``osworld_chrome``). Each entry has a conformance test against
desktop-env (tests/runtime/importers/osworld_conformance/)."""


def split_parts(evaluator: dict[str, Any]) -> list[Part]:
    """One ``{func, result, expected, options}`` per func of a (possibly list) evaluator."""
    funcs = evaluator.get("func")
    if not isinstance(funcs, list):
        return [dict(evaluator)]

    def nth(key: str, i: int) -> Any:
        value = evaluator.get(key)
        return (value[i] if i < len(value) else {}) if isinstance(value, list) else value or {}

    return [{"func": f, "result": nth("result", i), "expected": nth("expected", i), "options": nth("options", i)}
            for i, f in enumerate(funcs)]


def translate_evaluator(evaluator: dict[str, Any], gold: GoldFetcher, agent_path: Callable[[str], str],
                        shell_text: Callable[[str | list[str]], str],
                        cache_path: Callable[[str], str] | None = None) -> Translation:
    """An OSWorld task's ``evaluator`` as deskact judge steps (``Translation.judge``, all must
    pass), with the reset steps they rely on; or, in ``Translation.reasons``, why it cannot be.

    ``gold(url, name)`` fetches an expected file and returns the judge's reference to it;
    ``agent_path`` turns a VM path into the task's path (``/home/user`` -> ``${HOME}``);
    ``shell_text`` writes a VM command for a deskact step; ``cache_path`` gives where a
    ``cache_file`` getter's file (a set-up command's saved output) is in the task's world (without
    it such getters are reported). ``postconfig`` is not read here.
    """
    out = Translation()
    if not isinstance(evaluator, dict):
        out.reasons.append(f"evaluator: {str(evaluator)[:40]!r} is not an evaluator object")
        return out
    if not evaluator.get("func"):
        out.reasons.append("func empty: the task has no evaluator")
        return out
    conj = evaluator.get("conj", "and") if isinstance(evaluator["func"], list) else "and"
    if conj not in ("and", "or"):
        out.reasons.append(f"conj {conj}: OSWorld joins metrics by and or or only")
        return out
    env = MetricEnv(gold, agent_path, shell_text, out, cache_path)
    alternatives: list[list[dict[str, Any]]] = []
    for part in split_parts(evaluator):
        convert = METRICS.get(str(part["func"]))
        if convert is None:
            out.reasons.append(f"func {part['func']}: no deskact judge checks the same thing")
            continue
        before = len(out.judge)
        try:
            convert(env, part)
        except Untranslatable as exc:
            out.reasons.append(str(exc))
        if conj == "or":  # each metric's judges become one alternative
            alternatives.append(out.judge[before:])
            del out.judge[before:]
    if conj == "or" and not out.reasons:
        # OSWorld's `or` scores the best metric and solves the task at 1: one metric at 1 is enough.
        out.judge.append(step("judge", "judges.any", of=alternatives))
        out.notes.append(f"conj or: {len(alternatives)} metrics became one judges.any (any one passing solves the task)")
    return out
