"""``deskact doctor``: what this machine has and lacks, per capability, with the fix."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from pydantic import BaseModel

from ..config import Config


class Check(BaseModel):
    capability: str
    item: str
    ok: bool
    detail: str = ""
    fix: str = ""


# (capability, program, apt package)
PROGRAMS = [
    ("virtual display", "Xvfb", "xvfb"),
    ("virtual display", "openbox", "openbox"),
    ("gui toolkit", "xdotool", "xdotool"),
    ("gui toolkit", "wmctrl", "wmctrl"),
    ("gui toolkit", "xclip", "xclip"),
    ("apps", "xterm", "xterm"),
    ("apps", "mousepad", "mousepad"),
    ("apps", "soffice", "libreoffice-calc libreoffice-writer libreoffice-impress"),
    ("watch live", "x11vnc", "x11vnc"),
    ("sandbox", "bwrap", "bubblewrap"),
    ("report tests", "chromium", "chromium chromium-driver"),
]


def run_checks(config: Config) -> list[Check]:
    checks = []
    for capability, program, package in PROGRAMS:
        path = shutil.which(program)
        checks.append(Check(capability=capability, item=program, ok=path is not None, detail=path or "not found",
                            fix="" if path else f"sudo apt-get install -y {package}"))
    checks.append(_sandbox_check())
    checks.append(_kernel_start_check(config))
    for name, provider in config.providers:
        var = provider.api_key_env
        present = bool(os.environ.get(var))
        checks.append(Check(capability="models", item=f"{name} API key", ok=present,
                            detail=f"${var} {'set' if present else 'not set'}",
                            fix="" if present else f"export {var}=... (only needed for {name}/* models)"))
    checks.append(_google_check(config))
    return checks


def _sandbox_check() -> Check:
    try:
        from ..world.sandbox import sandbox_status

        ok, detail = sandbox_status()
    except ImportError as exc:
        ok, detail = False, f"sandbox module unavailable: {exc}"
    return Check(capability="sandbox", item="bwrap sandbox works", ok=ok, detail=detail,
                 fix="" if ok else "sudo apt-get install -y bubblewrap (and allow unprivileged user namespaces)")


def _kernel_start_check(config: Config) -> Check:
    """Informational: whether kernels will be forked from a pre-imported one (~50 ms) or exec'd (~170 ms)."""
    from ..world.kernel import why_exec

    reason = why_exec(config)
    detail = "forked from a pre-imported kernel into each sandbox" if reason is None else f"exec'd ({reason})"
    return Check(capability="sandbox", item="kernel start", ok=True, detail=detail)


def _google_check(config: Config) -> Check:
    g = config.google
    if g.backend == "emulator":
        return Check(capability="google", item="google backend", ok=True, detail="local emulator (no account needed)")
    files = [f for f in (g.token_file, g.service_account_file) if f]
    present = [f for f in files if Path(f).expanduser().is_file()]
    return Check(capability="google", item="google credentials", ok=bool(present),
                 detail=", ".join(present) or "no token_file or service_account_file found",
                 fix="" if present else "deskact google login (or set google.service_account_file)")
