"""The kernel process's entry point: ipykernel without its debugger.

Run as ``python -m deskact.runtime.kernel_launcher -f CONNECTION_FILE ...``
(ipykernel's own arguments). Starting a kernel is CPU-bound and happens once
per task, so two things it does not need are left out:

- debugpy. ipykernel imports it at startup to offer the Jupyter debugger
  (DAP), ~50 ms of CPU per kernel (a quarter of its start) that no agent
  uses. With ``debugpy`` marked as missing, ipykernel runs without a
  debugger, as it does where debugpy is not installed.
- Garbage collection during the imports. They allocate tens of thousands of
  long-lived objects and trigger collections that find nothing to free.
  ``kernel_boot.load_ipython_extension`` freezes what startup made and turns
  collection back on before any code runs.

Measured (BENCHMARKS.md, "Kernel start"): 220 -> 155 ms of kernel CPU.
"""

import gc
import sys

if __name__ == "__main__":
    # As ipykernel_launcher does: the cwd (the agent's workspace) must not shadow modules.
    if sys.path and sys.path[0] in ("", "."):
        del sys.path[0]
    gc.disable()
    sys.modules["debugpy"] = None  # type: ignore[assignment]  # import debugpy -> ImportError

    from ipykernel import kernelapp

    kernelapp.launch_new_instance()
