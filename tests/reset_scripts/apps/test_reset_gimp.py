"""apps.gimp's warm profile: made once by a headless GIMP, copied into the agent's home. Starting
GIMP in a world is exercised by the gimp suite's validation (tests/task_suites)."""

from __future__ import annotations

import shutil

import pytest
from deskact.reset_scripts.apps.gimp import profile_template, seed_profile, window_title
from deskact.runtime.tasks.steps import StepContext, StepFailed, run_reset

needs_gimp = pytest.mark.skipif(shutil.which("gimp-console") is None, reason="GIMP is not installed (scripts/setup.sh)")


@needs_gimp
@pytest.mark.slow
def test_template_has_queried_plugins_and_a_settled_gimprc() -> None:
    template = profile_template()
    assert (template / "pluginrc").stat().st_size > 10_000, "the plug-ins were not queried"
    gimprc = (template / "gimprc").read_text()
    assert "(single-window-mode yes)" in gimprc and "(show-tips no)" in gimprc


@needs_gimp
@pytest.mark.slow
def test_seeding_copies_the_template_once_and_keeps_a_tasks_own_files(ctx: StepContext) -> None:
    profile = ctx.home / ".config" / "GIMP" / "2.10"
    profile.mkdir(parents=True)
    (profile / "gimprc").write_text("(theme \"Light\")\n")  # a reset wrote its own preferences first
    seed_profile(ctx)
    assert (profile / "pluginrc").is_file()
    assert (profile / "gimprc").read_text() == "(theme \"Light\")\n"
    (profile / "pluginrc").write_text("changed")
    seed_profile(ctx)
    assert (profile / "pluginrc").read_text() == "changed", "a seeded profile is left as it is"


def test_needs_a_display_and_the_image(ctx: StepContext) -> None:
    (ctx.workspace / "a.png").write_bytes(b"")
    with pytest.raises(StepFailed, match="apps.gimp needs a display"):
        run_reset("apps.gimp", {"path": "a.png"}, ctx)
    ctx.display = ":4321"  # refused before anything is started on it
    with pytest.raises(StepFailed, match=r"apps.gimp: .*missing.png does not exist"):
        run_reset("apps.gimp", {"path": "missing.png"}, ctx)


def test_the_window_is_titled_by_the_file_name_for_xcf_and_in_brackets_for_imports() -> None:
    # GIMP 2.10's titles: "scene.xcf-1.0 (RGB color 8-bit ...)" and "[scene] (imported)-1.0 (RGB ...)"
    assert window_title("white_background_with_object.xcf") == "white_background_with_object.xcf-"
    assert window_title("Scene.XCF") == "Scene.XCF-"
    assert window_title("scene.png") == "[scene]"
    assert window_title("a.b.jpg") == "[a.b]"
