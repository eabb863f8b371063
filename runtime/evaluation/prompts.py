"""What a model is asked for each kind of sample, and how its reply is read.

Images go to the model as the agent's screenshots do (``Message`` parts, encoded as
``observation.format``), scaled to fit ``observation.max_width`` x ``max_height`` with the same
``fit_scale`` as the runtime. The prompt states the size the model sees; every coordinate in a
prompt or a reply is in that scaled image, and :func:`parse_action`/:func:`parse_point` map the
reply back to the sample's pixels (divide by the scale), so a point is scored where it was meant.

Replies:
- ground: a point ``(x, y)``, the last one in the reply;
- idm, action_step: one action call on a line, e.g. ``click(120, 45)``, ``type("hello")``,
  ``hotkey("ctrl", "c")``, ``scroll("down")`` (pyautogui spellings such as ``pyautogui.doubleClick``
  are read too); the last call in the reply counts;
- idm_clip: one action call per line after ``Actions:``;
- critic: ``Answer: success`` or ``Answer: failure``.
"""

from __future__ import annotations

import ast
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image as PILImage

from ..config import Config
from ..execution import Image
from ..screen_scale import fit_scale, scale_image, scaled_size
from .samples import (
    Action,
    ActionStep,
    CriticSample,
    Dataset,
    GroundSample,
    IdmClip,
    IdmSample,
    SampleT,
)

SYSTEM = (
    "You look at screenshots of a computer or phone screen and answer in exactly the format asked. "
    "Coordinates are pixels of the image shown: origin at its top-left corner, x to the right, y down."
)

ACTION_HELP = """Actions (coordinates in pixels of the image):
  click(x, y)  double_click(x, y)  right_click(x, y)  move(x, y)  drag(x1, y1, x2, y2)
  type("text")  key("enter")  hotkey("ctrl", "c")
  scroll("down")  (up, down, left or right: the way the view moves; "down" shows what is below)
  wait()  done() (the task is complete)  fail() (the task cannot be done)"""

PHONE_HELP = 'On a phone click(x, y) is a tap, drag(...) a swipe; key("back") and key("home") press its buttons.'

MAX_CLIP_FRAMES = 12
"""Frames of a video clip sent to the model (evenly spaced over the clip)."""
MAX_FRAME_LIST = 24
"""Frames of a clip given as frames sent at most (evenly spaced, first and last kept)."""


@dataclass
class Prompt:
    """One question: the parts of its user turn, and the scale its images were sent at."""

    parts: list[str | Image] = field(default_factory=list)
    scale: float = 1.0
    size: tuple[int, int] = (0, 0)
    """The size of the sample's image(s) as the model sees them."""


# ----------------------------------------------------------------------------- images

def _encode(img: PILImage.Image, config: Config) -> Image:
    buf = io.BytesIO()
    if config.observation.format == "png":
        img.save(buf, format="PNG")
        return Image(media_type="image/png", data=buf.getvalue())
    img.convert("RGB").save(buf, format="JPEG", quality=config.observation.jpeg_quality)
    return Image(media_type="image/jpeg", data=buf.getvalue())


def model_scale(width: int, height: int, config: Config) -> float:
    return fit_scale(width, height, config.observation.max_width, config.observation.max_height)


def view(img: PILImage.Image, scale: float, config: Config) -> Image:
    """``img`` scaled by ``scale`` and encoded for the model."""
    size = scaled_size(img.width, img.height, scale)
    return _encode(scale_image(img.convert("RGB"), size), config)


def load_image(path: Path, scale: float, config: Config) -> Image:
    with PILImage.open(path) as img:
        img.load()
        return view(img, scale, config)


