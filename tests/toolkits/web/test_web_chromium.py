"""The web apps in a real Chromium under Xvfb, in a real world: typed on the real keyboard.

A scripted agent's code runs in the task's kernel (``TaskEnv.execute``): the gui
toolkit's keyboard types into Chromium's window (xdotool on the display) and the
browser toolkit only focuses a field and reads the page (the mouse clicks once into
the page first: Chromium's window does not get the X focus by itself). Judges run on the host.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from deskact.runtime.run.task_env import TaskEnv
from deskact.runtime.run.worker import Worker
from deskact.runtime.tasks.steps import Verdict, run_judge
from deskact.runtime.tasks.task import Step, Task

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "runtime" / "world"))
from world_probes import require_worlds, world_config

pytestmark = [pytest.mark.display, pytest.mark.slow]


@pytest.fixture(scope="module")
def worker() -> Iterator[Worker]:
    require_worlds()
    with Worker(world_config("forked")) as w:
        yield w


def web_task(id: str, app: str, url: str) -> Task:
    return Task(id=id, instruction="(web test)", visual=True, toolkits=["gui", "browser", "web"], judge=[],
                reset=[Step(name="site.serve", params={"app": app}),
                       Step(name="browser.open", params={"urls": [url]})])


def run(env: TaskEnv, code: str) -> str:
    result = env.execute(code, timeout=120)
    assert result.status == "ok", result
    return result.stdout


def judge(env: TaskEnv, **params: Any) -> Verdict:
    ctx = env.context()
    with ctx.world.frozen():
        verdict = run_judge("site.state", params, ctx)
    assert not verdict.error, verdict.feedback
    return verdict


ITEMS = {"app": "shop", "query": "SELECT product_id, qty FROM order_items WHERE order_id > 2", "expect": [[2, 2]]}


def test_checkout_typed_on_the_keyboard(worker: Worker) -> None:
    with TaskEnv(web_task("t-web-keyboard", "shop", "http://shop.test/product/2"), worker) as env:
        env.reset()
        assert not judge(env, **ITEMS).passed
        # A click on the page gives Chromium's window the keyboard (X focus); then the quantity
        # field, select all, type 2, Enter submits the add-to-cart form.
        run(env, "mouse.click(640, 700)\nbrowser.evaluate(\"document.getElementById('qty').focus()\")\n"
                 "keyboard.hotkey('ctrl', 'a'); keyboard.type('2'); keyboard.press('enter')\n"
                 "browser.wait_for(text='Proceed to checkout')")
        assert "Added 2 x Wireless Mouse" in run(env, "print(browser.text())")
        # Checkout: name, Tab, email, Tab, address, Tab (shipping radios: standard is checked),
        # Tab (coupon), Enter.
        run(env, "browser.open(sites.url('shop', 'checkout'))\n"
                 "browser.evaluate(\"document.getElementById('name').focus()\")\n"
                 "keyboard.type('Jordan Lee'); keyboard.press('tab'); keyboard.type('jordan@example.com')\n"
                 "keyboard.press('tab'); keyboard.type('4 Hill Road, Leeds'); keyboard.press('tab', presses=2)\n"
                 "keyboard.press('enter'); browser.wait_for(selector='#status')")
        assert run(env, "print(browser.url)").strip() == "http://shop.test/orders/3"
        assert judge(env, **ITEMS).passed
        assert judge(env, app="shop", table="orders", where={"name": "Jordan Lee", "shipping": "standard",
                                                            "address": "4 Hill Road, Leeds"}, count=1).passed


def test_wiki_edit_in_the_browser_and_a_near_miss(worker: Worker) -> None:
    with TaskEnv(web_task("t-web-wiki", "wiki", "http://wiki.test/wiki/parking/edit"), worker) as env:
        env.reset()
        run(env, "browser.fill('Lot B only.', label='Content'); browser.fill('kim', label='Your name')\n"
                 "browser.click(text='Save page'); browser.wait_for(text='Saved.')")
        assert judge(env, app="wiki", table="revisions", where={"page_id": 5, "author": "kim", "body": "Lot B only."},
                     count=1).passed
        assert not judge(env, app="wiki", query="SELECT body FROM pages WHERE slug = 'parking'",
                         expect="Lot A only.").passed
