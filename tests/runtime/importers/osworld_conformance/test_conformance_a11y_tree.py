"""OSWorld's metrics on the accessibility tree (check_accessibility_tree, check_left_panel) agree with
the a11y.selectors rules the importer writes for them, on the same XML (the tree as OSWorld's server
writes it, and as judges/a11y_tree.py writes the world's: an element per object named by its role,
``name``, ``st:``/``attr:`` attributes in OSWorld's Ubuntu namespaces).

The trees are small hand-written ones shaped as Thunderbird's and Impress's (the shapes read from
Thunderbird 153 and LibreOffice in a world: tabmail-tabs, the compose window's address pills, the
slide pane); right and near-miss states of each task's rules."""

from __future__ import annotations

from typing import Any

import pytest
from lxml import etree

pytestmark = pytest.mark.conformance

NS = ('xmlns:st="https://accessibility.ubuntu.example.org/ns/state" '
      'xmlns:attr="https://accessibility.ubuntu.example.org/ns/attributes" '
      'xmlns:cp="https://accessibility.ubuntu.example.org/ns/component"')


def _desktop(*apps: str) -> str:
    return f"<desktop-frame {NS}>{''.join(apps)}</desktop-frame>"


def _thunderbird(tabs: list[str], tab_list_id: str = "tabmail-tabs", app: str = "Thunderbird", wrap: bool = False) -> str:
    pages = "".join(f'<page-tab name="{t}" st:showing="true"><section name="{t}"/></page-tab>' for t in tabs)
    if wrap:
        pages = f"<section>{pages}</section>"
    return (f'<application name="{app}"><frame name="Mozilla Thunderbird"><tool-bar name="">'
            f'<page-tab-list name="" attr:id="{tab_list_id}" attr:tag="tabs">{pages}</page-tab-list>'
            "</tool-bar></frame></application>")


PROFILE_TAB = 'application[name=Thunderbird] page-tab-list[attr|id="tabmail-tabs"]>page-tab[name="About Profiles"]'
PROFILES = [{"selectors": [PROFILE_TAB]}]


@pytest.mark.parametrize(("xml", "verdict"), [
    (_desktop(_thunderbird(["Inbox - Local Folders", "About Profiles"])), True),
    (_desktop('<application name="gnome-shell"/>', _thunderbird(["About Profiles"])), True),
    (_desktop(_thunderbird(["Inbox - Local Folders", "Troubleshooting Information"])), False),
    (_desktop(_thunderbird(["Inbox - Local Folders", "About Profiles - Mozilla Thunderbird"])), False),
    (_desktop(_thunderbird(["About Profiles"], tab_list_id="tabs")), False),
    (_desktop(_thunderbird(["About Profiles"], app="Thunderbird Daily")), False),
    (_desktop(_thunderbird(["About Profiles"], wrap=True)), False),  # not a child of the tab list
    (_desktop('<dialog name="Choose User Profile"/>'), False),  # the profile manager's own window
])
def test_check_accessibility_tree_on_tabs(desktop_env: Any, xml: str, verdict: bool) -> None:
    assert _ours("check_accessibility_tree", xml, PROFILES) == _theirs(xml, PROFILES) == verdict


def _compose(to: list[str], cc: list[str] = (), toolbar: str = "MsgHeadersToolbar") -> str:  # type: ignore[assignment]
    def row(label: str, addresses: list[str] | tuple[str, ...]) -> str:
        pills = "".join(f'<section attr:class="address-pill"><label name="{a}" attr:class="pill-label"/></section>'
                        for a in addresses)
        return f'<section><label name="{label}"/>{pills}<entry name="{label}"/></section>'

    return (f'<application name="Thunderbird"><frame name="Write: Reminder of Payment"><tool-bar name=""'
            f' attr:id="{toolbar}">{row("To", to)}{row("Cc", cc)}</tool-bar></frame></application>')


def _pill(address: str) -> dict[str, Any]:
    pill = ('tool-bar[attr|id=MsgHeadersToolbar] label[name=To]~[attr|class="address-pill"]>'
            f'label[attr|class="pill-label"][name*="{address}"]')
    return {"selectors": [pill]}