def clip_frames(path: Path, start: float, end: float | None, count: int = MAX_CLIP_FRAMES) -> list[tuple[float, PILImage.Image]]:
    """Up to ``count`` frames of a video between ``start`` and ``end`` seconds, evenly spaced,
    with their times from ``start``."""
    import av  # a dependency already (episode videos); imported when a clip is a video

    frames: list[tuple[float, PILImage.Image]] = []
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        duration = float(stream.duration * stream.time_base) if stream.duration and stream.time_base else None
        stop = end if end is not None else duration
        decoded = [(float(f.time or 0.0), f.to_image()) for f in container.decode(stream)
                   if (f.time or 0.0) >= start - 1e-6 and (stop is None or (f.time or 0.0) <= stop + 1e-6)]
    if not decoded:
        return frames
    return [(decoded[i][0] - start, decoded[i][1]) for i in _evenly(len(decoded), count)]


def _evenly(n: int, count: int) -> list[int]:
    """Up to ``count`` of the indices 0..n-1, evenly spaced, the first and the last among them."""
    if n <= count:
        return list(range(n))
    return sorted({round(i * (n - 1) / (count - 1)) for i in range(count)})


# ----------------------------------------------------------------------------- formatting

def num(value: float) -> str:
    """A coordinate as written to the model: up to 3 decimals, no trailing zeros (the oracle's
    answers must map back into boxes a pixel wide)."""
    return f"{value:.3f}".rstrip("0").rstrip(".")


def action_call(action: Action, scale: float = 1.0) -> str:
    """The action as the call a model answers with, its coordinates scaled to the model's image."""
    def pt(x: float | None, y: float | None) -> str:
        return f"{num((x or 0) * scale)}, {num((y or 0) * scale)}"

    kind = action.kind
    if kind == "drag":
        return f"drag({pt(action.x, action.y)}, {pt(action.x2, action.y2)})"
    if kind in ("click", "double_click", "right_click", "move"):
        return f"{kind}({pt(action.x, action.y)})"
    if kind == "type":
        return f"type({action.text!r})"
    if kind in ("key", "hotkey"):
        return f"{kind}({', '.join(repr(k) for k in action.keys or [])})"
    if kind == "scroll":
        return f"scroll({action.direction!r})"
    return f"{kind}()"


# ----------------------------------------------------------------------------- prompts

def build_prompt(dataset: Dataset, sample: SampleT, config: Config) -> Prompt:
    """The user turn for ``sample`` (its images loaded from the dataset folder)."""
    if isinstance(sample, GroundSample):
        scale = model_scale(sample.width, sample.height, config)
        size = scaled_size(sample.width, sample.height, scale)
        return Prompt([f"Screenshot ({size[0]}x{size[1]} pixels):\n",
                       load_image(dataset.path(sample.image), scale, config),
                       (f"\nInstruction: {sample.instruction}\n"
                       "Where do you click to do this? Give the point as (x, y) on the last line of your answer.")],
                      scale, size)
    if isinstance(sample, IdmSample):
        scale = model_scale(sample.width, sample.height, config)
        size = scaled_size(sample.width, sample.height, scale)
        task = f"The user's task: {sample.instruction}\n" if sample.instruction else ""
        return Prompt([f"{task}The screen before one action ({size[0]}x{size[1]} pixels):\n",
                       load_image(dataset.path(sample.before), scale, config),
                       "\nThe screen after it:\n", load_image(dataset.path(sample.after), scale, config),
                       (f"\nWhich single action was performed between the two?\n{_help(sample)}\n"
                       "If you cannot tell its coordinates or text, still name the action (e.g. click(), type()). "
                       "Give the action call on the last line of your answer.")],
                      scale, size)
    if isinstance(sample, IdmClip):
        return _clip_prompt(dataset, sample, config)
    if isinstance(sample, CriticSample):
        return _critic_prompt(dataset, sample, config)
    return _step_prompt(dataset, sample, config)


