"""Recompute an .xlsx with headless LibreOffice (for formulas saved without cached values).

openpyxl writes formulas but no results, and reads only the results an app
cached; a file produced by a Python script therefore has formulas with no
values until something computes them. LibreOffice does, on load.
"""

from __future__ import annotations

import atexit
import fcntl
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from ..runtime.tasks.limits import runner_pid
from ..runtime.tasks.step_paths import StepPath

_lock = threading.Lock()  # one headless soffice per profile at a time (and flock across judges' processes)


def _profile() -> Path:
    """A profile of our own per runner: a desktop soffice on the same profile would swallow the call.
    Judges' child processes share their runner's, which removes it at exit (the runner imports this
    module with the xlsx judges)."""
    return Path(tempfile.gettempdir()) / f"deskact-lo-headless-{os.getuid()}-{runner_pid()}"


def _remove_profile() -> None:
    shutil.rmtree(_profile(), ignore_errors=True)
    Path(f"{_profile()}.lock").unlink(missing_ok=True)


if runner_pid() == os.getpid():
    atexit.register(_remove_profile)


def _fresh_lock() -> None:
    global _lock
    _lock = threading.Lock()  # a judge forked while another worker's thread held it would wait forever


os.register_at_fork(after_in_child=_fresh_lock)


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
    profile = _profile()
    with _lock, open(f"{profile}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        proc = subprocess.run(
            [exe, "--headless", "--norestore", "--nologo", f"-env:UserInstallation=file://{profile}",
             "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", str(out_dir), str(path)],
            capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL, check=False,
        )
    out = out_dir / (path.stem + ".xlsx")
    if proc.returncode != 0 or not out.exists():
        raise RuntimeError(f"LibreOffice could not recompute {path.name}: {(proc.stderr or proc.stdout).strip()[-300:]}")
    return out
