"""shell.json_object (judges/_json_object.py): a command's output read as a JSON object against
expected values; feedback names the key. Verdicts against OSWorld's check_direct_json_object:
tests/runtime/importers/osworld_conformance/test_conformance_general.py."""

from __future__ import annotations

from deskact.runtime.tasks.steps import StepContext, run_judge


def test_keys_compared_and_named(ctx: StepContext) -> None:
    cmd = "echo \"{'peak': 'Mount Hua', 'tags': ['a', 'b']}\""
    assert run_judge("shell.json_object", {"cmd": cmd, "expected": {"peak": "Hua"}, "expect_in_result": True,
                                           "in": "host"}, ctx).passed
    v = run_judge("shell.json_object", {"cmd": cmd, "expected": {"tags": ["b", "a"]}, "in": "host"}, ctx)
    assert not v.passed and "tags is ['a', 'b'], not ['b', 'a']" in v.feedback, v.feedback
    v = run_judge("shell.json_object", {"cmd": "echo nope", "expected": {}, "in": "host"}, ctx)
    assert not v.passed and "is not a JSON object" in v.feedback
