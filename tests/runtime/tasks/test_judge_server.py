"""Judges' children come from the judge server, a copy of the runner taken while it was quiet: a lock
another runner thread holds does not hang them, and a judge that needs the runner's own objects
runs in a runner thread instead."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest
from deskact.runtime.config import Config
from deskact.runtime.tasks import judge_server
from deskact.runtime.tasks.steps import _NEEDS_RUNNER, REGISTRY, StepContext, Verdict, judge, run_judge

held = threading.Lock()
"""Stands for a library's lock (lxml's shared parser, SQLite's mutexes) that a judge takes."""


@dataclass
class FakeWorld:
    """What a world offers steps, here without namespaces: its files and a command runner."""

    root: str
    workspace: str
    uid: int = os.getuid()

    def run(self, command: str) -> str:
        return f"ran {command} in pid {os.getpid()}"


@pytest.fixture
def limited(ctx: StepContext) -> StepContext:
    config = Config()
    config.limits.judge_seconds = 20
    return replace(ctx, config=config)


@pytest.fixture(autouse=True)
def judges() -> Iterator[None]:
    @judge("testing.takes_lock")
    def takes_lock(ctx: StepContext) -> Verdict:
        with held:
            return Verdict.ok("took the lock", pid=os.getpid())

    @judge("testing.runs_in_world")
    def runs_in_world(ctx: StepContext) -> Verdict:
        return Verdict.ok(ctx.world.run("true"), pid=os.getpid())

    @judge("testing.swallows")
    def swallows(ctx: StepContext) -> Verdict:
        try:
            clients = ctx.services["google"]
        except Exception:  # noqa: BLE001 - what a careless judge does: NeedsRunner is not caught
            return Verdict.fail("no services")
        return Verdict.ok(str(clients), pid=os.getpid())

    @judge("testing.reads")
    def reads(ctx: StepContext) -> Verdict:
        return Verdict.ok(ctx.path("note.txt").read_text(), pid=os.getpid())

    yield
    for name in ("testing.takes_lock", "testing.runs_in_world", "testing.swallows", "testing.reads"):
        REGISTRY["judge"].pop(name, None)
        _NEEDS_RUNNER.pop(name, None)


def test_a_lock_held_by_another_thread_does_not_hang_the_judge(limited: StepContext) -> None:
    judge_server.start_early()  # as the runner does, before its threads start
    taken, release = threading.Event(), threading.Event()

    def other_worker() -> None:
        with held:
            taken.set()
            release.wait(30)

    thread = threading.Thread(target=other_worker, daemon=True)
    thread.start()
    taken.wait(5)
    try:
        verdict = run_judge("testing.takes_lock", {}, limited)
    finally:
        release.set()
        thread.join()
    assert verdict.passed and not verdict.error, verdict.feedback
    assert verdict.details["pid"] != os.getpid()


def test_a_judge_that_runs_commands_in_the_world_runs_in_the_runner(limited: StepContext) -> None:
    (limited.workspace / "note.txt").write_text("x")
    world_ctx = replace(limited, world=FakeWorld(str(limited.workspace.parent), str(limited.workspace)))
    first = run_judge("testing.runs_in_world", {}, world_ctx)
    again = run_judge("testing.runs_in_world", {}, world_ctx)
    for verdict in (first, again):
        assert verdict.passed and verdict.details["pid"] == os.getpid(), verdict.feedback
        assert f"ran true in pid {os.getpid()}" in verdict.feedback


def test_a_judge_that_catches_everything_still_gets_the_runners_services(limited: StepContext) -> None:
    with_services = replace(limited, services={"google": "the clients"})
    verdict = run_judge("testing.swallows", {}, with_services)
    assert verdict.passed and verdict.feedback == "the clients" and verdict.details["pid"] == os.getpid()


def test_a_file_judge_reads_in_its_child(limited: StepContext) -> None:
    (limited.workspace / "note.txt").write_text("hello")
    verdict = run_judge("testing.reads", {}, limited)
    assert verdict.passed and verdict.feedback == "hello" and verdict.details["pid"] != os.getpid()


def test_a_killed_server_is_forked_again(limited: StepContext) -> None:
    (limited.workspace / "note.txt").write_text("hello")
    server = judge_server.server_for("testing.reads", REGISTRY["judge"]["testing.reads"])
    os.kill(server.pid, signal.SIGKILL)
    verdict = run_judge("testing.reads", {}, limited)
    assert verdict.passed, verdict.feedback
    assert judge_server.server_for("testing.reads", REGISTRY["judge"]["testing.reads"]).pid != server.pid


def test_the_child_context_carries_no_runner_objects(limited: StepContext) -> None:
    world = FakeWorld("/r", "/r/ws")
    child: Any = judge_server.child_context(replace(limited, world=world, services={"web": object()}))
    assert (child.world.root, child.world.workspace) == ("/r", "/r/ws")
    with pytest.raises(judge_server.NeedsRunner, match="ctx.world.run"):
        child.world.run("true")
    with pytest.raises(judge_server.NeedsRunner, match="ctx.services"):
        child.services["web"]
