"""``deskact record``: a person performs a task in the browser; the recording becomes a trajectory and a reference.

One recording, start to end:

1. The task's world is reset as for a run (``TaskEnv`` on a ``Worker``), on a virtual display
   served by x11vnc and websockify (``display.vnc_web``); the episode video starts
   (``observation.record``) and, since the reference names elements, the accessibility bus too.
2. The input log (run/input_log.py) records every X input event; the snapshot watcher
   (snapshots.py) takes the screen and the tree whenever the screen settles after input.
3. The recording page (page.py) frames noVNC with input enabled; the person acts, then presses
   Done (or Ctrl-C, or POST ``/done``).
4. The events are grouped into actions (run/input_actions.py), typed text merged; each action
   becomes one step of a trajectory in the format of a model's (``step_NNN.json`` with its code
   and the screen after it, the screen before and the tree at the action beside it), judged by
   the task's judges, in a run folder ``deskact view`` shows (model ``human``).
5. The actions become gui-toolkit code (codegen.py), saved as ``reference.py`` and, when the
   demonstration passed the judges, written into the task's YAML as ``reference:``
   (``--as counterexample``: appended to ``counterexamples:`` when it failed them).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from ..agent.agent import EpisodeRecord, StepRecord
from ..config import Config
from ..errors import DeskactError
from ..run.input_actions import InputAction, group_actions
from ..run.results import ResultsWriter, TaskResult
from ..run.trajectory import TrajectoryWriter, safe_name
from ..tasks.feedback import join_feedback
from ..tasks.task import Task, load_tasks
from . import codegen
from .page import RecordPage
from .snapshots import Snapshot, Watcher
from .task_yaml import add_counterexample, set_reference

MODEL_NAME = "human"
"""The trajectory's model: a person's demonstration."""
WAIT_AFTER_S = 0.2
"""The screen still changing this long after an action (before the next one) makes the reference wait."""
CLICK_KINDS = ("click", "double_click", "triple_click", "right_click", "middle_click")
POINTER_KINDS = (*CLICK_KINDS, "drag", "scroll")
KEY_KINDS = ("type", "key", "hotkey")


class RecordOptions(BaseModel):
    suite: str
    task_id: str
    out: Path
    save_as: Literal["reference", "counterexample"] = "reference"
    note: str = ""
    """A counterexample's note (what is wrong with it); the judges' feedback when empty."""
    write: bool = True
    """Write the reference (or counterexample) into the task's YAML; False: only the run folder."""
    command: list[str] = []
    tree: bool | None = None
    """Read the accessibility tree at each snapshot, so the reference clicks elements by name; None:
    as the config's ``observation.a11y`` says. Apps draw differently with the tree on (LibreOffice
    takes another toolkit), so record as the reference will run: with the config validate uses."""


class RecordOutcome(BaseModel):
    out: Path
    trajectory: Path
    video: Path | None
    passed: bool
    feedback: str
    events: int
    actions: int
    code: str
    written: str | None = None
    """Where the code went in the task's YAML (None when it was not written)."""
    refused: str | None = None
    """Why the code was not written into the task's YAML."""
    message: str


def find_task(suite: str, task_id: str) -> Task:
    loaded = load_tasks([suite])
    for bad in loaded.invalid:
        if bad.task_id == task_id:
            raise DeskactError(f"task `{task_id}` does not load: {bad}")
    for task in loaded.tasks:
        if task.id == task_id:
            return task
    raise DeskactError(f"no task `{task_id}` in {suite}")


def recording_config(config: Config, tree: bool | None = None) -> Config:
    """The config for a recording: a virtual display served to the browser, the video, the tree."""
    if config.display.mode != "virtual":
        raise DeskactError(f"deskact record: display.mode is {config.display.mode!r}; recording needs a virtual display")
    observation: dict[str, object] = {"record": True}
    if tree and config.observation.a11y == "off":
        observation["a11y"] = "tree"  # the reference names elements from it
    elif tree is False:
        observation["a11y"] = "off"
    return config.model_copy(update={
        "display": config.display.model_copy(update={"vnc_web": True}),
        "observation": config.observation.model_copy(update=observation),
    })


