"""The accessibility bus of a world: a real mousepad and a real LibreOffice Writer in a world
export trees the host reads; boxes fall on the elements in the screenshot; click by name works."""

from __future__ import annotations

import io
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from deskact.runtime.agent import a11y
from deskact.runtime.config import Config, ObservationConfig
from deskact.runtime.screen.screenshot import capture
from deskact.runtime.tasks.steps import StepContext, run_judge
from deskact.runtime.world import a11y_bus
from deskact.runtime.world.display import Display
from deskact.runtime.world.world import World, world_status
from PIL import Image


@pytest.fixture
def world_on_display(requires_xvfb: None, tmp_path: Path) -> Iterator[tuple[World, Display, a11y_bus.A11yBus]]:
    ok, why = world_status()
    if not ok:
        pytest.skip(f"this machine cannot make worlds: {why}")
    with Display(width=1280, height=800) as display:
        (tmp_path / "ws").mkdir()
        (tmp_path / "private").mkdir()
        world = World(Config(), workspace=tmp_path / "ws", private_dir=tmp_path / "private", display=display.name)
        world.start()
        try:
            bus = a11y_bus.start(world, display.name)
            try:
                yield world, display, bus
            finally:
                bus.stop()
        finally:
            world.close()


def _until(what: str, fn: Callable[[], object], timeout: float = 90.0) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = fn()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}")


def _box_shows_something(display: Display, element: a11y.Element) -> bool:
    """The element's box, cut from a real screenshot, is not one flat colour (text or a border is drawn there)."""
    shot = capture(display.name, ObservationConfig(format="png", max_width=4000, max_height=4000,
                                                   include_cursor=False))
    img = np.asarray(Image.open(io.BytesIO(shot.image.data)).convert("L"))
    x, y, w, h = element.box
    assert x >= 0 and y >= 0 and x + w <= img.shape[1] and y + h <= img.shape[0], element
    return bool(img[y:y + h, x:x + w].std() > 5)


def _inside(inner: a11y.Element, outer: a11y.Element) -> bool:
    x, y, w, h = inner.box
    ox, oy, ow, oh = outer.box
    return ox <= x and oy <= y and x + w <= ox + ow and y + h <= oy + oh


def test_mousepad_tree_menus_document_and_click_by_name(world_on_display) -> None:
    world, display, bus = world_on_display
    (world.workspace / "notes.txt").write_text("hello from the world\n")
    world.spawn(["mousepad", "--disable-server", str(world.workspace / "notes.txt")], user=world.agent_id,
                env={"GSETTINGS_BACKEND": "memory"}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    tree = _until("mousepad's tree", lambda: [e for e in a11y.read_tree(bus.socket)
                                              if a11y.find([e], "text") and "editable" in e.states])
    elements = a11y.read_tree(bus.socket)
    window = elements[0]
    assert window.role == "frame" and "notes.txt" in window.name
    menus = {e.name for e in a11y.find(elements, "menu")}
    assert {"File", "Edit", "Help"} <= menus
    document = tree[0]
    for element in (a11y.find(elements, "menu", "File", exact=True)[0], document):
        assert _inside(element, window)
        assert _box_shows_something(display, element), element
    text = a11y.render(elements, scale=0.5)
    assert "menu 'File'" in text and "text ''" in text
    # The judge reads the same tree on the host.
    ctx = StepContext(workspace=world.workspace, files=world.workspace, home=world.workspace,
                      gold=world.workspace, task_id="t", world=world)
    assert run_judge("a11y.element", {"role": "menu", "name": "File", "exact": True}, ctx).passed
    missing = run_judge("a11y.element", {"role": "push button", "name": "Launch rockets"}, ctx)
    assert not missing.passed and not missing.error and "should be shown in 'notes.txt" in missing.feedback
    # Click the Edit menu by name: its items appear in the tree.
    edit = a11y.find(elements, "menu", "Edit", exact=True)[0]
    x, y = edit.center()
    env = {"DISPLAY": display.name}
    subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], env=env, check=True)
    _until("the Edit menu's items", lambda: a11y.find(a11y.read_tree(bus.socket), "menu item", "Undo"))


