"""What every loader shares: reading JSON lines with errors that say where, image sizes,
key names, and the tally of records a loader could not turn into samples."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from ..samples import Dataset, DatasetError, DatasetInfo, SampleKind, SampleT

# X keysyms (ScreenAgent), Mac and browser names -> the lower-case pyautogui names deskact uses
# (the gui toolkit's own aliases: cmd and super are "win").
_KEY_NAMES = {
    "return": "enter", "kp_enter": "enter", "control": "ctrl", "control_l": "ctrl", "control_r": "ctrl",
    "alt_l": "alt", "alt_r": "alt", "shift_l": "shift", "shift_r": "shift", "super": "win", "super_l": "win",
    "super_r": "win", "meta": "win", "cmd": "win", "command": "win", "windows": "win", "escape": "esc",
    "page_up": "pageup", "prior": "pageup", "page_down": "pagedown", "next": "pagedown", "pgup": "pageup",
    "pgdn": "pagedown", "del": "delete", "ins": "insert", "arrowup": "up", "arrowdown": "down",
    "arrowleft": "left", "arrowright": "right", "spacebar": "space", " ": "space", "3270_printscreen": "printscreen",
}


def key_name(name: str) -> str:
    """One key as deskact names it: ``Return`` -> ``enter``, ``Control_L`` -> ``ctrl``, ``a`` -> ``a``."""
    if name == " ":
        return "space"
    key = name.strip().lower()
    return _KEY_NAMES.get(key, key)


def key_combo(text: str) -> list[str]:
    """``"Ctrl+S"``, ``"cmd + s"`` -> ``["ctrl", "s"]`` (a lone ``+`` stays a key)."""
    if text.strip() == "+":
        return ["+"]
    return [key_name(p) for p in text.split("+") if p.strip()]


def read_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each non-empty line; a line that is not a JSON object is an error."""
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DatasetError(f"{path}:{lineno}: not JSON: {exc.msg} at column {exc.colno}") from None
            if not isinstance(data, dict):
                raise DatasetError(f"{path}:{lineno}: expected a JSON object, got {type(data).__name__}")
            yield lineno, data


def read_records(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(``file:line`` or ``file:[index]``, object) from a JSON lines file or a JSON file holding a list."""
    if path.suffix == ".jsonl":
        for lineno, data in read_jsonl(path):
            yield f"{path}:{lineno}", data
        return
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{path}: not JSON: {exc.msg} at line {exc.lineno}") from None
    items = data if isinstance(data, list) else [data]
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            raise DatasetError(f"{path}:[{index}]: expected a JSON object, got {type(item).__name__}")
        yield f"{path}:[{index}]", item


def need(record: dict[str, Any], key: str, where: str, kind: type | tuple[type, ...] = object) -> Any:
    """``record[key]``, or a DatasetError naming the place, the field and what was there."""
    if key not in record or record[key] is None:
        raise DatasetError(f"{where}: field {key!r} is missing")
    value = record[key]
    if not isinstance(value, kind):
        raise DatasetError(f"{where}: field {key!r}: unexpected value {json.dumps(value, default=str)[:80]}")
    return value


def rel_file(root: Path, rel: str, where: str, field_name: str) -> str:
    """A file named by a record, relative to ``root``, checked to exist and to stay inside it."""
    posix = PurePosixPath(rel.replace("\\", "/"))
    if posix.is_absolute() or ".." in posix.parts:
        raise DatasetError(f"{where}: field {field_name!r}: {rel!r} leaves the dataset folder")
    if not (root / posix).is_file():
        raise DatasetError(f"{where}: field {field_name!r}: no such file {root / posix}")
    return posix.as_posix()


_SIZES: dict[Path, tuple[int, int]] = {}


def image_size(path: Path) -> tuple[int, int]:
    """(width, height) of an image, read from its header (kept: frames repeat across records)."""
    if path not in _SIZES:
        from PIL import Image

        try:
            with Image.open(path) as img:
                _SIZES[path] = img.size
        except OSError as exc:
            raise DatasetError(f"{path}: not an image PIL can read ({exc})") from None
    return _SIZES[path]


@dataclass
class Loaded:
    """A loader's answer: the samples (files relative to ``root``) and what it had to leave out, by reason."""

    root: Path
    kind: SampleKind
    name: str
    source: str
    samples: list[SampleT] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    scratch: bool = False
    """``root`` is a temporary folder the loader wrote the files into (removed once imported)."""

    def description(self) -> str:
        text = f"Read from {self.source} by deskact's loader ({len(self.samples)} samples)."
        if self.skipped:
            reasons = "; ".join(f"{why}: {n}" for why, n in self.skipped.most_common())
            text += f" Left out {sum(self.skipped.values())} records: {reasons}."
        return text

    def dataset(self) -> Dataset:
        info = DatasetInfo(kind=self.kind, name=self.name, source=self.source, description=self.description())
        return Dataset(root=self.root, info=info, samples=self.samples)


def px(value: float) -> float:
    """A coordinate kept to a hundredth of a pixel (normalized sources multiply out to float noise)."""
    return round(float(value), 2)
