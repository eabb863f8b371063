"""OSWorld's compare_python_pure_text (desktop-env general.py) and deskact's pysource.same_text agree
on right and near-miss Python files (multi_apps-dd60633f: code copied out of notebook cells)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.conformance

RESULT = "/home/user/colab.py"
GOLD_URL = "https://example.org/gold/colab.py"
GOLD = "import numpy as np\n\n\ndef f(x):\n    return x * 2\n\nprint(f(np.arange(3)))\n"

CASES = [
    (GOLD, True),
    (GOLD.replace("\n\n", "\n"), True),  # blank lines do not count
    ("#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n" + GOLD, True),  # leading metadata lines
    ("\n\n\n#!/usr/bin/env python3\n" + GOLD, False),  # a shebang past the first three lines is code
    (GOLD.replace("    return", "\treturn"), True),  # a tab is 4 columns
    (GOLD.replace("    return", "  return"), False),
    (GOLD.replace("x * 2\n", "x * 2   \n"), True),  # trailing spaces
    ("```python\n" + GOLD + "```\n", False),  # markdown fences kept, so a difference
    (GOLD.replace("x * 2", "x*2"), False),
    (GOLD + "# done\n", False),
    (GOLD.replace("\n", "\r\n"), True),
    ("# coding: utf-8\n" + GOLD.replace("import numpy as np\n", ""), False),
]


@pytest.mark.parametrize(("text", "verdict"), CASES)
def test_compare_python_pure_text(desktop_env: Any, deskact: Any, text: str, verdict: bool) -> None:
    gold = deskact.ctx.gold.parent / "colab_Gold.py"
    gold.write_text(GOLD)
    result = deskact.home_file(RESULT)
    result.write_bytes(text.encode())
    evaluator = {"func": "compare_python_pure_text", "result": {"type": "vm_file", "path": RESULT, "dest": "colab.py"},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "colab_Gold.py"}}
    theirs = desktop_env.passes("general", "compare_python_pure_text", str(result), str(gold))
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs == verdict, f"deskact {ours} ({deskact.feedback}); desktop-env {theirs}"


def test_missing_and_not_utf8(desktop_env: Any, deskact: Any) -> None:
    gold = deskact.ctx.gold.parent / "colab_Gold.py"
    gold.write_text(GOLD)
    evaluator = {"func": "compare_python_pure_text", "result": {"type": "vm_file", "path": RESULT, "dest": "colab.py"},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "colab_Gold.py"}}
    assert not desktop_env.passes("general", "compare_python_pure_text", None, str(gold))
    assert not deskact.passes(evaluator, {GOLD_URL: gold})
    result = deskact.home_file(RESULT)
    result.write_bytes(GOLD.encode("utf-16"))
    assert not desktop_env.passes("general", "compare_python_pure_text", str(result), str(gold))
    assert not deskact.passes(evaluator, {GOLD_URL: gold})
