"""The notebook API: ``Env`` for one task, rendered inline, plus IPython magics.

Everything goes through ``TaskEnv`` and ``Episode``, the same code paths as the
headless runner, so a task behaves the same in a notebook and in a run::

    from deskact import Env
    env = Env.load("task_suites/os", "os-make-reports-folder").reset()
    env.execute("!ls -la")            # runs in the task's sandboxed kernel
    env.run("reference")              # a model takes steps, each shown as it happens
    env.judge()                       # verdicts with feedback
    env.close()                       # cleanup steps, kernel and workspace gone

``%load_ext deskact`` adds ``%%act`` (run the cell in the current Env's kernel)
and ``%deskact_screen`` (show the current screen).
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path
from typing import Any, Self

from .. import safe_yaml
from ..agent.agent import Episode, StepRecord, output_text
from ..agent.models import make_model
from ..agent.models.base import Message, Model
from ..config import Config, load_config
from ..errors import TaskError
from ..execution import ExecResult, Image
from ..run.task_env import TaskEnv
from ..run.worker import Worker
from ..tasks.steps import Verdict
from ..tasks.task import Task, load_tasks, parse_task
from ..tasks.toolkit_steps import load_toolkit_steps

_current: Env | None = None


def _display(obj: Any) -> None:
    try:
        from IPython.display import display

        display(obj)
    except ImportError:  # plain Python: print a text rendering
        print(obj)


def _img_tag(image: Image, width: int = 640) -> str:
    data = base64.b64encode(image.data).decode()
    return f'<img src="data:{image.media_type};base64,{data}" style="max-width:{width}px;border:1px solid #ccc"/>'


class ScreenView:
    """A screenshot that renders inline (``_repr_png_``)."""

    def __init__(self, image: Image) -> None:
        self.image = image

    def _repr_png_(self) -> bytes:
        if self.image.media_type == "image/png":
            return self.image.data
        from PIL import Image as PILImage

        buf = io.BytesIO()
        PILImage.open(io.BytesIO(self.image.data)).save(buf, format="PNG")
        return buf.getvalue()

    def __repr__(self) -> str:
        return f"<screenshot {self.image.media_type}, {len(self.image.data)} bytes>"


class ResultView:
    """An ExecResult rendered as HTML (output, error, images)."""

    def __init__(self, result: ExecResult, max_chars: int = 20_000) -> None:
        self.result = result
        self.max_chars = max_chars

    def __getattr__(self, name: str) -> Any:
        return getattr(self.result, name)

    def _repr_html_(self) -> str:
        r = self.result
        colour = {"ok": "#2a7", "error": "#c33", "timeout": "#c80", "kernel_died": "#c33"}[r.status]
        head = (f'<div style="font-family:monospace"><b style="color:{colour}">{r.status}</b> '
                f"in {r.duration_s:.2f}s{' (kernel restarted)' if r.restarted else ''}"
                f"{' · exit()' if r.exited else ''}</div>")
        text = html.escape(output_text(r, self.max_chars))
        body = f"<pre style='white-space:pre-wrap'>{text}</pre>"
        images = "".join(_img_tag(img) for img in r.images)
        return head + body + images

    def __repr__(self) -> str:
        return f"[{self.result.status}]\n{output_text(self.result, self.max_chars)}"


class StepView:
    def __init__(self, step: StepRecord) -> None:
        self.step = step

    def __repr__(self) -> str:
        # Plain-text front-ends (a terminal IPython, print()) get the step, not an object address.
        s = self.step
        parts = [f"--- step {s.index + 1}" + (f": {s.subtask}" if s.subtask else "") + " ---"]
        parts.append(s.code if s.code is not None else s.reply)
        if s.note:
            parts.append(f"({s.note})")
        if s.result is not None:
            parts.append(repr(ResultView(s.result)))
        return "\n".join(parts)

    def _repr_html_(self) -> str:
        s = self.step
        parts = [f"<h4>Step {s.index + 1}{' — ' + html.escape(s.subtask) if s.subtask else ''}</h4>"]
        if s.code is not None:
            parts.append(f"<pre style='background:#f4f4f4'>{html.escape(s.code)}</pre>")
        else:
            parts.append(f"<pre>{html.escape(s.reply)}</pre>")
        if s.note:
            parts.append(f"<i>{html.escape(s.note)}</i>")
        if s.result is not None:
            parts.append(ResultView(s.result)._repr_html_())
        if s.screenshot is not None:
            parts.append(_img_tag(s.screenshot, 480))
        return "".join(parts)


class VerdictsView(list):
    @property
    def reward(self) -> int:
        return int(all(v.passed for v in self))

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{'✅' if v.passed else ('⚠️' if v.error else '❌')}</td><td><code>{html.escape(v.judge)}</code>"
            f"</td><td>{html.escape(v.feedback or 'ok')}</td></tr>" for v in self
        )
        return f"<b>reward {self.reward}</b><table>{rows}</table>"


class Env:
    """One task, live: reset it, act in its kernel, let a model step, judge, close."""

    def __init__(self, task: Task, config: Config | None = None, worker: Worker | None = None) -> None:
        global _current
        self.task = task
        self.config = config or load_config()
        self._own_worker = worker is None
        self.worker = worker or Worker(self.config)
        self.task_env: TaskEnv | None = None
        self.episode: Episode | None = None
        self._closed = False
        _current = self

    # -- loading --------------------------------------------------------------

    @classmethod
    def load(cls, path: str | Path, task_id: str | None = None, **kwargs: Any) -> Env:
        kwargs["config"] = config = kwargs.get("config") or load_config()
        res = load_tasks([path], config.toolkits.enabled)  # the configured toolkits' steps register first
        if res.invalid:
            raise TaskError("\n".join(str(bad) for bad in res.invalid))
        tasks = [t for t in res.tasks if task_id is None or t.id == task_id]
        if not tasks:
            raise TaskError(f"{path}: no task {task_id!r} (have: {', '.join(t.id for t in res.tasks)})")
        return cls(tasks[0], **kwargs)

    @classmethod
    def from_yaml(cls, text: str, suite_dir: str | Path = ".", **kwargs: Any) -> Env:
        """A task written inline (validated exactly like a task file)."""
        kwargs["config"] = config = kwargs.get("config") or load_config()
        load_toolkit_steps(config.toolkits.enabled)
        try:
            raw = safe_yaml.load(text, source="<inline task>")
        except safe_yaml.YAMLError as exc:
            raise TaskError(f"not valid YAML: {safe_yaml.where(exc)}") from None
        try:
            return cls(parse_task(raw, Path(suite_dir).resolve(), Path("<inline>")), **kwargs)
        except ValueError as exc:
            raise TaskError(f"<inline task>: {exc}") from None

    # -- lifecycle ------------------------------------------------------------

    def reset(self) -> Env:
        global _current
        if self._closed:
            # Reopened after close(): its own worker (display, services, kernel pools) is gone.
            if self._own_worker:
                self.worker = Worker(self.config)
            self._closed = False
        _current = self  # %%act and %deskact_screen follow the Env used last
        if self.task_env is not None:
            self.task_env.cleanup()
        self.task_env = TaskEnv(self.task, self.worker)
        self.task_env.reset()
        self.episode = None
        return self

    @property
    def _env(self) -> TaskEnv:
        if self.task_env is None:
            self.reset()
        assert self.task_env is not None
        return self.task_env

    @property
    def workspace(self) -> Path:
        return self._env.workspace  # type: ignore[return-value]

    def screenshot(self) -> ScreenView | None:
        shot = self._env.screenshot()
        return ScreenView(shot.image) if shot is not None else None

    def execute(self, code: str, timeout: float | None = None) -> ResultView:
        """Run code in the task's sandboxed kernel; a running episode is told what you did."""
        result = self._env.execute(code, timeout)
        if self.episode is not None and not self.episode.finished:
            text = output_text(result, self.config.kernel.model_output_chars)
            self.episode.messages.append(Message(
                role="user", text=f"[A person ran this code in your kernel:]\n```python\n{code}\n```\n{text}"))
        return ResultView(result)

    def start(self, model: str | Model = "reference") -> Episode:
        if isinstance(model, str):
            model = make_model(model, self.config)
            model.check_ready()
        from ..agent.confirm import confirmation_enabled, console_confirm

        confirm = console_confirm() if confirmation_enabled(self.config) else None
        self.episode = self._env.start_episode(model, confirm=confirm)
        return self.episode

    def step(self, model: str | Model | None = None) -> StepView | None:
        """Let the model take one step (starting an episode if needed); returns the step shown inline."""
        if self.episode is None or (model is not None and not isinstance(model, str)
                                    and model is not self.episode.model):
            self.start(model or "reference")
        assert self.episode is not None
        rec = self.episode.step()
        return StepView(rec) if rec is not None else None

    def run(self, model: str | Model = "reference", max_steps: int | None = None) -> Any:
        """Let the model run to the end (or ``max_steps`` more steps), showing each step."""
        if self.episode is None or self.episode.finished:
            self.start(model)
        assert self.episode is not None
        taken = 0
        while not self.episode.finished and (max_steps is None or taken < max_steps):
            rec = self.episode.step()
            if rec is not None:
                _display(StepView(rec))
                taken += 1
        return self.episode.record

    def judge(self) -> VerdictsView:
        return VerdictsView(self._env.judge())

    def close(self) -> None:
        global _current
        if self.task_env is not None:
            self.task_env.cleanup()
            self.task_env = None
        if self._own_worker and not self._closed:
            self.worker.close()
        self._closed = True
        self.episode = None
        if _current is self:
            _current = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def current() -> Env:
    if _current is None:
        raise RuntimeError("no deskact Env yet: create one with Env.load(...) or Env.from_yaml(...)")
    return _current


def load_ipython_extension(ipython: Any) -> None:
    from IPython.core.magic import register_cell_magic, register_line_magic

    @register_cell_magic("act")  # type: ignore[arg-type]  # IPython's marker types the function as Never
    def act(line: str, cell: str) -> ResultView:
        """Run this cell in the current deskact task's sandboxed kernel (not the notebook's)."""
        timeout = float(line) if line.strip() else None
        return current().execute(cell, timeout)

    @register_line_magic("deskact_screen")  # type: ignore[arg-type]  # likewise
    def deskact_screen(line: str) -> ScreenView | None:
        """Show the current task's screen."""
        return current().screenshot()

    del act, deskact_screen


__all__ = ["Env", "ResultView", "ScreenView", "StepView", "Verdict", "VerdictsView", "current"]
