"""What a kernel says when a toolkit's module does not import: the module, where it looked, why.

A bare ``ModuleNotFoundError`` from inside a sandbox leaves a user guessing: the
world hides the host's home folders and /tmp, so a module the host imports may
be invisible to the kernel. The message names the module, the kernel's own
``sys.path`` (asked from the kernel right after the failure) and the ways out.
"""

from __future__ import annotations

import json

IMPORT_ERRORS = ("ModuleNotFoundError", "ImportError")

SYS_PATH_PROBE = "import json as _j, sys as _s\nprint(_j.dumps(_s.path))\ndel _j, _s\n"
"""Run in the kernel after a failed import: prints its sys.path as one JSON line."""


def describe_import_failure(toolkit: str, ename: str, evalue: str, probe_stdout: str) -> str:
    """One message for a toolkit preload that raised ``ename``; ``probe_stdout`` is SYS_PATH_PROBE's output."""
    try:
        searched = [p for p in json.loads(probe_stdout.strip().splitlines()[-1]) if p]
    except (ValueError, IndexError):
        searched = []
    where = ", ".join(searched) if searched else "(the kernel did not answer)"
    return (f"the kernel cannot import toolkit {toolkit!r}'s module: {ename}: {evalue}; "
            f"the kernel searched sys.path = [{where}]. Install the module into deskact's venv "
            "(pip install), or import it on the host from a folder of its own (a folder on sys.path "
            "or an editable install; worlds show it read-only), or put its folder in the toolkit "
            "service's ServiceHandle.env['PYTHONPATH'] (docs/toolkits.md)")
