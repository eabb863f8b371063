"""Screenshot cost: grab, scale, encode, and the whole capture the model gets.

Runs a private Xvfb per screen size with real, text-heavy windows on it (a
terminal full of a coloured directory listing and an editor holding Python
source) so PNG sizes and timings are those of a working desktop, not of a
black screen. Prints a Markdown table (milliseconds, p50 / p95).

    .venv/bin/python benchmarks/screen.py --repeat 50
    .venv/bin/python benchmarks/screen.py --compare --repeat 100

``--compare`` times deskact's capture for the model (grab, scale, encode, base64)
against AgentStudio's path (grab, full-size JPEG q75, base64) on one 1920x1080
Xvfb in the same run, the two alternating each iteration so load falls on both
alike, and runs the legibility check (benchmarks/legibility.py) on each.
"""

from __future__ import annotations

import argparse
import base64
import io
import os
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import legibility
import mss
from deskact.runtime.config import ObservationConfig
from deskact.runtime.screen import frames
from deskact.runtime.screen.grabber import Grabber
from deskact.runtime.screen.png import encode_png
from deskact.runtime.screen.screenshot import capture, screenshot_from_frame
from deskact.runtime.screen_scale import fit_scale, scale_image, scaled_size
from deskact.runtime.world.display import Display
from PIL import Image

SIZES = [(1920, 1080), (1280, 800)]
ANCHOR = "AgentStudio (anchor: mss grab, as its ScreenRecorder)"


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float, float]:
    """Wall-clock p50 and p95, and CPU-time p50 of this process (steadier on a shared box;
    it leaves out the X server's share of a grab)."""
    fn()  # warm-up: connections, caches
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    wall.sort()
    return statistics.median(wall), wall[min(len(wall) - 1, int(len(wall) * 0.95))], statistics.median(cpu)


