"""A toolkit module the kernel cannot import ends its task at once with the module, the kernel's
sys.path and the ways out, instead of a bare ModuleNotFoundError (issue 15)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.run.runner import Run, RunOptions
from deskact.runtime.world.kernel.import_error import describe_import_failure

# The toolkit's kernel module needs a helper library the host finds on its own sys.path only
# (as a package installed in a user's home would be): the kernel is not shown that folder.
CLIENT = '''
from deskact.toolkits.base import Toolkit
import hostonly_helper_lib  # noqa: F401 - present on the host, absent in the kernel

def ping() -> str:
    """Answer pong."""
    return "pong"

toolkit = Toolkit(name="pinger", module="pinger_tk", exports=["ping"])
'''

SUITE = """
id: pinger-task
instruction: Call ping().
toolkits: ["pinger_tk:toolkit"]
judge:
  - answer.contains: {text: pong}
reference: print(ping())
"""


def test_message_names_module_and_searched_path() -> None:
    text = describe_import_failure("memo", "ModuleNotFoundError", "No module named 'memo_toolkit'",
                                   json.dumps(["/usr/lib/python3.11", "/venv/site-packages"]) + "\n")
    assert "toolkit 'memo'" in text and "No module named 'memo_toolkit'" in text
    assert "sys.path = [/usr/lib/python3.11, /venv/site-packages]" in text


@pytest.mark.timeout(300)
def test_a_run_reports_the_failed_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    toolkit_dir, helper_dir = tmp_path / "tk", tmp_path / "helper"
    for d in (toolkit_dir, helper_dir):
        d.mkdir()
    (toolkit_dir / "pinger_tk.py").write_text(CLIENT)
    (helper_dir / "hostonly_helper_lib.py").write_text("")
    monkeypatch.syspath_prepend(str(helper_dir))
    monkeypatch.syspath_prepend(str(toolkit_dir))
    (tmp_path / "suite").mkdir()
    (tmp_path / "suite" / "task.yaml").write_text(SUITE)
    cfg = Config()
    cfg.display.mode = "none"
    cfg.toolkits.enabled = []
    try:
        results = Run(cfg, RunOptions(paths=[str(tmp_path / "suite")], model="reference",
                                      out=tmp_path / "out")).execute()
    finally:
        sys.modules.pop("pinger_tk", None)
        sys.modules.pop("hostonly_helper_lib", None)
    (result,) = results
    assert result.status == "error"
    assert "the kernel cannot import toolkit 'pinger'" in result.error
    assert "No module named 'hostonly_helper_lib'" in result.error
    assert "sys.path = [" in result.error and str(helper_dir) not in result.error.split("sys.path")[1].split("]")[0]
