"""apps.vlc's settled vlcrc (written by VLC itself, privacy dialog answered) and vlc.media's
generated clip. Starting VLC in a world is exercised by the vlc suite's validation (tests/task_suites)."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from deskact.reset_scripts.apps.vlc import check_options, seed_vlcrc, settle, vlcrc_template
from deskact.runtime.tasks.steps import StepContext, StepFailed, run_reset

needs_vlc = pytest.mark.skipif(shutil.which("vlc") is None, reason="VLC is not installed (scripts/setup.sh)")


def test_settle_sets_commented_defaults_and_appends_missing_keys() -> None:
    text = settle("[qt]\n#qt-privacy-ask=1\n#qt-bgcone=1\n")
    assert "qt-privacy-ask=0\n" in text and "#qt-privacy-ask" not in text
    assert "#qt-bgcone=1" in text and "metadata-network-access=0" in text
    assert settle("").splitlines() == [f"{k}={v}" for k, v in
                                       {"qt-privacy-ask": "0", "qt-updates-notif": "0", "metadata-network-access": "0"}.items()]


@needs_vlc
@pytest.mark.slow
def test_the_template_is_vlcs_own_full_file() -> None:
    text = vlcrc_template()
    assert "#qt-bgcone=1" in text and "#input-record-path=" in text, "VLC did not write its defaults"
    assert "\nqt-privacy-ask=0\n" in text


def test_seeding_keeps_a_tasks_own_vlcrc(ctx: StepContext) -> None:
    folder = ctx.home / ".config" / "vlc"
    folder.mkdir(parents=True)
    (folder / "vlcrc").write_text("qt-bgcone=0\n")
    seed_vlcrc(ctx)
    assert (folder / "vlcrc").read_text() == "qt-bgcone=0\n"


def test_needs_a_display_and_the_media(ctx: StepContext) -> None:
    with pytest.raises(StepFailed, match="apps.vlc needs a display"):
        run_reset("apps.vlc", {}, ctx)
    ctx.display = ":4321"  # refused before anything is started on it
    with pytest.raises(StepFailed, match=r"apps.vlc: .*missing.mp4 does not exist"):
        run_reset("apps.vlc", {"path": "missing.mp4"}, ctx)


def test_vlc_media_writes_a_playable_clip(ctx: StepContext) -> None:
    pytest.importorskip("av")
    run_reset("vlc.media", {"path": "clips/clip.mp4", "seconds": 2}, ctx)
    # Decoded in a child process: FFmpeg's threads in this one would hang later tests' forked judges.
    probe = ("import av, sys; frames = list(av.open(sys.argv[1]).decode(video=0)); "
             "print(len(frames), frames[0].width, frames[0].height, "
             "frames[0].to_ndarray(format='rgb24').mean() != frames[-1].to_ndarray(format='rgb24').mean())")
    out = subprocess.run([sys.executable, "-c", probe, str(ctx.workspace / "clips" / "clip.mp4")],
                         capture_output=True, text=True, timeout=60, check=True).stdout.split()
    assert out == ["20", "160", "120", "True"], out
    with pytest.raises(StepFailed, match="between 1 and 60"):
        run_reset("vlc.media", {"path": "x.mp4", "seconds": 0}, ctx)


def test_options_are_vlc_options_only(ctx: StepContext) -> None:
    assert check_options(["--start-time=120.5", "--play-and-pause", "--repeat"]) == [
        "--start-time=120.5", "--play-and-pause", "--repeat"]
    for bad in ("/home/user/other.mp4", "-f", "--Start-time=1", "vlc://quit", "--"):
        with pytest.raises(StepFailed, match="is not --name or --name=value"):
            check_options([bad])
    ctx.display = ":4321"
    (ctx.home / "a.mp4").write_bytes(b"")
    with pytest.raises(StepFailed, match="option 'x.mp4'"):  # refused before VLC is started
        run_reset("apps.vlc", {"path": str(ctx.home / "a.mp4"), "options": ["x.mp4"]}, ctx)
