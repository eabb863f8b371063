"""The task creator of ``deskact view`` in headless Chromium, with real worlds: reset steps from their schema
forms, a demonstration, judge suggestions from the change, validate; saved only when it validates, and a
judge that also passes for noop refused with the reason."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from deskact.runtime.tasks.task import load_tasks
from deskact.runtime.ui.viewer import ViewerServer
from deskact.runtime.ui.viewer.suggestions import FileState, WorldState, suggest

sys.path.insert(0, str(Path(__file__).parent))
from page_wait import until

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
    return until(what, check, timeout)


def _fill_draft(d: Any, task_id: str) -> None:
    """Suite, id, instruction, a files.copy reset step through its generated form, and the demonstration."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _until("the catalog", lambda: d.find_element(By.ID, "add-reset"))
    Select(d.find_element(By.ID, "suite")).select_by_visible_text("mine")
    _until("the suite's fixtures", lambda: "template.txt" in d.find_element(By.ID, "fixtures").text)
    d.find_element(By.ID, "task-id").send_keys(task_id)
    d.find_element(By.ID, "instruction").send_keys("Add the line 'Total: 12' to ${WORKSPACE}/report.txt")
    # The fixture's "copy" link makes the files.copy step; its destination is tuned in the form.
    d.find_element(By.CSS_SELECTOR, '#fixtures a[data-copy="template.txt"]').click()
    step = _until("the step form", lambda: d.find_element(By.CSS_SELECTOR, '#reset-steps .step-card[data-step="files.copy"]'))
    assert step.find_element(By.CSS_SELECTOR, '[data-field="src"]').get_attribute("value") == "template.txt"
    dst = step.find_element(By.CSS_SELECTOR, '[data-field="dst"]')
    assert dst.get_attribute("value") == "${WORKSPACE}/template.txt"
    dst.clear()
    dst.send_keys("${WORKSPACE}/report.txt")
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


CALC_REFERENCE = '''import os, time
path = os.environ["WORKSPACE"] + "/prices.xlsx"
windows.activate("prices.xlsx")
keyboard.hotkey("ctrl", "home")
for key in ("right", "down", "down"):  # B3, paced: Calc drops a key repeated with no pause
    keyboard.press(key)
    time.sleep(0.1)
keyboard.type("4.5\\n")
before = os.path.getmtime(path)
keyboard.hotkey("ctrl", "s")
deadline = time.monotonic() + 60
while os.path.getmtime(path) == before and time.monotonic() < deadline:
    if windows.find("File Format"):  # keep the .xlsx format
        windows.activate("File Format")
        keyboard.press("enter")
        windows.wait_closed("File Format", timeout=20)
    time.sleep(0.1)
exit()
'''


