"""The agent loop: observation -> model -> code -> kernel -> observation.

``Episode`` is stepped one model turn at a time (notebooks call ``step()``;
the runner calls ``run()``). Limits are checked before each model call, and
the episode's wall-clock limit also caps the running step's timeout.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Literal, Protocol

from pydantic import BaseModel, Field

from ..config import Config
from ..errors import KernelError, ModelError
from ..execution import ExecResult, Image
from ..tasks.task import Task
from .models.base import Message, Model, Usage
from .parsing import extract_code
from .prompting import render
from .screen_memory import ScreenMemory

FinishReason = Literal[
    "done", "no_code", "parse_error", "step_limit", "time_limit",
    "repetition_limit", "model_error", "kernel_error", "infeasible",
]


class CodeRunner(Protocol):
    """What the loop needs from a kernel session (KernelSession implements it)."""

    def execute(self, code: str, timeout: float | None = None) -> ExecResult: ...


class Screenshot(Protocol):
    image: Image


ScreenFn = Callable[[], "Screenshot | None"]
ConfirmFn = Callable[[str], "str | None"]
"""Shown the code; returns the code to run (maybe edited) or None to reject it."""


class StepRecord(BaseModel):
    """One model turn. Saved in the trajectory (screenshots as separate files)."""

    index: int
    reply: str = ""
    code: str | None = None
    note: str = ""
    """How the reply was read (several blocks, no code, rejected by the user...)."""
    result: ExecResult | None = None
    screenshot: Image | None = Field(default=None, exclude=True)
    """The screenshot taken after this step (written to a file by the trajectory writer)."""
    screenshot_file: str | None = None
    subtask: str | None = None
    reflection: str | None = None
    usage: Usage = Field(default_factory=Usage)
    model_s: float = 0.0
    exec_s: float = 0.0
    url: str | None = None
    """The browser's active tab after this step (tasks with the browser toolkit)."""


class EpisodeRecord(BaseModel):
    task_id: str
    model: str
    strategy: str
    finish_reason: FinishReason | None = None
    error: str | None = None
    """Why a model_error or kernel_error ended the episode."""
    model_error_fatal: bool = False
    """The model's error would end every task alike (a wrong key, model name or URL; nothing answering
    there): the runner stops the run after this task unless ``--keep-going``."""
    steps: list[StepRecord] = Field(default_factory=list)
    plan: list[str] = Field(default_factory=list)
    plan_history: list[list[str]] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    duration_s: float = 0.0
    answer: str = ""
    infeasible: str | None = None
    """Why the agent declared the task infeasible (its ``infeasible("why")``); None if it did not."""
    """What the agent printed in its last step that ran code (for answer.* judges)."""


_OUTPUT_SLOT = "\x00deskact-output\x00"


def output_text(result: ExecResult, max_chars: int) -> str:
    """The execution result as the model reads it (one rendering, shared with `deskact exec`)."""
    return result.for_model(max_chars)


def utf8_safe(text: str) -> tuple[str, int]:
    """``text`` with each lone surrogate written as its ``\\uXXXX`` escape, and how many there were.

    A model's JSON may hold lone surrogates; nothing downstream (the kernel's wire, the
    trajectory, the next request) can encode them. Escaped, a surrogate inside a string literal
    still means the same character to Python, and the reply stays on record.
    """
    count = sum(1 for c in text if "\ud800" <= c <= "\udfff")
    if not count:
        return text, 0
    return text.encode("utf-8", "backslashreplace").decode("utf-8"), count


def _parse_plan(text: str) -> list[str]:
    items = [m.group(1).strip() for m in re.finditer(r"^\s*(?:\d+[.)]|[-*])\s+(.+)$", text, re.MULTILINE)]
    return items[:12]


