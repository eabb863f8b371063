"""One task's live environment: workspace, reset, kernel, episode, judges, cleanup.

The headless runner and the notebook API both go through this class, so a
task behaves the same in both. Reset steps and judges run here, in the host
process: gold files and expected values never enter the agent's kernel.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

from ..agent.agent import ConfirmFn, Episode, StepRecord
from ..agent.models.base import Model
from ..agent.prompting import render
from ..errors import DeskactError
from ..execution import ExecResult
from ..tasks.steps import StepContext, Verdict, lookup, run_judge, run_reset
from ..tasks.task import Task
from .a11y_env import a11y_text, start_a11y_bus
from .results import PhaseTimes
from .worker import Worker, needs_display


def _running_if_live(ctx: StepContext, name: str) -> AbstractContextManager[Any]:
    """The world thawed for a ``live`` cleanup step (apps.kill: a frozen process cannot take a signal)."""
    if ctx.world is not None and lookup("reset", name).live:
        return ctx.world.thawed()
    return nullcontext()


class TaskEnv:
    def __init__(self, task: Task, worker: Worker, epoch: int = 1) -> None:
        self.task = task
        self.epoch = epoch
        """Which attempt at the task this is (``deskact run --epochs``), counted from 1."""
        self.worker = worker
        self.config = worker.config
        self.display: Any = worker.display() if needs_display(task.visual, task.toolkits) else None
        self.toolkits = worker.toolkits_for(task.toolkits, has_display=self.display is not None)
        self.session: Any = None
        self.workspace: Path | None = None
        self.times = PhaseTimes()
        self.episode: Episode | None = None
        self.kept_world: Path | None = None
        """The world's directory when ``world.keep`` (``--keep-worlds``) keeps it after cleanup."""
        self._cleaned = False
        self.reset_at: float | None = None
        self.a11y_bus: Any = None

    # -- lifecycle ------------------------------------------------------------

    def reset(self) -> None:
        """Get a fresh kernel (and its workspace) from the pool, then run the reset steps."""
        start = time.monotonic()
        pool = self.worker.pool(self.toolkits, self.display)
        self.session = pool.acquire()
        self.workspace = Path(self.session.workspace)
        self.times.kernel = time.monotonic() - start
        start = time.monotonic()
        for tk in self.toolkits:  # per-worker services start each task from their initial state
            handle = self.worker.service(tk)
            if handle is not None and handle.before_task is not None:
                handle.before_task()
        self.a11y_bus = start_a11y_bus(self)  # before the reset steps start apps, so they export trees
        ctx = self.context()
        for step in self.task.reset:
            try:
                run_reset(step.name, step.params, ctx)
            except Exception as exc:
                raise DeskactError(f"reset step `{step.name}` failed: {type(exc).__name__}: {exc}") from exc
        self.times.reset = time.monotonic() - start
        self.reset_at = time.time()

    def context(self, answer: str = "") -> StepContext:
        assert self.workspace is not None, "reset() first"
        services = {tk.name: h.host for tk in self.toolkits if (h := self.worker.service(tk)) is not None}
        return StepContext(
            workspace=self.workspace,
            files=self.task.files_dir,
            gold=self.task.gold_dir,
            home=self.workspace,
            display=self.display.name if self.display else None,
            answer=answer,
            services=services,
            config=self.config,
            task_id=self.task.id,
            world=getattr(self.session, "world", None),
            reset_at=self.reset_at,
            infeasible=self.episode.record.infeasible if self.episode else None,
        )

    def expand(self, text: str) -> str:
        from ..tasks.steps import expand

        return expand(text, self.context().placeholders())

    def system_prompt(self) -> str:
        obs = self.config.observation
        width, height = self.config.display.width, self.config.display.height
        if self.display is not None:  # attach mode: the person's screen has its own size
            width, height = self.display.size
        scale = min(1.0, obs.max_width / width, obs.max_height / height)
        return render(
            "system",
            visual=self.task.visual,
            workspace=str(self.workspace),
            step_timeout=int(self.config.agent.step_timeout),
            output_chars=self.config.kernel.model_output_chars,
            max_steps=self.task.max_steps or self.config.agent.max_steps,
            max_time=int(self.task.max_time or self.config.agent.max_time),
            screen_width=width,
            screen_height=height,
            image_width=round(width * scale),
            image_height=round(height * scale),
            toolkit_docs="\n\n".join(tk.documentation() for tk in self.toolkits),
        )

    def screenshot(self) -> Any:
        if self.display is None:
            return None
        from ..screen.screenshot import capture

        shot = capture(self.display.name, self.config.observation)
        if self.a11y_bus is not None and self.config.observation.a11y != "off":
            shot.a11y = a11y_text(self.a11y_bus, shot.scale)
        return shot

    def execute(self, code: str, timeout: float | None = None) -> ExecResult:
        """Run code in the task's kernel exactly as the agent would."""
        return self.session.execute(code, timeout=timeout or self.config.agent.step_timeout)

    def start_episode(
        self, model: Model, on_step: Callable[[StepRecord], None] | None = None, confirm: ConfirmFn | None = None
    ) -> Episode:
        """The agent's episode on this task: the built-in loop, or the model's own (``episode_class``)."""
        # Read through getattr: a wrapper (LimitedModel) passes unknown attributes on to the model it holds.
        agent: type[Episode] = getattr(model, "episode_class", None) or Episode
        self.episode = agent(
            self.task, model, self.session, self.config,
            system_prompt=self.system_prompt(),
            screen=self.screenshot if self.display is not None else None,
            confirm=confirm,
            on_step=self._with_step_hooks(on_step),
            instruction=self.expand(self.task.instruction),
            epoch=self.epoch,
        )
        return self.episode

    def _with_step_hooks(self, on_step: Callable[[StepRecord], None] | None) -> Callable[[StepRecord], None] | None:
        """Each step's record passes the toolkits' step hooks (the browser's URL, say) before it is written."""
        hooked = [tk for tk in self.toolkits if tk.step_url is not None or tk.after_step is not None]
        if not hooked:
            return on_step

        def record(rec: StepRecord) -> None:
            ctx = self.context()
            for tk in hooked:
                if tk.step_url is not None:
                    rec.url = tk.step_url(ctx) or rec.url
                if tk.after_step is not None:
                    tk.after_step(ctx, rec)
            if on_step is not None:
                on_step(rec)

        return record

    def judge(self, answer: str | None = None) -> list[Verdict]:
        start = time.monotonic()
        if answer is None:
            answer = self.episode.record.answer if self.episode else ""
        ctx = self.context(answer)
        for step in self.task.before_judge:  # e.g. apps.save: what OSWorld does before it judges
            try:
                run_reset(step.name, step.params, ctx)
            except Exception as exc:
                raise DeskactError(f"before_judge step `{step.name}` failed: {type(exc).__name__}: {exc}") from exc
        # The world stands still while judges look at it: nothing the agent left running can
        # swap a file between a judge's path check and its read.
        with ctx.world.frozen() if ctx.world is not None else nullcontext():
            verdicts = [run_judge(step.name, step.params, ctx) for step in self.task.judge]
        if ctx.infeasible is not None and not any(step.name == "answer.infeasible" for step in self.task.judge):
            # Giving up on a task that can be done is a wrong answer, whatever the judges found.
            verdicts.append(Verdict(passed=False, judge="infeasible", params={"reason": ctx.infeasible},
                                    feedback=f"the agent declared the task infeasible ({ctx.infeasible or 'no reason given'}),"
                                             " but it can be done"))
        self.times.judge = time.monotonic() - start
        return verdicts

    def cleanup(self) -> list[str]:
        """Run cleanup steps (all of them, even if one fails), stop the kernel, drop the workspace."""
        if self._cleaned:
            return []
        self._cleaned = True
        start = time.monotonic()
        problems = []
        if self.workspace is not None:
            ctx = self.context()
            # Frozen as for judges: a process the agent left cannot swap a path while a cleanup step
            # writes or removes it (steps open paths by descriptors inside the world as well).
            with ctx.world.frozen() if ctx.world is not None else nullcontext():
                for step in self.task.cleanup:
                    try:
                        with _running_if_live(ctx, step.name):
                            run_reset(step.name, step.params, ctx)
                    except Exception as exc:  # noqa: BLE001 - keep cleaning up
                        problems.append(f"cleanup step `{step.name}` failed: {exc}")
        if self.a11y_bus is not None:
            self.a11y_bus.stop()
        if self.session is not None:
            world = getattr(self.session, "world", None)
            if world is not None and self.config.world.keep:
                self.kept_world = Path(world.dir)
                (self.kept_world / "task").write_text(f"{self.task.id}\n")  # whose world this was
            self.session.shutdown()
        try:
            self.worker.display_done(self.display)
        except Exception as exc:  # noqa: BLE001 - the worker starts a new display for the next task
            problems.append(f"the display could not be reset for the next task: {exc}")
        if self.workspace is not None and not self.config.runner.keep_workspace:
            shutil.rmtree(self.workspace, ignore_errors=True)
        self.times.cleanup = time.monotonic() - start
        return problems

    def __enter__(self) -> TaskEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cleanup()