def _clip_prompt(dataset: Dataset, sample: IdmClip, config: Config) -> Prompt:
    scale = model_scale(sample.width, sample.height, config)
    size = scaled_size(sample.width, sample.height, scale)
    parts: list[str | Image] = []
    if sample.instruction:
        parts.append(f"The user's task: {sample.instruction}\n")
    parts.append(f"Frames of a screen recording in time order ({size[0]}x{size[1]} pixels):\n")
    if sample.frames is not None:
        times: list[float | None] = [*sample.frame_times] if sample.frame_times else [None] * len(sample.frames)
        keep = _evenly(len(sample.frames), MAX_FRAME_LIST)
        for i, (frame, t) in enumerate([(sample.frames[k], times[k]) for k in keep], 1):
            parts += [f"Frame {i}" + (f" (t = {t:.1f} s)" if t is not None else "") + ":\n",
                      load_image(dataset.path(frame), scale, config), "\n"]
    else:
        assert sample.video is not None
        for i, (t, img) in enumerate(clip_frames(dataset.path(sample.video), sample.start, sample.end), 1):
            parts += [f"Frame {i} (t = {t:.1f} s):\n", view(img, scale * sample.width / img.width, config), "\n"]
    parts.append(f"List every action performed during the recording, in order.\n{_help(sample)}\n"
                 "If you cannot tell an action's coordinates or text, still name it (e.g. click()). "
                 "End your answer with a line 'Actions:' followed by one action call per line.")
    return Prompt(parts, scale, size)


def _critic_prompt(dataset: Dataset, sample: CriticSample, config: Config, max_images: int = 8) -> Prompt:
    shots = [i for i, s in enumerate(sample.steps) if s.screenshot]
    shots = [shots[k] for k in _evenly(len(shots), max_images)]  # the first and the last among them
    parts: list[str | Image] = [(f"The task given to a computer-use agent: {sample.instruction}\n"
                                "What the agent did, step by step (the screen before each step where shown):\n")]
    size = (0, 0)
    scale = 1.0
    for i, step in enumerate(sample.steps):
        parts.append(f"\nStep {i + 1}:\n")
        if i in shots and step.screenshot:
            path = dataset.path(step.screenshot)
            with PILImage.open(path) as img:
                img.load()
                scale = model_scale(img.width, img.height, config)
                size = scaled_size(img.width, img.height, scale)
                parts += [view(img, scale, config), "\n"]
        if step.code:
            code = step.code.rstrip()
            code = code if len(code) <= 4000 else code[:4000] + "\n# ... (cut)"
            parts.append(f"Code run:\n```python\n{code}\n```\n")
        if step.action:
            parts.append(f"Action: {action_call(step.action, scale)}\n")
        if step.output:
            parts.append(f"Output: {step.output.strip()[:2000]}\n")
    if sample.final_screenshot:
        parts += ["\nThe screen at the end:\n", load_image(dataset.path(sample.final_screenshot), scale, config), "\n"]
    parts.append("\nDid the agent complete the task? End your answer with a line 'Answer: success' or "
                 "'Answer: failure'.")
    return Prompt(parts, scale, size)


def _help(sample: SampleT) -> str:
    return ACTION_HELP + ("\n" + PHONE_HELP if sample.platform == "mobile" else "")


def _step_prompt(dataset: Dataset, sample: ActionStep, config: Config) -> Prompt:
    scale = model_scale(sample.width, sample.height, config)
    size = scaled_size(sample.width, sample.height, scale)
    lines = [f"Goal: {sample.instruction}"]
    if sample.subtask:
        lines.append(f"Current sub-task: {sample.subtask}")
    history = "\n".join(f"  {i}. {action_call(a, scale)}" for i, a in enumerate(sample.history, 1)) or "  (none)"
    lines.append(f"Actions so far:\n{history}")
    return Prompt(["\n".join(lines) + f"\nThe screen now ({size[0]}x{size[1]} pixels):\n",
                   load_image(dataset.path(sample.image), scale, config),
                   f"\nWhat is the next action?\n{_help(sample)}\nGive the action call on the last line of your answer."],
                  scale, size)


