"""deskact: a runtime for code-as-action computer agents.

The public API is the names in ``__all__``: import them from here
(``from deskact import judge, Verdict, StepContext, clip``). Their modules may
move; these names stay. Each is imported on first use, not by ``import
deskact``: the agent's kernel imports this package and must start fast.
"""

from __future__ import annotations

from typing import Any

from .runtime.legacy_paths import install as _install_legacy_paths

# Old module paths of earlier releases resolve (with a DeprecationWarning) from the first import.
_install_legacy_paths()

_STEPS = "deskact.runtime.tasks.steps"
_HELPERS = "deskact.runtime.tasks.helpers"
_TOOLKITS = "deskact.toolkits.base"
_MODELS = "deskact.runtime.agent.models"

# public name -> the module that defines it today
_PUBLIC: dict[str, str] = {
    # writing reset steps and judges
    "judge": _STEPS,
    "reset_step": _STEPS,
    "Verdict": _STEPS,
    "StepContext": _STEPS,
    "StepFailed": _STEPS,
    "run_judge": _STEPS,  # a step's own tests call it as a task would
    "run_reset": _STEPS,
    # the step author's helpers
    "clip": _HELPERS,
    "short": _HELPERS,
    "normalize": _HELPERS,
    "check_text": _HELPERS,
    "FileMode": _HELPERS,
    "Regex": _HELPERS,
    "fixture": _HELPERS,
    "gold_file": _HELPERS,
    "step_path": _HELPERS,
    "make_dirs": _HELPERS,
    "give_to_world": _HELPERS,
    "shown": _HELPERS,
    # writing toolkits
    "Toolkit": _TOOLKITS,
    "ServiceContext": _TOOLKITS,
    "ServiceHandle": _TOOLKITS,
    "load_toolkit": _TOOLKITS,
    # notebooks
    "Env": "deskact.runtime.ui.notebook",
    # models
    "Model": _MODELS + ".base",
    "Message": _MODELS + ".base",
    "ModelReply": _MODELS + ".base",
    "Usage": _MODELS + ".base",
    "make_model": _MODELS,
    "model_provider": _MODELS + ".registry",
    "Scripted": _MODELS + ".offline",
    # an agent's own loop (a Model's episode_class; docs/models.md)
    "Episode": "deskact.runtime.agent.agent",
    "StepRecord": "deskact.runtime.agent.agent",
    "extract_code": "deskact.runtime.agent.parsing",
    # tasks, runs and reports from Python (the notebooks)
    "Task": "deskact.runtime.tasks.task",
    "load_tasks": "deskact.runtime.tasks.task",
    "SUITES_DIR": "deskact.runtime.tasks.task",
    "Config": "deskact.runtime.config",
    "load_config": "deskact.runtime.config",
    "Run": "deskact.runtime.run.runner",
    "RunOptions": "deskact.runtime.run.runner",
    "validate": "deskact.runtime.run.validate",
    "write_report": "deskact.runtime.ui.report",
    "compare_runs": "deskact.runtime.ui.report",
}

# Spelled out (not built from _PUBLIC) so linters and readers see the API; tests/test_public_api.py
# checks that both agree.
__all__ = [
    "SUITES_DIR",
    "Config",
    "Env",
    "Episode",
    "FileMode",
    "Message",
    "Model",
    "ModelReply",
    "Regex",
    "Run",
    "RunOptions",
    "Scripted",
    "ServiceContext",
    "ServiceHandle",
    "StepContext",
    "StepFailed",
    "StepRecord",
    "Task",
    "Toolkit",
    "Usage",
    "Verdict",
    "__version__",
    "check_text",
    "clip",
    "compare_runs",
    "extract_code",
    "fixture",
    "give_to_world",
    "gold_file",
    "judge",
    "load_config",
    "load_ipython_extension",
    "load_tasks",
    "load_toolkit",
    "make_dirs",
    "make_model",
    "model_provider",
    "normalize",
    "reset_step",
    "run_judge",
    "run_reset",
    "short",
    "shown",
    "step_path",
    "validate",
    "write_report",
]


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext deskact``: registers %%act and %deskact_screen."""
    from .runtime.ui.notebook import load_ipython_extension as load

    load(ipython)


def __getattr__(name: str) -> Any:
    if name in _PUBLIC:
        import importlib

        value = getattr(importlib.import_module(_PUBLIC[name]), name)
        globals()[name] = value  # later lookups skip this function
        return value
    if name == "__version__":
        # importlib.metadata reads the installed distribution: a few ms nobody should pay at import.
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("deskact")
        except PackageNotFoundError:  # running from a source tree that is not installed
            found = "0.0.0"
        globals()["__version__"] = found
        return found
    raise AttributeError(f"module 'deskact' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
