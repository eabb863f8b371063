"""Step-level evaluation samples and the on-disk dataset format (``deskact eval``, docs/evaluation.md).

Four abilities are scored one step at a time, each by a kind of sample:

- ``ground`` (:class:`GroundSample`): an instruction and a screenshot; the model answers a point,
  right when it falls inside the gold box (AgentStudio's GroundUI).
- ``idm`` (:class:`IdmSample`): the frame before and the frame after one action; the model names
  the action (AgentStudio's IDM-Single). ``idm_clip`` (:class:`IdmClip`): frames or a video span;
  the model lists every action in order (IDM-Multiple: exact match and edit distance).
- ``critic`` (:class:`CriticSample`): an instruction and a trajectory; the model says whether the
  task succeeded (AgentStudio's CriticBench).
- ``action_step`` (:class:`ActionStep`): a screenshot, the goal and the actions so far; the model
  answers the next action, matched against the gold one (Android in the Wild / Auto-UI action
  matching, ScreenAgent's CC-Score).

Conventions every sample follows:

- Coordinates are pixels of the sample's own image (``width`` x ``height``), origin top left,
  x to the right, y down, floats allowed. A box is ``[x0, y0, x1, y1]`` with x0 <= x1, y0 <= y1,
  edges inclusive. Loaders of formats with normalized coordinates (AITW's [0, 1] y/x pairs) multiply
  them out by the image size. When the image is a scaled copy of a screen, ``screen`` says how:
  ``image_px = screen_px * screen.scale`` (``runtime/screen_scale.py``'s ``fit_scale``).
- File names (images, frames, videos, screenshots) are relative to the dataset folder, use ``/``,
  and may not leave it (no absolute paths, no ``..``): a dataset is data from elsewhere.
- Actions are one normalized :class:`Action` whatever the source format, so every metric and every
  model parser speaks one vocabulary (see :class:`Action` for each kind's fields).

A dataset on disk is one folder::

    my-set/
      dataset.yaml      # DatasetInfo: kind, name, source, version, description, counts
      samples.jsonl     # one sample per line, a JSON object of the kind's model (with "kind")
      images/...        # whatever files the samples name, anywhere under the folder

All samples of a dataset are of ``dataset.yaml``'s ``kind``. ``counts`` is written by
:func:`write_dataset` (samples, and per platform and per app where the kind has them); readers
need not trust it. :func:`load_dataset` checks every line against the model and that every file a
sample names exists; its :class:`DatasetError` names the file, the line, the field and the value.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path, PurePosixPath
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from ..errors import DeskactError
from ..safe_yaml import YAMLError
from ..safe_yaml import load_file as load_yaml_file

FORMAT_VERSION = 1
"""Version of this on-disk format (``dataset.yaml``'s ``format``); bumped on an incompatible change."""

SampleKind = Literal["ground", "idm", "idm_clip", "critic", "action_step"]
_KINDS: tuple[str, ...] = SampleKind.__args__  # type: ignore[attr-defined]
Platform = Literal["desktop", "web", "mobile"]

ActionKind = Literal[
    "click", "double_click", "right_click", "type", "key", "hotkey", "scroll", "drag", "move",
    "wait", "done", "fail",
]
ACTION_KINDS: tuple[str, ...] = ActionKind.__args__  # type: ignore[attr-defined]
POINT_KINDS = frozenset({"click", "double_click", "right_click", "move", "drag"})
"""Kinds whose ``x, y`` is required (drag also needs ``x2, y2``)."""
Direction = Literal["up", "down", "left", "right"]


class DatasetError(DeskactError):
    """A dataset folder, its ``dataset.yaml`` or a line of its ``samples.jsonl`` is wrong."""


class _Strict(BaseModel):
    # A misspelt field in a hand-written sample should fail loudly, not vanish.
    model_config = ConfigDict(extra="forbid")


def _check_rel_path(value: str) -> str:
    path = PurePosixPath(value)
    if not value or path.is_absolute() or ".." in path.parts or "\\" in value:
        raise ValueError(f"must be a relative path inside the dataset folder, got {value!r}")
    return value




def _check_box(box: list[float]) -> list[float]:
    if len(box) != 4:
        raise ValueError(f"a box is [x0, y0, x1, y1], got {len(box)} numbers")
    x0, y0, x1, y1 = box
    if x0 > x1 or y0 > y1:
        raise ValueError(f"a box needs x0 <= x1 and y0 <= y1, got {box}")
    return box


RelPath = Annotated[str, AfterValidator(_check_rel_path)]
"""A file name relative to the dataset folder that stays inside it."""
Box = Annotated[list[float], AfterValidator(_check_box)]
"""``[x0, y0, x1, y1]`` in image pixels."""


def in_box(x: float, y: float, box: list[float]) -> bool:
    """Whether the point lies in the box, edges included."""
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def box_centre(box: list[float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


class ScreenScale(_Strict):
    """How the sample's image relates to the screen it was taken from."""

    screen_width: int = Field(gt=0)
    screen_height: int = Field(gt=0)
    scale: float = Field(gt=0)
    """image pixels per screen pixel (1.0: the image is the screen at its real resolution)."""


class Action(_Strict):
    """One GUI action, the same vocabulary for every source format.

    - ``click`` / ``double_click`` / ``right_click`` / ``move``: ``x, y`` (a tap on a phone is a click).
    - ``drag``: from ``x, y`` to ``x2, y2`` (a swipe on a phone is a drag).
    - ``type``: ``text`` typed as characters.
    - ``key``: one key in ``keys`` (``["enter"]``; AITW's press_back/home are ``["back"]``/``["home"]``).
    - ``hotkey``: keys held together in ``keys``, modifiers first (``["ctrl", "c"]``).
    - ``scroll``: ``direction`` the view moves (``down`` shows what is below: the wheel turned
      towards you, or a finger swiping up), ``amount`` in wheel clicks if known, ``x, y`` where.
    - ``wait``; ``done`` / ``fail``: the agent says the task is complete / impossible (AITW's
      status actions).

    Key names are lower case pyautogui/xdotool-style names (``enter``, ``ctrl``, ``pagedown``).
    """

    kind: ActionKind
    x: float | None = None
    y: float | None = None
    x2: float | None = None
    y2: float | None = None
    text: str | None = None
    keys: list[str] | None = None
    direction: Direction | None = None
    amount: float | None = None

    @field_validator("keys")
    @classmethod
    def _lower_keys(cls, keys: list[str] | None) -> list[str] | None:
        return None if keys is None else [k.strip().lower() for k in keys]

    @model_validator(mode="after")
    def _fields_of_kind(self) -> Action:
        if self.kind in POINT_KINDS and (self.x is None or self.y is None):
            raise ValueError(f"a {self.kind} action needs x and y")
        if self.kind == "drag" and (self.x2 is None or self.y2 is None):
            raise ValueError("a drag action needs x2 and y2 (where it ends)")
        if self.kind == "type" and self.text is None:
            raise ValueError("a type action needs text")
        if self.kind in ("key", "hotkey") and not self.keys:
            raise ValueError(f"a {self.kind} action needs keys")
        if self.kind == "scroll" and self.direction is None:
            raise ValueError("a scroll action needs a direction")
        return self

    def short(self) -> str:
        """One line for tables and logs: ``click(120, 45)``, ``type('hi')``, ``hotkey(ctrl+c)``.
        (Also for an action built without validation, whose fields may be missing.)"""
        def n(v: float | None) -> str:
            return "?" if v is None else f"{v:g}"

        if self.kind == "drag":
            return f"drag({n(self.x)}, {n(self.y)} -> {n(self.x2)}, {n(self.y2)})"
        if self.kind in POINT_KINDS:
            return f"{self.kind}({n(self.x)}, {n(self.y)})"
        if self.kind == "type":
            return f"type({self.text!r})"
        if self.kind in ("key", "hotkey"):
            return f"{self.kind}({'+'.join(self.keys or [])})"
        if self.kind == "scroll":
            return f"scroll({self.direction}{'' if self.amount is None else f', {self.amount:g}'})"
        return self.kind


class TimedAction(_Strict):
    """An action of a clip, at ``t`` seconds from the clip's start (the frame before it)."""

    t: float = Field(ge=0)
    action: Action


class _SampleBase(_Strict):
    id: str = Field(min_length=1)
    source: str = ""
    """Where the sample comes from: ``deskact``, ``groundui``, ``aitw``, ``screenagent``, ... ."""
    platform: Platform = "desktop"
    app: str = ""

    def files(self) -> list[str]:
        """Every file the sample names, relative to the dataset folder."""
        return []


class GroundSample(_SampleBase):
    """Instruction + screenshot -> a point; right when the point is in ``box``."""

    kind: Literal["ground"] = "ground"
    image: RelPath
    width: int = Field(gt=0)
    height: int = Field(gt=0)
    instruction: str = Field(min_length=1)
    box: Box
    role: str | None = None
    """The target element's accessibility role (``push button``, ``table cell``), if known."""
    name: str | None = None
    """The target element's accessible name, if known."""
    screen: ScreenScale | None = None

    def files(self) -> list[str]:
        return [self.image]


class IdmSample(_SampleBase):
    """The frame before and after one action -> that action (IDM-Single)."""

    kind: Literal["idm"] = "idm"
    before: RelPath
    after: RelPath
    width: int = Field(gt=0)
    height: int = Field(gt=0)
    action: Action
    instruction: str | None = None
    """The task the episode was doing, if the model may be told it."""
    screen: ScreenScale | None = None

    def files(self) -> list[str]:
        return [self.before, self.after]


class IdmClip(_SampleBase):
    """A clip (frames, or a video span) -> every action in it, in order (IDM-Multiple).

    Either ``frames`` (image files in time order, with ``frame_times`` in seconds if known) or
    ``video`` with ``start``/``end`` seconds. Action times ``t`` are seconds from the clip's start.
    """

    kind: Literal["idm_clip"] = "idm_clip"
    frames: list[RelPath] | None = None
    frame_times: list[float] | None = None
    video: RelPath | None = None
    start: float = Field(default=0.0, ge=0)
    end: float | None = None
    width: int = Field(gt=0)
    height: int = Field(gt=0)
    actions: list[TimedAction]
    instruction: str | None = None
    screen: ScreenScale | None = None

    @model_validator(mode="after")
    def _frames_or_video(self) -> IdmClip:
        if (self.frames is None) == (self.video is None):
            raise ValueError("a clip has either frames or a video, not both or neither")
        if self.frames is not None and self.frame_times is not None and len(self.frame_times) != len(self.frames):
            raise ValueError(f"frame_times has {len(self.frame_times)} entries for {len(self.frames)} frames")
        if self.end is not None and self.end < self.start:
            raise ValueError(f"end {self.end} is before start {self.start}")
        return self

    def files(self) -> list[str]:
        return list(self.frames) if self.frames is not None else [self.video] if self.video else []


class TrajectoryStep(_Strict):
    """One step of a critic trajectory: what the screen showed before it and what was done."""

    screenshot: RelPath | None = None
    code: str | None = None
    """The code the agent ran (deskact's code-as-action), if any."""
    action: Action | None = None
    """The step as a GUI action, if the source has one."""
    output: str | None = None
    """What the code printed, if kept."""



class CriticSample(_SampleBase):
    """Instruction + trajectory -> did the task succeed (CriticBench)."""

    kind: Literal["critic"] = "critic"
    instruction: str = Field(min_length=1)
    steps: list[TrajectoryStep]
    final_screenshot: RelPath | None = None
    """The screen after the last step, if kept."""
    success: bool
    run: str | None = None
    task: str | None = None
    model: str | None = None
    feedback: str | None = None
    """The judge's explanation of the verdict, if any (not shown to the model being scored)."""

    def files(self) -> list[str]:
        shots = [s.screenshot for s in self.steps if s.screenshot]
        return shots + ([self.final_screenshot] if self.final_screenshot else [])


class ActionStep(_SampleBase):
    """Screenshot + goal + history -> the next action (AITW/Auto-UI matching, ScreenAgent CC-Score).

    ``elements`` are the boxes of the UI elements on screen (AITW's ui_positions): a predicted
    click counts when it lands in the same element box as the gold click. ``episode`` and ``step``
    place the sample in its episode for the partial/complete episode match rates.
    """

    kind: Literal["action_step"] = "action_step"
    image: RelPath
    width: int = Field(gt=0)
    height: int = Field(gt=0)
    instruction: str = Field(min_length=1)
    subtask: str | None = None
    """ScreenAgent's current sub-task, if the format has one."""
    history: list[Action] = Field(default_factory=list)
    action: Action
    elements: list[Box] = Field(default_factory=list)
    episode: str | None = None
    step: int = Field(default=0, ge=0)
    screen: ScreenScale | None = None

    def files(self) -> list[str]:
        return [self.image]


Sample = Annotated[GroundSample | IdmSample | IdmClip | CriticSample | ActionStep, Field(discriminator="kind")]
SampleT = GroundSample | IdmSample | IdmClip | CriticSample | ActionStep
_SAMPLE = TypeAdapter[SampleT](Sample)


class DatasetInfo(_Strict):
    """``dataset.yaml``."""

    kind: SampleKind
    name: str = Field(min_length=1)
    source: str = ""
    """Where the samples come from (``deskact datasets ground``, ``GroundUI-1K``, a URL)."""
    version: str = "1"
    """The dataset's own version."""
    format: int = FORMAT_VERSION
    description: str = ""
    counts: dict[str, Any] = Field(default_factory=dict)
    """Written by write_dataset: ``samples``, and ``platform``/``app`` tallies where the kind has them."""


class Dataset(BaseModel):
    """A loaded dataset: its folder, its info, its samples in file order."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    root: Path
    info: DatasetInfo
    samples: list[SampleT]

    @property
    def name(self) -> str:
        return self.info.name

    def path(self, rel: str) -> Path:
        """The file a sample names (checked relative at load time)."""
        return self.root / rel

    def __iter__(self) -> Iterator[SampleT]:  # type: ignore[override]  # iterate samples, not fields
        return iter(self.samples)

    def __len__(self) -> int:
        return len(self.samples)


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc_parts = list(err["loc"])
        if loc_parts and loc_parts[0] in _KINDS:
            loc_parts = loc_parts[1:]  # the union's tag (the kind) is no field
        loc = ".".join(str(p) for p in loc_parts) or "(sample)"
        value = err.get("input")
        shown = json.dumps(value, default=str) if not isinstance(value, dict) else "{...}"
        if len(shown) > 80:
            shown = shown[:77] + "..."
        parts.append(f"field {loc!r}: {err['msg']} (value {shown})")
    return "; ".join(parts)


def parse_sample(data: Any, where: str) -> SampleT:
    """One sample from its JSON object; ``where`` (``file:line``) starts the error message."""
    try:
        return _SAMPLE.validate_python(data)
    except ValidationError as exc:
        raise DatasetError(f"{where}: {_describe(exc)}") from None


def load_info(root: Path) -> DatasetInfo:
    info_path = root / "dataset.yaml"
    if not info_path.is_file():
        raise DatasetError(f"{root}: not a dataset folder (no dataset.yaml)")
    try:
        raw = load_yaml_file(info_path)
    except YAMLError as exc:
        raise DatasetError(f"{info_path}: not YAML: {exc}") from None
    if not isinstance(raw, dict):
        raise DatasetError(f"{info_path}: expected a mapping, got {type(raw).__name__}")
    try:
        info = DatasetInfo.model_validate(raw)
    except ValidationError as exc:
        raise DatasetError(f"{info_path}: {_describe(exc)}") from None
    if info.format > FORMAT_VERSION:
        raise DatasetError(f"{info_path}: field 'format': {info.format} is newer than this deskact reads ({FORMAT_VERSION})")
    return info


def iter_samples(root: Path, kind: str | None = None) -> Iterator[SampleT]:
    """The samples of ``root/samples.jsonl`` one by one, checked (kind, unique ids, files exist)."""
    path = root / "samples.jsonl"
    if not path.is_file():
        raise DatasetError(f"{root}: no samples.jsonl")
    seen: dict[str, int] = {}
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            where = f"{path}:{lineno}"
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DatasetError(f"{where}: not JSON: {exc.msg} at column {exc.colno}") from None
            if isinstance(data, dict) and kind is not None and "kind" not in data:
                data["kind"] = kind  # the dataset's kind is the default for its lines
            sample = parse_sample(data, where)
            if kind is not None and sample.kind != kind:
                raise DatasetError(f"{where}: field 'kind': {sample.kind!r} in a dataset of kind {kind!r}")
            if sample.id in seen:
                raise DatasetError(f"{where}: field 'id': {sample.id!r} already used on line {seen[sample.id]}")
            seen[sample.id] = lineno
            for rel in sample.files():
                if not (root / rel).is_file():
                    raise DatasetError(f"{where}: field naming {rel!r}: no such file in {root}")
            yield sample


def load_dataset(path: str | Path) -> Dataset:
    """Read a dataset folder (or its dataset.yaml); raise DatasetError naming file, line, field, value."""
    root = Path(path)
    if root.name == "dataset.yaml":
        root = root.parent
    if not root.is_dir():
        raise DatasetError(f"{root}: no such dataset folder")
    info = load_info(root)
    return Dataset(root=root, info=info, samples=list(iter_samples(root, info.kind)))


def count_samples(samples: Iterable[SampleT]) -> dict[str, Any]:
    """``counts`` for dataset.yaml: samples, per platform, per app (and per label for critic sets)."""
    items = list(samples)
    counts: dict[str, Any] = {"samples": len(items)}
    counts["platform"] = dict(sorted(Counter(s.platform for s in items).items()))
    apps = Counter(s.app for s in items if s.app)
    if apps:
        counts["app"] = dict(sorted(apps.items()))
    critic = [s for s in items if isinstance(s, CriticSample)]
    if critic:
        counts["success"] = sum(s.success for s in critic)
        counts["failure"] = len(critic) - counts["success"]
    clips = [s for s in items if isinstance(s, IdmClip)]
    if clips:
        counts["actions"] = sum(len(c.actions) for c in clips)
    return counts


def write_dataset(
    path: str | Path,
    samples: Iterable[SampleT],
    *,
    kind: SampleKind,
    name: str,
    source: str = "",
    version: str = "1",
    description: str = "",
    check_files: bool = True,
) -> DatasetInfo:
    """Write ``dataset.yaml`` and ``samples.jsonl`` into ``path`` (the files the samples name must
    be there already, written by the caller; ``check_files`` verifies it). Returns the info written."""
    root = Path(path)
    root.mkdir(parents=True, exist_ok=True)
    items = list(samples)
    ids: set[str] = set()
    for index, sample in enumerate(items):
        where = f"{root / 'samples.jsonl'}: sample {index} ({sample.id!r})"
        if sample.kind != kind:
            raise DatasetError(f"{where}: field 'kind': {sample.kind!r} in a dataset of kind {kind!r}")
        if sample.id in ids:
            raise DatasetError(f"{where}: field 'id': {sample.id!r} used twice")
        ids.add(sample.id)
        if check_files:
            for rel in sample.files():
                if not (root / rel).is_file():
                    raise DatasetError(f"{where}: names {rel!r}, which is not a file under {root}")
    info = DatasetInfo(kind=kind, name=name, source=source, version=version, description=description,
                       counts=count_samples(items))
    tmp = root / "samples.jsonl.tmp"
    with tmp.open("w", encoding="utf-8") as fh:
        for sample in items:
            fh.write(sample.model_dump_json(exclude_none=True) + "\n")
    tmp.replace(root / "samples.jsonl")
    (root / "dataset.yaml").write_text(
        yaml.safe_dump(info.model_dump(), sort_keys=False, allow_unicode=True), encoding="utf-8")
    return info
