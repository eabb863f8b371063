"""Old import paths that keep working, with a DeprecationWarning.

Modules move as the layout improves; code written against an earlier release
(a toolkit package, a notebook, a plugin judge) must not break on the day they
do. Each entry maps an old dotted path to where the module lives now. Importing
the old path warns once and returns the new module itself (not a copy), so
monkeypatching and registries see one object. A prefix entry covers a whole
moved package: ``deskact.runtime.models.base`` follows ``deskact.runtime.models``.

Add a line here whenever you move a public or documented module.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from pathlib import Path
from types import FrameType, ModuleType

MOVED: dict[str, str] = {
    # Layout of release 0.1 (one flat runtime/ folder).
    "deskact.runtime.steps": "deskact.runtime.tasks.steps",
    "deskact.runtime.steps_doc": "deskact.runtime.tasks.steps_doc",
    "deskact.runtime.models": "deskact.runtime.agent.models",
    "deskact.runtime.observation": "deskact.runtime.screen.screenshot",
    "deskact.runtime.parsing": "deskact.runtime.agent.parsing",
    "deskact.runtime.prompting": "deskact.runtime.agent.prompting",
    "deskact.runtime.confirm": "deskact.runtime.agent.confirm",
    "deskact.runtime.results": "deskact.runtime.run.results",
    "deskact.runtime.runner": "deskact.runtime.run.runner",
    "deskact.runtime.task_env": "deskact.runtime.run.task_env",
    "deskact.runtime.trajectory": "deskact.runtime.run.trajectory",
    "deskact.runtime.validate": "deskact.runtime.run.validate",
    "deskact.runtime.worker": "deskact.runtime.run.worker",
    "deskact.runtime.cli": "deskact.runtime.ui.cli",
    "deskact.runtime.doctor": "deskact.runtime.ui.doctor",
    "deskact.runtime.exec_code": "deskact.runtime.ui.exec_code",
    "deskact.runtime.notebook": "deskact.runtime.ui.notebook",
    "deskact.runtime.report": "deskact.runtime.ui.report",
    # The task format and step API left runtime/run/ for their own package.
    "deskact.runtime.run.tasks": "deskact.runtime.tasks.task",
    "deskact.runtime.run.suites": "deskact.runtime.tasks.suites",
    "deskact.runtime.run.steps": "deskact.runtime.tasks.steps",
    "deskact.runtime.run.steps_doc": "deskact.runtime.tasks.steps_doc",
    "deskact.runtime.run.feedback": "deskact.runtime.tasks.feedback",
    "deskact.runtime.run.toolkit_steps": "deskact.runtime.tasks.toolkit_steps",
    # The judges' private helpers became the public step author's helpers.
    "deskact.judges._common": "deskact.runtime.tasks.helpers",
    "deskact.reset_scripts._common": "deskact.runtime.tasks.helpers",
    # One module (or package) per judge family and reset-step family (old modules whose whole
    # content moved to one new module; the split ones, such as office_runs, have no single home).
    "deskact.judges.extra_xlsx": "deskact.judges.xlsx.numbers",
    "deskact.judges.xlsx_compare": "deskact.judges.xlsx.compare",
    "deskact.judges.xlsx_format": "deskact.judges.xlsx.format",
    "deskact.judges.extra_text": "deskact.judges.files",
    "deskact.judges.files_stat": "deskact.judges.files",
    "deskact.judges.extra_gui": "deskact.judges.windows",
    "deskact.judges.config_value": "deskact.judges.config",
    "deskact.reset_scripts.extra_gui": "deskact.reset_scripts.apps.terminal",
    "deskact.reset_scripts.download": "deskact.reset_scripts.files",
    # Screen capture left agent/ and world/ for its own package.
    "deskact.runtime.agent.observation": "deskact.runtime.screen.screenshot",
    "deskact.runtime.agent.frames": "deskact.runtime.screen.frames",
    "deskact.runtime.agent.jpeg_bands": "deskact.runtime.screen.jpeg_bands",
    "deskact.runtime.agent.shm_grab": "deskact.runtime.screen.shm_grab",
    "deskact.runtime.world.framebuffer": "deskact.runtime.screen.framebuffer",
    # The kernel became a package (deskact.runtime.world.kernel keeps its name).
    "deskact.runtime.world.kernel_launcher": "deskact.runtime.world.kernel.launcher",
    "deskact.runtime.world.kernel_forkserver": "deskact.runtime.world.kernel.forkserver",
    "deskact.runtime.world.kernel_boot": "deskact.runtime.world.kernel.boot",
    "deskact.runtime.world.kernel_import_error": "deskact.runtime.world.kernel.import_error",
    "deskact.runtime.world.kernel_shell": "deskact.runtime.world.kernel.shell",
    "deskact.runtime.world.kernel_pool": "deskact.runtime.world.kernel.pool",
    "deskact.runtime.world.kernel_outputs": "deskact.runtime.world.kernel.outputs",
    # The Google emulator's modules moved into one subpackage per API. The service
    # modules (emulator.gmail, ...) need no line: each is now a package exporting
    # the same public names.
    "deskact.toolkits.google.emulator.calendar_time": "deskact.toolkits.google.emulator.calendar.time",
    "deskact.toolkits.google.emulator.gmail_mime": "deskact.toolkits.google.emulator.gmail.mime",
    "deskact.toolkits.google.emulator.gmail_query": "deskact.toolkits.google.emulator.gmail.query",
    "deskact.toolkits.google.emulator.drive_query": "deskact.toolkits.google.emulator.drive.query",
    "deskact.toolkits.google.emulator.drive_types": "deskact.toolkits.google.emulator.drive.types",
    "deskact.toolkits.google.emulator.sheets_model": "deskact.toolkits.google.emulator.sheets.model",
    "deskact.toolkits.google.emulator.sheets_cells": "deskact.toolkits.google.emulator.sheets.cells",
    "deskact.toolkits.google.emulator.formulas": "deskact.toolkits.google.emulator.sheets.formulas",
    "deskact.toolkits.google.emulator.a1": "deskact.toolkits.google.emulator.sheets.a1",
    "deskact.toolkits.google.emulator.docs_model": "deskact.toolkits.google.emulator.docs.model",
}


def _new_name(old: str) -> str | None:
    if old in MOVED:
        return MOVED[old]
    for prefix, target in MOVED.items():
        if old.startswith(prefix + "."):
            return target + old[len(prefix):]
    return None


_IMPORTLIB_DIR = Path(importlib.__file__).parent


def _importer_level() -> int:
    """The ``stacklevel`` that names the code which asked for the old path.

    ``warnings`` skips the import system's frozen ``_bootstrap`` frames when it
    counts; ``importlib.import_module`` (and this module) are counted but are not
    the importer, so they are climbed past too.
    """
    frame: FrameType | None = sys._getframe(2)  # the caller of create_module's warn: 2 = create_module's caller
    level = 2
    while frame is not None:
        name = frame.f_code.co_filename
        if "importlib" in name and "_bootstrap" in name:
            frame = frame.f_back
            continue
        if name != __file__ and Path(name).parent != _IMPORTLIB_DIR:
            return level
        level += 1
        frame = frame.f_back
    return 1


class _Alias(importlib.abc.Loader):
    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new
        self.spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{self.old} is deprecated and will be removed; import {self.new} "
            "(or the public names in `deskact`) instead",
            DeprecationWarning,
            stacklevel=_importer_level(),
        )
        module = importlib.import_module(self.new)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system stamps the old name's spec on the module; give the
        # module its own back. Nothing else to run: it is already executed.
        module.__spec__ = self.spec


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: object = None, target: object = None
                  ) -> importlib.machinery.ModuleSpec | None:
        new = _new_name(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(fullname, new))


def install() -> None:
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
        if not sys.warnoptions:  # -W or PYTHONWARNINGS given: the user's choice stands
            # Python hides DeprecationWarnings raised outside __main__, i.e. in the plugin
            # packages that most need to hear of a moved module: show these ones, once each.
            warnings.filterwarnings("default", r"deskact\.\S+ is deprecated", DeprecationWarning)
