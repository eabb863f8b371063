"""The public API: the names `deskact` exports, old module paths that keep working, a light import.

A name leaving this list breaks plugin authors' code: remove one only with a release note
and, if its module moved, a line in runtime/legacy_paths.py's MOVED.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import deskact
import deskact.toolkits
import pytest
from deskact.runtime.legacy_paths import MOVED

PUBLIC = [
    # steps and judges
    "judge", "reset_step", "Verdict", "StepContext", "StepFailed", "run_judge", "run_reset",
    # the step author's helpers
    "clip", "short", "normalize", "check_text", "FileMode", "Regex", "fixture", "gold_file",
    "step_path", "make_dirs", "give_to_world", "shown",
    # toolkits
    "Toolkit", "ServiceContext", "ServiceHandle", "load_toolkit",
    # notebooks
    "Env", "load_ipython_extension",
    # models
    "Model", "Message", "ModelReply", "Usage", "make_model", "model_provider", "Scripted",
    # an agent's own loop
    "Episode", "StepRecord", "extract_code",
    # tasks, runs and reports from Python
    "Task", "load_tasks", "SUITES_DIR", "Config", "load_config", "Run", "RunOptions", "validate",
    "write_report", "compare_runs",
    "__version__",
]

REGISTRY = "deskact.runtime.agent.models.registry"


def test_all_is_exactly_the_public_list() -> None:
    assert sorted(deskact.__all__) == sorted(PUBLIC)
    assert sorted(deskact._PUBLIC) == sorted(set(PUBLIC) - {"__version__", "load_ipython_extension"})
    assert sorted(deskact.toolkits.__all__) == ["ServiceContext", "ServiceHandle", "Toolkit"]


@pytest.mark.parametrize("name", [n for n in PUBLIC if n != "__version__"])
def test_each_public_name_resolves_to_its_module_object(name: str) -> None:
    if name == "model_provider" and importlib.util.find_spec(REGISTRY) is None:
        pytest.skip(f"{REGISTRY} (the model provider registry) is not in the tree yet")
    value = getattr(deskact, name)
    module = getattr(value, "__module__", None)
    if module is not None and module.startswith("deskact.") and module != "deskact":
        # The same object the defining module holds: isinstance checks and registries agree.
        assert getattr(importlib.import_module(module), name) is value


def test_toolkit_interface_is_the_same_from_both_places() -> None:
    for name in deskact.toolkits.__all__:
        assert getattr(deskact.toolkits, name) is getattr(deskact, name)


def test_version_is_a_string() -> None:
    assert isinstance(deskact.__version__, str) and deskact.__version__


def test_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        deskact.no_such_name  # noqa: B018


def _run(code: str, tmp_path: Path) -> str:
    script = tmp_path / "probe.py"
    script.write_text(code)
    proc = subprocess.run([sys.executable, str(script)], check=False, capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


OLD_PATHS = sorted(MOVED) + ["deskact.runtime.models.base"]  # a prefix entry covers submodules too

PROBE = """
import importlib, json, sys, warnings
out = {}
for old in %r:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    deprecations = [w for w in caught if issubclass(w.category, DeprecationWarning) and old in str(w.message)]
    out[old] = {"module": module.__name__, "same": module is sys.modules[module.__name__],
                "messages": [str(w.message) for w in deprecations],
                "files": [w.filename for w in deprecations]}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def old_imports(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, dict], str]:
    folder = tmp_path_factory.mktemp("old_paths")
    return json.loads(_run(PROBE % (OLD_PATHS,), folder)), str(folder / "probe.py")


@pytest.mark.parametrize("old", OLD_PATHS)
def test_old_path_warns_naming_the_new_one_and_is_the_same_module(
    old: str, old_imports: tuple[dict[str, dict], str]
) -> None:
    results, probe = old_imports
    got = results[old]
    new = MOVED.get(old) or next(v + old[len(k):] for k, v in MOVED.items() if old.startswith(k + "."))
    assert got["module"] == new and got["same"]
    assert len(got["messages"]) == 1 and new in got["messages"][0]
    assert got["files"] == [probe]  # the importing file, not sys:1 or importlib's


def test_import_deskact_stays_light(tmp_path: Path) -> None:
    loaded = json.loads(_run("import json, sys\nimport deskact\nprint(json.dumps(sorted(sys.modules)))", tmp_path))
    ours = [m for m in loaded if m == "deskact" or m.startswith("deskact.")]
    assert ours == ["deskact", "deskact.runtime", "deskact.runtime.legacy_paths"]
    heavy = {"numpy", "pydantic", "yaml", "jinja2", "typer", "rich", "PIL", "jupyter_client", "importlib.metadata"}
    assert heavy.isdisjoint(loaded), sorted(heavy & set(loaded))
