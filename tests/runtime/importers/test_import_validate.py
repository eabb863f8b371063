"""Imported tasks given a hand-written reference pass `deskact validate`; one without says so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from deskact.runtime.config import Config
from deskact.runtime.importers import ImportOptions
from deskact.runtime.importers.agentstudio import import_agentstudio
from deskact.runtime.importers.common import SUITE_FILE
from deskact.runtime.importers.osworld import import_osworld
from deskact.runtime.run.validate import validate

FIXTURES = Path(__file__).parent / "fixtures"
# What an author writes under each imported task before validating it.
REFERENCES = {
    "osworld-os-7688b85f": '!mv "$HOME/Desktop/todo.txt" "$HOME/Desktop/done/"\nexit()\n',
    "osworld-os-43c2d64c": "!mkdir /test\nexit()\n",
    "agentstudio-os-1485713f": (
        "import os, pathlib\np = pathlib.Path(os.environ['WORKSPACE'], 'tmp/data/count.txt')\n"
        "p.write_text(str(int(p.read_text()) + 1))\nexit()\n"),
    "agentstudio-os-0d5f7fef": (
        "import os\nwith open(os.environ['WORKSPACE'] + '/tmp/reports/summary.txt', 'wb') as f:\n"
        "    f.write(b'x' * 1024)\nexit()\n"),
    "agentstudio-google-calendar-45ad2be2": (
        'for title, start, end in [("Independence Day Celebration", "2024-07-04T00:00:00Z", "2024-07-04T23:59:00Z"),\n'
        '                          ("Fireworks Viewing", "2024-07-04T18:00:00Z", "2024-07-04T19:00:00Z")]:\n'
        '    calendar.events().insert(calendarId="primary", body={"summary": title,\n'
        '        "start": {"dateTime": start}, "end": {"dateTime": end}}).execute()\nexit()\n'),
}
UNREFERENCED = "agentstudio-os-1e2f5ea6"


def _keep(suite: Path, ids: set[str]) -> None:
    """Keep the chosen tasks, adding their references, as an author editing imported.yaml would."""
    path = suite / SUITE_FILE
    tasks: list[dict[str, Any]] = yaml.safe_load(path.read_text())["tasks"]
    kept = [{**t, **({"reference": REFERENCES[t["id"]]} if t["id"] in REFERENCES else {})}
            for t in tasks if t["id"] in ids]
    assert {t["id"] for t in kept} == ids
    path.write_text(yaml.safe_dump({"tasks": kept}, sort_keys=False))


@pytest.mark.slow
def test_imported_tasks_with_references_validate(tmp_path: Path) -> None:
    from deskact.runtime.world.world import world_status

    osw, ags = tmp_path / "osworld", tmp_path / "agentstudio"
    import_osworld(FIXTURES / "osworld" / "examples" / "os", ImportOptions(out=osw))
    import_agentstudio(FIXTURES / "agentstudio" / "tasks" / "single_api", ImportOptions(out=ags))
    paths = [ags]
    _keep(ags, {i for i in REFERENCES if i.startswith("agentstudio-")} | {UNREFERENCED})
    if world_status()[0]:  # the OSWorld shell tasks start with world.require
        _keep(osw, {i for i in REFERENCES if i.startswith("osworld-")})
        paths.append(osw)
    config = Config()
    config.runner.workers = 2
    problems, checked = validate(config, [str(p) for p in paths], workers=2, out=tmp_path / "runs")
    assert checked == len(REFERENCES) + 1 - (0 if osw in paths else 2)
    unexpected = [p for p in problems if p.task_id != UNREFERENCED]
    assert not unexpected, "\n".join(f"{p.task_id} [{p.model}] {p.status}: {p.detail}" for p in unexpected)
    (missing,) = [p for p in problems if p.task_id == UNREFERENCED]
    assert missing.model == "reference"
    assert missing.detail.startswith("has no reference (imported from agentstudio:os/1e2f5ea6")
