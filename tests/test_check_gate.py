"""`make check` runs the fast tests and CI then runs the others (.ci/run): the two marker
expressions must split the suite, every test in exactly one of them, whatever its markers."""

from __future__ import annotations

import itertools
import re
import tomllib
from collections.abc import Callable

from _pytest.mark.expression import Expression
from deskact.runtime.world.base import PACKAGE_ROOT

CHECK = (PACKAGE_ROOT / "scripts" / "check.sh").read_text(encoding="utf-8")
CI = (PACKAGE_ROOT / ".ci" / "run").read_text(encoding="utf-8")
MARKERS = [m.split(":")[0] for m in tomllib.loads((PACKAGE_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
           ["tool"]["pytest"]["ini_options"]["markers"]]


def gate_expression() -> str:
    (expr,) = re.findall(r'^FAST_TESTS="([^"]+)"$', CHECK, re.MULTILINE)
    return expr


def ci_rest_expression() -> str:
    (expr,) = re.findall(r'^bash scripts/test\.sh -m "([^"]+)"(?: -n \d+ --dist \w+)?(?: --durations=\d+)?$', CI,
                         re.MULTILINE)
    return expr


def test_ci_runs_the_gate_before_the_rest() -> None:
    lines = [line for line in CI.splitlines() if line.startswith("bash ")]
    assert lines[:2] == ["bash scripts/setup.sh", "bash scripts/check.sh"], lines
    assert lines[2].startswith("bash scripts/test.sh -m "), lines


def test_each_registered_marker_is_decided_by_the_gate() -> None:
    # A new marker must say whether the fast gate runs it (e.g. `not network`).
    named = set(re.findall(r"\w+", gate_expression())) - {"not", "and", "or"}
    assert sorted(set(MARKERS) - named) == []


def test_every_test_runs_once_in_ci() -> None:
    gate, rest = Expression.compile(gate_expression()), Expression.compile(ci_rest_expression())
    for n in range(len(MARKERS) + 1):
        for marks in itertools.combinations(MARKERS, n):
            has = marker_test(set(marks))
            assert gate.evaluate(has) != rest.evaluate(has), marks


def marker_test(marks: set[str]) -> Callable[..., bool]:
    """What pytest asks of a test's markers while evaluating ``-m``."""
    def has(name: str, /, **_: object) -> bool:
        return name in marks
    return has
