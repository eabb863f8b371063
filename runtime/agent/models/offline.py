"""Models that need no network: reference, noop, explore, scripted/<file>, human."""

from __future__ import annotations

import json
import re
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from ... import safe_yaml
from ...errors import ModelError
from .base import Message, Model, ModelReply, Usage
from .registry import model_provider

if TYPE_CHECKING:
    from ...config import Config
    from ...tasks.task import Task

EXIT_REPLY = "```python\nexit()\n```"


def python_block(code: str) -> str:
    """Fence ``code`` so the block survives backtick runs inside it (fence = longest run + 1)."""
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}python\n{code.rstrip()}\n{fence}"


def _timed(text: str, started: float) -> ModelReply:
    return ModelReply(text=text, usage=Usage(calls=1, latency_s=time.monotonic() - started))


class Reference(Model):
    """Replays the task's reference solution once, then asks to exit."""

    name = "reference"
    code_only = True
    """Cannot plan or reflect: the agent gives it one subtask and skips reflection."""

    def __init__(self) -> None:
        self._task_id: str | None = None
        self._code: str | None = None
        self._sent = False

    def start_episode(self, task: Task) -> None:
        self._task_id = task.id
        self._code = task.reference
        self._sent = False

    def check_ready(self) -> None:
        """Nothing to check up front: whether a task has a reference is known per task."""

    def reply(self, system: str, messages: list[Message]) -> ModelReply:
        started = time.monotonic()
        if self._task_id is None:
            raise ModelError("reference: no task given (start_episode was not called)")
        if self._code is None or not self._code.strip():
            raise ModelError(f"reference: task {self._task_id} has no reference solution")
        if self._sent:
            return _timed(EXIT_REPLY, started)
        self._sent = True
        return _timed(python_block(self._code), started)


class Counterexample(Reference):
    """Replays the task's counterexample number ``index`` (a wrong solution ``deskact validate``
    expects to fail) once, then asks to exit."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index
        self.name = f"counterexample/{index}"

    def start_episode(self, task: Task) -> None:
        self._task_id = task.id
        examples = task.counterexamples
        self._code = examples[self.index].code if self.index < len(examples) else None
        self._sent = False

    def reply(self, system: str, messages: list[Message]) -> ModelReply:
        if self._task_id is not None and not (self._code or "").strip():
            raise ModelError(f"{self.name}: task {self._task_id} has no counterexample {self.index}")
        return super().reply(system, messages)


class Noop(Model):
    """Finishes at once (a baseline: every task it 'solves' has a broken judge)."""

    name = "noop"
    code_only = True

    def reply(self, system: str, messages: list[Message]) -> ModelReply:
        return _timed(EXIT_REPLY, time.monotonic())


class Explore(Model):
    """Only looks around (one read-only step: explore_probe.py), then exits.

    A lazy agent's baseline: it echoes the task and prints the workspace
    listing, the first lines of small files, system facts, open windows and
    Google titles. Every task it 'solves' has a judge that matches incidental
    output or accepts an unchanged environment (``deskact validate`` runs it).
    """

    name = "explore"
    code_only = True

    def __init__(self) -> None:
        self._instruction = ""
        self._sent = False

    def start_episode(self, task: Task) -> None:
        self._instruction = task.instruction
        self._sent = False

    def reply(self, system: str, messages: list[Message]) -> ModelReply:
        started = time.monotonic()
        if self._sent:
            return _timed(EXIT_REPLY, started)
        self._sent = True
        # The first user message holds the instruction as the agent saw it (${WORKSPACE} expanded).
        first = next((m.text for m in messages if m.role == "user"), self._instruction)
        return _timed(python_block(explore_code(first)), started)


def explore_code(instruction: str) -> str:
    """The explore step: the probe's source, one call, and exit()."""
    probe = (Path(__file__).parent / "explore_probe.py").read_text(encoding="utf-8")
    return f"{probe}\n_deskact_explore({instruction!r})\ndel _deskact_explore\nexit()\n"


class Scripted(Model):
    """Replies from a fixed list, in order; each episode starts from the top.

    With several scripts (``epochs:`` in the file), epoch e of a ``--epochs`` run
    replays script ``(e - 1) % len(scripts)``: a deterministic mix of outcomes.
    """

    code_only = False  # a script may well hold plans and reflections

    def __init__(self, replies: list[str], name: str = "scripted", source: str = "script",
                 scripts: list[list[str]] | None = None):
        self.name = name
        self.source = source
        self.scripts = scripts or [list(replies)]
        self.replies = list(self.scripts[0])
        self._next = 0

    @classmethod
    def from_file(cls, path: str | Path) -> Scripted:
        path = Path(path)
        scripts = load_scripts(path)
        return cls(scripts[0], name=f"scripted/{path}", source=str(path), scripts=scripts)

    def start_episode(self, task: Task) -> None:
        self.replies = self.scripts[(self.epoch - 1) % len(self.scripts)]
        self._next = 0

    def reply(self, system: str, messages: list[Message]) -> ModelReply:
        started = time.monotonic()
        if self._next >= len(self.replies):
            raise ModelError(
                f"{self.name}: script exhausted after {len(self.replies)} replies ({self.source})"
            )
        text = self.replies[self._next]
        self._next += 1
        return _timed(text, started)