def record(config: Config, options: RecordOptions, announce: Callable[[str], None],
           stop: threading.Event | None = None) -> RecordOutcome:
    """Record one demonstration of ``options.task_id``; ``announce`` is told the page's address."""
    from ..run.input_log import start as start_input_log
    from ..run.manifest import new_manifest, now, write_manifest
    from ..run.task_env import TaskEnv
    from ..run.video import start as start_video
    from ..run.worker import Worker
    from ..world.vnc_web import page_url

    task = find_task(options.suite, options.task_id)
    cfg = recording_config(config, options.tree)
    out = options.out
    folder = out / "trajectories" / safe_name(task.id)
    if (out / "results.jsonl").exists():
        raise DeskactError(f"{out} holds a run already: give another --out")
    manifest = new_manifest(cfg, MODEL_NAME, command=options.command, paths=[options.suite],
                            tasks_glob=task.id, epochs=1, workers=1)
    manifest.attempts = 1
    write_manifest(out, manifest)
    traj = TrajectoryWriter(folder)
    result = TaskResult(task_id=task.id, suite=task.suite, tags=task.tags, status="error", model=MODEL_NAME,
                        trajectory=str(folder.relative_to(out)), source=task.source)
    started = time.monotonic()
    with Worker(cfg) as worker:
        env = TaskEnv(task, worker)
        if env.display is None:
            raise DeskactError(f"task `{task.id}` has no display to record (it is not visual and no toolkit of it "
                               "needs one)")
        display = env.display
        obs = cfg.observation
        # The video from before the reset; the input log (ours) from after it: the reset's own input
        # (a window activated, a dialog answered) is no part of the demonstration.
        video = start_video(display.name, folder, obs.record_fps, obs.record_max_width, obs.max_height,
                            input_log=False)
        log: Any = None
        watcher: Watcher | None = None
        finished = False
        try:
            env.reset()
            take = _taker(env)
            first = take()
            log = start_input_log(display.name, folder / "input.jsonl")
            watcher = Watcher(display.name, folder / "input.jsonl", take)
            watcher.start(first)
            vnc = page_url(display.web_port, display.vnc_password, view_only=False)
            page = RecordPage(vnc, task.id, env.expand(task.instruction),
                              state=lambda: {"events": watcher.events, "presses": watcher.presses})
            with page:
                announce(page.url)
                _wait_for_done(page, stop)
                log.stop()
                watcher.stop()
                video_problem = video.stop() if video is not None else None
                video = None
                actions = codegen.merge_typing(group_actions(_events(folder / "input.jsonl")))
                steps = _steps(actions, watcher)
                scale = float(first.screenshot.scale)
                code = codegen.reference_code(steps, scale, _header(task, steps, scale, first))
                _write_trajectory(traj, env, task, steps, watcher, first, scale, started)
                verdicts = env.judge(answer="")
                result.verdicts = verdicts
                result.reward = int(all(v.passed for v in verdicts))
                result.feedback = join_feedback(v.feedback for v in verdicts if not v.passed and v.feedback)
                errors = [v.feedback for v in verdicts if v.error] + ([video_problem] if video_problem else [])
                if watcher.error:
                    errors.append(f"snapshots: {watcher.error}")
                result.status = "error" if errors else ("passed" if result.reward else "failed")
                result.error = "; ".join(errors) or None
                result.steps = len(steps)
                result.finish_reason = "done"
                (folder / "reference.py").write_text(code)
                outcome = _save(task, options, code, result, out, folder, watcher.events, len(steps))
                last = watcher.snapshots[-1].screenshot.image
                page.final_image = (last.data, last.media_type)
                page.finished = {"message": outcome.message, "passed": outcome.passed, "written": outcome.written,
                                 "refused": outcome.refused, "code": code}
                _linger(page)
                finished = True
        finally:
            if log is not None:
                log.stop()  # idempotent: an error before Done leaves no thread reading the display
            if watcher is not None:
                watcher.close()
            if video is not None:
                video.stop()
            problems = env.cleanup()
            if problems:
                result.error = "; ".join(filter(None, [result.error, *problems]))
                result.status = "error"
            result.phases = env.times
            result.duration_s = time.monotonic() - started
            writer = ResultsWriter(out / "results.jsonl")
            writer.write(result)
            writer.close()
            manifest = manifest.model_copy(update={"status": "finished" if finished else "interrupted", "ended_at": now(),
                                                   "totals": {result.status: 1}})
            write_manifest(out, manifest)
    return outcome


