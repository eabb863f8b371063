from pathlib import Path

from deskact.runtime.tasks.steps import REGISTRY, load_plugins
from deskact.runtime.tasks.steps_doc import BEGIN, END, render_reference, update_doc

DOC = Path(__file__).resolve().parents[2] / "docs" / "steps.md"


def test_reference_lists_every_step_with_params() -> None:
    load_plugins()
    text = render_reference()
    for kind in ("reset", "judge"):
        for name in REGISTRY[kind]:
            assert f"### `{name}`" in text
    assert "| `mode` | octal mode | **required** |" in text  # files.chmod
    assert "| `kind` | file &#124; dir &#124; any | `'any'` |" in text  # files.exists
    assert "Exactly one of: `equals`, `contains`, `regex`." in text


def test_committed_doc_is_up_to_date() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = BEGIN + text.split(BEGIN, 1)[1].split(END, 1)[0] + END + "\n"
    assert section == render_reference(), (
        "docs/steps.md is stale: run `.venv/bin/python -m deskact.runtime.tasks.steps_doc docs/steps.md`"
    )


def test_update_doc_replaces_only_the_generated_section(tmp_path: Path) -> None:
    doc = tmp_path / "d.md"
    doc.write_text(f"# Intro\n\n{BEGIN}\nstale-marker-text\n{END}\n\nOutro\n")
    assert update_doc(doc)
    text = doc.read_text()
    assert text.startswith("# Intro\n\n" + BEGIN) and text.endswith(END + "\n\nOutro\n")
    assert "stale-marker-text" not in text
    assert not update_doc(doc)


def test_every_builtin_step_is_exercised_by_a_test() -> None:
    """Each registered name must appear in some test file (pass/fail cases live there)."""
    load_plugins()
    tests_dir = Path(__file__).resolve().parents[1]
    corpus = "\n".join(p.read_text(encoding="utf-8") for p in tests_dir.rglob("test_*.py"))
    untested = [name for kind in ("reset", "judge") for name in REGISTRY[kind]
                if f'"{name}"' not in corpus]
    assert not untested, f"steps without tests: {untested}"
