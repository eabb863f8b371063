"""An OCR-free legibility check of small text in an encoded screenshot.

A terminal on the display shows rows of easily confused glyphs (``il1I|``,
``oO0Q``, ``rn`` against ``m``...) in the 6x13 ``fixed`` bitmap font. For every
glyph on screen, each candidate glyph's bitmap is pasted at that exact place in
the lossless full-resolution frame and scaled to the model's size with an ideal
box filter (``INTER_AREA`` over a window aligned to the scale's pixel period,
so it equals what the whole frame would give there). The glyph counts as read
when the decoded screenshot's patch is nearest to the right candidate. So the
check asks whether the capture path (scaler and codec) keeps glyphs as
distinguishable as an ideal image of the same size does; it says nothing about
whether a size is large enough to read, which is the resolution setting's job.
"""

from __future__ import annotations

import io
import os
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import cv2
import numpy as np
from PIL import Image

GLYPHS = "il1I|!:;.,oO0QDCGce8B3Sa5s$rnmhbdpqgyvwxz"
CELL_W, CELL_H = 6, 13  # the `fixed` font xterm uses by default
ROWS = 12
TITLE = "deskact-legibility"


@dataclass
class GlyphScreen:
    """Where the glyph terminal's text is, in screen pixels."""

    x: int
    y: int
    rows: list[str]
    process: subprocess.Popen[bytes]


def show_glyphs(env: dict[str, str], x: int = 60, y: int = 700) -> GlyphScreen:
    """Open the glyph terminal and return where its text cells are."""
    rows = [GLYPHS[i % len(GLYPHS):] + GLYPHS[: i % len(GLYPHS)] for i in range(0, ROWS * 7, 7)]
    script = "printf '%s\\n' " + " ".join(f"'{r}'" for r in rows) + "; exec sleep 3600"  # no ' in GLYPHS
    proc = subprocess.Popen(
        ["xterm", "-b", "0", "-fn", "fixed", "-title", TITLE, "-geometry", f"{len(GLYPHS)}x{ROWS + 1}+{x}+{y}",
         "-e", "sh", "-c", script],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        # xwininfo gives the client's absolute position (xdotool's is off by the title bar).
        out = subprocess.run(["xwininfo", "-name", TITLE], env=env, capture_output=True, text=True,
                             check=False).stdout
        geo = {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in out.splitlines()) if v}
        if geo.get("Width") == str(len(GLYPHS) * CELL_W) and geo.get("Map State") == "IsViewable":
            time.sleep(0.5)  # the text is drawn just after the window maps
            return GlyphScreen(int(geo["Absolute upper-left X"]), int(geo["Absolute upper-left Y"]), rows, proc)
        time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"the glyph terminal did not appear with {CELL_W}x{CELL_H} cells (is xfonts-base installed?)")


def _period(scale: Fraction) -> tuple[int, int]:
    """(source pixels, scaled pixels) after which the scaling grid repeats."""
    return scale.denominator, scale.numerator


def _window(pos: int, size: int, period: int, margin: int) -> tuple[int, int]:
    start = max(0, (pos - margin) // period * period)
    end = -(-(pos + size + margin) // period) * period
    return start, end


@dataclass
class Legibility:
    read: int
    total: int
    psnr_db: float
    """Of the decoded glyph patches against the ideal ones."""

    @property
    def ok(self) -> bool:
        return self.read == self.total


def ideal_scaler(window: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The box filter: each output pixel the mean of the screen pixels it covers."""
    return cv2.resize(window, size, interpolation=cv2.INTER_AREA)


def check(full_bgrx: np.ndarray, encoded: bytes, screen: GlyphScreen,
          scaler: Callable[[np.ndarray, tuple[int, int]], np.ndarray] = ideal_scaler) -> Legibility:
    """Read every glyph of ``screen`` in ``encoded`` (any size that keeps the aspect ratio).

    Candidates are scaled with ``scaler``: the ideal box filter asks how close the whole
    path comes to a perfect image of that size; the path's own scaler asks only whether
    the codec keeps glyphs apart."""
    full = cv2.cvtColor(full_bgrx[:, :, :3], cv2.COLOR_BGR2GRAY).astype(np.float32)
    seen = np.asarray(Image.open(io.BytesIO(encoded)).convert("L"), dtype=np.float32)
    scale = Fraction(seen.shape[1], full.shape[1]).limit_denominator(64)
    src_p, dst_p = _period(scale)
    bitmaps = {}
    for r, row in enumerate(screen.rows):
        for c, ch in enumerate(row):
            x, y = screen.x + c * CELL_W, screen.y + r * CELL_H
            bitmaps.setdefault(ch, full[y:y + CELL_H, x:x + CELL_W].copy())
    read = total = 0
    errors: list[float] = []
    for r, row in enumerate(screen.rows):
        for c, ch in enumerate(row):
            x, y = screen.x + c * CELL_W, screen.y + r * CELL_H
            x0, x1 = _window(x, CELL_W, src_p, CELL_W)
            y0, y1 = _window(y, CELL_H, src_p, CELL_H)
            out_size = ((x1 - x0) * dst_p // src_p, (y1 - y0) * dst_p // src_p)
            # Compare only where the cell lands (one pixel of slack around it).
            cx0, cx1 = max(0, x - x0) * dst_p // src_p, -(-(x - x0 + CELL_W) * dst_p // src_p) + 1
            cy0, cy1 = max(0, y - y0) * dst_p // src_p, -(-(y - y0 + CELL_H) * dst_p // src_p) + 1
            ox, oy = x0 * dst_p // src_p, y0 * dst_p // src_p
            patch = seen[oy + cy0:oy + cy1, ox + cx0:ox + cx1]
            best, best_d, own = None, float("inf"), None
            for cand, bitmap in bitmaps.items():
                window = full[y0:y1, x0:x1].copy()
                window[y - y0:y - y0 + CELL_H, x - x0:x - x0 + CELL_W] = bitmap
                ideal = scaler(window, out_size) if scale != 1 else window
                ideal = ideal[cy0:cy1, cx0:cx1]
                d = float(((ideal - patch) ** 2).sum())
                if cand == ch:
                    own = d / ideal.size
                if d < best_d:
                    best, best_d = cand, d
            read += best == ch
            total += 1
            errors.append(own or 0.0)
    mse = float(np.mean(errors))
    return Legibility(read, total, 99.0 if mse == 0 else 10 * float(np.log10(255 ** 2 / mse)))


def env_for(display_env: dict[str, str]) -> dict[str, str]:
    return {**os.environ, **display_env}
