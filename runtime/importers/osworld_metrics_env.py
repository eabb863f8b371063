"""What every OSWorld metric translation shares: the translation being built, the importer's
hooks, and reading a metric's getters and options (``osworld_metrics`` is the entry point)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from pydantic import BaseModel, Field

from .common import Untranslatable, escape, has_step, step

GoldFetcher = Callable[[str, str], str]
"""(URL of an expected file, file name) -> the judge's ``gold``/``reference`` value (the file
fetched into the suite's gold/ folder). Raises ``Untranslatable`` when it cannot fetch."""


class Translation(BaseModel):
    """What one task's evaluator becomes."""

    judge: list[dict[str, Any]] = Field(default_factory=list)
    """Judge steps, all of which must pass (OSWorld's ``conj: and``)."""
    reset: list[dict[str, Any]] = Field(default_factory=list)
    """Reset steps the judges rely on (a terminal window whose text a judge reads)."""
    notes: list[str] = Field(default_factory=list)
    needs_world: bool = False
    """A judge runs a command in the task's world (``world.require`` at reset)."""
    needs_display: bool = False
    """A judge reads the task's display (its X clipboard): the task is visual, so it gets one."""
    reasons: list[str] = Field(default_factory=list)
    """Why some part has no faithful translation; the task is reported when this is not empty."""


class MetricEnv:
    """Hooks into the importer: where agent paths go, how commands and gold files are written."""

    def __init__(self, gold: GoldFetcher, agent_path: Callable[[str], str],
                 shell_text: Callable[[str | list[str]], str], out: Translation,
                 cache_path: Callable[[str], str] | None = None) -> None:
        self.gold, self.agent_path, self.shell_text, self.out = gold, agent_path, shell_text, out
        self.cache_path = cache_path

    def judge(self, name: str, **params: Any) -> None:
        self.out.judge.append(step("judge", name, **params))


Part = dict[str, Any]
"""One func with its own result, expected and options."""


def command_of(env: MetricEnv, part: Part) -> str:
    result = part.get("result") or {}
    if result.get("type") != "vm_command_line":
        raise Untranslatable(f"result type {result.get('type')}: {part['func']} is translated for vm_command_line output")
    env.out.needs_world = True
    return env.shell_text(result["command"])


def rules_of(part: Part) -> dict[str, Any]:
    expected = part.get("expected") or {}
    if expected.get("type") != "rule":
        raise Untranslatable(f"expected type {expected.get('type')}: {part['func']} is translated for fixed rules")
    return expected.get("rules") or {}


def rule_value(part: Part, key: str) -> Any:
    rules = rules_of(part)
    if key not in rules:
        raise Untranslatable(f"func {part['func']}: its rule has no {key}")
    return rules[key]


def escaped(value: Any) -> Any:
    """Source values taken literally in a step's params, strings nested in lists and dicts too."""
    if isinstance(value, str):
        return escape(value)
    if isinstance(value, list):
        return [escaped(v) for v in value]
    if isinstance(value, dict):
        return {k: escaped(v) for k, v in value.items()}
    return value


def literal(text: str) -> str:
    """``text`` as a regex matching exactly it; newlines written ``\\n`` so the YAML stays readable."""
    return re.escape(text).replace("\\\n", "\\n")


def listed_files(part: Part, where: str, kind: str) -> list[tuple[str, str]]:
    """(source path or URL, local name) of each file a ``vm_file``/``cloud_file`` getter lists; the
    first is the one the metric is given (``multi`` getters give more files, ``gives: [0]``)."""
    spec = part.get(where) or {}
    if spec.get("type") != kind:
        raise Untranslatable(f"{where} type {spec.get('type')}: {part['func']} is translated for {kind}")
    paths, dests = spec.get("path"), spec.get("dest")
    if not spec.get("multi"):
        if isinstance(paths, list) or not isinstance(paths, str):
            raise Untranslatable(f"{where} type {kind}: {part['func']} is translated for one {kind} (or multi)")
        return [(paths, dests if isinstance(dests, str) else PurePosixPath(paths).name)]
    if list(spec.get("gives", [0])) != [0]:
        raise Untranslatable(f"{where} gives {spec.get('gives')}: only a metric given the first file is translated")
    if not isinstance(paths, list) or not isinstance(dests, list) or len(paths) != len(dests):
        raise Untranslatable(f"{where} type {kind}: multi needs lists of paths and dests of the same length")
    return list(zip(paths, dests))


def result_and_gold(env: MetricEnv, part: Part) -> tuple[str, str]:
    """(agent path of the result file, gold reference) for a vm_file against a cloud_file."""
    result, expected = listed_files(part, "result", "vm_file")[0], listed_files(part, "expected", "cloud_file")[0]
    name = (part["expected"].get("dest") and expected[1]) or PurePosixPath(result[0]).name
    return env.agent_path(result[0]), env.gold(expected[0], name)


def result_file(env: MetricEnv, part: Part) -> str:
    return env.agent_path(listed_files(part, "result", "vm_file")[0][0])


def text_result(env: MetricEnv, part: Part) -> str:
    """A file the agent left (vm_file) or a set-up command's saved output (cache_file)."""
    result = part.get("result") or {}
    if result.get("type") == "cache_file" and isinstance(result.get("path"), str):
        if env.cache_path is None:
            raise Untranslatable("result type cache_file: the importer gives no place for set-up commands' output")
        return env.cache_path(result["path"])
    return result_file(env, part)


def known_options(part: Part, read: set[str], reported: dict[str, str]) -> dict[str, Any]:
    """The options the metric reads; an option it reads but deskact cannot honour is a reason,
    one it never reads (a typo in the task file) is ignored as OSWorld ignores it."""
    options = dict(part.get("options") or {})
    for key, why in reported.items():
        if options.get(key):
            raise Untranslatable(f"func {part['func']}: option {key} {why}")
    return {k: v for k, v in options.items() if k in read}


def needs_judge(func: str, judge_name: str) -> None:
    if not has_step("judge", judge_name):
        raise Untranslatable(f"func {func}: needs judge {judge_name}, which this deskact does not have")


PARTIAL = "makes the metric return a similarity between 0 and 1, not a pass/fail"
