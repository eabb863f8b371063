"""With fixed malloc thresholds a large block freed by one task does not turn the next ones into
arena memory: each is mapped on its own and unmapped when freed (glibc only)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = r"""
import ctypes, json, sys, threading
from deskact.runtime.run.allocator import fix_malloc_thresholds

class MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]

libc = ctypes.CDLL("libc.so.6")
libc.mallinfo2.restype = MallInfo2
fixed = fix_malloc_thresholds() if sys.argv[1] == "fixed" else False
kept = []

def task():  # what a task's thread does: a frame-sized buffer, freed, then another, kept
    frame = bytearray(8 << 20)
    del frame
    kept.append(bytearray(8 << 20))

for _ in range(3):
    t = threading.Thread(target=task)
    t.start()
    t.join()
info = libc.mallinfo2()
print(json.dumps({"fixed": fixed, "mapped": info.hblkhd, "arena_free": info.fordblks}))
"""


def probe(mode: str) -> dict[str, int]:
    out = subprocess.run([sys.executable, "-c", PROBE, mode], capture_output=True, text=True, check=True,
                         env={"PATH": "/usr/bin:/bin"})
    return json.loads(out.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc")
def test_large_blocks_stay_mapped_after_one_is_freed() -> None:
    default, fixed = probe("default"), probe("fixed")
    assert fixed["fixed"]
    assert fixed["mapped"] >= 3 * (8 << 20)  # the three kept frames, each its own mapping
    assert fixed["arena_free"] < 8 << 20  # no freed frame left resident in an arena
    # glibc's own behaviour, which the fix is for: after the first free the threshold rose past
    # 8 MB, so later frames came from the threads' arenas (which keep them once freed)
    assert default["mapped"] < 3 * (8 << 20)
