"""The gui toolkit's apps.launch waits for a new window to be drawn: what counts as blank."""

from __future__ import annotations

from deskact.toolkits.gui.windows import _POINTER_SPOT, _blank
from PIL import Image, ImageDraw


def test_a_grey_frame_is_blank_even_under_the_pointer() -> None:
    frame = Image.new("RGB", (960, 530), (220, 220, 220))
    assert _blank(frame)
    ImageDraw.Draw(frame).polygon([(480, 260), (480, 260 + _POINTER_SPOT - 4), (490, 275)], fill=(0, 0, 0))
    assert _blank(frame)


def test_a_prompt_or_a_menu_bar_is_drawn() -> None:
    terminal = Image.new("RGB", (240, 160), (255, 255, 255))
    ImageDraw.Draw(terminal).rectangle([2, 2, 80, 8], fill=(0, 0, 0))  # "root@deskact:~# "
    assert not _blank(terminal)
    window = Image.new("RGB", (960, 530), (255, 255, 255))
    ImageDraw.Draw(window).rectangle([0, 0, 959, 10], fill=(239, 239, 239))
    assert not _blank(window)
