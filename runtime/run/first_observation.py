"""``deskact validate``'s observation check: a visual task's first observation shows its windows drawn.

The offline models never look at the screen, so a task whose first screenshot is a blank or
half-drawn window passes every other pass of validate while a real model is shown nothing. Here
each visual task is reset as for a run and its first observation is taken through the path the
model gets it (``TaskEnv.screenshot``) twice, ``GAP_S`` apart: every application window on the
screen must be drawn in it (not one colour), the same in both (but for a blinking caret), and,
where the task has an accessibility bus, its tree must show a LibreOffice window's document.
"""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Iterable
from typing import Any

import numpy as np
from PIL import Image as PILImage

from ..config import Config
from ..screen.drawn import Box, changed, pixels_problem, shown_windows, tree_problem
from ..tasks.task import Task
from .task_env import TaskEnv
from .worker import Worker, needs_display

GAP_S = 0.5
"""Between the two captures: longer than LibreOffice's pauses between drawing bursts."""
JPEG_TOLERANCE = 24
"""How far a channel of a JPEG screenshot may stray from a flat colour it encodes."""
INSET = 3
"""Screenshot pixels left out along a window's edges: JPEG blocks there mix in the title bar."""


def _pixels(shot: Any) -> np.ndarray:
    return np.asarray(PILImage.open(io.BytesIO(shot.image.data)).convert("RGB"))


def _in_image(box: Box, scale: float, width: int, height: int) -> tuple[slice, slice]:
    """The screen box's rows and columns in the screenshot (scaled as the model sees it)."""
    x0, y0 = round(box.x * scale) + INSET, round(box.y * scale) + INSET
    x1 = min(width, round((box.x + box.width) * scale)) - INSET
    y1 = min(height, round((box.y + box.height) * scale)) - INSET
    return slice(y0, max(y0 + 1, y1)), slice(x0, max(x0 + 1, x1))


def observation_problem(env: TaskEnv) -> str | None:
    """Why the first observation of ``env`` (reset, no step taken) does not show its windows
    drawn, or None. A task with no application window on the screen has nothing to check."""
    if env.display is None:
        return None
    first = env.screenshot()
    time.sleep(GAP_S)  # an interval to compare over, not a wait for anything
    second = env.screenshot()
    windows = shown_windows(env.display.name)
    a, b = _pixels(first), _pixels(second)
    for window in windows:
        rows, cols = _in_image(window.box, first.scale, first.width, first.height)
        name = f"window {window.title!r}"
        problem = pixels_problem(a[rows, cols], JPEG_TOLERANCE)
        if problem is not None:
            return f"the first observation shows {name} {problem}: the app is not drawn yet"
        if changed(a[rows, cols], b[rows, cols]):
            return f"{name} still changes {GAP_S:g} s after the first observation: the app is still drawing"
    if env.a11y_bus is not None:
        from ..agent import a11y

        elements = a11y.read_tree(env.a11y_bus.socket, peer_uids=env.a11y_bus.peer_uids)
        for window in windows:
            if elements and elements[0].name not in window.title:
                continue  # the tree is the active window's only
            problem = tree_problem(window.title, [e.role for e in elements])
            if problem is not None:
                return f"window {window.title!r}: {problem} at the first observation"
    return None


def check_task(task: Task, worker: Worker) -> str | None:
    """Reset ``task`` on ``worker``, check its first observation, clean up. A reset that fails
    is a problem too (the other passes report it with its own words)."""
    env = TaskEnv(task, worker)
    try:
        env.reset()
        return observation_problem(env)
    except Exception as exc:  # noqa: BLE001 - any failure is this task's problem, reported
        return f"the task could not be reset to check its first observation: {type(exc).__name__}: {exc}"
    finally:
        env.cleanup()


def visual_tasks(tasks: Iterable[Task]) -> list[Task]:
    """The tasks whose model gets a screenshot."""
    return [t for t in tasks if t.visual and needs_display(t.visual, t.toolkits)]


def check_first_observations(config: Config, tasks: list[Task], workers: int = 1) -> dict[str, str]:
    """Task id -> why its first observation is not drawn, for each visual task that has a problem.
    Tasks that open the same app run on the same worker one after another (its fonts and libraries
    stay warm in the page cache), ``workers`` at a time."""
    todo = sorted(visual_tasks(tasks), key=lambda t: (t.suite or "", t.id))
    problems: dict[str, str] = {}
    lock = threading.Lock()

    def work(worker_id: int) -> None:
        worker = Worker(config, worker_id)
        try:
            while True:
                with lock:
                    if not todo:
                        return
                    task = todo.pop(0)
                problem = check_task(task, worker)
                if problem is not None:
                    with lock:
                        problems[task.id] = problem
        finally:
            worker.close()

    threads = [threading.Thread(target=work, args=(i,), name=f"observe-{i}") for i in range(max(1, workers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return problems


__all__ = ["GAP_S", "check_first_observations", "check_task", "observation_problem", "visual_tasks"]
