"""Every notebook in notebooks/ runs top to bottom (nbclient, no API keys, no network) and shows what it claims."""

from __future__ import annotations

import base64
import io
import re
import shutil
import sys
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
API_KEYS = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")

pytestmark = [pytest.mark.slow, pytest.mark.display]


def _need(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (scripts/setup.sh installs them)")


def execute(name: str, monkeypatch: pytest.MonkeyPatch) -> object:
    """Run the notebook in the venv's python3 kernel; a cell error fails the test with its traceback."""
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager
    from nbclient import NotebookClient

    for key in API_KEYS:  # the notebooks must not need keys, and must not reach a provider
        monkeypatch.delenv(key, raising=False)
    spec = KernelSpecManager().get_kernel_spec("python3")
    # The kernel must be this venv's Python (it imports deskact): "python" resolves to sys.executable.
    assert spec.argv[0] in ("python", sys.executable) or Path(spec.argv[0]).parent == Path(sys.executable).parent
    book = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = NotebookClient(book, kernel_name="python3", timeout=300,
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()
    return book


def outputs(book: object) -> list[dict]:
    return [o for cell in book.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]  # type: ignore[attr-defined]


def text_of(book: object) -> str:
    """All text shown: streams, text/plain and text/html outputs."""
    parts = []
    for o in outputs(book):
        if o["output_type"] == "stream":
            parts.append(o["text"])
        data = o.get("data", {})
        parts += [data.get("text/plain", ""), data.get("text/html", "")]
    return "\n".join(parts)


def images(book: object) -> list[bytes]:
    """Every image shown, in order: plots are PNG, trajectory screenshots JPEG (observation.format)."""
    return [base64.b64decode(data[kind]) for o in outputs(book) if (data := o.get("data", {}))
            for kind in ("image/png", "image/jpeg") if kind in data]


def variance(png: bytes) -> float:
    import numpy as np
    from PIL import Image

    return float(np.asarray(Image.open(io.BytesIO(png)).convert("L"), dtype=float).var())


def test_notebooks_are_committed_without_outputs() -> None:
    import nbformat

    names = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
    assert names == ["01_quickstart.ipynb", "02_step_by_step.ipynb", "03_write_a_toolkit.ipynb",
                     "04_write_a_task.ipynb", "05_analyze_a_run.ipynb"]
    for name in names:
        book = nbformat.read(NOTEBOOKS / name, as_version=4)
        nbformat.validate(book)
        dirty = [i for i, c in enumerate(book.cells)
                 if c.cell_type == "code" and (c.get("outputs") or c.get("execution_count"))]
        assert not dirty, f"{name}: cells {dirty} hold outputs (clear them before committing)"


def test_01_quickstart(monkeypatch: pytest.MonkeyPatch) -> None:
    _need("Xvfb", "xterm")
    book = execute("01_quickstart.ipynb", monkeypatch)
    text = text_of(book)
    shots = images(book)
    assert len(shots) == 2  # env.screenshot() and %deskact_screen
    assert shots[0] != shots[1] and all(variance(s) > 50 for s in shots)  # the typing shows on screen
    assert "clicked at" in text and "in Terminal" in text  # %%act ran in the task's kernel
    assert text.count("<b>reward 1</b>") == 2  # by hand, then the reference model
    assert "finished: done after 1 step(s)" in text
    assert "No API key set" in text


def test_02_step_by_step(monkeypatch: pytest.MonkeyPatch) -> None:
    _need("Xvfb", "xterm")
    book = execute("02_step_by_step.ipynb", monkeypatch)
    text = text_of(book)
    assert len(images(book)) == 2  # before and after the person's step
    # The model's step is shown with its code, output and the screenshot after it (inline in HTML).
    step_html = next(o["data"]["text/html"] for o in outputs(book)
                     if "<h4>Step 1</h4>" in o.get("data", {}).get("text/html", ""))
    assert "reports/summary.txt" in step_html and 'src="data:image/jpeg;base64,' in step_html  # observation.format
    assert "all done" in text
    assert "finished: done | steps: 2" in text
    assert "[A person ran this code in your kernel:]" in text  # the model was told what the person did
    assert "<b>reward 1</b>" in text


def test_03_write_a_toolkit(monkeypatch: pytest.MonkeyPatch) -> None:
    book = execute("03_write_a_toolkit.ipynb", monkeypatch)
    text = text_of(book)
    assert ("- `add_note(title: str, body: str = '', tags: list[str] | None = None) -> dict`: "
            "Create a note and return it") in text
    assert "Toolkit docs in the system prompt: True" in text
    assert re.search(r"NOTES_URL = http://127\.0\.0\.1:\d+", text)
    assert "internet: unreachable from the sandbox" in text
    assert "there should be a note titled &#x27;Todo summary&#x27; but there is none" in text
    assert text.count("<b>reward 1</b>") == 2  # scripted model, then the reference


def test_04_write_a_task(monkeypatch: pytest.MonkeyPatch) -> None:
    book = execute("04_write_a_task.ipynb", monkeypatch)
    text = text_of(book)
    assert "unknown placeholder ${WORKSAPCE}; did you mean ${WORKSPACE}?" in text
    assert "unknown judge `files.exist`; did you mean `files.exists`?" in text
    assert "field `max_steps` = 'many'" in text
    assert "2/2 tasks valid" in text
    assert "PROBLEM tutorial-weak-judge with noop: passes without the agent doing anything" in text
    assert "<b>reward 1</b>" in text
    assert "tutorial-sort-names      passed  reward=1" in text


def test_05_analyze_a_run(monkeypatch: pytest.MonkeyPatch) -> None:
    _need("Xvfb", "mousepad")
    book = execute("05_analyze_a_run.ipynb", monkeypatch)
    text = text_of(book)
    try:
        assert "{'reference': {'editor': 1.0, 'os': 1.0}" in text
        assert "'baseline': {'editor': 0.0, 'os': 0.0}" in text
        plot, *screens = images(book)
        assert variance(plot) > 100 and len(screens) == 2  # the plot, then the failed task's two screens
        assert "step 1: reply ---\nLet me look around." in text
        assert re.search(r"report/index\.html", text)
        assert text.count("passed -> failed") == 6
    finally:
        work = re.search(r"'reference': PosixPath\('(/tmp/deskact-analyze-[^/']+)/reference'\)", text)
        if work:
            shutil.rmtree(work.group(1), ignore_errors=True)


def test_env_reopens_after_close() -> None:
    """The notebook API outside Jupyter: close() is idempotent and reset() after it starts over."""
    from deskact import Env
    from deskact.runtime.ui import notebook

    env = Env.from_yaml("""
id: nb-reopen
instruction: Print the number 7.
judge:
  - answer.regex: {pattern: '\\b7\\b'}
reference: |
  print(7)
  exit()
""")
    try:
        env.reset()
        assert env.run("reference").finish_reason == "done" and env.judge().reward == 1
        env.close()
        env.close()
        assert notebook._current is None
        env.reset()
        assert notebook.current() is env
        assert "8" in repr(env.execute("print(8)"))
        env.run("reference")
        assert env.judge().reward == 1
    finally:
        env.close()
