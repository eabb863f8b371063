"""Recompute an .xlsx with headless LibreOffice (for formulas saved without cached values).

openpyxl writes formulas but no results, and reads only the results an app
cached; a file produced by a Python script therefore has formulas with no
values until something computes them. LibreOffice does, on load.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from ..runtime.tasks.step_paths import StepPath

_lock = threading.Lock()  # one headless soffice per profile at a time


def soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def recalculated_copy(path: Path | StepPath, out_dir: Path, timeout: float = 120) -> Path:
    """Convert ``path`` to .xlsx in ``out_dir`` with LibreOffice (values computed) and return it.

    A file of the agent's (a ``StepPath``) is copied to the host first, through its descriptor:
    soffice is another process and would resolve any name it is given by itself."""
    exe = soffice()
    if exe is None:
        raise RuntimeError("LibreOffice (soffice) is not installed, so formulas without cached values cannot be computed")
    if isinstance(path, StepPath):
        source = out_dir / "source"
        source.mkdir(parents=True, exist_ok=True)
        local = source / (path.name or "book.xlsx")
        local.write_bytes(path.read_bytes())
        path = local
    # A profile of our own per process: a desktop soffice on the same profile would swallow the call.
    profile = Path(tempfile.gettempdir()) / f"deskact-lo-headless-{os.getuid()}-{os.getpid()}"
    with _lock:
        if not profile.exists():
            atexit.register(shutil.rmtree, profile, ignore_errors=True)
        proc = subprocess.run(
            [exe, "--headless", "--norestore", "--nologo", f"-env:UserInstallation=file://{profile}",
             "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", str(out_dir), str(path)],
            capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL, check=False,
        )
    out = out_dir / (path.stem + ".xlsx")
    if proc.returncode != 0 or not out.exists():
        raise RuntimeError(f"LibreOffice could not recompute {path.name}: {(proc.stderr or proc.stdout).strip()[-300:]}")
    return out
