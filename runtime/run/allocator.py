"""glibc malloc in a process that runs tasks: fixed thresholds, so what a task frees goes back.

glibc raises its mmap threshold each time a large mmapped block is freed (up to 32 MB), and the
trim threshold with it (to twice that). In the runner, large buffers (a screen's frame, 8 MB at
1920x1080; an encoded screenshot; a parsed document) are made in many threads, so after the first
ones are freed every later one comes from a thread's arena, and each arena keeps up to twice the
largest freed block at its top, which ``malloc_trim`` does not release for arenas other than the
main one. The runner's memory then grew by round (issue 25's soak: 595 -> 768 -> 849 MB over three
rounds of the built-in suites) with ~35 MB in use. Fixed thresholds (set, they stop adjusting):
blocks of ``MMAP_THRESHOLD`` and more are mapped and unmapped on their own, and an arena returns
free space past ``TRIM_THRESHOLD`` at its top. ``MALLOC_MMAP_THRESHOLD_``/``MALLOC_TRIM_THRESHOLD_``
or ``GLIBC_TUNABLES`` in the environment are left to rule.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading

MMAP_THRESHOLD = 1 << 20
TRIM_THRESHOLD = 2 << 20
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3

_done = False
_lock = threading.Lock()


def fix_malloc_thresholds() -> bool:
    """Fix glibc's thresholds in this process, once; False where there is nothing to do (another
    libc, or the environment sets them)."""
    global _done
    with _lock:
        if _done:
            return True
        if not sys.platform.startswith("linux") or any(
                name in os.environ for name in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "GLIBC_TUNABLES")):
            return False
        try:
            libc = ctypes.CDLL("libc.so.6")
            mallopt = libc.mallopt
        except (OSError, AttributeError):
            return False  # not glibc (musl has no libc.so.6)
        _done = bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
        return _done
