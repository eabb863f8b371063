"""The kernel process's entry point: ipykernel without its debugger.

Run as ``python -m deskact.runtime.world.kernel.launcher -f CONNECTION_FILE ...``
(ipykernel's own arguments), or called as ``run(argv)`` in a kernel forked by
``forkserver``. Starting a kernel is CPU-bound and happens once per
task, so two things it does not need are left out:

- debugpy. ipykernel imports it at startup to offer the Jupyter debugger
  (DAP), ~50 ms of CPU per kernel (a quarter of its start) that no agent
  uses. With ``debugpy`` marked as missing, ipykernel runs without a
  debugger, as it does where debugpy is not installed.
- Garbage collection during the imports. They allocate tens of thousands of
  long-lived objects and trigger collections that find nothing to free.
  ``boot.load_ipython_extension`` freezes what startup made and turns
  collection back on before any code runs.

Measured (BENCHMARKS.md, "Kernel sessions"): 230 -> 165 ms of kernel CPU.
"""

import gc
import sys


def drop_cwd_from_path() -> None:
    """As ipykernel_launcher does for ``python -m``: the cwd (the agent's workspace, or the
    host's for the fork server) must not shadow modules; IPython puts '' back when the shell starts."""
    import os

    if sys.path and sys.path[0] in ("", ".", os.getcwd()):
        del sys.path[0]


def prepare() -> None:
    """Before importing ipykernel: no debugger, no collections during the imports."""
    gc.disable()
    sys.modules["debugpy"] = None  # type: ignore[assignment]  # import debugpy -> ImportError


def run(argv: list[str]) -> None:
    """Start ipykernel with ``argv`` (its command-line arguments) and serve until killed."""
    prepare()
    from ipykernel import kernelapp

    sys.argv = [__file__, *argv]
    kernelapp.launch_new_instance(argv=argv)


if __name__ == "__main__":
    drop_cwd_from_path()
    run(sys.argv[1:])
