"""Report fixes: feedback names workspace files relative to the workspace, several judges' sentences
stay apart, params show `&&` as written, and the first screen the model saw is saved."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from deskact.runtime.config import Config
from deskact.runtime.run.runner import Run, RunOptions
from deskact.runtime.tasks.feedback import join_feedback, relative_to_workspace
from deskact.runtime.ui.report import write_report

SUITE = """
tasks:
  - id: fb-two-judges
    instruction: Write hello into notes/a.txt
    judge:
      - files.exists: {path: notes/a.txt}
      - files.content: {path: notes/b.txt, contains: "x && y"}
    reference: print(1)
  - id: fb-visual
    instruction: Say hi.
    visual: true
    judge: [{answer.contains: {text: hi}}]
    reference: print("hi")
"""


def test_relative_to_workspace() -> None:
    ws = Path("/tmp/deskact-w0-abc/workspaces/task-1")
    text = f"{ws}/notes/a.txt does not exist ({ws}/notes does not exist either); {ws} is empty; {ws}2/x stays"
    assert relative_to_workspace(text, ws) == \
        f"notes/a.txt does not exist (notes does not exist either); the workspace is empty; {ws}2/x stays"
    assert relative_to_workspace("/etc/hosts lacks it", ws) == "/etc/hosts lacks it"
    assert relative_to_workspace("/x", Path("/")) == "/x"


def test_join_feedback() -> None:
    assert join_feedback(["a.txt is missing", "", "b.txt holds 3 lines, not 4.", "done?  "]) == \
        "a.txt is missing. b.txt holds 3 lines, not 4. done?"


def test_a_run_writes_readable_feedback_and_the_first_observation(tmp_path: Path) -> None:
    (tmp_path / "suite_fb").mkdir()
    (tmp_path / "suite_fb" / "tasks.yaml").write_text(SUITE)
    cfg = Config()
    cfg.toolkits.enabled = []
    out = tmp_path / "out"
    results = {r.task_id: r for r in Run(cfg, RunOptions(paths=[str(tmp_path / "suite_fb")], model="reference",
                                                         out=out)).execute()}
    two = results["fb-two-judges"]
    assert two.status == "failed"
    assert two.feedback == ("notes/a.txt does not exist (notes does not exist either). "
                            "notes/b.txt should be a file but does not exist.")
    assert all("/workspaces/" not in v.feedback for v in two.verdicts)

    visual = results["fb-visual"]
    assert visual.status == "passed", visual.error
    folder = out / visual.trajectory
    (first,) = folder.glob("first_observation.*")  # PNG or JPEG (observation.format)
    assert first.read_bytes()[:4] in (b"\x89PNG", b"\xff\xd8\xff\xe0", b"\xff\xd8\xff\xdb")
    assert json.loads((folder / "episode.json").read_text())["first_screenshot_file"] == first.name
    assert not list((out / two.trajectory).glob("first_observation.*"))  # no display, no screenshot

    write_report(out)
    page = (out / "report" / "task-fb-visual.html").read_text()
    assert 'id="step-first"' in page and f"/{first.name}" in page
    params = re.findall(r"<td><code>(.*?)</code></td>", (out / "report" / "task-fb-two-judges.html").read_text())
    assert html.unescape(params[-1]) == '{"contains": "x && y", "path": "notes/b.txt"}'
