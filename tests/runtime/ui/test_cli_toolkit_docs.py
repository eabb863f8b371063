"""`deskact toolkit docs NAME`, docs/gui.md generated from it, and `deskact validate --sandbox`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from deskact.runtime.ui.cli import app
from deskact.runtime.ui.toolkit_docs import toolkit_markdown, update_doc
from deskact.toolkits.base import load_toolkit
from typer.testing import CliRunner

ENV = {"DESKACT_TOOLKITS_ENABLED": "[]", "DESKACT_DISPLAY_MODE": "none", "DESKACT_CONFIG": "",
       "COLUMNS": "300", "NO_COLOR": "1"}
GUI_DOC = Path(__file__).resolve().parents[3] / "docs" / "gui.md"


def invoke(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args], env=ENV)
    return result.exit_code, result.output


@pytest.mark.parametrize("name", ["gui", "google", "deskact.toolkits.gui:toolkit"])
def test_prints_exactly_what_the_model_reads(name: str) -> None:
    code, out = invoke("toolkit", "docs", name)
    assert code == 0, out
    assert out == load_toolkit(name).documentation() + "\n"


def test_unknown_toolkit_is_one_line_with_did_you_mean() -> None:
    code, out = invoke("toolkit", "docs", "gu")
    assert code == 2, out
    assert out.strip().splitlines() == [
        "error: unknown toolkit 'gu'; did you mean 'gui'? known: browser, google, gui, web (or use module:attr)"]
    code, out = invoke("toolkit", "docs", "no_such_module:toolkit")
    assert code == 2 and len(out.strip().splitlines()) == 1, out
    assert "cannot load no_such_module:toolkit" in out  # ":toolkit" is not turned into an emoji or markup


def test_markdown_is_the_committed_gui_reference() -> None:
    code, out = invoke("toolkit", "docs", "gui", "--markdown")
    assert code == 0, out
    assert out == toolkit_markdown("gui")
    assert GUI_DOC.read_text(encoding="utf-8") == out, (
        "docs/gui.md is stale: run `.venv/bin/python -m deskact.runtime.ui.toolkit_docs docs/gui.md`")
    assert "`mouse.click(" in out and "`windows.wait_for(" in out


def test_update_doc_writes_only_when_changed(tmp_path: Path) -> None:
    doc = tmp_path / "gui.md"
    assert update_doc(doc) and not update_doc(doc)
    assert doc.read_text(encoding="utf-8") == toolkit_markdown("gui")


SUITE = """
tasks:
  - id: sandbox-flag
    instruction: Print hi.
    judge:
      - answer.regex: {pattern: 'hi'}
    reference: |
      print("hi")
      exit()
"""


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    folder = tmp_path / "suite_sandbox_flag"
    folder.mkdir()
    (folder / "tasks.yaml").write_text(SUITE)
    return folder


def test_validate_sandbox_flag_reaches_the_config(suite: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import deskact.runtime.run.validate as validate_module

    seen: list[str] = []
    real = validate_module.validate

    def spy(cfg: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(cfg.sandbox.mode)
        return real(cfg, *args, **kwargs)

    monkeypatch.setattr(validate_module, "validate", spy)
    code, out = invoke("validate", suite, "--sandbox", "none", "--no-explore")
    assert seen == ["none"]
    assert code == 0, out
    assert out.strip().splitlines()[-1] == "1/1 tasks valid"


def test_validate_refuses_an_unknown_sandbox(suite: Path) -> None:
    code, out = invoke("validate", suite, "--sandbox", "docker")
    assert code == 2, out
    assert out.strip().splitlines() == ["error: --sandbox 'docker': expected none or bwrap"]
