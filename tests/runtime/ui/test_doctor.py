"""deskact doctor: what this machine has, and how kernels will start."""

from __future__ import annotations

import os
import sys

import pytest
from deskact.runtime.config import Config
from deskact.runtime.ui.doctor import NO_WORLDS, Check, run_checks, world_checks, world_verdict
from deskact.runtime.world.cgroups import layout
from deskact.runtime.world.sandbox import sandbox_status
from deskact.runtime.world.world import world_status


def kernel_start(config: Config) -> str:
    (check,) = [c for c in run_checks(config) if c.item == "kernel start"]
    assert check.ok
    return check.detail


def test_kernel_start_says_how_kernels_will_start() -> None:
    cfg = Config()
    forked = os.geteuid() == 0 and sandbox_status()[0]
    assert kernel_start(cfg).startswith("forked" if forked else "exec'd")
    cfg.kernel.fork_server = False
    assert kernel_start(cfg) == "exec'd (kernel.fork_server is false)"
    cfg = Config()
    cfg.sandbox.mode = "none"
    assert kernel_start(cfg) in ("exec'd (no bwrap sandbox)", "exec'd (forking into sandboxes needs root)")


def world_rows(config: Config) -> dict[str, Check]:
    return {c.item: c for c in world_checks(config)}


def test_world_rows_say_what_this_machine_has_and_the_verdict_matches_the_probe() -> None:
    rows = world_rows(Config())
    assert list(rows) == ["root", "user namespaces", "overlayfs", "idmapped mounts", "cgroup limits",
                          "disk quota", "worlds"]
    assert rows["root"].ok == (os.geteuid() == 0)
    ok, why = world_status()
    verdict = rows["worlds"]
    assert verdict.ok == ok
    line = world_verdict(run_checks(Config()))
    if ok and sandbox_status()[0]:
        assert line == f"worlds: yes ({why})"
        # a machine that makes worlds has every feature they are made of
        assert all(rows[item].ok for item in ("root", "user namespaces", "overlayfs", "idmapped mounts"))
    elif sandbox_status()[0]:
        assert line.startswith(f"worlds: {NO_WORLDS}")
        assert why in line
    kind, _ = layout()
    assert rows["cgroup limits"].ok == (kind != "none")
    assert ("rlimits only" in rows["cgroup limits"].detail) == (kind == "none")


def test_world_verdict_when_worlds_are_turned_off() -> None:
    cfg = Config()
    cfg.world.enabled = "off"
    if sandbox_status()[0]:
        assert world_verdict(world_checks(cfg)) == f"worlds: {NO_WORLDS} (world.enabled = off)"
    cfg.sandbox.mode = "none"
    assert world_verdict(world_checks(cfg)).startswith("worlds: no -> no sandbox")


def test_a_missing_sdk_or_ray_is_a_row_naming_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from deskact.runtime.ui.doctor import model_checks

    monkeypatch.setitem(sys.modules, "anthropic", None)  # find_spec reports such a module as absent
    monkeypatch.setitem(sys.modules, "ray", None)
    config = Config()
    config.providers["local"].api_key_env = None  # a provider without a key variable has no key row
    rows = {c.item: c for c in run_checks(config)}
    assert not rows["anthropic SDK"].ok and rows["anthropic SDK"].fix.startswith("pip install 'deskact[anthropic]'")
    assert rows["openai SDK"].ok and rows["openai SDK"].fix == ""
    assert not rows["ray"].ok and "deskact[ray]" in rows["ray"].fix
    assert "local API key" not in rows and "openai API key" in rows
    assert [c.item for c in model_checks(config) if c.item.endswith("SDK")] == ["anthropic SDK", "openai SDK", "google SDK"]
