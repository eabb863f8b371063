"""The task creator of ``deskact view`` in headless Chromium, with real worlds: reset steps from their schema
forms, a demonstration, judge suggestions from the change, validate; saved only when it validates, and a
judge that also passes for noop refused with the reason."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from deskact.runtime.tasks.task import load_tasks
from deskact.runtime.ui.viewer import ViewerServer
from deskact.runtime.ui.viewer.suggestions import FileState, WorldState, suggest

WAIT_S = 240.0  # a validation runs three episodes in worlds on a shared machine: generous, never asserted


@pytest.fixture(scope="module")
def suites(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("creator") / "suites"
    (root / "mine" / "files").mkdir(parents=True)
    (root / "mine" / "files" / "template.txt").write_text("Report\n")
    return root


@pytest.fixture(scope="module")
def server(suites: Path) -> Iterator[ViewerServer]:
    runs = suites.parent / "runs"
    runs.mkdir()
    with ViewerServer([runs], tools={"suites": suites, "datasets": suites.parent / "datasets"}) as srv:
        yield srv


def _until(what: str, check: Callable[[], Any], timeout: float = WAIT_S) -> Any:
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = check()
        except Exception as exc:  # noqa: BLE001 - an element replaced mid-read: try again
            last = exc
        if last and not isinstance(last, Exception):
            return last
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")


def _fill_draft(d: Any, task_id: str) -> None:
    """Suite, id, instruction, a files.copy reset step through its generated form, and the demonstration."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _until("the catalog", lambda: d.find_element(By.ID, "add-reset"))
    Select(d.find_element(By.ID, "suite")).select_by_visible_text("mine")
    _until("the suite's fixtures", lambda: "template.txt" in d.find_element(By.ID, "fixtures").text)
    d.find_element(By.ID, "task-id").send_keys(task_id)
    d.find_element(By.ID, "instruction").send_keys("Add the line 'Total: 12' to ${WORKSPACE}/report.txt")
    Select(d.find_element(By.ID, "add-reset")).select_by_value("files.copy")
    step = _until("the step form", lambda: d.find_element(By.CSS_SELECTOR, '#reset-steps .step-card[data-step="files.copy"]'))
    step.find_element(By.CSS_SELECTOR, '[data-field="src"]').send_keys("template.txt")
    step.find_element(By.CSS_SELECTOR, '[data-field="dst"]').send_keys("${WORKSPACE}/report.txt")
    d.find_element(By.ID, "reference").send_keys(
        "with open('report.txt', 'a') as f:\n    f.write('Total: 12\\n')\nprint(open('report.txt').read())")
    d.find_element(By.ID, "demonstrate").click()
    _until("the suggestions", lambda: d.find_element(By.CSS_SELECTOR, "#demo-state.ok"))


@pytest.mark.bwrap
@pytest.mark.slow
def test_a_demonstrated_task_validates_and_is_saved(server: ViewerServer, suites: Path, chromium: Any) -> None:
    from selenium.webdriver.common.by import By

    d = chromium
    d.get(server.url + "create")
    _fill_draft(d, "mine-total")
    card = d.find_element(By.CSS_SELECTOR, '#judges .suggestion[data-step="files.content"]')
    assert "report.txt was changed" in card.text
    assert card.find_element(By.CSS_SELECTOR, '[data-field="equals"]').get_attribute("value") == "Report\nTotal: 12\n"
    assert "Total: 12" in d.find_element(By.ID, "demo-result").text  # what the demonstration printed
    card.find_element(By.CSS_SELECTOR, ".use").click()
    d.find_element(By.ID, "validate").click()
    saved = _until("saved", lambda: d.find_element(By.ID, "saved-path").text)
    path = suites / "mine" / "mine-total.yaml"
    assert saved == f"saved to {path}"
    loaded = load_tasks([suites / "mine"])
    assert not loaded.invalid
    task = next(t for t in loaded.tasks if t.id == "mine-total")
    assert [s.to_yaml() for s in task.judge] == [
        {"files.content": {"path": "${WORKSPACE}/report.txt", "equals": "Report\nTotal: 12\n"}}]
    assert [s.to_yaml() for s in task.reset] == [{"files.copy": {"src": "template.txt", "dst": "${WORKSPACE}/report.txt"}}]
    assert task.reference and "Total: 12" in task.reference

    # The same id again is refused before any world starts.
    d.get(server.url + "create")
    _fill_draft(d, "mine-total")
    d.find_element(By.CSS_SELECTOR, '#judges .suggestion[data-step="files.content"] .use').click()
    d.find_element(By.ID, "validate").click()
    assert "already has a task 'mine-total'" in _until("refused", lambda: d.find_element(By.CSS_SELECTOR, "#verdict.bad").text)


