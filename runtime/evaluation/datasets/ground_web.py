"""Grounding in Chromium on the offline web apps (shop, wiki, crm): targets and proofs over DevTools.

The world's Chromium exports no AT-SPI tree; its own view of the page comes over DevTools. A
script in the page lists what a person can click (links, buttons, fields, check boxes, tabs):
visible in the viewport, not covered (the browser's own hit test at the box centre is the
element), with the name a person reads (aria-label, its label, its text, placeholder).

Boxes are page (CSS) pixels; the viewport's place on the screen is measured, not guessed: the
pointer is moved with XTEST and the page's trusted ``mousemove`` gives the client position, so
screen = client + offset exactly.

The proof: a capture-phase listener records each trusted click (made by the X server's input,
not a script) and cancels it, so nothing is bought, sent or followed; the sample is proven when
the click the browser dispatched for the XTEST click at the box centre landed on the intended
element (or inside it), and a focusable element took the focus.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from ....toolkits.builtin import BROWSER_TOOLKIT, DESKTOP_TOOLKIT
from . import ground_text as text
from .ground_apps import Scene
from .ground_input import XInput, wait_for
from .ground_proof import Proof, Target

MARK = "data-deskact-ground"

COLLECT_JS = """(() => {
  const out = [];
  if (window.devicePixelRatio !== 1) return {error: 'devicePixelRatio ' + window.devicePixelRatio};
  document.querySelectorAll('[@MARK@]').forEach(e => e.removeAttribute('@MARK@'));
  const sel = 'a[href], button, input:not([type=hidden]), textarea, [role=button], [role=tab], [role=link], summary';
  let n = 0;
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    const x0 = Math.max(r.left, 0), y0 = Math.max(r.top, 0);
    const x1 = Math.min(r.right, innerWidth), y1 = Math.min(r.bottom, innerHeight);
    if (x1 - x0 < 6 || y1 - y0 < 6) continue;
    const style = getComputedStyle(el);
    if (style.visibility !== 'visible' || el.disabled) continue;
    const hit = document.elementFromPoint((x0 + x1) / 2, (y0 + y1) / 2);
    if (!hit || !(el === hit || el.contains(hit))) continue;
    const tag = el.tagName.toLowerCase(), type = (el.getAttribute('type') || '').toLowerCase();
    let name = (el.getAttribute('aria-label') || '').trim();
    if (!name && el.labels && el.labels.length) name = el.labels[0].innerText.trim();
    if (!name && !['input', 'textarea'].includes(tag)) name = (el.innerText || '').trim();
    if (!name && ['submit', 'button', 'reset'].includes(type)) name = el.value || '';
    if (!name) name = el.getAttribute('placeholder') || el.getAttribute('title') || '';
    name = name.replace(/\\s+/g, ' ').trim();
    let kind = el.getAttribute('role') === 'tab' ? 'tab'
      : tag === 'a' || el.getAttribute('role') === 'link' ? 'link'
      : type === 'checkbox' ? 'check' : type === 'radio' ? 'radio'
      : tag === 'textarea' || (tag === 'input' && !['submit', 'button', 'reset', 'image', 'file', 'range', 'color'].includes(type)) ? 'field'
      : 'button';
    el.setAttribute('@MARK@', String(n));
    out.push({id: n, kind, tag, name, box: [x0, y0, x1, y1], focusable: el.tabIndex >= 0});
    n++;
  }
  return out;
})()""".replace("@MARK@", MARK)

LISTEN_JS = """(() => {
  if (!window.__deskactGround) {
    const g = window.__deskactGround = {clicks: [], move: null};
    const mark = e => {
      for (const n of e.composedPath()) if (n.getAttribute && n.getAttribute('@MARK@') !== null) return n.getAttribute('@MARK@');
      return null;
    };
    window.addEventListener('click', e => {
      g.clicks.push({trusted: e.isTrusted, id: mark(e), x: e.clientX, y: e.clientY});
      e.preventDefault(); e.stopImmediatePropagation();
    }, true);
    window.addEventListener('mousemove', e => { if (e.isTrusted) g.move = [e.clientX, e.clientY]; }, true);
  }
  window.__deskactGround.clicks = [];
  return true;
})()""".replace("@MARK@", MARK)

ROLES = {"link": "link", "button": "push button", "field": "entry", "check": "check box", "radio": "radio button",
         "tab": "page tab"}

SITES = {
    "shop": ["/", "/product/1", "/product/2", "/product/3", "/product/4", "/cart", "/orders", "/orders/1", "/checkout",
             "/search?q=mouse", "/product/5", "/orders/2"],
    "wiki": ["/", "/wiki/welcome", "/wiki/onboarding", "/wiki/coffee-machine", "/wiki/release-process",
             "/wiki/parking", "/new", "/wiki/welcome/history", "/wiki/onboarding/edit", "/search?q=coffee"],
    "crm": ["/", "/customers", "/customers/1", "/customers/new", "/requests", "/requests/new", "/settings",
            "/customers/2", "/customers/3"],
}


def web_scenes(rng: random.Random, count: int) -> list[Scene]:
    pages = [(site, path) for path_i in range(12) for site, paths in SITES.items() if path_i < len(paths)
             for path in [paths[path_i]]]
    scenes = []
    for i in range(count):
        site, path = pages[i % len(pages)]
        scenes.append(Scene(name=f"chromium-{site}-{i}", window="Chromium",
                            reset=[("site.serve", {"app": site}),
                                   ("browser.open", {"urls": [f"http://{site}.test{path}"], "timeout": 90})],
                            toolkits=[DESKTOP_TOOLKIT, BROWSER_TOOLKIT, "web"]))
    return scenes


class Page:
    """The task's Chromium tab, over DevTools from the host."""

    def __init__(self, env: Any) -> None:
        from ....toolkits.browser import session

        tools = session.running(session.place(env.context()))
        if tools is None:
            raise RuntimeError("the scene's Chromium does not answer on DevTools")
        self.tools = tools
        target = session.active_target(tools)
        if target is None:
            raise RuntimeError("the scene's Chromium has no tab")
        self.target = target["id"]

    def js(self, expression: str) -> Any:
        return self.tools.evaluate(self.target, expression)

    def close(self) -> None:
        self.tools.close()