def load_scripts(path: Path) -> list[list[str]]:
    """One script per epoch from a YAML mapping ``epochs: [[replies...], ...]``, else the one script."""
    if path.suffix.lower() != ".jsonl" and path.is_file():
        try:
            data = safe_yaml.load_file(path)
        except yaml.YAMLError:
            data = None  # load_script reports it
        if isinstance(data, dict) and "epochs" in data:
            epochs = data["epochs"]
            if not isinstance(epochs, list) or not epochs or not all(isinstance(e, list) for e in epochs):
                raise ModelError(f"{path}: `epochs` must be a non-empty list of reply lists")
            return [[_reply_of(item, f"{path}: epochs[{e}] item {i}") for i, item in enumerate(script, start=1)]
                    for e, script in enumerate(epochs)]
    return [load_script(path)]


def load_script(path: Path) -> list[str]:
    """Read replies: YAML (a list of strings or of {reply: ...}) or JSONL ({"reply": ...} per line)."""
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ModelError(f"{path}: script file not found") from None
    if path.suffix.lower() == ".jsonl":
        replies = []
        for number, line in enumerate(raw.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ModelError(f"{path}:{number}: not JSON ({exc.msg})") from None
            replies.append(_reply_of(item, f"{path}:{number}"))
        return replies
    try:
        data = safe_yaml.load(raw, source=path)
    except yaml.YAMLError as exc:
        raise ModelError(f"{path}: not valid YAML: {exc}") from None
    if isinstance(data, dict) and "replies" in data:
        data = data["replies"]
    if not isinstance(data, list):
        raise ModelError(f"{path}: expected a list of replies, got {type(data).__name__}")
    return [_reply_of(item, f"{path}: item {i}") for i, item in enumerate(data, start=1)]


def _reply_of(item: Any, where: str) -> str:
    if isinstance(item, str):
        return item
    if isinstance(item, dict) and isinstance(item.get("reply"), str):
        return item["reply"]
    raise ModelError(f'{where}: expected a string or {{"reply": "..."}}, got {item!r}')


class Human(Model):
    """A person types each reply: lines until one holding only '.'.

    Works in a terminal and in a notebook alike (both read through ``input()``).
    Images of the latest observation are saved to files (a terminal cannot show
    them) or displayed inline when running under IPython.
    """

    name = "human"
    code_only = False

    def __init__(
        self,
        read_line: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
        image_dir: Path | None = None,
    ):
        self._read_line = read_line
        self._write = write
        self._image_dir = image_dir
        self._shown_system = False
        self._count = 0

    def start_episode(self, task: Task) -> None:
        self._shown_system = False

    def reply(self, system: str, messages: list[Message]) -> ModelReply:
        started = time.monotonic()
        if not self._shown_system:
            self._write(f"--- system prompt ({len(system)} chars) ---\n{system}\n")
            self._shown_system = True
        if messages and messages[-1].role == "user":
            self._show(messages[-1])
        self._write("--- your reply (a ```python block runs; end with a line holding only '.') ---")
        lines: list[str] = []
        while True:
            try:
                line = self._read_line("")
            except EOFError:
                raise ModelError("human: input ended before a line holding only '.'") from None
            except KeyboardInterrupt:
                raise ModelError("human: reply interrupted") from None
            except NotImplementedError:
                # IPython's StdinNotImplementedError: a front-end without input (e.g. nbclient).
                raise ModelError("human: this front-end cannot read input (no stdin)") from None
            if line.strip() == ".":
                break
            lines.append(line)
        return _timed("\n".join(lines), started)

    def _show(self, message: Message) -> None:
        self._write(f"--- observation ---\n{message.text}")
        for image in message.images:
            if not self._display_inline(image.data):
                self._write(f"[image saved to {self._save(image.data, image.media_type)}]")

    def _save(self, data: bytes, media_type: str) -> Path:
        folder = self._image_dir or Path(tempfile.gettempdir()) / "deskact-human"
        folder.mkdir(parents=True, exist_ok=True)
        self._count += 1
        path = folder / f"observation-{self._count:03d}.{media_type.split('/')[-1]}"
        path.write_bytes(data)
        return path

    def _display_inline(self, data: bytes) -> bool:
        shell = sys.modules.get("IPython")
        if shell is None or self._read_line is not input:
            return False
        try:
            from IPython import get_ipython
            from IPython.display import Image as IPyImage
            from IPython.display import display

            if get_ipython() is None or type(get_ipython()).__name__ != "ZMQInteractiveShell":
                return False
            display(IPyImage(data=data))
            return True
        except Exception:  # noqa: BLE001 - fall back to saving the file
            return False


# -- names make_model knows (registered in the order they are listed to users) ------------------


@model_provider("reference", takes_model=False)
def reference_model(model_name: str, config: Config, environ: Mapping[str, str]) -> Model:
    return Reference()


@model_provider("noop", takes_model=False)
def noop_model(model_name: str, config: Config, environ: Mapping[str, str]) -> Model:
    return Noop()


@model_provider("explore", takes_model=False)
def explore_model(model_name: str, config: Config, environ: Mapping[str, str]) -> Model:
    return Explore()


@model_provider("scripted", usage="scripted/<file>")
def scripted_model(model_name: str, config: Config, environ: Mapping[str, str]) -> Model:
    return Scripted.from_file(Path(model_name))


@model_provider("human", takes_model=False)
def human_model(model_name: str, config: Config, environ: Mapping[str, str]) -> Model:
    return Human()


@model_provider("counterexample", usage=None)  # deskact validate's fourth pass, not offered to users
def counterexample_model(model_name: str, config: Config, environ: Mapping[str, str]) -> Model:
    if not model_name.isdigit():
        raise ModelError(f"model counterexample/{model_name}: give the counterexample's number, e.g. counterexample/0")
    return Counterexample(int(model_name))