@pytest.mark.display
@pytest.mark.bwrap
@pytest.mark.slow
def test_a_calc_edit_becomes_a_task_with_a_cells_judge(server: ViewerServer, suites: Path, chromium: Any) -> None:
    """A visual LibreOffice Calc task: a workbook written and opened by reset steps, edited by a GUI
    demonstration; the changed cell is suggested as xlsx.cells, which validates and is saved."""
    import shutil

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    if shutil.which("soffice") is None:
        pytest.skip("needs LibreOffice (scripts/setup.sh installs it)")
    d = chromium
    d.get(server.url + "create")
    _until("the catalog", lambda: d.find_element(By.ID, "add-reset"))
    Select(d.find_element(By.ID, "suite")).select_by_visible_text("mine")
    d.find_element(By.ID, "task-id").send_keys("mine-calc-price")
    d.find_element(By.ID, "instruction").send_keys(
        "The workbook ${WORKSPACE}/prices.xlsx is open in LibreOffice Calc. Change the price of Coffee "
        "(column B) to 4.5, then save the file, keeping the .xlsx format.")
    d.find_element(By.ID, "visual").click()
    d.find_element(By.ID, "toolkits").send_keys("gui")
    Select(d.find_element(By.ID, "add-reset")).select_by_value("office.xlsx")
    book = _until("office.xlsx", lambda: d.find_element(By.CSS_SELECTOR, '#reset-steps [data-step="office.xlsx"]'))
    book.find_element(By.CSS_SELECTOR, '[data-field="path"]').send_keys("${WORKSPACE}/prices.xlsx")
    book.find_element(By.CSS_SELECTOR, '[data-field="sheets"]').send_keys(
        '{"Prices": [["Item", "Price"], ["Tea", 3.5], ["Coffee", 4.2], ["Cake", 2]]}')
    Select(d.find_element(By.ID, "add-reset")).select_by_value("apps.open")
    opened = _until("apps.open", lambda: d.find_element(By.CSS_SELECTOR, '#reset-steps [data-step="apps.open"]'))
    opened.find_element(By.CSS_SELECTOR, '[data-field="path"]').send_keys("${WORKSPACE}/prices.xlsx")
    Select(d.find_element(By.ID, "add-cleanup")).select_by_value("apps.kill")
    kill = _until("apps.kill", lambda: d.find_element(By.CSS_SELECTOR, '#cleanup-steps [data-step="apps.kill"]'))
    kill.find_element(By.CSS_SELECTOR, '[data-field="name"]').send_keys("soffice")
    # The reference is long code: set at once (typing it key by key would only be slower).
    d.execute_script("document.getElementById('reference').value = arguments[0]", CALC_REFERENCE)
    d.find_element(By.ID, "demonstrate").click()
    _until("the suggestions", lambda: d.find_element(By.CSS_SELECTOR, "#demo-state.ok"), timeout=400)
    card = d.find_element(By.CSS_SELECTOR, '#judges .suggestion[data-step="xlsx.cells"]')
    cells = card.find_element(By.CSS_SELECTOR, '[data-field="cells"]').get_attribute("value")
    assert json.loads(cells) == {"Prices!B3": 4.5}
    assert d.find_elements(By.CSS_SELECTOR, "#demo-shots img")  # the screen before and after
    card.find_element(By.CSS_SELECTOR, ".use").click()
    d.find_element(By.ID, "validate").click()
    saved = _until("saved", lambda: d.find_element(By.ID, "saved-path").text, timeout=900)
    assert saved.endswith("mine-calc-price.yaml")
    task = next(t for t in load_tasks([suites / "mine"]).tasks if t.id == "mine-calc-price")
    assert [s.to_yaml() for s in task.judge] == [
        {"xlsx.cells": {"path": "${WORKSPACE}/prices.xlsx", "cells": {"Prices!B3": 4.5}}}]
    assert task.visual and task.toolkits == ["gui"]


