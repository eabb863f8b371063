"""The episode video: a real display recorded by the recorder process, decoded back with PyAV."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import av
from deskact.runtime.run import video
from deskact.runtime.screen.grabber import Grabber
from deskact.runtime.world.display import Display


def test_recording_a_changing_screen_decodes_back(requires_xvfb: None, tmp_path: Path) -> None:
    with Display(width=1920, height=1080) as display:
        env = {**os.environ, **display.env()}
        term = subprocess.Popen(["xterm", "-geometry", "80x24+0+0", "-e", "sh", "-c",
                                 "for i in $(seq 1 400); do echo line $i; sleep 0.05; done; sleep 60"],
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            grabber = Grabber(display.name, include_cursor=False)
            deadline = time.monotonic() + 60
            while grabber.grab_frame()[0][:, :, :3].max() == 0 and time.monotonic() < deadline:
                time.sleep(0.1)  # the terminal is up and printing
            grabber.close()
            rec = video.start(display.name, tmp_path, fps=5, max_width=1280, max_height=800)
            assert rec is not None
            time.sleep(3.0)
            assert rec.stop() is None
        finally:
            term.kill()
            term.wait()
    path = tmp_path / video.VIDEO_FILE
    stats = video.VideoStats.model_validate(json.loads((tmp_path / "episode.mp4.json").read_text()))
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        assert stream.codec_context.name == "h264"
        decoded = list(container.decode(stream))
    assert len(decoded) == stats.frames
    # The terminal draws all the time: a grab on each 1/5 s slot for ~3 s (fewer when the box is
    # loaded, never more), frames for those that differ from the one before, plus the closing frame.
    assert 6 <= stats.grabs <= 3.5 * 5 + 1 and 5 <= stats.frames <= stats.grabs + 1 and stats.ticks >= stats.grabs
    assert {(f.width, f.height) for f in decoded} == {(1280, 720)}
    # The terminal scrolled: its corner of the frame differs between the first and the last frame.
    first, last = (f.to_ndarray(format="gray")[:200, :300].astype(int) for f in (decoded[0], decoded[-1]))
    assert abs(first - last).mean() > 1
    # The video lasts as long as the recording.
    assert 2.0 <= decoded[-1].time <= stats.duration_s + 0.5


def test_a_still_screen_costs_few_frames(requires_xvfb: None, tmp_path: Path) -> None:
    with Display(width=640, height=480) as display:
        rec = video.start(display.name, tmp_path, fps=10, max_width=1280, max_height=800)
        assert rec is not None
        time.sleep(2.0)
        assert rec.stop() is None
        # A second episode on the same display: the same recorder process, started once.
        pid = video._recorders[display.name].proc.pid
        again = video.start(display.name, tmp_path / "second", fps=10, max_width=1280, max_height=800)
        assert again is not None and again.stop() is None
        assert video._recorders[display.name].proc.pid == pid
        assert (tmp_path / "second" / video.VIDEO_FILE).stat().st_size > 0
    stats = video.VideoStats.model_validate(json.loads((tmp_path / "episode.mp4.json").read_text()))
    # Nothing drawn, the pointer still: the recorder slept but for its pointer poll once a second,
    # and grabbed only its first frame.
    assert stats.ticks <= 4 and stats.grabs <= 2 and stats.frames <= 3
    assert (stats.width, stats.height) == (640, 480)
    # The recorder process's whole CPU so far: its start-up, then this episode and the next.
    second = video.VideoStats.model_validate(json.loads((tmp_path / "second" / "episode.mp4.json").read_text()))
    assert stats.process_id == second.process_id == pid
    assert 0 < stats.startup_cpu_s == second.startup_cpu_s
    ms = 0.0015  # each figure is rounded to the millisecond: a sum of two may be over by 1 ms (0.404 + 0.005 > 0.409)
    assert stats.process_cpu_s + ms >= stats.startup_cpu_s + stats.cpu_s
    assert second.process_cpu_s + ms >= stats.process_cpu_s + second.cpu_s
    with av.open(str(tmp_path / video.VIDEO_FILE)) as container:
        assert len(list(container.decode(video=0))) == stats.frames


def test_pointer_motion_and_warps_are_recorded(requires_xvfb: None, tmp_path: Path) -> None:
    """Motion from XTest (pyautogui, the gui toolkit) arrives as an event; a warp (xdotool
    mousemove) sends none and shows up through the once-a-second poll."""
    from Xlib import X
    from Xlib import display as xdisplay
    from Xlib.ext import xtest

    with Display(width=640, height=480) as display:
        x = xdisplay.Display(display.name)
        try:
            rec = video.start(display.name, tmp_path, fps=10, max_width=1280, max_height=800)
            assert rec is not None
            time.sleep(0.5)
            xtest.fake_input(x, X.MotionNotify, x=300, y=200)
            x.sync()
            time.sleep(0.5)
            x.screen().root.warp_pointer(100, 100)
            x.sync()
            time.sleep(1.6)
            assert rec.stop() is None
        finally:
            x.close()
    stats = video.VideoStats.model_validate(json.loads((tmp_path / "episode.mp4.json").read_text()))
    with av.open(str(tmp_path / video.VIDEO_FILE)) as container:
        decoded = list(container.decode(video=0))
    # The first frame, one after the motion, one after the warp (the pointer drawn elsewhere each
    # time), and the closing frame; nothing else moved or drew. (The poll may grab the motion's
    # position once more: an identical frame, not encoded.)
    assert 3 <= stats.grabs <= 4 and len(decoded) == stats.frames == 4
    pixels = [f.to_ndarray(format="gray") for f in decoded]
    assert all((a != b).any() for a, b in itertools.pairwise(pixels[:3]))
    # The motion's frame came from its event, on the next 1/10 s slot, not from the poll at 1 s.
    assert decoded[1].time is not None and decoded[1].time < 0.8


def test_no_display_no_recording(tmp_path: Path) -> None:
    assert video.start(None, tmp_path, 4, 1280, 800) is None


SUITE = """
tasks:
  - id: vid-xterm
    instruction: In the terminal window, write hello into ${WORKSPACE}/note.txt
    visual: true
    toolkits: [gui]
    max_steps: 3
    reset:
      - apps.launch: {cmd: "xterm -T Terminal -bg white -fg black -e bash --norc", window: Terminal}
    judge:
      - files.content: {path: "${WORKSPACE}/note.txt", equals: "hello\\n"}
    cleanup:
      - apps.kill: {name: xterm}
    reference: |
      import os, time
      windows.activate("Terminal")
      keyboard.type("cd $WORKSPACE && echo hello > note.txt && ls -la /usr/bin | head -50\\n")
      deadline = time.monotonic() + 15
      while not os.path.exists("note.txt") and time.monotonic() < deadline:
          time.sleep(0.05)
      time.sleep(1.5)
      exit()
"""


def test_deskact_run_record_writes_a_playable_video_the_report_plays(requires_xvfb: None, tmp_path: Path) -> None:
    (tmp_path / "suite").mkdir()
    (tmp_path / "suite" / "tasks.yaml").write_text(SUITE)
    out = tmp_path / "run"
    proc = subprocess.run([str(Path(sys.executable).parent / "deskact"), "run", str(tmp_path / "suite"),
                           "-m", "reference", "--record", "-o", str(out)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    folder = out / "trajectories" / "vid-xterm"
    stats = video.VideoStats.model_validate(json.loads((folder / "episode.mp4.json").read_text()))
    with av.open(str(folder / video.VIDEO_FILE)) as container:
        decoded = list(container.decode(video=0))
    assert len(decoded) == stats.frames >= 2
    assert {(f.width, f.height) for f in decoded} == {(960, 540)}  # observation.record_max_width
    page = (out / "report" / "task-vid-xterm.html").read_text()
    assert '<video controls preload="metadata" src="../trajectories/vid-xterm/episode.mp4">' in page