# ----------------------------------------------------------------------------- parsing

_NUM = r"-?\d+(?:\.\d+)?"
_POINT = re.compile(rf"\(\s*({_NUM})\s*,\s*({_NUM})\s*\)|\[\s*({_NUM})\s*,\s*({_NUM})\s*\]")
# A call's arguments: anything but parentheses and quotes, or quoted strings with escapes inside.
_NAMED_POINT = re.compile(rf"""["']?x["']?\s*[=:]\s*({_NUM})\s*,?\s*["']?y["']?\s*[=:]\s*({_NUM})""")
_CALL = re.compile(r"(?:pyautogui\.)?\b([A-Za-z_]+)\s*\(((?:[^()'\"]|'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")*)\)")

_KIND_NAMES: dict[str, str] = {
    "click": "click", "left_click": "click", "leftclick": "click", "tap": "click",
    "double_click": "double_click", "doubleclick": "double_click",
    "right_click": "right_click", "rightclick": "right_click",
    "move": "move", "moveto": "move", "mouse_move": "move", "hover": "move",
    "drag": "drag", "swipe": "drag",
    "type": "type", "write": "type", "typewrite": "type", "type_text": "type", "input_text": "type",
    "key": "key", "press": "key", "press_key": "key", "keypress": "key",
    "hotkey": "hotkey",
    "scroll": "scroll",
    "wait": "wait", "sleep": "wait",
    "done": "done", "finished": "done", "complete": "done", "stop": "done",
    "fail": "fail", "infeasible": "fail", "impossible": "fail",
}


def parse_point(reply: str, scale: float) -> tuple[float, float] | None:
    """The last ``(x, y)`` (or ``[x, y]``) in the reply, in the sample's pixels."""
    found = list(_POINT.finditer(reply))
    if not found:
        named = list(_NAMED_POINT.finditer(reply))  # "x=412, y=88" / {"x": 412, "y": 88}
        return (float(named[-1].group(1)) / scale, float(named[-1].group(2)) / scale) if named else None
    m = found[-1]
    x, y = (m.group(1), m.group(2)) if m.group(1) is not None else (m.group(3), m.group(4))
    return float(x) / scale, float(y) / scale


def _literal_args(args: str) -> tuple[list[Any], dict[str, Any]] | None:
    try:
        call = ast.parse(f"f({args})", mode="eval").body
        assert isinstance(call, ast.Call)
        return ([ast.literal_eval(a) for a in call.args],
                {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg})
    except (SyntaxError, ValueError, TypeError, AssertionError, RecursionError):
        return None


def _to_action(name: str, args: list[Any], kwargs: dict[str, Any], scale: float, lenient: bool) -> Action | None:
    kind = _KIND_NAMES.get(name.lower())
    if kind is None:
        return None
    numbers = [float(a) for a in args if isinstance(a, int | float) and not isinstance(a, bool)]
    for key in ("x", "y", "x1", "y1", "x2", "y2"):
        if isinstance(kwargs.get(key), int | float):
            numbers.append(float(kwargs[key]))
    strings = [a for a in args if isinstance(a, str)] + [v for v in kwargs.values() if isinstance(v, str)]
    strings += [k for a in args if isinstance(a, list | tuple) for k in a if isinstance(k, str)]
    fields: dict[str, Any] = {"kind": kind}
    if kind in ("click", "double_click", "right_click", "move", "drag") and len(numbers) >= 2:
        fields.update(x=numbers[0] / scale, y=numbers[1] / scale)
        if kind == "drag" and len(numbers) >= 4:
            fields.update(x2=numbers[2] / scale, y2=numbers[3] / scale)
    elif kind == "type" and strings:
        fields["text"] = strings[0]
    elif kind in ("key", "hotkey") and strings:
        one = strings[0]
        keys = one.split("+") if len(strings) == 1 and "+" in one.strip("+") else strings
        fields["keys"] = keys
        if kind == "key" and len(keys) > 1:
            fields["kind"] = "hotkey"
    elif kind == "scroll":
        direction = next((s.lower() for s in strings if s.lower() in ("up", "down", "left", "right")), None)
        if direction is None and numbers:  # pyautogui.scroll(clicks): positive scrolls up
            direction = "up" if numbers[-1] > 0 else "down"
            fields["amount"] = abs(numbers[-1])
        fields["direction"] = direction
    try:
        return Action(**fields)
    except ValueError:
        # IDM is scored on the kind: "click()" names the action even without its point.
        return Action.model_construct(**{k: v for k, v in fields.items() if v is not None}) if lenient else None