class Episode:
    """One task attempt. Create, then ``run()`` or call ``step()`` until ``finished``."""

    def __init__(
        self,
        task: Task,
        model: Model,
        runner: CodeRunner,
        config: Config,
        *,
        system_prompt: str,
        screen: ScreenFn | None = None,
        confirm: ConfirmFn | None = None,
        on_step: Callable[[StepRecord], None] | None = None,
        instruction: str | None = None,
        epoch: int = 1,
    ) -> None:
        self.task, self.model, self.runner, self.config = task, model, runner, config
        self.agent = config.agent
        self.screen = screen if task.visual else None
        self.confirm = confirm
        self.on_step = on_step
        self.max_steps = task.max_steps or self.agent.max_steps
        self.max_time = task.max_time or self.agent.max_time
        self.system = system_prompt
        self.record = EpisodeRecord(task_id=task.id, model=model.name, strategy=self.agent.strategy)
        self.messages: list[Message] = []
        self._tree: str | None = None
        self._started = time.monotonic()
        self._parse_errors = 0
        self._subtask = 0
        self._escaped_note = ""
        model.epoch = epoch  # before start_episode: offline models choose their script by it
        model.start_episode(task)
        model.deadline = self._started + self.max_time  # model calls respect the episode's time limit
        self._screens = ScreenMemory(config.observation.unchanged, self.agent.keep_screenshots)
        first = render("task", instruction=instruction or task.instruction)
        self.first_screenshot: Image | None = self._grab()
        """What the model saw with the instruction, before its first step (saved in the trajectory)."""
        tree = f"\n\n{self._tree}" if self._tree else ""
        self._push_user(first + tree, self._screens.observe(self._for_model(self.first_screenshot))[0])
        if self.agent.strategy == "plan-act-reflect":
            self._make_plan()

    # -- public ---------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.record.finish_reason is not None

    def run(self) -> EpisodeRecord:
        while not self.finished:
            self.step()
        return self.record

    def step(self) -> StepRecord | None:
        """One model turn: call the model, run its code, observe. None when finished."""
        if self.finished or self._check_limits():
            return None
        rec = StepRecord(index=len(self.record.steps))
        if self.record.plan:
            rec.subtask = self.record.plan[self._subtask]
        reply = self._call_model(rec)
        if reply is None:
            return self._close_step(rec)
        parsed = extract_code(reply)
        rec.note = parsed.note
        if self._escaped_note:
            rec.note = f"{rec.note} {self._escaped_note}".strip()
        if parsed.code is None:
            if self.agent.no_code == "finish":
                self._finish("no_code")
                return self._close_step(rec)
            self._parse_errors += 1
            if self._parse_errors >= self.agent.max_parse_errors:
                self._finish("parse_error")
                return self._close_step(rec)
            rec.note = parsed.note or "Your reply had no ```python block. Reply with one block of code."
            self._push_user(f"[{rec.note}]")
            return self._close_step(rec)
        self._parse_errors = 0
        code = parsed.code
        if self.confirm is not None:
            approved = self.confirm(code)
            if approved is None:
                rec.code, rec.note = code, "The user rejected this code; it did not run."
                self._push_user(f"[{rec.note}]")
                return self._close_step(rec)
            if approved != code:
                rec.note = (rec.note + " " if rec.note else "") + "The user edited the code before it ran."
            code = approved
        rec.code = code
        if self._repeated(code):
            self._finish("repetition_limit")
            return self._close_step(rec)
        self._execute(rec, code)
        return self._close_step(rec)

    # -- internals ------------------------------------------------------------

    def _time_left(self) -> float:
        return self.max_time - (time.monotonic() - self._started)

    def _check_limits(self) -> bool:
        if len(self.record.steps) >= self.max_steps:
            self._finish("step_limit")
        elif self._time_left() <= 0:
            self._finish("time_limit")
        return self.finished

    def _finish(self, reason: FinishReason, error: str | None = None) -> None:
        self.record.finish_reason = reason
        self.record.error = error
        self.record.duration_s = time.monotonic() - self._started

    def _grab(self) -> Image | None:
        self._tree = None
        if self.screen is None:
            return None
        shot = self.screen()
        self._tree = getattr(shot, "a11y", None)  # observation.a11y: the active window's tree as text
        return shot.image if shot is not None else None

    def _for_model(self, image: Image | None) -> Image | None:
        """The screenshot to send: none when the observation is the tree alone (observation.a11y: tree)."""
        return None if self._tree is not None and self.config.observation.a11y == "tree" else image

    def _push_user(self, text: str, image: Image | None = None) -> None:
        self.messages.append(Message(role="user", text=text, images=[image] if image else []))

    def _trimmed_history(self) -> list[Message]:
        """Keep only the latest N screenshots so long episodes fit the context."""
        keep = self.agent.keep_screenshots
        out: list[Message] = []
        seen = 0
        for msg in reversed(self.messages):
            if msg.images:
                if seen >= keep:
                    msg = msg.without_images("[older screenshot removed]")
                seen += len(msg.images)
            out.append(msg)
        return list(reversed(out))

    def _ask(self, rec: StepRecord | None, messages: list[Message]) -> str | None:
        start = time.monotonic()
        try:
            reply = self.model.reply(self.system, messages)
        except ModelError as exc:
            usage = getattr(exc, "usage", None)
            if usage is not None:  # retries and latency of a failed call still count
                self.record.usage = self.record.usage + usage
            self.record.model_error_fatal = bool(getattr(exc, "fatal", False))
            self._finish("model_error", str(exc))
            return None
        except Exception as exc:  # noqa: BLE001 - a crashing adapter must not lose the run
            self._finish("model_error", f"{type(exc).__name__}: {exc}")
            return None
        self.record.usage = self.record.usage + reply.usage
        if rec is not None:
            rec.usage = rec.usage + reply.usage
            rec.model_s += time.monotonic() - start
        text, escaped = utf8_safe(reply.text)
        self._escaped_note = (
            f"The reply held {escaped} lone surrogate character(s), not valid UTF-8; "
            "they were read as \\uXXXX escapes." if escaped else ""
        )
        return text

    def _call_model(self, rec: StepRecord) -> str | None:
        messages = self._trimmed_history()
        if self.record.plan:
            act = render("act", plan=self.record.plan, current=self._subtask)
            messages = messages[:-1] + [messages[-1].appended("\n\n" + act)]
        reply = self._ask(rec, messages)
        if reply is None:
            return None
        rec.reply = reply
        self.messages.append(Message(role="assistant", text=reply))
        return reply

    def _repeated(self, code: str) -> bool:
        limit = self.agent.repetition_limit
        previous = [s.code for s in self.record.steps if s.code is not None][-(limit - 1):]
        return limit > 1 and len(previous) == limit - 1 and all(c == code for c in previous)

    def _execute(self, rec: StepRecord, code: str) -> None:
        left = self._time_left()
        timeout = min(self.agent.step_timeout, max(left, 0.1))
        start = time.monotonic()
        try:
            result = self.runner.execute(code, timeout=timeout)
        except KernelError as exc:
            rec.exec_s = time.monotonic() - start
            self._finish("kernel_error", str(exc))
            return
        rec.exec_s = time.monotonic() - start
        rec.result = result
        if result.stdout.strip() or result.result is not None:
            self.record.answer = result.stdout + (result.result or "")
        image = self._grab()
        rec.screenshot = image  # the trajectory keeps every full frame
        output = result.model_parts(self.config.kernel.model_output_chars)
        self._screens.other_images(sum(not isinstance(p, str) for p in output))
        shown, unchanged = self._screens.observe(self._for_model(image))
        # The template places the output; the output itself is text and images in order.
        before, _, after = render("observation", output=_OUTPUT_SLOT, note=rec.note).partition(_OUTPUT_SLOT)
        screen: list[str | Image] = [shown] if shown else [f"\n{unchanged}"] if unchanged else []
        if self._tree:
            screen.append(f"\n{self._tree}")
        self.messages.append(Message.of_parts("user", [before, *output, after, *screen]))
        if result.infeasible is not None:
            self.record.infeasible = result.infeasible
            self._finish("infeasible")
        elif result.exited:
            self._finish("done")
        elif result.status == "timeout" and timeout < self.agent.step_timeout:
            self._finish("time_limit")
        elif self.record.plan:
            self._reflect(rec)

    # -- plan-act-reflect -----------------------------------------------------

    def _make_plan(self) -> None:
        if getattr(self.model, "code_only", False):
            # Offline code-only models (reference, noop) cannot plan: one subtask.
            self.record.plan = [self.task.instruction]
        else:
            messages = self.messages + [Message(role="user", text=render("plan"))]
            text = self._ask(None, messages)
            if text is None:
                return
            self.record.plan = _parse_plan(text) or [self.task.instruction]
        self.record.plan_history.append(list(self.record.plan))

    def _reflect(self, rec: StepRecord) -> None:
        if getattr(self.model, "code_only", False):
            rec.reflection = "SUCCESS (not asked: the model answers with code only)"
            verdict = "SUCCESS"
        else:
            prompt = render("reflect", subtask=self.record.plan[self._subtask])
            text = self._ask(rec, self._trimmed_history() + [Message(role="user", text=prompt)])
            if text is None:
                return
            rec.reflection = text.strip()
            verdict = (text.strip().split() or ["SUCCESS"])[0].upper().strip(".:")
        if verdict.startswith("REVISE"):  # only a model's reflection says so: text is set
            new_plan = _parse_plan(text or "")
            if new_plan:
                self.record.plan = new_plan
                self.record.plan_history.append(list(new_plan))
                self._subtask = 0
        elif verdict.startswith("SUCCESS"):
            self._subtask = min(self._subtask + 1, len(self.record.plan) - 1)

    def _close_step(self, rec: StepRecord) -> StepRecord:
        self.record.steps.append(rec)
        self.record.duration_s = time.monotonic() - self._started
        if self.on_step is not None:
            self.on_step(rec)
        return rec
