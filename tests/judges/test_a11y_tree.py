"""a11y.selectors' XML: an AT-SPI object's description written as OSWorld's server writes it, and
rules matched on it (the bus reading itself is validated in worlds: tests/runtime/importers/
test_import_validate_a11y_tree.py)."""

from __future__ import annotations

from typing import Any

from deskact.judges.a11y_tree import NAMESPACES, _element, match_rules
from lxml import etree


def _info(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"role": "page tab", "name": "About Profiles", "states": ["showing", "visible", "selected"],
                            "attrs": {"id": "tab1", "class": "tabmail-tab", "": "x", "bad name": "y"},
                            "ifaces": {"Accessible", "Component", "Text"}, "children": []}
    return {**base, **kw}


def test_an_object_becomes_an_element_named_by_its_role() -> None:
    node = _element(_info(extents=(10, 20, 300, 40), text="About\ufffc Profiles\ufffd"))
    assert node.tag == "page-tab"
    assert node.get("name") == "About Profiles"
    assert node.get(f"{{{NAMESPACES['st']}}}selected") == "true"
    assert node.get(f"{{{NAMESPACES['attr']}}}id") == "tab1"
    assert node.get(f"{{{NAMESPACES['cp']}}}screencoord") == "(10, 20)"
    assert node.get(f"{{{NAMESPACES['cp']}}}size") == "(300, 40)"
    assert node.text == "About Profiles"
    assert not any("bad" in k for k in node.attrib)  # not an XML name: left out


def test_values_actions_and_an_unnamed_role() -> None:
    node = _element(_info(role="", ifaces={"Value", "Action", "Image", "Selection"}, **{
        "val:value": 3, "val:max": 10.5, "actions": [("click", "Clicks", "<Alt>c"), ("bad name!", "", "")]}))
    assert node.tag == "unknown"
    assert node.get(f"{{{NAMESPACES['val']}}}value") == "3.0" and node.get(f"{{{NAMESPACES['val']}}}max") == "10.5"
    assert node.get(f"{{{NAMESPACES['act']}}}click_desc") == "Clicks"
    assert node.get(f"{{{NAMESPACES['act']}}}click_kb") == "<Alt>c"
    assert node.get("image") == "true" and node.get("selection") == "true"


def test_rules_select_with_css_or_xpath() -> None:
    root = etree.Element("desktop-frame", nsmap=NAMESPACES)
    app = etree.SubElement(root, "application", name="Thunderbird")
    tabs = etree.SubElement(app, "page-tab-list", {f"{{{NAMESPACES['attr']}}}id": "tabmail-tabs"})
    tabs.append(_element(_info()))
    css = [{"selectors": ['application[name=Thunderbird] page-tab-list[attr|id="tabmail-tabs"]>page-tab[name="About Profiles"]']}]
    assert match_rules(root, css).passed
    assert not match_rules(root, [{"selectors": ['page-tab[name="Settings"]']}]).passed
    assert match_rules(root, [{"xpath": "//page-tab[@st:selected='true']"}]).passed
    assert not match_rules(root, [*css, {"xpath": "//document-frame[@name='Slides View']"}]).passed
