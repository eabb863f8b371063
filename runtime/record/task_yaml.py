"""Writing a recorded reference (or counterexample) into a task's YAML, keeping the rest of the file.

The file is composed with PyYAML (through safe_yaml's loader) only to find where the task's
keys are; the text is then spliced by lines, so comments, key order, quoting and every other
task stay exactly as written. A task's ``reference:`` is replaced (or added after its last
key); a counterexample is appended to its ``counterexamples:`` (or the key is added). The file
is read back with the task loader before it replaces the old one: a splice that would break
the file or change another task is refused with the reason, and nothing is written.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .. import safe_yaml
from ..errors import TaskError

if TYPE_CHECKING:
    from ..tasks.task import LoadResult as TaskFile


def _task_node(root: Node | None, task_id: str, file: Path) -> MappingNode:
    items: list[Node] = []
    if isinstance(root, MappingNode):
        keys = {k.value: v for k, v in root.value if isinstance(k, ScalarNode)}
        tasks = keys.get("tasks")
        items = list(tasks.value) if isinstance(tasks, SequenceNode) else [root]
    for item in items:
        if not isinstance(item, MappingNode):
            continue
        for key, value in item.value:
            if isinstance(key, ScalarNode) and key.value == "id" and isinstance(value, ScalarNode) \
                    and value.value == task_id:
                if item.flow_style:
                    raise TaskError(f"{file}: task `{task_id}` is a flow mapping ({{...}}): write its reference by hand")
                return item
    raise TaskError(f"{file}: no task `{task_id}` in this file")


def _end_line(value: Node, lines: list[str]) -> int:
    """The first line after ``value`` (0-based). A block collection's end mark can sit at the next
    token, indented on a later line: a mark with only spaces before it ends at that line."""
    mark = value.end_mark
    if mark.line >= len(lines) or not lines[mark.line][:mark.column].strip():
        return mark.line
    return mark.line + 1


def _regions(task: MappingNode, lines: list[str]) -> dict[str, tuple[int, int]]:
    """Each key of the task -> its lines [start, end): from the key to the next key, less the blank
    and comment lines before the next key (they belong to what follows)."""
    out: dict[str, tuple[int, int]] = {}
    pairs = task.value
    for i, (key, value) in enumerate(pairs):
        start = key.start_mark.line
        end = pairs[i + 1][0].start_mark.line if i + 1 < len(pairs) else _end_line(value, lines)
        end = max(end, start + 1)
        while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
            end -= 1
        out[str(key.value)] = (start, end)
    return out


def literal_block(key: str, text: str, indent: int) -> list[str]:
    """``key: |`` and ``text`` as a literal block scalar, indented under a key at column ``indent``."""
    pad = " " * indent
    body = text if text.endswith("\n") else text + "\n"
    first = body.splitlines()[0] if body.strip() else ""
    # A first line starting with a space needs the indentation said explicitly.
    head = f"{pad}{key}: |2" if first[:1] == " " else f"{pad}{key}: |"
    out = [head + "\n"]
    for line in body.splitlines():
        out.append(f"{pad}  {line}\n" if line.strip() else "\n")
    return out


def _splice(file: Path, task_id: str, edit: str, text: str, note: str = "") -> str:
    source = file.read_text()
    lines = source.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    root = yaml.compose(source, Loader=safe_yaml.SafeLoader)
    task = _task_node(root, task_id, file)
    indent = task.value[0][0].start_mark.column
    regions = _regions(task, lines)
    last_end = max(end for _start, end in regions.values())
    if edit == "reference":
        block = literal_block("reference", text, indent)
        if "reference" in regions:
            start, end = regions["reference"]
            lines[start:end] = block
        else:
            lines[last_end:last_end] = block
    else:
        existing = next((v for k, v in task.value if isinstance(k, ScalarNode) and k.value == "counterexamples"), None)
        if isinstance(existing, SequenceNode) and existing.value and not existing.flow_style:
            dash = existing.value[0].start_mark.column - 2  # "- " before the item
            _start, end = regions["counterexamples"]
            lines[end:end] = _counterexample_item(text, note, dash)
        elif existing is None:
            item = _counterexample_item(text, note, indent + 2)
            lines[last_end:last_end] = [f"{' ' * indent}counterexamples:\n", *item]
        else:
            raise TaskError(f"{file}: task `{task_id}`: its counterexamples are not a block list; add this one by hand")
    return "".join(lines)


def _counterexample_item(code: str, note: str, dash: int) -> list[str]:
    pad = " " * dash
    out = [f"{pad}- note: {_quoted(note)}\n"]
    block = literal_block("code", code, dash + 2)
    return out + block


def _quoted(text: str) -> str:
    """A one-line YAML string (JSON's quoting is YAML's double-quoted style)."""
    import json

    return json.dumps(" ".join(text.split()))


def _write_checked(file: Path, task_id: str, new_text: str, check: str, expected: str) -> None:
    """Replace ``file`` with ``new_text`` once the task loader reads it and finds ``expected`` as
    the task's reference or last counterexample (``check``), and every other task unchanged."""
    from ..tasks.task import load_tasks

    def snapshot(loaded: TaskFile) -> dict[str, str]:
        # Lines move below the splice; everything else of another task must stay as it was.
        steps = {"__all__": {"line"}}
        return {t.id: t.model_dump_json(exclude={"reference": True, "counterexamples": True, "source": True,
                                                 "suite_dir": True, "reset": steps, "before_judge": steps,
                                                 "judge": steps, "cleanup": steps})
                for t in loaded.tasks}

    with tempfile.TemporaryDirectory(prefix="deskact-record-") as tmp:
        # The loader reads a suite folder: each version of the file alone in a folder of the
        # suite's name, with the suite's fixtures linked (steps may check their files exist).
        versions = []
        for label, text in (("before", file.read_text()), ("after", new_text)):
            folder = Path(tmp) / label / file.parent.name
            folder.mkdir(parents=True)
            (folder / file.name).write_text(text)
            for extra in ("files", "gold"):
                if (file.parent / extra).is_dir():
                    (folder / extra).symlink_to((file.parent / extra).resolve())
            versions.append(load_tasks([str(folder)]))
        before, after = versions
        problems = [str(bad) for bad in after.invalid]
        new = next((t for t in after.tasks if t.id == task_id), None)
        if new is None or len(problems) > len(before.invalid):
            raise TaskError(f"{file}: writing the recording into task `{task_id}` would break the file: "
                            + ("; ".join(problems) or "the task is gone"))
        got = new.reference if check == "reference" else (new.counterexamples[-1].code if new.counterexamples else None)
        if (got or "").rstrip("\n") != expected.rstrip("\n"):
            raise TaskError(f"{file}: task `{task_id}`: the written {check} does not read back as recorded")
        if _others(snapshot(before), task_id) != _others(snapshot(after), task_id):
            raise TaskError(f"{file}: writing task `{task_id}` would change another task: not written")
    fd, tmp_path = tempfile.mkstemp(prefix=f".{file.name}.", dir=file.parent)
    with os.fdopen(fd, "w") as out:
        out.write(new_text)
    os.chmod(tmp_path, file.stat().st_mode & 0o7777)
    os.replace(tmp_path, file)


def _others(snapshot: dict[str, str], task_id: str) -> dict[str, str]:
    return {k: v for k, v in snapshot.items() if k != task_id}


def set_reference(file: Path, task_id: str, code: str) -> None:
    """Make ``code`` task ``task_id``'s ``reference:`` in ``file``."""
    _write_checked(file, task_id, _splice(file, task_id, "reference", code), "reference", code)


def add_counterexample(file: Path, task_id: str, code: str, note: str) -> None:
    """Append ``code`` (a wrong solution, ``note`` says how) to task ``task_id``'s ``counterexamples:``."""
    _write_checked(file, task_id, _splice(file, task_id, "counterexample", code, note), "counterexample", code)
