"""A toolkit that is not built in: written in a test, loaded by path and by entry point,
documented from its docstrings, and preloaded into a real kernel."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.errors import ToolkitError
from deskact.toolkits.base import load_toolkit

NOTES_TK = '''
"""A tiny third-party toolkit: unit conversion and a notebook kept in a file."""

from pathlib import Path

from deskact.toolkits.base import Toolkit


def to_celsius(fahrenheit: float) -> float:
    """Convert a temperature from Fahrenheit to Celsius (rounded to 2 decimals)."""
    return round((fahrenheit - 32) * 5 / 9, 2)


class Notes:
    """A notebook whose notes survive kernel restarts (one line per note in a file)."""

    def __init__(self) -> None:
        self.path = Path("notes.txt")

    def add(self, text: str) -> int:
        """Append a note; returns how many notes there are now."""
        with self.path.open("a", encoding="utf-8") as f:
            f.write(text.replace("\\n", " ") + "\\n")
        return len(self.all())

    def all(self) -> list[str]:
        """All notes, oldest first."""
        return self.path.read_text(encoding="utf-8").splitlines() if self.path.exists() else []


notes = Notes()

toolkit = Toolkit(
    name="notes",
    module="notes_tk",
    exports=["to_celsius", "notes"],
    # Runs in the kernel after the import: configure from the environment the runtime gives it.
    setup="import os as _os\\nnotes.path = __import__('pathlib').Path(_os.environ.get('NOTES_FILE', 'notes.txt'))\\n",
    summary="Convert units and keep notes that outlive the episode.",
)
'''


@pytest.fixture
def notes_tk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    pkg = tmp_path / "site"
    pkg.mkdir()
    (pkg / "notes_tk.py").write_text(NOTES_TK, encoding="utf-8")
    # An installed distribution declaring the entry point, as `pip install` would leave it.
    dist = pkg / "notes_tk-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: notes-tk\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[deskact.toolkits]\nnotes = notes_tk:toolkit\n")
    monkeypatch.syspath_prepend(str(pkg))
    yield pkg
    sys.modules.pop("notes_tk", None)


def test_load_by_path_and_generated_docs(notes_tk: Path) -> None:
    tk = load_toolkit("notes_tk:toolkit")
    assert tk.name == "notes"
    docs = tk.documentation()
    assert docs.startswith("### Toolkit `notes`\n\nConvert units and keep notes")
    assert "- `to_celsius(fahrenheit: float) -> float`: Convert a temperature from Fahrenheit" in docs
    assert "- `notes`: A notebook whose notes survive kernel restarts" in docs
    assert "  - `notes.add(text: str) -> int`: Append a note; returns how many notes there are now." in docs
    assert "  - `notes.all() -> list[str]`: All notes, oldest first." in docs
    assert "notes.path" not in docs, "data attributes are not documented as calls"


def test_load_by_entry_point_name(notes_tk: Path) -> None:
    assert load_toolkit("notes") is load_toolkit("notes_tk:toolkit")


def test_preload_runs_in_a_plain_python(notes_tk: Path, tmp_path: Path) -> None:
    tk = load_toolkit("notes_tk:toolkit")
    program = tk.preload_code() + "print(to_celsius(212)); print(notes.add('milk'), notes.all(), notes.path.name)"
    env = {"PYTHONPATH": str(notes_tk), "NOTES_FILE": str(tmp_path / "shopping.txt"), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["100.0", "1 ['milk'] shopping.txt"]


@pytest.mark.parametrize(("sandbox", "where"), [("none", "/var/tmp"), ("bwrap", "/var/tmp"), ("bwrap", "/tmp")])
def test_preload_runs_in_a_kernel(notes_tk: Path, tmp_path: Path, sandbox: str, where: str) -> None:
    from deskact.runtime.world.kernel import KernelSession
    from deskact.runtime.world.world import world_status

    if where == "/tmp" and not world_status()[0]:
        pytest.skip("a kernel-only sandbox hides the host's /tmp; worlds show the kernel's PYTHONPATH")
    tk = load_toolkit("notes_tk:toolkit")
    # The kernel's PYTHONPATH is importable wherever it is: in a task's world it is shown read-only
    # (/tmp is the world's own; a kernel-only bwrap sandbox sees the host's /var/tmp).
    site = Path(tempfile.mkdtemp(prefix="deskact-notes-tk-", dir=where))
    site.chmod(0o755)
    (site / "notes_tk.py").write_text(NOTES_TK, encoding="utf-8")
    try:
        with KernelSession(
            Config(), preload=[(tk.name, tk.preload_code())], sandbox=sandbox,
            env={"PYTHONPATH": str(site), "NOTES_FILE": "kept.txt"},
        ) as kernel:
            result = kernel.execute("print(to_celsius(-40), notes.add('first'), notes.add('second'))", timeout=30)
            assert result.status == "ok", result.error
            assert result.stdout == "-40.0 1 2\n"
            assert (kernel.workspace / "kept.txt").read_text() == "first\nsecond\n"
            # After a restart the preload runs again; the notes file is still there.
            kernel.restart()
            again = kernel.execute("print(notes.all())", timeout=30)
            assert again.stdout == "['first', 'second']\n"
    finally:
        shutil.rmtree(site, ignore_errors=True)


def test_load_errors_name_the_problem(notes_tk: Path, tmp_path: Path) -> None:
    with pytest.raises(ToolkitError, match="unknown toolkit 'nope'.*known: .*gui.*notes"):
        load_toolkit("nope")
    with pytest.raises(ToolkitError, match="cannot load no_such_module:toolkit"):
        load_toolkit("no_such_module:toolkit")
    with pytest.raises(ToolkitError, match="notes_tk:to_celsius is a function, not a Toolkit"):
        load_toolkit("notes_tk:to_celsius")
    from deskact.toolkits.base import Toolkit

    broken = Toolkit(name="broken", module="notes_tk", exports=["to_kelvin"])
    with pytest.raises(ToolkitError, match="notes_tk has no export 'to_kelvin'"):
        broken.documentation()


def test_a_toolkit_imported_from_a_folder_of_its_own_works_in_a_task_kernel(notes_tk: Path, tmp_path: Path) -> None:
    """As after `pip install -e` of a user's toolkit: the host imports it from its folder (here under
    pytest's /tmp dir), and a worker's kernel gets that folder on its PYTHONPATH, shown in its world."""
    from deskact.runtime.run.worker import Worker, import_roots

    tk = load_toolkit("notes_tk:toolkit")
    assert import_roots([tk]) == [str(notes_tk.resolve())]
    cfg = Config()
    cfg.display.mode = "none"
    cfg.toolkits.enabled = []
    with Worker(cfg) as worker:
        session = worker.pool([tk], None).acquire()
        try:
            result = session.execute("print(to_celsius(212))", timeout=30)
            assert result.status == "ok", result.error
            assert result.stdout == "100.0\n"
        finally:
            session.shutdown()
