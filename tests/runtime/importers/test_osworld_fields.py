"""Every field of OSWorld's task format in the fixtures is translated or has a report reason (FIELDS)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from deskact.runtime.importers import ImportOptions
from deskact.runtime.importers.osworld import FIELDS, field_status, import_osworld, is_task

EXAMPLES = Path(__file__).parent / "fixtures" / "osworld" / "examples"


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def fields(task: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(kind, value) for every field of one OSWorld task that the importer has to decide on."""
    yield from (("task", key) for key in task)
    ev = task.get("evaluator")
    items = list(task.get("config") or [])
    if isinstance(ev, dict):
        yield from (("evaluator", key) for key in ev)
        items += ev.get("postconfig") or []
        funcs = _listed(ev.get("func"))
        yield from (("func", str(f or "")) for f in funcs)
        for where in ("result", "expected"):
            yield from (("getter", str(g.get("type"))) for g in _listed(ev.get(where)) if isinstance(g, dict) and g)
        options = ev.get("options")
        for func, opts in zip(funcs, options if isinstance(options, list) else [options] * len(funcs)):
            yield from (("option", f"{func}.{key}") for key in (opts or {}))
    yield from (("config", str(item.get("type"))) for item in items)


def fixture_tasks() -> list[tuple[str, dict[str, Any]]]:
    out = [(str(f.relative_to(EXAMPLES)), json.loads(f.read_text())) for f in sorted(EXAMPLES.rglob("*.json"))]
    return [(rel, raw) for rel, raw in out if is_task(raw)]


def test_every_field_in_the_fixtures_is_translated_or_a_reason() -> None:
    unknown = sorted({(kind, value, rel) for rel, raw in fixture_tasks() for kind, value in fields(raw)
                      if field_status(kind, value) is None})
    assert not unknown, f"fields neither translated nor a reason in osworld.FIELDS: {unknown}"


def test_the_walk_sees_each_kind_of_field() -> None:
    seen = {kind for _, raw in fixture_tasks() for kind, _ in fields(raw)}
    assert seen == {"task", "evaluator", "func", "getter", "option", "config"}
    reported = {field_status(k, v) for _, raw in fixture_tasks() for k, v in fields(raw)} - {"translated"}
    assert len(reported) >= 5  # the fixtures hold reported fields of several kinds, not only translated ones


@pytest.mark.parametrize("kind", sorted(FIELDS))
def test_every_reason_is_a_sentence(kind: str) -> None:
    for value, reason in FIELDS[kind].items():
        assert reason is None or len(reason.split()) >= 3, (kind, value, reason)


def test_a_field_the_table_does_not_know_is_a_reason_not_a_silent_drop(tmp_path: Path) -> None:
    task = {"id": "0000aaaa-1111", "snapshot": "os", "instruction": "x", "proxy": True,
            "config": [{"type": "reboot", "parameters": {}},
                       {"type": "execute", "parameters": {"command": "true", "until": {"returncode": 0}}}],
            "evaluator": {"func": "exact_match", "weight": 2,
                          "result": {"type": "vm_command_line", "command": "true", "multi": True},
                          "expected": {"type": "rule", "rules": {"expected": ""}}}}
    (tmp_path / "os").mkdir()
    (tmp_path / "os" / "t.json").write_text(json.dumps(task))
    (skipped,) = import_osworld(tmp_path, ImportOptions(out=tmp_path / "out")).skipped
    assert skipped.reasons == [
        "task keys ['proxy']: not translated",
        "config type reboot: no deskact reset step does this",
        "execute parameters ['until']: not translated (OSWorld retries until a condition)",
        "evaluator keys ['weight']: not translated",
    ]
    del task["evaluator"]["weight"]
    (tmp_path / "os" / "t.json").write_text(json.dumps(task))
    (skipped,) = import_osworld(tmp_path, ImportOptions(out=tmp_path / "out")).skipped
    assert "result type vm_command_line keys ['multi']: not translated" in skipped.reasons