_JSON_OBJECT = re.compile(r"\{[^{}]*\}")
_JSON_KIND_KEYS = ("kind", "action", "action_type", "type", "name", "operation")


def _json_actions(reply: str, scale: float, lenient: bool) -> list[Action]:
    """Actions written as flat JSON objects: ``{"action": "click", "x": 10, "y": 20}``,
    ``{"action_type": "type", "text": "hi"}``, ``{"kind": "key", "keys": ["enter"]}``."""
    out = []
    for m in _JSON_OBJECT.finditer(reply):
        try:
            obj = json.loads(m.group(0))
        except json.JSONDecodeError:
            continue
        name = next((obj[k] for k in _JSON_KIND_KEYS if isinstance(obj.get(k), str) and obj[k].lower() in _KIND_NAMES), None)
        if name is None:
            continue
        args: list[Any] = []
        if isinstance(obj.get("x"), int | float) and isinstance(obj.get("y"), int | float):
            args += [obj["x"], obj["y"]]
        if isinstance(obj.get("x2"), int | float) and isinstance(obj.get("y2"), int | float):
            args += [obj["x2"], obj["y2"]]
        for key in ("text", "key", "direction"):
            if isinstance(obj.get(key), str):
                args.append(obj[key])
        if isinstance(obj.get("keys"), list):
            args += [k for k in obj["keys"] if isinstance(k, str)]
        action = _to_action(name, args, {}, scale, lenient)
        if action is not None:
            out.append(action)
    return out


def parse_actions(reply: str, scale: float, lenient: bool = False) -> list[Action]:
    """Every action call in the reply, in order (unknown names skipped); without any call, the
    actions written as JSON objects."""
    out = []
    for m in _CALL.finditer(reply):
        parsed = _literal_args(m.group(2))
        if parsed is None:
            continue
        action = _to_action(m.group(1), parsed[0], parsed[1], scale, lenient)
        if action is not None:
            out.append(action)
    return out or _json_actions(reply, scale, lenient)


def parse_action(reply: str, scale: float, lenient: bool = False) -> Action | None:
    """The last action call in the reply."""
    actions = parse_actions(reply, scale, lenient)
    return actions[-1] if actions else None


def parse_clip(reply: str, scale: float) -> list[Action] | None:
    """The actions after the last ``Actions:`` line (or in the whole reply without one)."""
    marker = reply.lower().rfind("actions:")
    actions = parse_actions(reply[marker + len("actions:"):] if marker >= 0 else reply, scale, lenient=True)
    return actions if actions or marker >= 0 else None


_VERDICT = re.compile(r"\b(success(?:ful)?|succeeded|completed?|yes|failure|failed|fail|incomplete|no)\b", re.I)


def parse_verdict(reply: str) -> bool | None:
    """``Answer: success`` -> True, ``Answer: failure`` -> False; else the last verdict word."""
    answers = re.findall(r"answer\s*:\s*\**\s*([A-Za-z]+)", reply, re.I)
    words = answers or [m.group(1) for m in _VERDICT.finditer(reply)]
    for word in reversed(words):
        w = word.lower()
        if w.startswith(("success", "succeed", "complete", "yes")):
            return True
        if w.startswith(("fail", "incomplete")) or w == "no":
            return False
    return None
