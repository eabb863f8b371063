"""Screenshot cost: grab, scale, encode, and the whole capture the model gets.

Runs a private Xvfb per screen size with real, text-heavy windows on it (a
terminal full of a coloured directory listing and an editor holding Python
source) so PNG sizes and timings are those of a working desktop, not of a
black screen. Prints a Markdown table (milliseconds, p50 / p95).

    .venv/bin/python benchmarks/screen.py --repeat 50
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from deskact.runtime.agent.observation import (
    Grabber,
    capture,
    encode_png,
    fit_scale,
    scale_image,
    scaled_size,
)
from deskact.runtime.config import ObservationConfig
from deskact.runtime.world.display import Display
from PIL import Image

SIZES = [(1920, 1080), (1280, 800)]


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    print(f"repeat={args.repeat}; milliseconds; load average {os.getloadavg()[0]:.1f} at start\n")
    print("| operation | p50 ms | p95 ms | CPU p50 ms | size |\n|---|---:|---:|---:|---:|")
    for width, height in SIZES:
        for name, p50, p95, cpu, note in bench(width, height, args.repeat):
            print(f"| {name} | {p50:.2f} | {p95:.2f} | {cpu:.2f} | {note} |", flush=True)


if __name__ == "__main__":
    main()
