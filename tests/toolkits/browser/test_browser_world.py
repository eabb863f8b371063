"""The browser toolkit with a real Chromium under Xvfb, in a real world.

A scripted agent runs toolkit calls in the task's kernel (``TaskEnv.execute``, as a
model's code runs); the judges run on the host against the same browser, each on a
right state and on a near-miss wrong one.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import deskact
import pytest
from deskact.runtime.run.task_env import TaskEnv
from deskact.runtime.run.worker import Worker
from deskact.runtime.tasks.steps import Verdict, run_judge
from deskact.runtime.tasks.task import Step, Task

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "runtime" / "world"))
from world_probes import require_worlds, world_config

SUITE = Path(deskact.__file__).resolve().parent / "task_suites" / "browser"
SITE = "http://127.0.0.1:8000"
pytestmark = [pytest.mark.display, pytest.mark.slow]


@pytest.fixture(scope="module")
def worker() -> Iterator[Worker]:
    require_worlds()
    with Worker(world_config("forked")) as w:
        yield w


def browser_task(id: str, *reset: tuple[str, dict[str, Any]]) -> Task:
    steps = [("browser.serve", {"dir": "site"}), *reset]
    return Task(id=id, instruction="(browser test)", visual=True, toolkits=["gui", "browser"],
                reset=[Step(name=n, params=p) for n, p in steps], judge=[], suite_dir=str(SUITE))


def run(env: TaskEnv, code: str) -> str:
    result = env.execute(code, timeout=120)
    assert result.status == "ok", result
    return result.stdout


def judge(env: TaskEnv, judge_name: str, /, **params: Any) -> Verdict:
    ctx = env.context()
    with ctx.world.frozen():  # as TaskEnv.judge runs them
        verdict = run_judge(judge_name, params, ctx)
    assert not verdict.error, verdict.feedback
    return verdict


def test_toolkit_calls_and_live_judges(worker: Worker) -> None:
    task = browser_task("t-browser-live", ("browser.open", {"urls": [f"{SITE}/index.html", f"{SITE}/pricing.html"]}))
    with TaskEnv(task, worker) as env:
        env.reset()
        assert "Pricing" not in run(env, "print(browser.title)")  # tab 0 is the active one
        out = run(env, "print(sorted((t['url'].rsplit('/', 1)[1], t['active']) for t in browser.tabs()))")
        assert out.strip() == "[('index.html', True), ('pricing.html', False)]"
        assert judge(env, "browser.url", equals=f"{SITE}/index.html").passed
        assert not judge(env, "browser.url", equals=f"{SITE}/pricing.html").passed
        assert judge(env, "browser.url", contains="pricing", tab="any").passed

        run(env, "print(browser.switch('Pricing'))")
        assert judge(env, "browser.url", contains="/pricing.html").passed
        assert "Starter 10 EUR" in run(env, "print(browser.text())")
        assert judge(env, "browser.page", contains="Starter 10 EUR").passed
        assert not judge(env, "browser.page", contains="Starter 12 EUR").passed
        assert 'heading "Pricing"' in run(env, "print(browser.accessibility())")

        run(env, "browser.switch('index.html'); browser.click(text='Documentation'); browser.wait_for(text='Changelog')")
        assert judge(env, "browser.url", equals=f"{SITE}/docs.html").passed
        assert run(env, "print(browser.back())").strip().endswith("/index.html")
        links = run(env, "print(len(browser.query('main li a')), browser.query('main a')[0]['attrs']['href'])")
        assert links.split() == ["8", "/docs.html"]

        run(env, f"browser.new_tab('{SITE}/signup.html')\n"
                 "browser.fill('ana@northwind.example', label='Email')\n"
                 "browser.check(label='Monthly')\n"
                 "browser.click('button[type=submit]')")
        assert judge(env, "browser.page", selector="#done", equals="Subscribed: ana@northwind.example (monthly)").passed
        assert not judge(env, "browser.page", selector="#done", contains="(weekly)").passed
        assert judge(env, "browser.page", selector="#email", value="ana@northwind.example").passed
        assert not judge(env, "browser.page", selector="input[value=weekly]", checked=True).passed
        assert judge(env, "browser.tabs", contains=["index", "pricing", "signup"], count=3, exactly=True).passed
        assert not judge(env, "browser.tabs", count=2).passed

        size = run(env, "img = browser.screenshot(); print(img.size[0] > 200 and img.size[1] > 200)")
        assert size.strip() == "True"
        assert run(env, "print(browser.evaluate('1 + 2'))").strip() == "3"

        run(env, f"browser.open('{SITE}/preferences.html'); browser.select('fr', '#lang'); browser.click(text='Save')")
        assert judge(env, "browser.cookie", name="lang", domain="127.0.0.1", equals="fr").passed
        assert not judge(env, "browser.cookie", name="lang", domain="127.0.0.1", equals="de").passed
        assert not judge(env, "browser.cookie", name="lang", present=False).passed

        saved = run(env, f"browser.open('{SITE}/reports.html'); print(browser.download(text='Q3 sales'))")
        assert saved.strip().endswith("/Downloads/report-q3.csv")
        assert judge(env, "browser.download", name="report-q3.csv", contains="1430").passed
        assert not judge(env, "browser.download", name="report-q2.csv").passed

        run(env, "browser.close_tab()")
        assert judge(env, "browser.tabs", count=2).passed


def test_profile_steps_and_judges(worker: Worker) -> None:
    task = browser_task(
        "t-browser-profile",
        ("browser.profile", {
            "bookmarks": [{"name": "Docs", "url": f"{SITE}/docs.html"}],
            "history": [{"url": f"{SITE}/products/lamp.html", "title": "Desk lamp", "hours_ago": 26}],
            "cookies": [{"name": "sid", "value": "abc", "url": f"{SITE}/"}],
            "homepage": f"{SITE}/start.html",
            "settings": {"webkit.webprefs.default_font_size": 18},
        }),
        ("browser.open", {"urls": [f"{SITE}/team.html"]}),
    )
    with TaskEnv(task, worker) as env:
        env.reset()
        assert judge(env, "browser.cookie", name="sid", equals="abc").passed
        assert not judge(env, "browser.cookie", name="sid", equals="abd").passed
        # The agent adds a bookmark through the bookmark manager's own API, and visits a page.
        run(env, "browser.open('chrome://bookmarks')\n"
                 "browser.evaluate(\"new Promise(r => chrome.bookmarks.create({parentId: '2', title: 'Team',"
                 f" url: '{SITE}/team.html'}}, r))\")\n"
                 f"browser.open('{SITE}/changelog.html')")
        # Profile judges close the browser (it writes its files at exit); the seeded state survived it.
        assert judge(env, "browser.bookmark", name="Docs", url=f"{SITE}/docs.html", folder="Bookmarks bar").passed
        assert judge(env, "browser.bookmark", url=f"{SITE}/team.html", folder="Other bookmarks").passed
        assert not judge(env, "browser.bookmark", url=f"{SITE}/team.html", folder="Bookmarks bar").passed
        assert not judge(env, "browser.bookmark", name="Docs", present=False).passed
        assert judge(env, "browser.history", contains="/products/lamp.html").passed
        assert judge(env, "browser.history", contains="/changelog.html").passed
        assert not judge(env, "browser.history", contains="/pricing.html").passed
        assert judge(env, "browser.setting", name="homepage", equals=f"{SITE}/start.html").passed
        assert judge(env, "browser.setting", name="webkit.webprefs.default_font_size", equals=18).passed
        assert not judge(env, "browser.setting", name="webkit.webprefs.default_font_size", equals=16).passed
        late = run_judge("browser.url", {"contains": "team"}, env.context())
        assert late.error and "list browser.url/tabs/cookie/page judges before" in late.feedback


def test_outside_resources_fail_fast(worker: Worker) -> None:
    """The world's network is loopback only: an outside image or script on a page does not hold up
    its load, and navigating outside fails with a network error instead of waiting."""
    task = browser_task("t-browser-offline", ("browser.open", {"urls": [f"{SITE}/index.html"]}))
    with TaskEnv(task, worker) as env:
        env.reset()  # index.html loads an image and a script from outside hosts
        out = run(env, "try:\n    browser.open('http://example.com/')\nexcept Exception as e:\n    print(e)\n"
                       "try:\n    browser.open('http://93.184.216.34/')\nexcept Exception as e:\n    print(e)\n")
        lines = out.strip().splitlines()
        assert len(lines) == 2 and all("net::ERR_" in line for line in lines), out  # e.g. ERR_INTERNET_DISCONNECTED
        result = env.execute("print(browser.evaluate(\"fetch('http://example.com/').then(() => 'ok', e => String(e))\"))",
                             timeout=120)
        assert "TypeError" in result.stdout, result


def test_devtools_is_not_on_the_hosts_loopback(worker: Worker) -> None:
    """The browser runs in the world, as the agent; its DevTools port answers in the world's
    network namespace and not on the host's loopback."""
    import socket

    from deskact.toolkits.browser import session

    task = browser_task("t-browser-boundary", ("browser.open", {}))
    with TaskEnv(task, worker) as env:
        env.reset()
        ctx = env.context()
        where = session.place(ctx)
        port = session.port(where)
        assert port and session.running(where) is not None  # reached through the world's namespace
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", port)) != 0
        browsers = [p for p in ctx.world.processes() if "--user-data-dir=/tmp/deskact-chromium" in p.cmdline
                    and "--type=" not in p.cmdline]
        assert browsers and all(p.uid == ctx.world.agent_id for p in browsers)


