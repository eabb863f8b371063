"""Runs desktop-env's metric functions for the conformance tests, in the conformance venv.

Started as ``.venv-conformance/bin/python desktop_env_server.py``: reads one JSON call per line
on stdin (``{"module": "docs", "func": "compare_docx_files", "args": [...], "kwargs": {...}}``)
and answers one JSON line: ``{"score": 1.0}``, or ``{"error": "..."}`` when the metric raised.
A getter call (``{"getter": "chrome", "func": "get_new_startup_page", ...}``, see ``getter``)
answers ``{"value": ...}``: what the getter returns from local files.

The metric modules are loaded from their files: the package's ``__init__`` imports every
metric module and with them torch, playwright and the rest of desktop-env's dependencies. The
packages above them are made as empty modules whose ``__path__`` points at the real folders, so
``from desktop_env.evaluators.metrics.utils import ...`` inside a metric module still resolves.
Modules a metric file imports at its top for functions no translated metric calls are stubbed
(a call would fail loudly on the stub, not pass): easyocr (docs.py's OCR), bs4, fitz and borb
(chrome.py's HTML parsing of live pages, its PDF comparison where PyMuPDF is missing), and the audio
libraries of vlc.py (acoustid, librosa, fastdtw). OpenCV and imagehash (compare_videos, gimp.py) are
installed.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
import tempfile
import traceback
import types
from pathlib import Path


def _package(name: str, path: Path) -> None:
    module = types.ModuleType(name)
    module.__path__ = [str(path)]
    sys.modules[name] = module


def _stub(name: str, **attrs: object) -> None:
    module = types.ModuleType(name)
    for key, value in attrs.items():
        setattr(module, key, value)
    sys.modules[name] = module


def _unavailable(*_: object, **__: object) -> object:
    raise RuntimeError("stubbed in the conformance venv (no OCR or colour science installed)")


def setup() -> None:
    spec = importlib.util.find_spec("desktop_env")
    assert spec is not None and spec.submodule_search_locations, "desktop-env is not installed"
    root = Path(next(iter(spec.submodule_search_locations)))
    _package("desktop_env", root)
    _package("desktop_env.evaluators", root / "evaluators")
    _package("desktop_env.evaluators.metrics", root / "evaluators" / "metrics")
    _stub("easyocr", Reader=_unavailable)
    # chrome.py parses live pages' HTML (bs4) and compares PDFs (fitz, borb); its translated
    # metrics do neither.
    _stub("bs4", BeautifulSoup=_unavailable, Tag=type("Tag", (), {}))
    try:  # PyMuPDF, for compare_pdfs (setup_conformance.sh installs it); without it, a stub
        importlib.import_module("fitz")
    except ImportError:
        _stub("fitz", open=_unavailable)
    _stub("borb")
    _stub("borb.pdf", Document=_unavailable, PDF=_unavailable)
    for name in ("acoustid", "librosa", "fastdtw"):
        _stub(name, fastdtw=_unavailable)


class _Controller:
    """The VM controller as a getter sees it, on this machine: every python command prints
    ``output`` (the file path the getter asks the VM for), ``get_file`` reads ``files[path]``."""

    def __init__(self, output: str, files: dict[str, str]) -> None:
        self.output, self.files = output, files

    def execute_python_command(self, command: str) -> dict:
        return {"output": self.output}

    def get_file(self, path: str) -> bytes | None:
        local = self.files.get(path)
        return Path(local).read_bytes() if local and Path(local).exists() else None


def getter(request: dict) -> dict:
    """``{"getter": "chrome", "func": "get_x", "output": ..., "files": {vm path: local path}}``: the
    getter's value, run against a ``_Controller`` (desktop-env's getters need its VM)."""
    if "desktop_env.evaluators.getters" not in sys.modules:
        root = Path(sys.modules["desktop_env"].__path__[0])
        _package("desktop_env.evaluators.getters", root / "evaluators" / "getters")
        _stub("playwright")  # chrome.py's live-page getters drive Chrome with these; the file getters do not
        _stub("playwright.sync_api", sync_playwright=_unavailable, expect=_unavailable)
        _stub("pydrive")
        _stub("pydrive.auth", GoogleAuth=_unavailable)
        _stub("pydrive.drive", GoogleDrive=_unavailable, GoogleDriveFileList=list, GoogleDriveFile=dict)
    module = importlib.import_module(f"desktop_env.evaluators.getters.{request['getter']}")
    # File getters copy what they fetch into the env's cache folder (a new one per call).
    env = types.SimpleNamespace(vm_platform="Linux", controller=_Controller(request["output"], request["files"]),
                                cache_dir=tempfile.mkdtemp(prefix="desktop-env-cache-"))
    try:
        return {"value": getattr(module, request["func"])(env, request.get("config", {}))}
    except Exception as exc:  # noqa: BLE001 - the getter's crash is an answer too
        return {"error": f"{type(exc).__name__}: {exc}"}


def call(request: dict) -> dict:
    if "getter" in request:
        return getter(request)
    module = importlib.import_module(f"desktop_env.evaluators.metrics.{request['module']}")
    func = getattr(module, request["func"])
    try:
        score = func(*request.get("args", []), **request.get("kwargs", {}))
    except Exception as exc:  # noqa: BLE001 - the metric's crash is an answer too
        return {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()[-2000:]}
    if not isinstance(score, (int, float)):  # some metrics fall off their end and give None
        return {"error": f"the metric returned {score!r}, not a score"}
    return {"score": float(score)}


def main() -> None:
    setup()
    out = sys.stdout
    sys.stdout = sys.stderr  # metrics print their debugging; keep the answer channel clean
    for line in sys.stdin:
        if line.strip():
            out.write(json.dumps(call(json.loads(line))) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
