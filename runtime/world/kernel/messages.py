"""One execute request's messages (iopub and shell, matched by msg_id) turned into an ``ExecResult``."""

from __future__ import annotations

from collections.abc import Callable
from queue import Empty
from typing import Any

from ...config import Config
from ...execution import ExecError, ExecResult
from .boot import EXIT_NAME, INFEASIBLE_NAME
from .outputs import OutputCollector, strip_ansi

# Room for the kernel's own marker line: the kernel already caps each stream at
# the source (boot.OutputLimit), the host's bound only guards against a kernel that does not.
_MARKER_ROOM = 200


class ExecuteCapture:
    """What one execute request produced so far."""

    def __init__(self, config: Config) -> None:
        k = config.kernel
        self.outputs = OutputCollector(
            k.capture_limit_bytes + _MARKER_ROOM, max_images=k.max_images,
            max_image_bytes=k.max_image_bytes, result_limit=k.capture_limit_bytes,
        )
        self.reply: dict[str, Any] | None = None
        """The shell channel's ``execute_reply`` content, once it came."""
        self.idle = False
        self.clear_pending = False

    @property
    def done(self) -> bool:
        return self.reply is not None and self.idle

    def handle(self, msg: dict[str, Any]) -> None:
        """One iopub message for this request."""
        kind, content = msg["msg_type"], msg["content"]
        out = self.outputs
        if kind == "status":
            self.idle = self.idle or content.get("execution_state") == "idle"
            return
        if kind == "clear_output":
            if content.get("wait"):
                self.clear_pending = True
            else:
                out.clear()
                self.clear_pending = False
            return
        if self.clear_pending and kind in ("stream", "display_data", "execute_result", "error"):
            out.clear()
            self.clear_pending = False
        if kind == "stream":
            # `!cmd` runs under a pty, which ends lines with \r\n.
            text = content.get("text", "").replace("\r\n", "\n")
            out.text("stderr" if content.get("name") == "stderr" else "stdout", text)
        elif kind in ("display_data", "update_display_data", "execute_result"):
            data = content.get("data", {})
            has_image = out.image(data)
            text = data.get("text/plain")
            if kind == "execute_result":
                if text is not None:
                    out.set_result(text)
            elif text is not None and not has_image:
                out.text("stdout", text + "\n")
        elif kind == "error":
            out.add_error(exec_error(content))

    def handle_shell(self, msg: dict[str, Any]) -> None:
        if msg["msg_type"] == "execute_reply":
            self.reply = msg["content"]

    def to_result(self, status: str, restarted: bool, duration: float) -> ExecResult:
        out = self.outputs
        error = out.error
        exited, infeasible = False, None
        if self.reply is not None and self.reply.get("status") == "error":
            if self.reply.get("ename") in (EXIT_NAME, INFEASIBLE_NAME):
                exited, error = True, None
                if self.reply["ename"] == INFEASIBLE_NAME:
                    infeasible = str(self.reply.get("evalue") or "")
            elif error is None:
                error = exec_error(self.reply)
                out.add_error(error)
        elif self.reply is not None and self.reply.get("status") == "aborted" and error is None:
            error = ExecError(ename="Aborted", evalue="the kernel aborted this request")
            out.add_error(error)
        if status == "error" and exited:
            status = "ok"
        return ExecResult(
            status=status,
            stdout=out.stream_text("stdout"),
            stderr=out.stream_text("stderr"),
            result=out.result,
            error=error,
            images=out.images,
            images_dropped=out.images_dropped,
            outputs=out.parts(drop=lambda e: exited and e.ename in (EXIT_NAME, INFEASIBLE_NAME)),
            restarted=restarted,
            exited=exited,
            infeasible=infeasible,
            duration_s=round(duration, 4),
        )


def exec_error(content: dict[str, Any]) -> ExecError:
    tb = content.get("traceback") or []
    return ExecError(
        ename=str(content.get("ename", "Error")),
        evalue=str(content.get("evalue", "")),
        traceback=strip_ansi("\n".join(tb) if isinstance(tb, list) else str(tb)),
    )


def drain(channel: Any, msg_id: str, handle: Callable[[dict[str, Any]], None]) -> None:
    """Hand every waiting message that answers ``msg_id`` to ``handle``; others are dropped."""
    while True:
        try:
            msg = channel.get_msg(timeout=0)
        except Empty:
            return
        except ValueError:  # a bad signature: garbage from a forked child, not our kernel
            continue
        if msg.get("parent_header", {}).get("msg_id") == msg_id:
            handle(msg)
