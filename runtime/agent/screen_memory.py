"""Telling the model the screen did not change instead of sending the same screenshot again.

A screenshot costs the model on the order of a thousand input tokens; after a
step that only printed or computed something, the screen is often pixel for
pixel what the model saw last. Only an identical image counts as unchanged (a
blinking caret or a moved pointer is a change): a checkbox ticked is a few
pixels, so any tolerance could hide exactly what the model needs to see.
The full frame is still written to the trajectory, and the agent's code can
always take one (``screen.screenshot()``).
"""

from __future__ import annotations

import hashlib
from typing import Literal

from ..execution import Image

UNCHANGED_NOTE = "[The screen has not changed since the last screenshot.]"


class ScreenMemory:
    def __init__(self, mode: Literal["note", "resend"], keep_images: int) -> None:
        self.mode = mode
        self.keep_images = keep_images
        """The agent keeps this many latest images in the history it sends."""
        self._last: bytes | None = None
        self._newer_images = 0

    def observe(self, image: Image | None) -> tuple[Image | None, str]:
        """What to send for a new screenshot: the image, or None and the note saying it did not change."""
        if image is None:
            return None, ""
        digest = hashlib.blake2b(image.data, digest_size=16).digest()
        # The earlier screenshot must still be in the history the model gets.
        still_shown = self._newer_images + 1 <= self.keep_images
        if self.mode == "note" and digest == self._last and still_shown:
            return None, UNCHANGED_NOTE
        self._last, self._newer_images = digest, 0
        return image, ""

    def other_images(self, count: int) -> None:
        """``count`` other images (displayed by the code) went into the history after the screenshot."""
        self._newer_images += count