def populate(display: Display) -> list[subprocess.Popen[bytes]]:
    """Windows with a lot of text, then wait until the screen stops changing."""
    env = {**os.environ, **display.env()}
    source = Path(__file__).resolve().parents[1] / "runtime" / "agent" / "observation.py"
    cols, rows = display.width // 12, display.height // 15
    procs = [
        subprocess.Popen(
            ["xterm", "-geometry", f"{cols}x{rows}+0+0", "-e", "sh", "-c",
             "ls -la --color=always /usr/bin | head -n 400; exec sleep 3600"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        ),
        subprocess.Popen(["mousepad", str(source)], env={**env, "HOME": "/tmp"},
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
    ]
    subprocess.run(["xdotool", "mousemove", str(display.width // 2), str(display.height // 2)], env=env, check=False)
    grabber = Grabber(display.name, include_cursor=False)
    previous, calm_since = None, time.monotonic()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and time.monotonic() - calm_since < 1.0:
        frame = grabber.grab()[0].tobytes()
        if frame != previous:
            previous, calm_since = frame, time.monotonic()
        time.sleep(0.1)
    grabber.close()
    return procs


def encoded_size(img: Image.Image, **kwargs: object) -> int:
    buf = io.BytesIO()
    img.save(buf, **kwargs)
    return buf.tell()


def bench(width: int, height: int, repeat: int) -> list[tuple[str, float, float, float, str]]:
    rows: list[tuple[str, float, float, float, str]] = []
    with Display(width=width, height=height) as display:
        procs = populate(display)
        try:
            obs = ObservationConfig()  # 1280x800 max, PNG, cursor drawn
            grabber = Grabber(display.name, include_cursor=True)
            full, _ = grabber.grab()
            scale = fit_scale(width, height, obs.max_width, obs.max_height)
            size = scaled_size(width, height, scale)
            small = scale_image(full, size)
            tag = f"{width}x{height}"
            rows.append((f"{tag} grab (mss, cursor drawn)", *timed(grabber.grab, repeat), ""))
            rows.append((f"{tag} grab (mss, no cursor)",
                         *timed(Grabber(display.name, include_cursor=False).grab, repeat), ""))
            if size != full.size:
                rows.append((f"{tag} scale to {size[0]}x{size[1]} (reduce/bilinear)",
                             *timed(lambda: scale_image(full, size), repeat), ""))
                rows.append((f"{tag} scale to {size[0]}x{size[1]} (LANCZOS, for comparison)",
                             *timed(lambda: full.resize(size, Image.Resampling.LANCZOS), repeat), ""))
            kb = f"{len(encode_png(small)) / 1024:.0f} KB"
            rows.append((f"{tag} encode {small.width}x{small.height} PNG unfiltered zlib 1 (used)",
                         *timed(lambda: encode_png(small), repeat), kb))
            for label, kwargs in [
                ("PNG Pillow level 1", {"format": "PNG", "compress_level": 1}),
                ("PNG Pillow level 6 (default)", {"format": "PNG", "compress_level": 6}),
                ("JPEG q80", {"format": "JPEG", "quality": 80}),
            ]:
                kb = f"{encoded_size(small, **kwargs) / 1024:.0f} KB"
                rows.append((f"{tag} encode {small.width}x{small.height} {label}",
                             *timed(lambda k=kwargs: encoded_size(small, **k), repeat), kb))
            for fmt in ("png", "jpeg"):
                cfg = obs.model_copy(update={"format": fmt})
                kb = f"{len(capture(display.name, cfg).image.data) / 1024:.0f} KB"
                rows.append((f"{tag} **capture() for the model, {fmt}**",
                             *timed(lambda c=cfg: capture(display.name, c), repeat), kb))
            grabber.close()
        finally:
            for proc in procs:
                proc.kill()
                proc.wait()
    return rows


def agentstudio_capture(sct: Any) -> bytes:
    """AgentStudio's screenshot for the model: an mss grab (XShmGetImage, then a copy), an RGB
    Pillow image of it, full-size JPEG q75, base64. It asks the X server for the frame, as every
    grab through mss does; deskact reads Xvfb's framebuffer file instead (framebuffer.py)."""
    shot = sct.grab(sct.monitors[0])
    return agentstudio_encode(Image.frombytes("RGB", shot.size, shot.bgra, "raw", "BGRX"))


def agentstudio_encode(img: Image.Image) -> bytes:
    """AgentStudio's encode of a grab: full-size JPEG q75 (Pillow), base64."""
    buf = io.BytesIO()
    img.save(buf, format="JPEG", quality=75)
    return base64.b64encode(buf.getvalue())


def compare(repeat: int) -> None:
    default = ObservationConfig()
    configs = {
        f"**deskact default** (1280x720 JPEG q{default.jpeg_quality} {default.jpeg_subsampling})": default,
        "deskact JPEG q75 4:2:0 (1280x720)": ObservationConfig(jpeg_quality=75),
        "deskact JPEG q90 4:4:4 (1280x720)": ObservationConfig(jpeg_quality=90, jpeg_subsampling="444"),
        "deskact full size (1920x1080 JPEG, default quality)": ObservationConfig(max_width=1920, max_height=1080),
        "deskact PNG (1280x720)": ObservationConfig(format="png"),
    }
    with Display(width=1920, height=1080) as display:
        procs = populate(display)
        glyphs = legibility.show_glyphs(legibility.env_for(display.env()))
        procs.append(glyphs.process)
        time.sleep(1.0)
        try:
            grabber = Grabber(display.name, include_cursor=True)
            full, _ = grabber.grab_frame()
            full = full.copy()
            sct = mss.MSS(display=display.name, with_cursor=False)
            x_grab = Grabber(display.name, include_cursor=True, framebuffer=False)
            paths: dict[str, Callable[[], bytes]] = {
                "AgentStudio (anchor: mss grab, as its ScreenRecorder)": lambda: agentstudio_capture(sct),
                # the anchor of earlier runs, kinder to AgentStudio than its own grab
                "AgentStudio's encode on a zero-copy X grab (earlier anchor)": lambda: agentstudio_encode(
                    x_grab.grab()[0]),
            }
            for name, cfg in configs.items():
                paths[name] = lambda c=cfg: base64.b64encode(capture(display.name, c).image.data)
            # What each of the two choices behind the default is worth, measured in the same run.
            paths["deskact default on one core (capture_threads: 1)"] = lambda: base64.b64encode(
                capture(display.name, ObservationConfig(capture_threads=1)).image.data)
            paths["deskact default, grab by the X server (framebuffer_file: false)"] = lambda: base64.b64encode(
                x_grab.process(lambda f, c, s: screenshot_from_frame(f, c, default, s)).image.data)
            wall: dict[str, list[float]] = {n: [] for n in paths}
            cpu: dict[str, list[float]] = {n: [] for n in paths}
            for fn in paths.values():
                fn()
            for i in range(repeat):
                order = list(paths) if i % 2 == 0 else list(reversed(paths))
                for name in order:
                    start, start_cpu = time.perf_counter(), time.process_time()
                    paths[name]()
                    cpu[name].append((time.process_time() - start_cpu) * 1000)
                    wall[name].append((time.perf_counter() - start) * 1000)
            anchor = statistics.median(wall[ANCHOR])
            print(f"1920x1080, repeat={repeat}, load average {os.getloadavg()[0]:.1f} at the end\n")
            print("| path | p50 ms | p95 ms | CPU p50 ms | x anchor p50 | x anchor CPU | base64 KB "
                  "| glyphs read, own scaler | glyphs read, ideal box | PSNR vs ideal dB |")
            print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
            anchor_cpu = statistics.median(cpu[ANCHOR])
            for name, fn in paths.items():
                data = base64.b64decode(fn())
                # Legibility against the frame grabbed before the runs (the screen is still).
                own = legibility.check(full, data, glyphs, scaler=frames.scale_frame)
                ideal = legibility.check(full, data, glyphs)
                w = sorted(wall[name])
                print(f"| {name} | {statistics.median(w):.2f} | {w[int(len(w) * 0.95)]:.2f} | "
                      f"{statistics.median(cpu[name]):.2f} | {statistics.median(w) / anchor:.2f} | "
                      f"{statistics.median(cpu[name]) / anchor_cpu:.2f} | {len(data) * 4 / 3 / 1024:.0f} | "
                      f"{own.read}/{own.total} | {ideal.read}/{ideal.total} | {ideal.psnr_db:.1f} |")
            earlier = "AgentStudio's encode on a zero-copy X grab (earlier anchor)"
            mine = next(name for name in paths if name.startswith("**deskact default**"))
            print(f"\ndeskact default against the earlier anchor: "
                  f"{statistics.median(wall[mine]) / statistics.median(wall[earlier]):.2f}x its median, "
                  f"{statistics.median(cpu[mine]) / statistics.median(cpu[earlier]):.2f}x its CPU")
            grabber.close()
            x_grab.close()
            sct.close()
        finally:
            for proc in procs:
                proc.kill()
                proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--compare", action="store_true", help="deskact against AgentStudio's capture path")
    args = parser.parse_args()
    if args.compare:
        compare(args.repeat)
        return
    print(f"repeat={args.repeat}; milliseconds; load average {os.getloadavg()[0]:.1f} at start\n")
    print("| operation | p50 ms | p95 ms | CPU p50 ms | size |\n|---|---:|---:|---:|---:|")
    for width, height in SIZES:
        for name, p50, p95, cpu, note in bench(width, height, args.repeat):
            print(f"| {name} | {p50:.2f} | {p95:.2f} | {cpu:.2f} | {note} |", flush=True)


if __name__ == "__main__":
    main()
