"""docs/models.md's scripted-model example is a script the loader accepts and an episode can end with."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from deskact.runtime.agent.models.offline import load_script
from deskact.runtime.agent.parsing import extract_code

ROOT = Path(__file__).resolve().parents[4]
DOC = (ROOT / "docs" / "models.md").read_text(encoding="utf-8")


def _block(lang: str, after: str) -> str:
    match = re.search(rf"^```{lang}\n(.*?)^```$", DOC.split(after, 1)[1], re.S | re.M)
    assert match, f"no ```{lang} block after {after!r} in docs/models.md"
    return match.group(1)


def test_yaml_and_jsonl_examples_load_to_the_same_replies(tmp_path: Path) -> None:
    yaml_path = tmp_path / "script.yaml"
    yaml_path.write_text(_block("yaml", "<!-- scripted-example"))
    jsonl_path = tmp_path / "script.jsonl"
    jsonl_path.write_text(_block("json", "as `script.jsonl`"))
    replies = load_script(yaml_path)
    assert replies == load_script(jsonl_path)
    assert [json.loads(line)["reply"] for line in jsonl_path.read_text().splitlines()] == replies
    assert extract_code(replies[0]).code == 'import os\nprint(sorted(os.listdir(".")))'
    assert extract_code(replies[-1]).code == 'print("hi")\nexit()'


def test_the_notebook_extra_it_documents_exists() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert 'pip install "deskact[notebook]"' in DOC
    assert any(dep.startswith("jupyterlab") for dep in extras["notebook"])
