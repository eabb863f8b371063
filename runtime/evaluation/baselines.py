"""Offline models for ``deskact eval``: the oracle and the simple baselines.

They answer through the same prompt and reply parser as a real model (their replies are text in the
formats of ``prompts.py``, coordinates in the scaled image the model would see), so they test the
whole harness end to end:

- ``reference``: the gold answer (must score 100 %; less is a bug in a loader, a parser or a metric);
- ``noop``: answers nothing (every sample unread, 0 %);
- ``centre`` (or ``center``): clicks the centre of the image; says "success" to a critic question;
- ``majority``: the dataset's most common answer: for grounding the median gold centre (as a
  fraction of the image), for IDM and action steps the most common gold action (taps and clicks at
  the median gold point), for clips the most common action repeated over the median clip length,
  for critic sets the more frequent label. It is computed over the dataset being scored, so it is
  the best a constant answer can do there, not a trained baseline.

``make_eval_model(name)`` returns one of these by name, or any model of the registry
(``anthropic/...``, ``openai/...``, ``google/...``, plugins) through ``make_model``. Inside ``eval``
these names shadow the task models of the same name (``reference`` and ``noop`` of ``deskact run``).
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence

from ..agent.models import make_model
from ..agent.models.base import Message, Model, ModelReply, Usage
from ..config import Config
from .samples import (
    POINT_KINDS,
    Action,
    ActionStep,
    CriticSample,
    Dataset,
    GroundSample,
    IdmClip,
    IdmSample,
    SampleT,
)


def _call(action: Action, scale: float) -> str:
    from .prompts import action_call

    return action_call(action, scale)


def _point(x: float, y: float, scale: float) -> str:
    from .prompts import num

    return f"({num(x * scale)}, {num(y * scale)})"


def _size(sample: SampleT) -> tuple[int, int]:
    return (sample.width, sample.height) if not isinstance(sample, CriticSample) else (0, 0)


class EvalModel(Model):
    """An offline model that knows which sample it is asked about (the runner tells it)."""

    def __init__(self) -> None:
        self._sample: SampleT | None = None
        self._dataset: str = ""
        self._scale = 1.0

    def prepare(self, datasets: Sequence[Dataset]) -> None:
        """Called once with every dataset of the run before any sample."""

    def start_sample(self, dataset: str, sample: SampleT, scale: float) -> None:
        self._dataset, self._sample, self._scale = dataset, sample, scale

    def reply(self, system: str, messages: list[Message]) -> ModelReply:
        started = time.monotonic()
        assert self._sample is not None, "start_sample was not called"
        text = self.answer(self._sample, self._scale)
        return ModelReply(text=text, usage=Usage(calls=1, latency_s=time.monotonic() - started))

    def answer(self, sample: SampleT, scale: float) -> str:
        raise NotImplementedError


class Oracle(EvalModel):
    name = "reference"

    def answer(self, sample: SampleT, scale: float) -> str:
        if isinstance(sample, GroundSample):
            box = sample.box
            return _point((box[0] + box[2]) / 2, (box[1] + box[3]) / 2, scale)
        if isinstance(sample, IdmSample | ActionStep):
            return _call(sample.action, scale)
        if isinstance(sample, IdmClip):
            return "Actions:\n" + "\n".join(_call(a.action, scale) for a in sample.actions)
        return "Answer: success" if sample.success else "Answer: failure"


class Noop(EvalModel):
    name = "noop"

    def answer(self, sample: SampleT, scale: float) -> str:
        return ""


class Centre(EvalModel):
    name = "centre"

    def answer(self, sample: SampleT, scale: float) -> str:
        if isinstance(sample, CriticSample):
            return "Answer: success"
        w, h = _size(sample)
        if isinstance(sample, GroundSample):
            return _point(w / 2, h / 2, scale)
        centre = _call(Action(kind="click", x=w / 2, y=h / 2), scale)
        return f"Actions:\n{centre}" if isinstance(sample, IdmClip) else centre


def _modal_action(actions: Sequence[tuple[Action, int, int]]) -> tuple[Action, tuple[float, float, float, float]] | None:
    """The most common action (points ignored in the count) and the median gold point of that
    kind as fractions of the image (x, y, x2, y2)."""
    if not actions:
        return None
    def key(a: Action) -> str:
        return a.kind if a.kind in POINT_KINDS else a.short()
    top = Counter(key(a) for a, _, _ in actions).most_common(1)[0][0]
    chosen = [(a, w, h) for a, w, h in actions if key(a) == top]
    def median(values: list[float]) -> float:
        return statistics.median(values) if values else 0.5
    xs = median([a.x / w for a, w, _ in chosen if a.x is not None])
    ys = median([a.y / h for a, _, h in chosen if a.y is not None])
    x2 = median([a.x2 / w for a, w, _ in chosen if a.x2 is not None])
    y2 = median([a.y2 / h for a, _, h in chosen if a.y2 is not None])
    return chosen[0][0], (xs, ys, x2, y2)


def _placed(action: Action, where: tuple[float, float, float, float], w: int, h: int) -> Action:
    if action.kind not in POINT_KINDS:
        return action
    update: dict[str, float] = {"x": where[0] * w, "y": where[1] * h}
    if action.kind == "drag":
        update.update(x2=where[2] * w, y2=where[3] * h)
    return action.model_copy(update=update)


class Majority(EvalModel):
    name = "majority"

    def __init__(self) -> None:
        super().__init__()
        self._answers: dict[str, Callable[[SampleT, float], str]] = {}

    def prepare(self, datasets: Sequence[Dataset]) -> None:
        for ds in datasets:
            self._answers[ds.name] = self._for(ds)

    def _for(self, ds: Dataset) -> Callable[[SampleT, float], str]:
        kind = ds.info.kind
        if kind == "ground":
            boxes = [(s.box, s.width, s.height) for s in ds.samples if isinstance(s, GroundSample)]
            fx = statistics.median([(b[0] + b[2]) / 2 / w for b, w, _ in boxes]) if boxes else 0.5
            fy = statistics.median([(b[1] + b[3]) / 2 / h for b, _, h in boxes]) if boxes else 0.5
            return lambda s, scale: _point(fx * _size(s)[0], fy * _size(s)[1], scale)
        if kind == "critic":
            labels = Counter(s.success for s in ds.samples if isinstance(s, CriticSample))
            verdict = "success" if labels[True] > labels[False] else "failure"
            return lambda s, scale: f"Answer: {verdict}"
        if kind == "idm_clip":
            clips = [s for s in ds.samples if isinstance(s, IdmClip)]
            modal = _modal_action([(a.action, c.width, c.height) for c in clips for a in c.actions])
            length = round(statistics.median([len(c.actions) for c in clips])) if clips else 0

            def clip_answer(s: SampleT, scale: float) -> str:
                if modal is None:
                    return "Actions:"
                w, h = _size(s)
                return "Actions:\n" + "\n".join([_call(_placed(modal[0], modal[1], w, h), scale)] * length)
            return clip_answer
        steps = [s for s in ds.samples if isinstance(s, IdmSample | ActionStep)]
        modal_step = _modal_action([(s.action, s.width, s.height) for s in steps])

        def step_answer(s: SampleT, scale: float) -> str:
            if modal_step is None:
                return ""
            w, h = _size(s)
            return _call(_placed(modal_step[0], modal_step[1], w, h), scale)
        return step_answer

    def answer(self, sample: SampleT, scale: float) -> str:
        return self._answers[self._dataset](sample, scale)


BASELINES: dict[str, type[EvalModel]] = {
    "reference": Oracle, "noop": Noop, "centre": Centre, "center": Centre, "majority": Majority,
}


def make_eval_model(name: str, config: Config) -> Model:
    """An offline baseline by name, else a model of the registry (``provider/model``)."""
    baseline = BASELINES.get(name.strip())
    if baseline is not None:
        return baseline()
    return make_model(name, config)
