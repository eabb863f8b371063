"""Every registered step and judge that takes a path, raced by a process swapping that path.

A process the agent left running keeps renaming a workspace entry between a
regular file, a folder and symlinks to a host file and a host folder, while the
host runs each path-taking step and judge (found in the registry from the
functions' signatures) hundreds of times in all. The host victims' bytes,
modes, owners, times and listings must not change, and no verdict may quote the
victim's content. Host code opens paths by descriptors inside the world's root
(runtime/world/rooted.py), so a swap can only ever lead to the world's own files.

The same race runs without a world (``world.enabled: off``), with the swapper a
thread on the host: the workspace is then the root and a link out is refused.
"""

from __future__ import annotations

import inspect
import os
import shutil
import sys
import threading
import time
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from deskact.runtime.tasks.steps import REGISTRY, StepContext, StepSpec, load_plugins, run_judge, run_reset

pytestmark = pytest.mark.slow  # ~10-20 s for both modes: outside `make check`, in CI's full run

MARKER = "host-victim-4f1d"
PATH_PARAMS = ("path", "dst", "dir", "folder")
"""Parameter names that name a file or folder where the agent may be (src, reference and gold
name the suite's own files)."""
VARIANTS = ("slot", "slot/inner")  # the entry itself, and an entry below it (a swapped parent)
TRIES = 6  # per step, variant and mode: with ~50 steps, 600 tries in each mode

SAMPLES: dict[str, Any] = {
    "mode": "0777", "user": "root", "src": "seed.txt", "content": "written by the step",
    "paragraphs": ["x"], "slides": [{"title": "x"}], "sheets": {"S": [[1]]}, "names": ["x"], "count": 1,
    "equals": "x", "reference": "gold.txt", "index": 0, "text": "x", "key": "x", "gold": "gold.txt",
    "sheet": "S", "name": "*", "subject_contains": "x",
}
PER_STEP: dict[str, dict[str, Any]] = {
    "xlsx.cells": {"cells": {"A1": 1}}, "xlsx.formula": {"cells": {"A1": "=1"}},
    "xlsx.numbers": {"cells": ["A1"]}, "xlsx.format": {"cells": "A1"}, "xlsx.validation": {"cells": "A1"},
    "files.download": {"url": "file://{files}/seed.txt"}, "config.libreoffice": {"item": "/x", "prop": "y"}, "csv.rows": {"equals": [["x"]]},
    "xlsx.charts": {"props": ["type"]}, "browser.serve": {"timeout": 0.1},
    "apps.open": {"timeout": 0.1},
}


def path_steps() -> list[tuple[StepSpec, str]]:
    """(step, its path parameter) for every registered step and judge with one, from its signature."""
    load_plugins()
    found = []
    for specs in REGISTRY.values():
        for spec in sorted(specs.values(), key=lambda s: s.name):
            for name, param in inspect.signature(spec.func).parameters.items():
                if name in PATH_PARAMS and param.annotation in (str, "str"):
                    found.append((spec, name))
    return found


def _sample_of(annotation: Any) -> Any:
    """A value of a simple parameter type (a Literal's first choice, "x", 0, False, [], {}), or None."""
    if typing.get_origin(annotation) is typing.Literal:
        return typing.get_args(annotation)[0]
    simple = {str: "x", int: 0, float: 0.0, bool: False}
    if annotation in simple:
        return simple[annotation]
    return {list: [], dict: {}}.get(typing.get_origin(annotation))