PEOPLE = ["fox@someuniversity.edu", "iron@someuniversity.edu", "nancy@someuniversity.edu", "stella@someuniversity.edu"]
PILLS = [_pill(a) for a in PEOPLE]


@pytest.mark.parametrize(("xml", "verdict"), [
    (_desktop(_compose(PEOPLE)), True),
    (_desktop(_compose([f"Fox &lt;{PEOPLE[0]}&gt;", *PEOPLE[1:]])), True),  # name* : the address within the pill
    (_desktop(_compose(PEOPLE[:3])), False),
    (_desktop(_compose(PEOPLE[:3], cc=PEOPLE[3:])), False),  # one in Cc
    (_desktop(_compose(PEOPLE, toolbar="MsgHeaders")), False),
    (_desktop(_compose([])), False),
])
def test_check_accessibility_tree_on_address_pills(desktop_env: Any, xml: str, verdict: bool) -> None:
    assert _ours("check_accessibility_tree", xml, PILLS) == _theirs(xml, PILLS) == verdict


def _impress(*frames: str) -> str:
    docs = "".join(f'<document-frame name="{f}"/>' for f in frames)
    return (f'<application name="soffice"><frame name="Untitled 1 - LibreOffice Impress"><panel>{docs}</panel>'
            "</frame></application>")


@pytest.mark.parametrize(("xml", "verdict"), [
    (_desktop(_impress("Slides View", "Edit View")), True),
    (_desktop(_impress("Edit View")), False),
    (_desktop(_impress("Slide Sorter", "Edit View")), False),
    (_desktop(_impress("Edit View"), '<application name="x"><panel name="Slides View"/></application>'), False),
])
def test_check_left_panel(desktop_env: Any, xml: str, verdict: bool) -> None:
    theirs = desktop_env.passes("slides", "check_left_panel", xml)
    assert _ours("check_left_panel", xml, None) == theirs == verdict


def _theirs(xml: str, rules: list[dict[str, Any]]) -> bool:
    # check_accessibility_tree's pytest fixture is module-level: the runner is reached through it
    return _DESKTOP_ENV[0].passes("general", "check_accessibility_tree", xml, rules)


def _ours(func: str, xml: str, rules: list[dict[str, Any]] | None) -> bool:
    from deskact.judges.a11y_tree import match_rules
    from deskact.runtime.importers.osworld_metrics import translate_evaluator

    part: dict[str, Any] = {"func": func, "result": {"type": "accessibility_tree"}}
    if rules is not None:
        part["expected"] = {"type": "rule", "rules": rules}
    out = translate_evaluator(part, lambda u, n: n, str, str)
    assert not out.reasons, out.reasons
    [(name, params)] = [next(iter(s.items())) for s in out.judge]
    assert name == "a11y.selectors"
    return match_rules(etree.fromstring(xml), params["rules"]).passed


_DESKTOP_ENV: list[Any] = []


@pytest.fixture(autouse=True)
def _runner(desktop_env: Any) -> None:
    _DESKTOP_ENV[:] = [desktop_env]


@pytest.mark.parametrize("part", [
    {"func": "check_accessibility_tree", "result": {"type": "accessibility_tree"},
     "expected": {"type": "rule", "rules": [{"selectors": ["label"], "text": "To", "exact": True}]}},
    {"func": "check_accessibility_tree", "result": {"type": "accessibility_tree"}, "options": {"osname": "windows"},
     "expected": {"type": "rule", "rules": PROFILES}},
    {"func": "check_accessibility_tree", "result": {"type": "vm_file", "path": "/tmp/a.xml"},
     "expected": {"type": "rule", "rules": PROFILES}},
])
def test_rules_not_deciding_the_same_are_reported(part: dict[str, Any]) -> None:
    from deskact.runtime.importers.osworld_metrics import translate_evaluator

    out = translate_evaluator(part, lambda u, n: n, str, str)
    assert out.reasons and not out.judge, out
