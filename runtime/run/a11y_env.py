"""A task's accessibility bus: when to start it, and the tree text an observation carries."""

from __future__ import annotations

from typing import Any


def wants_a11y(env: Any) -> bool:
    """The observation shows the tree, or a judge reads it."""
    return env.config.observation.a11y != "off" or any(step.name.startswith("a11y.") for step in env.task.judge)


def start_a11y_bus(env: Any) -> Any:
    """Start the bus in the task's world (None without a display, a world, or a need for it)."""
    world = getattr(env.session, "world", None)
    if env.display is None or world is None or not wants_a11y(env):
        return None
    from ..world import a11y_bus

    return a11y_bus.start(world, env.display.name)


def a11y_text(bus: Any, scale: float) -> str:
    """The active window's tree as the model reads it (boxes in screenshot coordinates)."""
    from ..agent import a11y

    try:
        elements = a11y.read_tree(bus.socket, peer_uids=bus.peer_uids)
    except Exception as exc:  # noqa: BLE001 - an app that hangs must not end the episode
        return f"[The accessibility tree could not be read: {type(exc).__name__}: {exc}]"
    if not elements:
        return "[No window exports an accessibility tree.]"
    return "Accessibility tree of the active window (boxes as x,y widthxheight in the screenshot):\n" + \
        a11y.render(elements, scale=scale)