def params_for(spec: StepSpec, param: str, value: str, files: Path) -> dict[str, Any]:
    """Valid params for ``spec`` with ``param`` = ``value``: a path step without samples fails here,
    so a new one cannot escape this test."""
    fields = spec.params.model_fields
    chosen = {param: value}
    for name, info in fields.items():
        if name == param or not info.is_required():
            continue
        extra = PER_STEP.get(spec.name, {})
        if name in extra:
            chosen[name] = extra[name]
        elif name in SAMPLES:
            chosen[name] = SAMPLES[name]
        elif (sample := _sample_of(info.annotation)) is not None:
            chosen[name] = sample
        else:
            pytest.fail(f"{spec.name} takes a path ({param}) and needs a sample for its param {name!r}"
                        " in this test's SAMPLES or PER_STEP")
    for name, sample in PER_STEP.get(spec.name, {}).items():
        chosen.setdefault(name, sample)
    if spec.one_of and not any(name in chosen for name in spec.one_of):
        chosen[spec.one_of[0]] = SAMPLES.get(spec.one_of[0], "x")
    chosen = {k: (v.format(files=files) if isinstance(v, str) else v) for k, v in chosen.items()}
    try:
        spec.validate(chosen)
    except ValueError as exc:
        pytest.fail(f"{spec.name} takes a path ({param}); give its params samples in this test's SAMPLES"
                    f" or PER_STEP: {exc}")
    return chosen


SWAPPER = r"""
import os, shutil, sys
ws, victim_file, victim_dir = sys.argv[1:4]
slot = os.path.join(ws, "slot")
i = 0
while not os.path.exists(os.path.join(ws, "stop-swapping")):
    try:
        if os.path.islink(slot) or os.path.isfile(slot):
            os.unlink(slot)
        elif os.path.isdir(slot):
            shutil.rmtree(slot)
        kind = i % 4
        if kind == 0:
            with open(slot, "w") as f:
                f.write("agent")
        elif kind == 1:
            os.mkdir(slot)
            with open(os.path.join(slot, "inner"), "w") as f:
                f.write("agent")
        elif kind == 2:
            os.symlink(victim_file, slot)
        else:
            os.symlink(victim_dir, slot)
    except OSError:
        pass
    i += 1
"""


def snapshot(victim_file: Path, victim_dir: Path) -> dict[str, Any]:
    def one(p: Path) -> tuple[Any, ...]:
        st = os.lstat(p)
        return (p.read_bytes() if p.is_file() else None, st.st_mode, st.st_uid, st.st_gid, st.st_mtime_ns)

    return {"file": one(victim_file), "dir": one(victim_dir), "listing": sorted(os.listdir(victim_dir)),
            "inner": one(victim_dir / "inner")}


def make_victims(host: Path) -> tuple[Path, Path]:
    host.mkdir()
    victim_file, victim_dir = host / "victim.txt", host / "victim-dir"
    victim_file.write_text(MARKER)
    victim_file.chmod(0o640)
    victim_dir.mkdir(mode=0o750)
    (victim_dir / "inner").write_text(MARKER)
    (victim_dir / "inner").chmod(0o640)
    return victim_file, victim_dir


def seed_suite(ctx: StepContext) -> None:
    (ctx.files / "seed.txt").write_text("seed")
    assert ctx.gold is not None
    (ctx.gold / "gold.txt").write_text("gold")


_watched: list[str] = []
_opened: list[str] = []
_steps_thread = threading.get_ident()


def _audit(event: str, args: tuple[Any, ...]) -> None:
    # Python's audit hook sees every open() and os.open() of this process by name: a host victim,
    # or any path of the workspace or the world opened by its name (which the kernel would resolve
    # again, following whatever the agent swapped in), is recorded whatever the step then does.
    # Only the steps' thread counts: the host swapper thread (no world) opens the slot by name.
    if (event == "open" and _watched and threading.get_ident() == _steps_thread
            and isinstance(args[0], (str, bytes, os.PathLike))):
        name = os.fsdecode(args[0])
        if any(name.startswith(w) for w in _watched):
            _opened.append(name)


sys.addaudithook(_audit)


def race(ctx: StepContext, victim_file: Path, victim_dir: Path) -> tuple[int, set[str]]:
    """Run every path step TRIES times per variant against the swapping slot; (tries, steps that
    completed at least once). Fails on the first verdict that quotes the victim, or the first step
    that opens it."""
    tries, completed = 0, set()
    _opened.clear()
    _watched[:] = [str(victim_file), str(victim_dir), f"{ctx.workspace}/"]
    if ctx.world is not None:
        _watched.append(f"{ctx.world.root}/")
    try:
        for spec, param in path_steps():
            for variant in VARIANTS:
                tries += _race_one(ctx, spec, param, variant, completed)
                assert not _opened, f"{spec.name} opened {_opened[0]} by name"
    finally:
        _watched.clear()
    print(f"{tries} tries; ran to the end: {len(completed)} of {len(path_steps())}: {sorted(completed)}")
    return tries, completed


