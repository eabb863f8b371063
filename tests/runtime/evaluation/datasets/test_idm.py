"""IDM samples cut from a real recorded episode: xterm on Xvfb, real xdotool input, the episode
video and input log written by --record's code, cut back into (before, after, action)."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest
from deskact.runtime.evaluation.datasets.idm import make_idm
from deskact.runtime.evaluation.samples import IdmClip, IdmSample, load_dataset
from deskact.runtime.run import video
from deskact.runtime.world.display import Display
from PIL import Image


def _record_episode(folder: Path) -> None:
    """Type into an xterm, one action at a time with pauses, then three at once (no frame between)."""
    with Display(width=1280, height=800) as display:
        env = {**os.environ, **display.env()}
        term = subprocess.Popen(["xterm", "-geometry", "80x24+0+0"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            while subprocess.run(["xdotool", "search", "--class", "xterm"], env=env,
                                 capture_output=True).returncode and time.monotonic() < deadline:
                time.sleep(0.2)
            time.sleep(1.0)  # drawn
            rec = video.start(display.name, folder, fps=10, max_width=640, max_height=400)
            assert rec is not None and rec.input_log is not None

            def act(*args: str, settle: float = 1.5) -> None:
                subprocess.run(["xdotool", *args], env=env, check=True, timeout=30)
                time.sleep(settle)

            time.sleep(1.0)
            act("mousemove", "300", "200")
            act("click", "1")
            act("type", "--delay", "30", "echo hello")
            act("key", "Return")
            act("type", "--delay", "30", "ls")
            act("key", "shift")  # a modifier alone: no visible change, so no frame after it
            _burst(display.name, ["Return", "x", "BackSpace"])
            time.sleep(1.0)
            assert rec.stop() is None
        finally:
            term.kill()
            term.wait()


def _burst(display: str, keys: list[str]) -> None:
    """Press and release each key through XTest in one go: all within a millisecond or so,
    whatever the load (no frame can fall between them)."""
    from Xlib import XK, X
    from Xlib import display as xdisplay
    from Xlib.ext import xtest

    x = xdisplay.Display(display)
    try:
        for key in keys:
            code = x.keysym_to_keycode(XK.string_to_keysym(key))
            xtest.fake_input(x, X.KeyPress, code)
            xtest.fake_input(x, X.KeyRelease, code)
        x.sync()
    finally:
        x.close()


@pytest.mark.slow
def test_idm_samples_from_a_recorded_xterm_episode(requires_xvfb: None, tmp_path: Path) -> None:
    run = tmp_path / "run"
    folder = run / "trajectories" / "xterm-task"
    _record_episode(folder)
    (folder / "episode.json").write_text(json.dumps({"instruction": "Say hello in the terminal."}))
    (run / "results.jsonl").write_text(json.dumps({"task_id": "xterm-task", "suite": "os_gui",
                                                   "trajectory": "trajectories/xterm-task"}) + "\n")
    counts = make_idm([run], tmp_path / "out")
    singles = load_dataset(tmp_path / "out" / "idm")
    labels = {s.action.short() for s in singles if isinstance(s, IdmSample)}
    # The video is 640 px wide for a 1280 px screen: coordinates are halved.
    # Each action 1.5 s after the last: each has its frames (under a heavy load one may lack them);
    # the burst's actions (XTest events sent at once) never do, and no sample is mislabelled.
    paced = {"click(150, 100)", "type('echo hello')", "key(enter)", "type('ls')"}
    assert labels <= paced and len(labels) >= 3, labels
    assert "key(shift)" not in labels and counts.dropped.get("no frame between it and the action after", 0) >= 1
    assert counts.episodes == counts.episodes_with_samples == 1 and counts.samples == len(singles)
    for sample in singles:
        assert isinstance(sample, IdmSample) and sample.app == "os_gui"
        assert sample.screen is not None and sample.screen.scale == 0.5 and (sample.width, sample.height) == (640, 400)
        assert sample.instruction == "Say hello in the terminal."
        before = np.asarray(Image.open(singles.path(sample.before)), dtype=np.int16)
        after = np.asarray(Image.open(singles.path(sample.after)), dtype=np.int16)
        assert (np.abs(before - after).max(axis=2) > 40).sum() >= 3
    typed = next(s for s in singles if isinstance(s, IdmSample) and s.action.text == "echo hello")
    # Before typing, the prompt line is empty; after, it shows the text: the after frame differs
    # from the before frame on the prompt's row (top left, where xterm starts).
    diff = np.abs(np.asarray(Image.open(singles.path(typed.before)), dtype=np.int16)
                  - np.asarray(Image.open(singles.path(typed.after)), dtype=np.int16)).sum(axis=2)
    rows = np.nonzero(diff.sum(axis=1))[0]
    assert rows.min() < 60
    clips = load_dataset(tmp_path / "out" / "idm_clip")
    assert len(clips) == counts.clips >= 1
    for clip in clips:
        assert isinstance(clip, IdmClip) and clip.frames and clip.frame_times
        assert len(clip.actions) >= 2 and [a.t for a in clip.actions] == sorted(a.t for a in clip.actions)
        assert clip.frame_times[0] == 0 and clip.actions[-1].t <= clip.frame_times[-1]
    burst = [c for c in clips if isinstance(c, IdmClip) and "type('x')" in [a.action.short() for a in c.actions]]
    assert burst and [a.action.short() for a in burst[0].actions][-3:] == ["key(enter)", "type('x')", "key(backspace)"]