@pytest.mark.bwrap
@pytest.mark.slow
def test_a_judge_that_passes_for_noop_is_refused_with_the_reason(server: ViewerServer, suites: Path, chromium: Any) -> None:
    from selenium.webdriver.common.by import By

    d = chromium
    d.get(server.url + "create")
    _fill_draft(d, "mine-weak")
    card = d.find_element(By.CSS_SELECTOR, '#judges .suggestion[data-step="files.content"]')
    card.find_element(By.CSS_SELECTOR, ".use").click()
    # Tuned too loose: "contains Report" holds for the file as the reset left it.
    card.find_element(By.CSS_SELECTOR, '[data-field="equals"]').clear()
    card.find_element(By.CSS_SELECTOR, '[data-field="contains"]').send_keys("Report")
    d.find_element(By.ID, "validate").click()
    _until("refused", lambda: d.find_element(By.ID, "refused"))
    noop = d.find_element(By.CSS_SELECTOR, '#problems tr[data-model="noop"]')
    assert "passes without the agent doing anything" in noop.text
    assert not (suites / "mine" / "mine-weak.yaml").exists()


def test_suggestions_from_a_diff() -> None:
    """The diff alone: created, changed, removed files, workbook cells, windows, web app rows."""
    text = FileState(kind="file", size=3, digest="a", text="old")
    before = WorldState(workspace="/w", files={"keep.txt": text, "gone.txt": text, "edit.txt": text,
                                               "book.xlsx": FileState(kind="file", digest="x", cells={"S!A1": 1, "S!B2": 5})},
                        windows=["Terminal"], sites={"shop": {"orders": [{"rowid": 1, "item": "pen", "qty": 1}]}})
    after = WorldState(workspace="/w", files={
        "keep.txt": text, "edit.txt": FileState(kind="file", size=3, digest="b", text="new"),
        "out": FileState(kind="dir"), "out/data.bin": FileState(kind="file", size=9, digest="c"),
        "book.xlsx": FileState(kind="file", digest="y", cells={"S!A1": 1, "S!C3": "=x"})},
        windows=["Terminal", "report.txt - Mousepad"],
        sites={"shop": {"orders": [{"rowid": 1, "item": "pen", "qty": 3}, {"rowid": 2, "item": "ink", "qty": 1}]}})
    got = [(s.judge, s.params) for s in suggest(before, after)]
    assert got == [
        ("xlsx.cells", {"path": "${WORKSPACE}/book.xlsx", "cells": {"S!C3": "=x", "S!B2": None}}),
        ("files.content", {"path": "${WORKSPACE}/edit.txt", "equals": "new"}),
        ("files.exists", {"path": "${WORKSPACE}/out", "kind": "dir"}),
        ("files.exists", {"path": "${WORKSPACE}/out/data.bin", "kind": "file"}),
        ("files.absent", {"path": "${WORKSPACE}/gone.txt"}),
        ("site.state", {"app": "shop", "table": "orders", "where": {"item": "pen", "qty": 3}}),
        ("site.state", {"app": "shop", "table": "orders", "where": {"item": "ink", "qty": 1}}),
        ("windows.title", {"contains": "report.txt - Mousepad"}),
    ]
