"""How quickly a file manager shows a folder: on a bare X display with no D-Bus session (Thunar and
PCManFM, whichever are installed: the two candidates for OSWorld's Nautilus), and as apps.files in a
task's world (Thunar), beside a text file opened in mousepad.

    .venv/bin/python benchmarks/file_manager_start.py [--repeat 5]

The bare runs start Xvfb and openbox of their own, start the app on a folder with no
DBUS_SESSION_BUS_ADDRESS and time until a window titled with the folder's name is mapped. The world
runs reset hand-made visual tasks as a run does (worker, world, display) and time ``TaskEnv.reset``:
the app started as the agent, its window waited for until drawn and still. Runs alternate, so every
mode sees the same machine load.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import yaml
from app_resets import print_resets, time_resets
from deskact.reset_scripts import _x11
from deskact.runtime.tasks.task import load_tasks

CANDIDATES = ("thunar", "pcmanfm")


def _bare_display() -> tuple[str, list[subprocess.Popen[bytes]]]:
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24"], pass_fds=(write,),
                            stderr=subprocess.DEVNULL)
    os.close(write)
    display = ":" + os.read(read, 16).decode().strip()
    os.close(read)
    wm = subprocess.Popen(["openbox"], env={**os.environ, "DISPLAY": display}, stderr=subprocess.DEVNULL)
    time.sleep(1)
    return display, [wm, xvfb]


def time_bare(repeat: int) -> dict[str, list[float]]:
    """Seconds from the start of each installed candidate on a folder to its window, on a bare display."""
    apps = [a for a in CANDIDATES if shutil.which(a)]
    home = Path(tempfile.mkdtemp())
    folder = home / "Finance"
    folder.mkdir()
    (folder / "tally_book.txt").write_text("2023-12 AWS 12.34\n")
    env = {k: v for k, v in os.environ.items() if k != "DBUS_SESSION_BUS_ADDRESS"}
    display, keep = _bare_display()
    env.update(DISPLAY=display, HOME=str(home), GSETTINGS_BACKEND="memory", NO_AT_BRIDGE="1")
    times: dict[str, list[float]] = {a: [] for a in apps}
    try:
        for _ in range(repeat):
            for app in apps:
                started = time.monotonic()
                proc = subprocess.Popen([app, str(folder)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                try:
                    _x11.wait_for_window(display, "Finance", 30)
                    times[app].append(time.monotonic() - started)
                finally:
                    proc.terminate()
                    proc.wait(10)
                time.sleep(0.5)
    finally:
        for proc in keep:
            proc.terminate()
            proc.wait(10)
    return times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    bare = time_bare(args.repeat)
    print("| window mapped on a bare display (no D-Bus session) | starts | p50 s | max s |")
    print("|---|---:|---:|---:|")
    for app, values in bare.items():
        print(f"| {app} | {len(values)} | {statistics.median(values):.2f} | {max(values):.2f} |")
    print()
    suite = Path(tempfile.mkdtemp()) / "tasks.yaml"
    folder = "${HOME}/Documents/Finance"
    tasks = [{"id": "folder", "instruction": "Look.", "visual": True, "toolkits": ["gui"],
              "reset": [{"world.require": {}}, {"files.write": {"path": f"{folder}/tally_book.txt", "content": "x\n"}},
                        {"apps.files": {"path": folder}}],
              "judge": [{"files.exists": {"path": f"{folder}/tally_book.txt"}}]},
             {"id": "text", "instruction": "Look.", "visual": True, "toolkits": ["gui"],
              "reset": [{"world.require": {}}, {"files.write": {"path": f"{folder}/tally_book.txt", "content": "x\n"}},
                        {"apps.open": {"path": f"{folder}/tally_book.txt"}}],
              "judge": [{"files.exists": {"path": f"{folder}/tally_book.txt"}}]}]
    suite.write_text(yaml.safe_dump({"tasks": tasks}, sort_keys=False))
    loaded = {t.id: t for t in load_tasks([str(suite)]).tasks}
    times = time_resets({"apps.files of a folder (Thunar)": lambda: loaded["folder"],
                         "apps.open of a text file (mousepad)": lambda: loaded["text"]}, args.repeat)
    print_resets(times, "reset in a world")


if __name__ == "__main__":
    main()