def _taker(env: Any) -> Callable[[], Snapshot]:
    from ..agent import a11y
    from ..screen.screenshot import capture

    def take() -> Snapshot:
        t = time.monotonic()
        shot = capture(env.display.name, env.config.observation)
        snap = Snapshot(t=t, screenshot=shot)
        bus = env.a11y_bus
        if bus is not None:
            try:
                snap.elements = a11y.read_tree(bus.socket, peer_uids=bus.peer_uids)
                snap.tree_text = a11y.render(snap.elements, scale=shot.scale) or "[No window exports an accessibility tree.]"
            except Exception as exc:  # noqa: BLE001 - an app that hangs must not end the recording
                snap.tree_text = f"[The accessibility tree could not be read: {type(exc).__name__}: {exc}]"
        return snap

    return take


def _wait_for_done(page: RecordPage, stop: threading.Event | None) -> None:
    """Until Done is pressed (or ``/done``), ``stop`` is set, or Ctrl-C: each ends the recording."""
    try:
        while not page.done.wait(0.2):
            if stop is not None and stop.is_set():
                break
    except KeyboardInterrupt:
        pass
    page.done.set()


def _linger(page: RecordPage, seconds: float = 2.0) -> None:
    """Keep serving a moment so the page's next poll shows what became of the recording."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(0.1)


def _events(path: Path) -> list[Any]:
    from ..run.input_log import read_log

    return read_log(path).events


def _steps(actions: list[InputAction], watcher: Watcher) -> list[codegen.Step]:
    steps = []
    for i, action in enumerate(actions):
        before = watcher.before(action.t_start)
        target = None
        if action.kind in POINTER_KINDS:
            target = codegen.target_at(before.elements, action.x, action.y)
        following = actions[i + 1].t_start if i + 1 < len(actions) else float("inf")
        changed = [t for t in watcher.changes if action.t_end < t < following]
        # The person waited for the screen: it went on changing after the action, or the action
        # (a click, a key, a chord) changed it at all before the next one. Keys after a click wait
        # too: the click moves the focus (a browser's, in its renderer) after the replay's next
        # keys would arrive, while a person's reach the field they clicked.
        wait = bool(changed) and (changed[-1] - action.t_end >= WAIT_AFTER_S or action.kind != "type")
        keys_next = i + 1 < len(actions) and actions[i + 1].kind in KEY_KINDS
        wait = wait or (action.kind in CLICK_KINDS and keys_next)
        steps.append(codegen.Step(action=action, target=target, wait=wait))
    return steps


def _header(task: Task, steps: list[codegen.Step], scale: float, first: Snapshot) -> str:
    shot = first.screenshot
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (f"Recorded with `deskact record` from a person's demonstration of {task.id} ({when}, "
            f"{len(steps)} actions).\nCoordinates are pixels of the {shot.width}x{shot.height} screenshot of the "
            f"{shot.original_width}x{shot.original_height} screen (scale {scale:.4g}).")


def _describe(step: codegen.Step) -> str:
    a = step.action
    if a.kind == "type":
        return f"typed {a.text!r}"
    if a.kind in ("key", "hotkey"):
        return f"pressed {'+'.join(a.keys or [])}" + (f" x{a.presses}" if a.presses > 1 else "")
    where = f" on {step.target.role} {step.target.name!r}" if step.target and step.target.name else ""
    return f"{a.kind.replace('_', ' ')} at ({a.x}, {a.y}){where}"


def _write_trajectory(traj: TrajectoryWriter, env: Any, task: Task, steps: list[codegen.Step], watcher: Watcher,
                      first: Snapshot, scale: float, started: float) -> None:
    """Steps as a model's (code, the screen after), with the action, the screen before and the tree
    at the action beside each; every snapshot once under ``snapshots/``."""
    folder = traj.folder
    names = _write_snapshots(folder / "snapshots", watcher.snapshots)
    first_file = traj.first_observation(first.screenshot.image)
    records = []
    for index, step in enumerate(steps):  # from 0, as a model's steps
        before, after = watcher.before(step.action.t_start), watcher.after(step.action.t_end)
        rec = StepRecord(index=index, reply=f"(demonstrated) {_describe(step)}", code=step.code(scale),
                         note="a person's input, recorded", screenshot=after.screenshot.image,
                         exec_s=round(step.action.t_end - step.action.t_start, 3))
        traj.step(rec)
        path = folder / f"step_{index:03d}.json"
        data = json.loads(path.read_text())
        data["demonstration"] = {
            "action": step.action.model_dump(mode="json"),
            "target": step.target.model_dump() if step.target else None,
            "wait": step.wait,
            "before": names[id(before)], "after": names[id(after)],
            "a11y": names[id(before)].replace(".png", ".a11y.txt").replace(".jpg", ".a11y.txt"),
        }
        path.write_text(json.dumps(data, indent=1))
        records.append(rec)
    episode = EpisodeRecord(task_id=task.id, model=MODEL_NAME, strategy="demonstration", finish_reason="done",
                            steps=records, duration_s=round(time.monotonic() - started, 3))
    traj.episode(episode, {"instruction": env.expand(task.instruction), "system_prompt": env.system_prompt(),
                           "first_screenshot_file": first_file})


def _write_snapshots(folder: Path, snapshots: list[Snapshot]) -> dict[int, str]:
    folder.mkdir(parents=True, exist_ok=True)
    names: dict[int, str] = {}
    index = []
    for i, snap in enumerate(snapshots):
        image = snap.screenshot.image
        ext = "png" if image.media_type == "image/png" else "jpg"
        name = f"snapshots/{i:03d}.{ext}"
        (folder / f"{i:03d}.{ext}").write_bytes(image.data)
        (folder / f"{i:03d}.a11y.txt").write_text(snap.tree_text + "\n")
        names[id(snap)] = name
        index.append({"file": name, "t": snap.t, "elements": len(snap.elements)})
    (folder / "index.json").write_text(json.dumps(index, indent=1))
    return names


def _save(task: Task, options: RecordOptions, code: str, result: TaskResult, out: Path, folder: Path,
          events: int, actions: int) -> RecordOutcome:
    """Write the code into the task's YAML when the demonstration fits what it is saved as."""
    file = Path(task.source.rsplit(":", 1)[0])
    passed = result.status == "passed"
    written = refused = None
    if not actions:
        refused = "nothing was recorded (no input events made an action)"
    elif result.status == "error":
        refused = f"the demonstration could not be judged: {result.error}"
    elif options.save_as == "reference" and not passed:
        refused = f"the demonstration does not pass the task's judges ({result.feedback or 'failed'})"
    elif options.save_as == "counterexample" and passed:
        refused = "the demonstration passes the task's judges: it is no counterexample"
    elif not options.write:
        refused = "--no-write"
    else:
        if options.save_as == "reference":
            set_reference(file, task.id, code)
            written = f"{file}: task {task.id}: reference"
        else:
            add_counterexample(file, task.id, code, options.note or result.feedback or "a recorded wrong attempt")
            written = f"{file}: task {task.id}: counterexamples"
    video = folder / "episode.mp4"
    verdict = "passed" if passed else result.status
    message = (f"{actions} actions from {events} input events; the judges: {verdict}. "
               + (f"Written to {written}." if written else f"Not written into the task: {refused}.")
               + f" Code in {folder / 'reference.py'}.")
    return RecordOutcome(out=out, trajectory=folder, video=video if video.is_file() else None, passed=passed,
                         feedback=result.feedback, events=events, actions=actions, code=code, written=written,
                         refused=refused, message=message)
