"""Editor references that use Mousepad's Find and Replace dialog wait for it before Replace All.

Mousepad applies a toggled option (Regular expression, Replace all in) on an idle callback,
and GTK runs idle callbacks only once no input event is pending. When the app is short of
CPU (a loaded machine; worlds once weighed as one host process together) alt+x, alt+a and
alt+r arrive in one batch, so Replace runs with the old options: a literal search for
``\\t`` or a single Replace that only selects the first match. Nothing is replaced and the
reference fails (validate failed editor-tabs-to-spaces and editor-delete-debug-lines this
way). A ``screen.wait_stable`` after the last option and before alt+r lets the dialog redraw
with the options applied (its occurrence count) first.
"""

from __future__ import annotations

import ast

import pytest
from deskact.runtime.tasks.task import SUITES_DIR, Task, load_tasks

OPTION_KEYS = {"a", "x", "c", "m", "w"}
"""Mnemonics of the dialog's options and fields (replace all, regex, case, whole word, replace with)."""


def _calls(code: str) -> list[tuple[str, tuple[object, ...]]]:
    """The reference's toolkit calls in order, as ("keyboard.hotkey", ("alt", "r"))."""
    calls = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name):
            args = tuple(a.value for a in node.args if isinstance(a, ast.Constant))
            calls.append((node.lineno, node.col_offset, f"{node.func.value.id}.{node.func.attr}", args))
    return [(name, args) for _, _, name, args in sorted(calls)]


def unsettled_replaces(code: str) -> list[int]:
    """Indexes of alt+r presses in a Find and Replace dialog that follow an option change with no
    screen.wait_stable in between."""
    calls = _calls(code)
    bad, dirty, in_dialog = [], False, False
    for i, (name, args) in enumerate(calls):
        if name == "windows.wait_for" and args[:1] == ("Find and Replace",):
            in_dialog, dirty = True, False
        elif not in_dialog:
            continue
        elif name == "screen.wait_stable":
            dirty = False
        elif name == "keyboard.hotkey" and args == ("alt", "r"):
            if dirty:
                bad.append(i)
        elif name == "keyboard.type" or (name == "keyboard.hotkey" and len(args) == 2
                                         and args[0] == "alt" and args[1] in OPTION_KEYS):
            dirty = True
        elif name == "windows.wait_closed":
            in_dialog = False
    return bad


def _dialog_tasks() -> list[Task]:
    result = load_tasks([SUITES_DIR / "editor"])
    assert not result.invalid, "\n".join(str(i) for i in result.invalid)
    return [t for t in result.tasks if t.reference and "Find and Replace" in t.reference]


DIALOG_TASKS = _dialog_tasks()


def test_the_editor_suite_has_replace_dialog_tasks() -> None:
    assert len(DIALOG_TASKS) >= 3, [t.id for t in DIALOG_TASKS]


@pytest.mark.parametrize("task", DIALOG_TASKS, ids=lambda t: t.id)
def test_replace_all_waits_for_the_dialog(task: Task) -> None:
    assert task.reference is not None
    assert not unsettled_replaces(task.reference), (
        f"{task.source}: {task.id} presses alt+r right after changing the Find and Replace dialog; "
        "call screen.wait_stable(timeout=30) first (Mousepad applies options on an idle callback)"
    )


def test_the_check_sees_a_replace_right_after_the_regex_option() -> None:
    # The editor-tabs-to-spaces reference as it was when validate failed it.
    racy = ('windows.wait_for("Find and Replace")\nkeyboard.type(r"\\t")\nkeyboard.hotkey("alt", "w")\n'
            'keyboard.type("    ")\nkeyboard.hotkey("alt", "x")\nkeyboard.hotkey("alt", "a")\n'
            'keyboard.hotkey("alt", "r")\n')
    assert unsettled_replaces(racy) == [6]
    settled = racy.replace('keyboard.hotkey("alt", "r")', 'screen.wait_stable(timeout=30)\nkeyboard.hotkey("alt", "r")')
    assert unsettled_replaces(settled) == []
