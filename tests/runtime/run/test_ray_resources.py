"""What a node offers a Ray cluster (deskact ray-resources), without starting Ray."""

import json
import shutil
import subprocess
import sys

import pytest
from deskact.runtime.config import Config
from deskact.runtime.run.ray_backend import DISPLAY_RESOURCE, key_env, node_resources


def test_a_node_that_can_start_displays_offers_them():
    if not (shutil.which("Xvfb") and shutil.which("openbox")):
        pytest.skip("Xvfb and openbox are needed to offer displays")
    assert node_resources(Config(), 3) == {DISPLAY_RESOURCE: 3.0}


def test_no_displays_in_display_mode_none_or_when_asked_for_none():
    config = Config()
    config.display.mode = "none"
    assert node_resources(config, 3) == {}
    assert node_resources(Config(), 0) == {}


def test_a_node_without_xvfb_offers_no_display(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None if name == "Xvfb" else "/usr/bin/" + name)
    assert node_resources(Config(), 3) == {}


def test_the_cli_prints_json_for_ray_start():
    out = subprocess.run([sys.executable, "-m", "deskact.runtime.ui.cli", "ray-resources", "--displays", "2"],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    assert json.loads(out) in ({}, {DISPLAY_RESOURCE: 2.0})


def test_only_the_configured_providers_keys_travel(monkeypatch):
    for _, provider in Config().providers:
        monkeypatch.delenv(provider.api_key_env, raising=False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "a-key")
    monkeypatch.setenv("SOME_OTHER_SECRET", "no")
    assert key_env(Config()) == {"ANTHROPIC_API_KEY": "a-key"}


def test_the_slots_of_a_dead_worker_are_given_back():
    import asyncio

    from deskact.runtime.run.ray_backend import _Semaphore

    async def scenario() -> list[str]:
        sem, seen = _Semaphore(1), []
        await sem.acquire(holder=1)  # worker 1 holds the only slot, then dies
        waiting = asyncio.ensure_future(sem.acquire(holder=2))
        await asyncio.sleep(0.05)
        seen.append(f"blocked={not waiting.done()}")
        seen.append(f"given back={await sem.forget(1)}")
        await asyncio.wait_for(waiting, timeout=30)
        await sem.release(holder=1)  # a late release of the dead worker frees nothing
        seen.append(f"locked={sem._sem.locked()}")
        return seen

    assert asyncio.run(scenario()) == ["blocked=True", "given back=1", "locked=True"]


def test_the_display_check_is_doctors():
    from deskact.runtime.run.ray_backend import DISPLAY_PROGRAMS
    from deskact.runtime.ui.doctor import PROGRAMS

    assert tuple(prog for capability, prog, _ in PROGRAMS if capability == "virtual display") == DISPLAY_PROGRAMS
