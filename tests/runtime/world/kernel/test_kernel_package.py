"""The kernel package: its names resolve on first use, and the kernel side imports none of the host side."""

from __future__ import annotations

import json
import subprocess
import sys

import deskact.runtime.world.kernel as kernel_package
import pytest


def _modules_after(statement: str) -> list[str]:
    code = f"import sys\n{statement}\nprint(__import__('json').dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    return json.loads(out.stdout.splitlines()[-1])


def test_kernel_side_modules_import_no_host_side() -> None:
    loaded = _modules_after("import deskact.runtime.world.kernel.boot, deskact.runtime.world.kernel.launcher")
    host_side = {"deskact.runtime.world.kernel.session", "deskact.runtime.world.kernel.process", "jupyter_client",
                 "zmq", "deskact.runtime.config"}
    assert host_side.isdisjoint(loaded), sorted(host_side.intersection(loaded))


def test_every_exported_name_resolves_to_its_module() -> None:
    from deskact.runtime.world.kernel import pool, session

    for name in kernel_package.__all__:
        assert getattr(kernel_package, name) is not None, name
    assert kernel_package.KernelSession is session.KernelSession
    assert kernel_package.KernelPool is pool.KernelPool
    with pytest.raises(AttributeError, match="no attribute 'CappedText'"):
        _ = kernel_package.CappedText