def _race_one(ctx: StepContext, spec: StepSpec, param: str, variant: str, completed: set[str]) -> int:
    tries = 0
    params = params_for(spec, param, f"{ctx.workspace}/{variant}", ctx.files)
    for _ in range(TRIES):
        tries += 1
        if spec.kind == "judge":
            verdict = run_judge(spec.name, params, ctx)
            text = verdict.feedback + repr(verdict.details)
            assert MARKER not in text, f"{spec.name} quoted the host victim: {text[:300]}"
            if not verdict.error:
                completed.add(spec.name)
            continue
        try:
            run_reset(spec.name, params, ctx)
            completed.add(spec.name)
        except Exception as exc:  # noqa: BLE001 - a refused or failed step is fine; harm is not
            # A step may fail or not; when it fails, its message must not quote the victim.
            assert MARKER not in str(exc), f"{spec.name} quoted the host victim: {exc}"  # noqa: PT017
    return tries


def check(before: dict[str, Any], victim_file: Path, victim_dir: Path, tries: int, completed: set[str]) -> None:
    assert snapshot(victim_file, victim_dir) == before, "a host victim changed"
    assert tries >= 300
    # Not a vacuous race: most steps ran to the end at least once (others met the slot in a state
    # they refuse: a folder where a file is wanted, a link out of the workspace).
    assert {"files.remove", "files.content"} <= completed and len(completed) >= 30, sorted(completed)


def test_path_steps_never_touch_the_host_under_a_swap_race_in_a_world(wctx: StepContext, tmp_path: Path) -> None:
    victim_file, victim_dir = make_victims(tmp_path / "host")
    seed_suite(wctx)
    before = snapshot(victim_file, victim_dir)
    swapper = wctx.world.spawn(["python3", "-c", SWAPPER, str(wctx.workspace), str(victim_file), str(victim_dir)])
    try:
        time.sleep(0.2)
        assert swapper.poll() is None, "the swapper did not start"
        tries, completed = race(wctx, victim_file, victim_dir)
        assert swapper.poll() is None, "the swapper stopped during the race"
    finally:
        (wctx.workspace / "stop-swapping").touch()
        swapper.wait(timeout=10)
    check(before, victim_file, victim_dir, tries, completed)


@pytest.fixture
def host_swapper(ctx: StepContext, tmp_path: Path) -> Iterator[Callable[[Path, Path], None]]:
    stop = threading.Event()
    threads: list[threading.Thread] = []

    def start(victim_file: Path, victim_dir: Path) -> None:
        slot = ctx.workspace / "slot"

        def loop() -> None:
            i = 0
            while not stop.is_set():
                try:
                    if slot.is_symlink() or slot.is_file():
                        slot.unlink()
                    elif slot.is_dir():
                        shutil.rmtree(slot)
                    kind = i % 4
                    if kind == 0:
                        slot.write_text("agent")
                    elif kind == 1:
                        slot.mkdir()
                        (slot / "inner").write_text("agent")
                    else:
                        slot.symlink_to(victim_file if kind == 2 else victim_dir)
                except OSError:
                    pass
                i += 1

        thread = threading.Thread(target=loop, daemon=True)
        thread.start()
        threads.append(thread)

    yield start
    stop.set()
    for thread in threads:
        thread.join(timeout=10)


def test_path_steps_never_touch_the_host_under_a_swap_race_without_a_world(
        ctx: StepContext, tmp_path: Path, host_swapper: Callable[[Path, Path], None]) -> None:
    victim_file, victim_dir = make_victims(tmp_path / "host")
    seed_suite(ctx)
    before = snapshot(victim_file, victim_dir)
    host_swapper(victim_file, victim_dir)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # the swapper thread gets the GIL often: swaps land inside steps
    try:
        tries, completed = race(ctx, victim_file, victim_dir)
    finally:
        sys.setswitchinterval(interval)
    check(before, victim_file, victim_dir, tries, completed)