def offset(page: Page, xin: XInput) -> tuple[int, int]:
    """Where the page's client (0, 0) is on the screen, from a real pointer move."""
    page.js(LISTEN_JS)
    for sx, sy in ((xin.size[0] // 2, xin.size[1] // 2), (xin.size[0] // 3, xin.size[1] // 2 + 7)):
        page.js("window.__deskactGround.move = null")
        xin.move(sx, sy)
        got = wait_for(lambda: page.js("window.__deskactGround.move"), 3.0)
        if got:
            return sx - round(got[0]), sy - round(got[1])
    raise RuntimeError("the page saw no pointer move: its place on the screen is unknown")


def collect(page: Page, origin: tuple[int, int], screen: tuple[int, int], rng: random.Random) -> tuple[list[Target], dict[str, int]]:
    found = page.js(COLLECT_JS)
    if isinstance(found, dict):
        raise RuntimeError(f"the page cannot be grounded: {found.get('error')}")
    skipped: dict[str, int] = {}
    named = [(e, text.clean_name(e["name"])[:60]) for e in found]
    counts: dict[tuple[str, str], int] = {}
    for e, name in named:
        counts[(e["kind"], name.casefold())] = counts.get((e["kind"], name.casefold()), 0) + 1
    out = []
    for e, name in named:
        why = ("unnamed" if not name else "ambiguous name" if counts[(e["kind"], name.casefold())] > 1
               else "radio button" if e["kind"] == "radio" else "")
        if why:
            skipped[why] = skipped.get(why, 0) + 1
            continue
        # Page pixels [x0, x1) -> screen pixels, edges inclusive, the viewport's offset added.
        import math

        x0, y0 = math.ceil(e["box"][0]) + origin[0], math.ceil(e["box"][1]) + origin[1]
        x1, y1 = math.floor(e["box"][2]) - 1 + origin[0], math.floor(e["box"][3]) - 1 + origin[1]
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, screen[0] - 1), min(y1, screen[1] - 1)
        if x1 - x0 < 5 or y1 - y0 < 5:
            skipped["hidden or too small"] = skipped.get("hidden or too small", 0) + 1
            continue
        kind = e["kind"]
        out.append(Target(ref=("page", json.dumps({"id": e["id"], "focusable": e["focusable"]})), kind=kind,
                          role=ROLES[kind], name=name, rect=(x0, y0, x1, y1),
                          instruction=text.instruction(kind, name, rng)))
    return out, skipped


def prove(page: Page, xin: XInput, target: Target, point: tuple[int, int] | None = None) -> Proof:
    start = time.monotonic()
    info = json.loads(target.ref[1])
    page.js(LISTEN_JS)
    xin.click(*(point or target.centre()))
    click = wait_for(lambda: (c := page.js("window.__deskactGround.clicks")) and c[-1], 2.5)
    focused = page.js(f"(document.activeElement && document.activeElement.getAttribute('{MARK}')) || null")
    page.js("document.activeElement && document.activeElement.blur && document.activeElement.blur(); true")
    if not click or not click.get("trusted"):
        return Proof(False, "no reaction", seconds=time.monotonic() - start)
    if click.get("id") != str(info["id"]):
        return Proof(False, "the click landed on another element", seconds=time.monotonic() - start)
    if info["focusable"] and focused != str(info["id"]):
        return Proof(False, "the element did not take the focus", seconds=time.monotonic() - start)
    return Proof(True, seconds=time.monotonic() - start)
