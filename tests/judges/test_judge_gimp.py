"""gimp.config: a setting line of a file in the agent's GIMP profile, read as OSWorld's
check_config_status reads it (conformance: osworld_conformance/test_conformance_gimp.py)."""

from __future__ import annotations

import pytest
from deskact.judges.gimp import matching_line
from deskact.runtime.tasks.steps import StepContext, lookup, run_judge

GIMPRC = """\
# GIMP gimprc
(undo-levels 5)
(theme "Dark")
(session-info "toplevel"
    (position 10 20))
"""


def _profile(ctx: StepContext, name: str, text: str) -> None:
    folder = ctx.home / ".config" / "GIMP" / "2.10"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text)


def test_a_setting_passes_and_another_value_fails_with_what_is_there(ctx: StepContext) -> None:
    _profile(ctx, "gimprc", GIMPRC + "(undo-levels 100)\n")
    v = run_judge("gimp.config", {"key": "undo-levels", "value": "100"}, ctx)
    assert v.passed and v.feedback == "GIMP's gimprc has (undo-levels 100)", v.feedback
    v = run_judge("gimp.config", {"key": "theme", "value": '"Light"'}, ctx)
    assert not v.passed and v.feedback == """GIMP's gimprc should set theme to "Light" but has ['(theme "Dark")']""", v.feedback
    v = run_judge("gimp.config", {"key": "show-tips", "value": "no"}, ctx)
    assert not v.passed and v.feedback.endswith("does not set it"), v.feedback


def test_two_word_keys_and_other_files(ctx: StepContext) -> None:
    _profile(ctx, "action-history", '(history-item "filters-vignette" 1)\n')
    params = {"file": "action-history", "key": ["history-item", '"filters-vignette"'], "value": "1"}
    assert run_judge("gimp.config", params, ctx).passed
    v = run_judge("gimp.config", {**params, "value": "2"}, ctx)
    assert not v.passed
    v = run_judge("gimp.config", {"file": "sessionrc", "key": "hide-docks", "value": "yes"}, ctx)
    assert not v.passed and "sessionrc does not exist" in v.feedback.replace("/sessionrc", "sessionrc"), v.feedback


def test_lines_are_read_as_osworld_reads_them() -> None:
    assert matching_line(GIMPRC, "position", "20))".rstrip(")")) == "(position 10 20))"
    assert matching_line("(theme  \"Light\")\n", "theme", '"Light"') is not None
    assert matching_line("#(theme \"Light\")\n", "theme", '"Light"') is None
    with pytest.raises(ValueError, match="blank line"):
        matching_line("  \n(theme \"Light\")\n", "theme", '"Light"')


def test_file_names_only() -> None:
    with pytest.raises(ValueError, match="file"):
        lookup("judge", "gimp.config").validate({"file": "../gimprc", "key": "a", "value": "b"})
