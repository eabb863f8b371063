"""AgentStudio's IDM-Single, IDM-Multiple and SuccessDetection records read from fixtures in those formats."""

from __future__ import annotations

from pathlib import Path

from deskact.runtime.evaluation.loaders import detect, load_any
from deskact.runtime.evaluation.loaders.agentstudio_actions import to_action
from deskact.runtime.evaluation.samples import CriticSample, IdmClip, IdmSample

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "evaluation" / "agentstudio"


def test_idm_single() -> None:
    path = FIXTURE / "metadata_idm.jsonl"
    assert detect(path) == "agentstudio-idm"
    ds = load_any(path)
    samples = [s for s in ds.samples if isinstance(s, IdmSample)]
    assert ds.info.kind == "idm" and len(samples) == len(ds) == 5
    click = samples[0]
    assert (click.id, click.before, click.after) == (
        "a1001-0", "images/aitw_images/general/1001_0.png", "images/aitw_images/general/1001_1.png")
    assert (click.width, click.height, click.platform, click.source) == (180, 320, "mobile", "agentstudio/aitw_general")
    # AITW's click is a point in [0, 1]: (0.278, 0.266) of 180x320.
    assert click.action.model_dump(exclude_none=True) == {"kind": "click", "x": 50.04, "y": 85.12}
    assert click.instruction == "Write milk, eggs in a new note"
    assert [s.action.short() for s in samples[1:]] == [
        "type('milk, eggs')", "scroll(down)", "click(55, 50)", "hotkey(shift+delete)"]
    # The scroll happened where the finger started: from (0.5, 0.8).
    assert (samples[2].action.x, samples[2].action.y) == (90.0, 256.0)
    # Mind2Web's SELECT and VisualWebArena's click on an element id have no deskact action: counted.
    assert "Left out 2 records: SELECT: no deskact action: 1; click on an element with no coordinates: 1." in (
        ds.info.description)


def test_idm_multiple_is_a_clip_of_frames() -> None:
    path = FIXTURE / "metadata_idmn2n.jsonl"
    assert detect(path) == "agentstudio-idm-multiple"
    clips = [s for s in load_any(path).samples if isinstance(s, IdmClip)]
    assert len(clips) == 2
    clip = clips[0]
    assert clip.frames == [f"images/aitw_images/general/1001_{i}.png" for i in range(4)]
    assert clip.frame_times == [0.0, 1.0, 2.0, 3.0]
    assert [(a.t, a.action.kind) for a in clip.actions] == [(0.0, "click"), (1.0, "type"), (2.0, "scroll")]


def test_success_detection_is_a_critic_set() -> None:
    path = FIXTURE / "metadata_success_detection.jsonl"
    assert detect(path) == "agentstudio-critic"
    samples = [s for s in load_any(path).samples if isinstance(s, CriticSample)]
    assert [(s.id, s.success, len(s.steps)) for s in samples] == [
        ("1001:4", True, 4), ("1001:2", False, 2), ("1002:1", False, 1), ("ep1:1", True, 1)]
    full = samples[0]
    assert full.steps[0].screenshot == "images/aitw_images/general/1001_0.png"
    assert full.steps[-1].action is not None and full.steps[-1].action.kind == "done"
    assert full.final_screenshot is None  # the last action (task complete) has no obs_after
    assert samples[1].final_screenshot == "images/aitw_images/general/1001_2.png"


def test_only_the_last_five_actions_as_agentstudio_shows_them() -> None:
    from deskact.runtime.evaluation.loaders.agentstudio import _last_actions

    steps = [{"obs_after": f"{i}.png"} for i in range(8)]
    assert [s["obs_after"] for s in _last_actions(steps)] == ["3.png", "4.png", "5.png", "6.png", "7.png"]
    steps[-1]["obs_after"] = None  # then the five before the last
    assert [s["obs_after"] for s in _last_actions(steps)] == ["2.png", "3.png", "4.png", "5.png", "6.png"]


def test_each_sources_vocabulary() -> None:
    size = (1000, 500)
    cases = [
        ({"operation": "CLICK", "bbox": {"x": 20.0, "y": 300.0, "width": 100.0, "height": 40.0}}, "mind2web", "click(70, 320)"),
        ({"operation": "TYPE", "bbox": {"x": 0, "y": 0, "width": 10, "height": 10}, "metadata": {"value": "Texas"}},
         "mind2web", "type('Texas')"),
        ({"operation": "type", "metadata": {"repr": "type [7] [black camera\n] where [7]"}}, "vwa", "type('black camera\\n')"),
        ({"operation": "scroll", "metadata": {"repr": "scroll [up]"}}, "vwa", "scroll(up)"),
        ({"operation": "press", "metadata": {"repr": "press [Ctrl+a]"}}, "vwa", "hotkey(ctrl+a)"),
        ({"operation": "stop", "metadata": {"repr": "stop [42]"}}, "vwa", "done"),
        ({"operation": "MOUSE_CLICK", "metadata": {"button": "right", "from": {"x": 5, "y": 6}}}, "agent-studio",
         "right_click(5, 6)"),
        ({"operation": "MOUSE_DRAG", "metadata": {"from": {"x": 1, "y": 2}, "to": {"x": 3, "y": 4}}}, "agent-studio",
         "drag(1, 2 -> 3, 4)"),
        ({"operation": "KEY_PRESS", "metadata": {"note": "enter"}}, "agent-studio", "key(enter)"),
        ({"operation": "KEY_SHORTCUT", "metadata": {"note": "cmd + s"}}, "agent-studio", "hotkey(win+s)"),
        ({"operation": "press back"}, "aitw_general", "key(back)"),
        ({"operation": "scroll left", "metadata": {"from": [0.4, 0.5]}}, "aitw_single", "scroll(left)"),
    ]
    for rec, source, short in cases:
        action = to_action(rec, size, source)
        assert not isinstance(action, str), (rec, action)
        assert action.short() == short, rec
    for op in ("SELECT", "hover", "go_back", "goto", "new_tab", "page_focus", "none"):
        assert isinstance(to_action({"operation": op}, size, "vwa"), str), op


def test_a_repeated_action_id_gets_its_own_id(tmp_path: Path) -> None:
    # AgentStudio's published metadata_idm.jsonl repeats 15 action_ids (one of them three times).
    line = (FIXTURE / "metadata_idm.jsonl").read_text().splitlines()[0]
    (tmp_path / "images").symlink_to(FIXTURE / "images")
    (tmp_path / "metadata_idm.jsonl").write_text("\n".join([line, line, line]) + "\n")
    assert [s.id for s in load_any(tmp_path / "metadata_idm.jsonl")] == ["a1001-0", "a1001-0-2", "a1001-0-3"]
