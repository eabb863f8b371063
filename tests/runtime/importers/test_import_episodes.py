"""Converted fixture tasks run as episodes: a do-nothing agent scores 0 on every one of them, and
hand-written references of OSWorld os, multi_apps and infeasible tasks validate (reference 1, noop
0, explore 0), with counterexamples (declaring a feasible task infeasible) scoring 0."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from deskact.runtime.config import Config
from deskact.runtime.importers import ImportOptions
from deskact.runtime.importers.agentstudio import import_agentstudio
from deskact.runtime.importers.common import SUITE_FILE
from deskact.runtime.importers.osworld import import_osworld
from deskact.runtime.run.runner import Run, RunOptions
from deskact.runtime.run.validate import validate

FIXTURES = Path(__file__).parent / "fixtures"
REFERENCES: dict[str, dict[str, Any]] = {
    "osworld-os-cc9d4f34": {
        "reference": "!pkill -f my_process.sh\nexit()\n",
        "counterexamples": ['infeasible("a running process cannot be ended")\n',
                            "!kill -STOP $(pgrep -f my_process.sh)\nexit()\n"],
    },
    "osworld-os-43c2d64c": {"reference": "!mkdir /test\nexit()\n", "counterexamples": ["!mkdir ~/test\nexit()\n"]},
    "osworld-os-5ea617a3": {
        # Wherever the set-up's `gio trash` put it (its trash folder depends on the set-up's user).
        "reference": ("!f=$(find / -path /proc -prune -o -path '*Trash*/files/poster_party_night.webp' -print"
                      " 2>/dev/null | head -1); mv \"$f\" ~/Desktop/\nexit()\n"),
        "counterexamples": ["!touch ~/Desktop/poster_party_night.webp.recovered\nexit()\n"],
    },
    "osworld-os-4783cc41": {
        "reference": 'infeasible("$$sourceDir and $$targetDir are shell variables that are not set")\n',
        "counterexamples": ["!mkdir -p ~/Desktop/copy\nexit()\n"],
    },
    "osworld-os-e0df059f": {"reference": "!mv ~/Desktop/todo_list_Jan_1 ~/Desktop/todo_list_Jan_2\nexit()\n"},
    "osworld-os-b3d4a89c": {
        "reference": 'infeasible("this machine has no Bluetooth adapter to switch off")\n',
        "counterexamples": ["!rfkill block bluetooth\nexit()\n"],
    },
    "osworld-multi-apps-6d72aad6": {
        "reference": 'infeasible("LibreOffice Impress cannot export a presentation as a video")\n',
        "counterexamples": ["print('done')\nexit()\n"],
    },
}


def _only_referenced(suite: Path) -> None:
    """imported.yaml as an author leaves it after writing references (and counterexamples) under the
    tasks they checked, keeping those."""
    path = suite / SUITE_FILE
    tasks: list[dict[str, Any]] = yaml.safe_load(path.read_text())["tasks"]
    kept = [{**t, **REFERENCES[t["id"]]} for t in tasks if t["id"] in REFERENCES]
    assert len(kept) == len(REFERENCES)
    path.write_text(yaml.safe_dump({"tasks": kept}, sort_keys=False))


@pytest.fixture(scope="module")
def suites(tmp_path_factory: pytest.TempPathFactory, file_host: Any) -> tuple[Path, Path, int]:
    """The OSWorld and AgentStudio fixtures imported (OSWorld's files fetched from the local server)."""
    from deskact.runtime.world.world import world_status

    if not world_status()[0]:
        pytest.skip("the OSWorld tasks' shell set-up needs a task world (deskact doctor says why not)")
    tmp = tmp_path_factory.mktemp("episodes")
    examples = FIXTURES / "osworld" / "examples"
    mirror = file_host.mirror(examples, tmp / "mirror.json")
    osw = import_osworld(examples, ImportOptions(out=tmp / "osworld", mirror=mirror, fetch=True))
    ags = import_agentstudio(FIXTURES / "agentstudio" / "tasks", ImportOptions(out=tmp / "agentstudio"))
    assert set(REFERENCES) <= {c.task_id for c in osw.converted}
    return tmp / "osworld", tmp / "agentstudio", len(osw.converted) + len(ags.converted)


@pytest.mark.slow
@pytest.mark.timeout(900)  # LibreOffice starts for each office task; minutes on a loaded box
def test_a_do_nothing_agent_scores_zero_on_every_converted_task(suites: tuple[Path, Path, int], tmp_path: Path) -> None:
    osw, ags, converted = suites
    config = Config()
    config.runner.workers = 2
    results = Run(config, RunOptions(paths=[str(osw), str(ags)], model="noop", out=tmp_path, workers=2)).execute()
    assert len(results) == converted
    # A task that errors at reset (an app missing here) scores 0 too; none may pass.
    passed = [r.task_id for r in results if r.reward != 0 or r.status == "passed"]
    assert not passed, f"passed for an agent that did nothing: {passed}"
    assert sum(r.status == "failed" for r in results) >= converted // 2  # most reached their judges


@pytest.mark.slow
def test_references_of_converted_tasks_validate(suites: tuple[Path, Path, int], tmp_path: Path) -> None:
    osw = tmp_path / "osworld"
    shutil.copytree(suites[0], osw)
    _only_referenced(osw)
    config = Config()
    config.runner.workers = 2
    problems, checked = validate(config, [str(osw)], workers=2, out=tmp_path / "runs")
    assert checked == len(REFERENCES)
    assert not problems, "\n".join(f"{p.task_id} [{p.model}] {p.status}: {p.detail}" for p in problems)