@pytest.mark.display
@pytest.mark.bwrap
@pytest.mark.slow
def test_a_demonstration_recorded_in_the_browser_becomes_a_saved_task(server: ViewerServer, suites: Path,
                                                                       chromium: Any) -> None:
    """Record (deskact record's session, real input through noVNC) -> the reference; replayed in a fresh
    world -> the suggestion; validated -> saved."""
    import re
    import shutil

    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    for tool in ("Xvfb", "xterm", "x11vnc", "websockify"):
        if shutil.which(tool) is None:
            pytest.skip(f"needs {tool} (scripts/setup.sh installs it)")
    d = chromium
    d.get(server.url + "create")
    _until("the catalog", lambda: d.find_element(By.ID, "add-reset"))
    Select(d.find_element(By.ID, "suite")).select_by_visible_text("mine")
    d.find_element(By.ID, "task-id").send_keys("mine-recorded-note")
    d.find_element(By.ID, "instruction").send_keys("In the terminal, write hello into note.txt in the workspace.")
    d.find_element(By.ID, "visual").click()
    d.find_element(By.ID, "toolkits").send_keys("gui")
    Select(d.find_element(By.ID, "add-reset")).select_by_value("apps.launch")
    launch = _until("apps.launch", lambda: d.find_element(By.CSS_SELECTOR, '#reset-steps [data-step="apps.launch"]'))
    launch.find_element(By.CSS_SELECTOR, '[data-field="cmd"]').send_keys(
        "xterm -T Terminal -geometry 80x24+100+100 -fa 'DejaVu Sans Mono' -fs 14 -e bash --norc")
    launch.find_element(By.CSS_SELECTOR, '[data-field="window"]').send_keys("Terminal")
    Select(d.find_element(By.ID, "add-cleanup")).select_by_value("apps.kill")
    d.find_element(By.CSS_SELECTOR, '#cleanup-steps [data-step="apps.kill"] [data-field="name"]').send_keys("xterm")
    d.find_element(By.ID, "record").click()
    url = _until("the recording page's link", lambda: d.find_element(By.ID, "record-link").get_attribute("href"))
    creator = d.current_window_handle
    d.switch_to.new_window("tab")
    try:
        d.get(url)
        frame = _until("the noVNC frame", lambda: d.find_element(By.ID, "screen"))
        d.switch_to.frame(frame)
        _until("noVNC connected", lambda: d.execute_script(
            "return document.documentElement.classList.contains('noVNC_connected')"))
        canvas = _until("the canvas", lambda: d.find_element(By.CSS_SELECTOR, "#noVNC_container canvas"))
        width, height, fb_w, fb_h = d.execute_script(
            "const c = arguments[0], r = c.getBoundingClientRect(); return [r.width, r.height, c.width, c.height];", canvas)
        # Into the terminal (placed at +100+100 on the display), then the command, as a person types it.
        ActionChains(d).move_to_element_with_offset(canvas, round(500 * width / fb_w - width / 2),
                                                    round(300 * height / fb_h - height / 2)).pause(0.2).click().perform()
        time.sleep(0.8)
        ActionChains(d).send_keys("cd $WORKSPACE && echo hello > note.txt\n").perform()
        time.sleep(1.5)
        d.switch_to.default_content()
        d.find_element(By.ID, "done").click()
        _until("the recording saved", lambda: d.find_element(By.ID, "status").text)
    finally:
        d.close()
        d.switch_to.window(creator)
    _until("the recorded code", lambda: d.find_element(By.CSS_SELECTOR, "#record-state.ok"), timeout=300)
    code = d.find_element(By.ID, "reference").get_attribute("value")
    assert 'keyboard.type("cd $WORKSPACE && echo hello > note.txt\\n")' in code, code
    assert re.search(r"mouse\.click\(\d+, \d+\)", code), code
    d.find_element(By.ID, "demonstrate").click()
    _until("the suggestions", lambda: d.find_element(By.CSS_SELECTOR, "#demo-state.ok"), timeout=300)
    card = d.find_element(By.CSS_SELECTOR, '#judges .suggestion[data-step="files.content"]')
    assert card.find_element(By.CSS_SELECTOR, '[data-field="equals"]').get_attribute("value") == "hello\n"
    card.find_element(By.CSS_SELECTOR, ".use").click()
    d.find_element(By.ID, "validate").click()
    assert _until("saved", lambda: d.find_element(By.ID, "saved-path").text, timeout=600).endswith("mine-recorded-note.yaml")
    task = next(t for t in load_tasks([suites / "mine"]).tasks if t.id == "mine-recorded-note")
    assert task.reference and "echo hello > note.txt" in task.reference