def test_step_records_hold_the_active_url(worker: Worker) -> None:
    """What the report shows under each step of a browser task."""
    from deskact.runtime.agent.agent import StepRecord

    task = browser_task("t-browser-url", ("browser.open", {"urls": [f"{SITE}/team.html"]}))
    with TaskEnv(task, worker) as env:
        env.reset()
        written: list[StepRecord] = []
        record = env._with_step_hooks(written.append)
        assert record is not None
        record(StepRecord(index=0))
        run(env, f"browser.new_tab('{SITE}/pricing.html')")
        record(StepRecord(index=1))
        assert [r.url for r in written] == [f"{SITE}/team.html", f"{SITE}/pricing.html"]
        out = run(env, "browser.reload(); browser.press('End'); print(browser.url)")
        assert out.strip() == f"{SITE}/pricing.html"



def test_close_step_closes_the_browser_as_a_person_would(worker: Worker) -> None:
    """browser.close (a cleanup, or a step before profile judges): Chromium exits and writes its
    profile (a bookmark the agent added is on disk); a second close finds none running and is fine."""
    import json

    from deskact.runtime.tasks.steps import run_reset
    from deskact.toolkits.browser import session

    task = browser_task("t-browser-close", ("browser.open", {"urls": [f"{SITE}/team.html"]}))
    with TaskEnv(task, worker) as env:
        env.reset()
        run(env, "browser.open('chrome://bookmarks')\n"
                 "browser.evaluate(\"new Promise(r => chrome.bookmarks.create({parentId: '1', title: 'Team',"
                 f" url: '{SITE}/team.html'}}, r))\")")
        ctx = env.context()
        where = session.place(ctx)
        assert session.running(where) is not None
        run_reset("browser.close", {}, ctx)
        assert session.running(where) is None
        assert not [p for p in ctx.world.processes() if "--user-data-dir=" in p.cmdline]
        bookmarks = json.loads((where.host_profile / "Default" / "Bookmarks").read_text())
        bar = bookmarks["roots"]["bookmark_bar"]["children"]
        assert [b["url"] for b in bar] == [f"{SITE}/team.html"]
        run_reset("browser.close", {}, ctx)  # none running: nothing to do, no error
