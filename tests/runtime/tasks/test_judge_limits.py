"""Judges under config.limits: a judge that hangs, allocates without end, exits or reads a bomb ends as
an ``error`` verdict naming the limit, in its own process, and the caller goes on."""

from __future__ import annotations

import io
import os
import threading
import time
import zipfile
from collections.abc import Iterator
from dataclasses import replace

import pytest
from deskact.runtime.config import Config
from deskact.runtime.tasks.steps import (
    REGISTRY,
    StepContext,
    StepFailed,
    Verdict,
    judge,
    reset_step,
    run_judge,
    run_reset,
)


@pytest.fixture
def limited(ctx: StepContext) -> StepContext:
    config = Config()
    config.limits.judge_seconds = 600  # the sleeping judge's test sets its own
    config.limits.judge_memory_mb = 256
    config.limits.file_mb = 1
    config.limits.zip_part_mb = 1
    config.limits.sheet_cells = 10_000
    return replace(ctx, config=config)


@pytest.fixture(autouse=True)
def hostile_judges() -> Iterator[None]:
    @judge("testing.sleeps")
    def sleeps(ctx: StepContext) -> Verdict:
        time.sleep(3600)
        return Verdict.ok()

    @judge("testing.allocates")
    def allocates(ctx: StepContext, gigabytes: int = 3) -> Verdict:
        hoard = bytearray(gigabytes << 30)  # refused at once by the address-space limit: nothing is touched
        return Verdict.ok(str(len(hoard)))

    @judge("testing.exits")
    def exits(ctx: StepContext, how: str = "exit") -> Verdict:
        if how == "exit":
            raise SystemExit(3)
        raise KeyboardInterrupt

    @judge("testing.pid")
    def pid(ctx: StepContext) -> Verdict:
        return Verdict.ok(str(os.getpid()), pid=os.getpid())

    yield
    for name in ("testing.sleeps", "testing.allocates", "testing.exits", "testing.pid"):
        REGISTRY["judge"].pop(name, None)


def test_a_judge_runs_in_a_child_and_its_verdict_comes_back(limited: StepContext) -> None:
    verdict = run_judge("testing.pid", {}, limited)
    assert verdict.passed and not verdict.error and verdict.details["pid"] != os.getpid()


def test_a_judge_that_sleeps_forever_ends_at_its_limit(limited: StepContext) -> None:
    limited.config.limits.judge_seconds = 2
    verdict = run_judge("testing.sleeps", {}, limited)
    assert verdict.error and not verdict.passed
    assert "testing.sleeps" in verdict.feedback and "limits.judge_seconds = 2 s" in verdict.feedback


def test_a_judge_allocating_3_gb_is_an_error_naming_the_memory_limit(limited: StepContext) -> None:
    verdict = run_judge("testing.allocates", {"gigabytes": 3}, limited)
    assert verdict.error and "limits.judge_memory_mb = 256 MB" in verdict.feedback


@pytest.mark.parametrize("how", ["exit", "interrupt"])
def test_system_exit_and_keyboard_interrupt_are_one_tasks_error(limited: StepContext, how: str) -> None:
    verdict = run_judge("testing.exits", {"how": how}, limited)
    assert verdict.error and ("SystemExit" if how == "exit" else "KeyboardInterrupt") in verdict.feedback


def test_without_isolation_system_exit_is_still_an_error(limited: StepContext) -> None:
    limited.config.limits.isolate_judges = False
    verdict = run_judge("testing.exits", {"how": "exit"}, limited)
    assert verdict.error and "SystemExit" in verdict.feedback


def test_an_agent_written_yaml_bomb_is_an_error_for_config_value(limited: StepContext) -> None:
    lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 9)]
    (limited.workspace / "app.yaml").write_text("\n".join(lines) + "\n")
    verdict = run_judge("config.value", {"path": "app.yaml", "key": "l8", "exists": True}, limited)
    assert verdict.error and "alias" in verdict.feedback


def test_a_file_past_file_mb_is_not_read(limited: StepContext) -> None:
    (limited.workspace / "big.json").write_bytes(b"[" + b"1," * (1 << 20) + b"1]")
    verdict = run_judge("files.json", {"path": "big.json", "pointer": "/0", "equals": 1}, limited)
    assert verdict.error and "limits.file_mb = 1 MB" in verdict.feedback


def zipped(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buffer.getvalue()


def test_a_docx_that_inflates_past_the_part_limit_is_not_parsed(limited: StepContext) -> None:
    body = b"<w:document>" + b" " * (3 << 20) + b"</w:document>"
    (limited.workspace / "bomb.docx").write_bytes(zipped({"[Content_Types].xml": b"<Types/>", "word/document.xml": body}))
    assert (limited.workspace / "bomb.docx").stat().st_size < 64 << 10
    verdict = run_judge("docx.text", {"path": "bomb.docx", "contains": "x"}, limited)
    assert verdict.error and "limits.zip_part_mb = 1 MB" in verdict.feedback


def test_an_xlsx_whose_sheet_spans_millions_of_cells_is_not_parsed(limited: StepContext) -> None:
    sheet = b'<?xml version="1.0"?><worksheet><dimension ref="A1:C1000000"/><sheetData/></worksheet>'
    (limited.workspace / "big.xlsx").write_bytes(zipped({"xl/worksheets/sheet1.xml": sheet}))
    verdict = run_judge("xlsx.cells", {"path": "big.xlsx", "cells": {"A1": 1}}, limited)
    assert verdict.error and "limits.sheet_cells = 10000" in verdict.feedback and "1000000 x 3" in verdict.feedback


def test_limits_hold_only_inside_judges(ctx: StepContext) -> None:
    (ctx.workspace / "big.txt").write_bytes(b"x" * (2 << 20))
    assert len(ctx.path("big.txt").read_bytes()) == 2 << 20  # a reset step copies what it must


def test_a_judge_of_judges_does_not_fork_again(limited: StepContext) -> None:
    @judge("testing.both")
    def both(ctx: StepContext) -> Verdict:
        inner = [run_judge("testing.pid", {}, ctx) for _ in range(2)]
        return Verdict.ok(pids=[os.getpid()] + [v.details["pid"] for v in inner])

    try:
        verdict = run_judge("testing.both", {}, limited)
    finally:
        REGISTRY["judge"].pop("testing.both", None)
    assert verdict.passed, verdict.feedback
    outer, *inner = verdict.details["pids"]
    assert outer != os.getpid() and inner == [outer, outer]


def test_a_reset_step_that_hangs_or_exits_fails_its_task_only(limited: StepContext) -> None:
    @reset_step("testing.hangs")
    def hangs(ctx: StepContext, how: str = "sleep") -> None:
        if how == "exit":
            raise SystemExit(2)
        threading.Event().wait()  # forever: the caller gives up on it, the daemon thread dies with the test run

    limited.config.limits.reset_seconds = 1
    try:
        with pytest.raises(StepFailed, match=r"`testing.hangs` ran past limits.reset_seconds = 1 s"):
            run_reset("testing.hangs", {}, limited)
        with pytest.raises(StepFailed, match="raised SystemExit: 2"):
            run_reset("testing.hangs", {"how": "exit"}, limited)
    finally:
        REGISTRY["reset"].pop("testing.hangs", None)
