"""desktop.settle: wait until the task's screen stops changing (an app finished saving or redrawing).

Used in a task's ``before_judge:`` list after apps.save or apps.close; runs on the host
against the task's display, like reset steps.
"""

from __future__ import annotations

import time

from ..runtime.tasks.steps import StepContext, StepFailed, reset_step


@reset_step("desktop.settle")
def desktop_settle(ctx: StepContext, timeout: float = 10, quiet: float = 0.5) -> None:
    """Wait until the screen has not changed for ``quiet`` seconds (an app finished saving or
    redrawing), and a LibreOffice window's accessibility tree shows its document where the task
    has a tree, at most ``timeout`` seconds; a blinking caret does not count as a change."""
    if not ctx.display:
        raise StepFailed(f"desktop.settle needs a display, but task {ctx.task_id or '?'} has none (set visual: true)")
    import mss
    from PIL import Image, ImageChops

    with mss.MSS(display=ctx.display) as sct:
        def grab() -> Image.Image:
            shot = sct.grab(sct.monitors[0])
            return Image.frombuffer("RGB", shot.size, shot.raw, "raw", "BGRX", 0, 1).reduce(4)

        last, calm_since = grab(), time.monotonic()
        deadline = calm_since + timeout
        while time.monotonic() < deadline:
            time.sleep(0.05)
            now = grab()
            box = ImageChops.difference(last, now).getbbox()
            # A caret blink changes a sliver; a redraw changes more than 0.1 % of the screen.
            if box is not None and (box[2] - box[0]) * (box[3] - box[1]) * 1000 >= now.width * now.height:
                calm_since = time.monotonic()
            elif time.monotonic() - calm_since >= quiet:
                _documents_shown(ctx, deadline)
                return
            last = now


def _documents_shown(ctx: StepContext, deadline: float) -> None:
    """Until ``deadline``: wait for each LibreOffice window on the screen to show its document in
    the accessibility tree, where the task has one. Keys that toggle its panes leave the pixels
    still well before the tree is rebuilt, and the agent's first tree would name no document."""
    from ..runtime.screen.drawn import quiet_for, shown_windows, wait_drawn
    from .apps.launcher import document_check

    for window in shown_windows(ctx.display or ""):
        check = document_check(ctx, window.title)
        left = deadline - time.monotonic()
        if check is not None and left > 0:
            wait_drawn(ctx.display or "", window.id, left, quiet=quiet_for(window.title), shows_document=check)