@pytest.mark.bwrap
@pytest.mark.slow
def test_a_web_app_form_suggests_its_row_and_validates(suites: Path) -> None:
    """The offline CRM app's database diffed: the customer the demonstration added becomes a
    site.state judge (not its generated id), which validates and is saved."""
    from deskact.runtime.config import load_config
    from deskact.runtime.ui.viewer.creator import Creator, Draft

    creator = Creator(load_config(), suites, suites.parent / "creator-work")
    draft = Draft(suite="mine", id="mine-crm-customer", toolkits=["web"],
                  instruction="In the admin app at http://crm.test/, add the customer Ada Byron, ada@byron.example, "
                              "company Analytical Ltd, city London, status lead, tier pro.",
                  reset=[{"site.serve": {"app": "crm"}}],
                  reference='import requests\nrequests.post(sites.url("crm", "customers/new"), data={"name": "Ada Byron", '
                            '"email": "ada@byron.example", "company": "Analytical Ltd", "city": "London", '
                            '"status": "lead", "tier": "pro"}, timeout=30)\n')

    def finished(job: Any) -> Any:
        return _until(f"the {job.kind} job", lambda: creator.job(job.id).state != "running" and creator.job(job.id))

    demo = finished(creator.demonstrate(draft))
    assert demo.state == "done", demo.error + "\n".join(demo.log)
    rows = [s for s in demo.result["suggestions"] if s["judge"] == "site.state"]
    assert [s["params"] for s in rows] == [{"app": "crm", "table": "customers", "where": {
        "name": "Ada Byron", "email": "ada@byron.example", "company": "Analytical Ltd", "city": "London",
        "status": "lead"}}], demo.result["suggestions"]
    draft.judge = [{"site.state": rows[0]["params"]}]
    verdict = finished(creator.validate(draft))
    assert verdict.state == "done" and verdict.result["saved"], verdict.result or verdict.error
    assert (suites / "mine" / "mine-crm-customer.yaml").is_file()


@pytest.mark.bwrap
@pytest.mark.slow
def test_a_sent_mail_on_the_google_emulator_suggests_email_sent(suites: Path) -> None:
    """The Google emulator's records diffed: a mail the demonstration sent becomes google.email_sent."""
    from deskact.runtime.config import load_config
    from deskact.runtime.ui.viewer.creator import Creator, Draft

    creator = Creator(load_config(), suites, suites.parent / "creator-work-google")
    draft = Draft(suite="mine", id="mine-lunch-mail", toolkits=["google"], reset=[{"google.reset": {}}],
                  instruction="Email dana@example.com with the subject 'Lunch on Friday?' asking whether she is free.",
                  reference='send_email("dana@example.com", "Lunch on Friday?", "Are you free for lunch on Friday?")\n')

    def finished(job: Any) -> Any:
        return _until(f"the {job.kind} job", lambda: creator.job(job.id).state != "running" and creator.job(job.id))

    demo = finished(creator.demonstrate(draft))
    assert demo.state == "done", demo.error + "\n".join(demo.log)
    mails = [s for s in demo.result["suggestions"] if s["judge"] == "google.email_sent"]
    assert [s["params"] for s in mails] == [{"to": ["dana@example.com"], "subject_contains": "Lunch on Friday?"}], \
        demo.result
    draft.judge = [{"google.email_sent": mails[0]["params"]}]
    verdict = finished(creator.validate(draft))
    assert verdict.state == "done" and verdict.result["saved"], verdict.result or verdict.error


@pytest.mark.bwrap
@pytest.mark.slow
def test_a_task_saved_into_a_new_suite(server: ViewerServer, suites: Path, chromium: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d = chromium
    d.get(server.url + "create")
    _until("the catalog", lambda: d.find_element(By.ID, "add-reset"))
    Select(d.find_element(By.ID, "suite")).select_by_visible_text("new suite…")
    d.find_element(By.ID, "new-suite").send_keys("fresh")
    d.find_element(By.ID, "task-id").send_keys("fresh-hello")
    d.find_element(By.ID, "instruction").send_keys("Write hello into ${WORKSPACE}/hello.txt")
    d.find_element(By.ID, "reference").send_keys("open('hello.txt', 'w').write('hello\\n')")
    d.find_element(By.ID, "demonstrate").click()
    _until("the suggestions", lambda: d.find_element(By.CSS_SELECTOR, "#demo-state.ok"))
    d.find_element(By.CSS_SELECTOR, '#judges .suggestion[data-step="files.content"] .use').click()
    d.find_element(By.ID, "validate").click()
    _until("saved", lambda: d.find_element(By.ID, "saved-path"))
    assert [t.id for t in load_tasks([suites / "fresh"]).tasks] == ["fresh-hello"]