@pytest.mark.slow
@pytest.mark.timeout(900)  # LibreOffice's first start and its first answers take minutes on a loaded box
def test_libreoffice_writer_tree_menus_document_and_click_by_name(world_on_display) -> None:
    world, display, bus = world_on_display
    world.spawn(["soffice", "--norestore", "--nologo", "--writer"], user=world.agent_id,
                env={"SAL_USE_VCLPLUGIN": "gtk3"}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def writer_or_tip() -> list[a11y.Element]:
        elements = a11y.read_tree(bus.socket)
        return elements if elements and elements[0].role in ("frame", "dialog") else []

    elements = _until("LibreOffice's first window", writer_or_tip, timeout=180)
    if elements[0].role == "dialog":  # Tip of the Day: close it by clicking OK by name
        ok = a11y.find(elements, "push button", "OK", exact=True)[0]
        subprocess.run(["xdotool", "mousemove", *map(str, ok.center()), "click", "1"],
                       env={"DISPLAY": display.name}, check=True)
        _until("the Writer window", lambda: writer_or_tip() and writer_or_tip()[0].role == "frame")
    elements = a11y.read_tree(bus.socket, timeout=60)
    window = elements[0]
    assert window.role == "frame" and "Writer" in window.name
    assert {"File", "Edit", "Format"} <= {e.name for e in a11y.find(elements, "menu")}
    # LibreOffice answers slowly while it starts on a loaded box: give each level time.
    documents = _until("the document", lambda: a11y.find(a11y.read_tree(bus.socket, timeout=60), "document text"),
                       timeout=240)
    elements = a11y.read_tree(bus.socket, timeout=60)
    assert "editable" in documents[0].states
    for element in (a11y.find(elements, "menu", "File", exact=True)[0], documents[0]):
        assert _inside(element, window)
        assert _box_shows_something(display, element), element


def test_task_with_a11y_tree_observation_and_toolkit_click(requires_xvfb: None) -> None:
    """End to end: observation.a11y on, a reset step starts mousepad in the world, the observation
    carries the tree, and the gui toolkit in the agent's kernel clicks a menu by its name."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from deskact.runtime.run.task_env import TaskEnv
    from deskact.runtime.run.worker import Worker
    from world_probes import require_worlds, task, world_config

    require_worlds()
    cfg = world_config("forked")
    cfg.observation.a11y = "tree+screenshot"
    t = task("t-a11y", visual=True, reset=[("apps.launch", {"cmd": "mousepad --disable-server", "window": "Mousepad"})])
    with Worker(cfg) as worker, TaskEnv(t, worker) as env:
        env.reset()
        assert env.a11y_bus is not None
        shot = _until("the tree in the observation", lambda: (s := env.screenshot()).a11y and "menu 'File'" in s.a11y
                      and s)
        assert "Accessibility tree of the active window" in shot.a11y
        r = env.execute("print(a11y.tree())\nprint(a11y.click('Edit', role='menu'))", timeout=60)
        assert r.status == "ok", r
        assert "menu 'Edit'" in r.stdout
        _until("the Edit menu's items after the toolkit's click",
               lambda: a11y.find(a11y.read_tree(env.a11y_bus.socket), "menu item", "Undo"))
        r = env.execute("a11y.click('No such thing')", timeout=60)
        assert r.error is not None and r.error.ename == "LookupError" and "a11y.tree()" in r.error.evalue


def test_a_selectors_judge_reads_a_lagging_tree_again_within_its_wait(world_on_display) -> None:
    """a11y.selectors reads a failing tree again while the apps run: a window that shows up 3 s after
    judging began passes with a wait, and fails with none (the first read's verdict)."""
    world, _display, _bus = world_on_display
    (world.workspace / "later.txt").write_text("late\n")
    ctx = StepContext(workspace=world.workspace, files=world.workspace, home=world.workspace,
                      gold=world.workspace, task_id="t", world=world)
    rules = [{"selectors": ['application frame[name*="later.txt"]']}]
    assert not run_judge("a11y.selectors", {"rules": rules, "wait": 0}, ctx).passed
    world.spawn(["sh", "-c", f"sleep 3; exec mousepad --disable-server {world.workspace / 'later.txt'}"],
                user=world.agent_id, env={"GSETTINGS_BACKEND": "memory"},
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started = time.monotonic()
    verdict = run_judge("a11y.selectors", {"rules": rules, "wait": 60}, ctx)
    assert verdict.passed, verdict.feedback
    assert time.monotonic() - started >= 3  # it did wait for mousepad: the first reads failed
