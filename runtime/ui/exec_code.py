"""``deskact exec``: run one code block in a fresh session, exactly as the agent would.

Same toolkits (preloaded), same services, same display and sandbox as a task
gets from a worker, then one ``KernelSession.execute`` (the agent loop's only
code path). Users debug their toolkits with it.
"""

from __future__ import annotations

import json

from ...toolkits.base import any_needs_display
from ..config import Config
from ..execution import ExecResult
from ..world.kernel import KernelSession


def run_code(code: str, config: Config, timeout: float | None = None, *, sandbox: str | None = None) -> ExecResult:
    """Start a session with the configured toolkits, run ``code`` once, shut everything down."""
    from ..run.worker import Worker

    with Worker(config, 0) as worker:
        has_display = config.display.mode != "none" and any_needs_display(config.toolkits.enabled)
        toolkits = worker.toolkits_for([], has_display)
        display = worker.display() if has_display else None
        with KernelSession(
            config,
            sandbox=sandbox,
            **worker.kernel_args(toolkits, display),
        ) as session:
            return session.execute(code, timeout)


def render_json(result: ExecResult, images: str = "count") -> str:
    """One JSON object. ``images``: "count" (sizes only) or "base64" (the bytes)."""
    data = result.model_dump(mode="json")
    if images == "count":
        data["images"] = [{"media_type": im.media_type, "bytes": len(im.data)} for im in result.images]
    return json.dumps(data)


def render_text(result: ExecResult) -> str:
    """What a person wants to see: the output, the error, and a status line."""
    flags = [result.status, f"{result.duration_s:.3f} s"]
    if result.restarted:
        flags.append("kernel restarted")
    if result.exited:
        flags.append("exit() called")
    return f"{result.text()}\n[{', '.join(flags)}]"
