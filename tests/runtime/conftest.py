"""Fixtures shared by the runtime tests: a noVNC page in the shared headless Chromium."""

from __future__ import annotations

from typing import Any

import pytest

_CANVAS_COLOURS = """
    const c = document.querySelector('#noVNC_container canvas');
    if (!c || !c.width || !c.height) return [];
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let y = 0; y < c.height; y += 8) for (let x = 0; x < c.width; x += 8) {
        const i = 4 * (y * c.width + x); seen.add(d[i] + ',' + d[i + 1] + ',' + d[i + 2]);
    }
    return Array.from(seen).map(s => s.split(',').map(Number));
"""


class NoVNCPage:
    """What a test asks of the noVNC page open in ``driver``."""

    def __init__(self, driver: Any) -> None:
        self.driver = driver

    def connected(self) -> bool:
        return bool(self.driver.execute_script(
            "return document.documentElement.classList.contains('noVNC_connected')"))

    def colours(self) -> list[list[int]]:
        """Distinct colours noVNC has drawn on its canvas, sampled on an 8-pixel grid."""
        return self.driver.execute_script(_CANVAS_COLOURS)


@pytest.fixture
def novnc(chromium: Any) -> NoVNCPage:
    return NoVNCPage(chromium)
