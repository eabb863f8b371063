"""config.value: one setting of an INI, TOML, JSON or YAML file, found by its key path.

Checking a config file's text with a regex breaks on harmless edits (quotes,
spacing, key order, comments); parsing it and looking up ``section.key``
judges the setting itself.
"""

from __future__ import annotations

import configparser
import json
import re
import tomllib
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict

from ..runtime import safe_yaml
from ..runtime.tasks.helpers import Regex, clip, shown
from ..runtime.tasks.steps import StepContext, Verdict, judge

Format = Literal["auto", "ini", "toml", "json", "yaml"]
_BY_SUFFIX = {".ini": "ini", ".cfg": "ini", ".conf": "ini", ".toml": "toml", ".json": "json",
              ".yaml": "yaml", ".yml": "yaml"}


def parse_config(text: str, fmt: str, source: str = "<string>") -> Any:
    """The file as nested dicts/lists. INI sections become dicts; keys before any section are top level."""
    if fmt == "toml":
        return tomllib.loads(text)
    if fmt == "json":
        return json.loads(text)
    if fmt == "yaml":
        return safe_yaml.load(text, source=source)
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    parser.read_string("[__top__]\n" + text)
    top = dict(parser["__top__"])
    return {**top, **{s: dict(parser[s]) for s in parser.sections() if s != "__top__"}}


def lookup(doc: Any, key: list[str]) -> tuple[bool, Any]:
    for part in key:
        if isinstance(doc, dict) and part in doc:
            doc = doc[part]
        elif isinstance(doc, list) and re.fullmatch(r"-?\d+", part) and -len(doc) <= int(part) < len(doc):
            doc = doc[int(part)]
        else:
            return False, None
    return True, doc


def same_setting(actual: Any, expected: Any, typed: bool) -> bool:
    """Typed formats compare exactly (true is not "true", 3 == 3.0); INI values, all text, compare
    as text, with booleans as configparser reads them (yes/on/1/true)."""
    if not typed and isinstance(actual, str) and not isinstance(expected, str):
        if isinstance(expected, bool):
            return configparser.ConfigParser.BOOLEAN_STATES.get(actual.strip().lower()) is expected
        return actual.strip() == str(expected)
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(actual) is type(expected) and actual == expected
    return bool(actual == expected)


@judge("config.value", one_of=("equals", "contains", "regex", "exists"))
def config_value(ctx: StepContext, path: str, key: str | list[str], equals: Any = None,
                 contains: str | None = None, regex: Regex | None = None, exists: bool | None = None,
                 format: Format = "auto") -> Verdict:
    """The setting at ``key`` ("section.name", "database.ports.0", or a list of parts for keys with
    dots) of the INI/TOML/JSON/YAML file ``path`` (format from the extension, or ``format``)
    equals ``equals``, contains ``contains``, matches ``regex``, or ``exists`` (true/false)."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} should be a config file but does not exist")
    fmt = format if format != "auto" else _BY_SUFFIX.get(Path(path).suffix.lower(), "ini")
    parts = key.split(".") if isinstance(key, str) else key
    try:
        doc = parse_config(p.read_text(encoding="utf-8", errors="replace"), fmt, source=shown(ctx, p))
    except safe_yaml.AliasBombError:
        raise  # a limit, not a wrong answer: the verdict is an error naming it
    except (ValueError, configparser.Error, yaml.YAMLError) as exc:
        return Verdict.fail(f"{shown(ctx, p)} is not valid {fmt.upper()}: {clip(str(exc), 160)}")
    found, value = lookup(doc, parts)
    name = f"{shown(ctx, p)} setting {'.'.join(parts)}"
    if exists is not None:
        return (Verdict.ok if found == exists else Verdict.fail)(
            f"{name} {'exists' if found else 'does not exist'}" + (f" (= {clip(value, 80)})" if found else ""))
    if not found:
        return Verdict.fail(f"{name} does not exist")
    if equals is not None:
        ok, want = same_setting(value, equals, typed=fmt != "ini"), f"be {clip(equals, 80)}"
    elif contains is not None:
        ok, want = contains in str(value), f"contain {clip(contains, 80)}"
    else:
        ok, want = re.search(regex or "", str(value)) is not None, f"match /{regex}/"
    return Verdict.ok(f"{name} is {clip(value, 80)}") if ok else Verdict.fail(
        f"{name} should {want} but is {clip(value, 120)}", actual=str(value)[:500])


_OOR = "{http://openoffice.org/2001/registry}"


def libreoffice_setting(path: Path, item: str, prop: str, occurrence: Literal["first", "last"]) -> str | None:
    """The value text of ``prop`` under the ``item`` path in LibreOffice's registrymodifications.xcu
    (``<item oor:path=...><prop oor:name=...><value>``), the first or last one written."""
    from xml.etree import ElementTree

    values = [value.text for node in ElementTree.fromstring(path.read_bytes()).iter("item") if node.get(f"{_OOR}path") == item
              for p in node.iter("prop") if p.get(f"{_OOR}name") == prop for value in p.findall("value")]
    if not values:
        return None
    return values[0] if occurrence == "first" else values[-1]


@judge("config.libreoffice")
def config_libreoffice(ctx: StepContext, path: str, item: str, prop: str, equals: str, ignore_case: bool = False,
                       number: bool = False, occurrence: Literal["first", "last"] = "last") -> Verdict:
    """A LibreOffice setting in its user profile's ``registrymodifications.xcu`` at ``path``: the
    value of ``prop`` under ``item`` (an ``oor:path`` such as ``/org.openoffice.Office.Common/Save/Document``)
    equals ``equals`` (``ignore_case``; ``number``: compared as integers). A setting left at its
    default is not in the file, so it fails. ``occurrence`` picks the first or last value written."""
    from xml.etree import ElementTree

    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be LibreOffice's settings file but does not exist (nothing was changed)")
    try:
        value = libreoffice_setting(p, item, prop, occurrence)
    except ElementTree.ParseError as exc:
        return Verdict.fail(f"{p} is not a readable settings file: {exc}")
    what = f"LibreOffice's {item.rsplit('/', 1)[-1]}/{prop}"
    if value is None:
        return Verdict.fail(f"{what} is not set in {p.name} (still the default); it should be {equals!r}")
    if number:
        try:
            same = int(value) == int(equals)
        except ValueError:
            same = False
    else:
        same = value.lower() == equals.lower() if ignore_case else value == equals
    if same:
        return Verdict.ok(f"{what} is {value!r}")
    return Verdict.fail(f"{what} is {value!r}, not {equals!r}")


def _ini_sections(text: str) -> dict[str, dict[str, str]]:
    parser = configparser.ConfigParser()
    parser.read_string(text)
    return {section: dict(parser.items(section)) for section in parser.sections()}


@judge("config.same_ini")
def config_same_ini(ctx: StepContext, path: str, reference: str) -> Verdict:
    """The INI file ``path`` has the same sections with the same settings as the gold file
    ``reference``, as Python's configparser reads both (keys case-insensitive, values as text with
    ``%(name)s`` interpolated, [DEFAULT] settings in every section; comments, order and spacing
    do not count). AgentStudio's verify_ini decides this way."""
    from ..runtime.tasks.helpers import gold_file

    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} should be an INI file but does not exist")
    want = _ini_sections(gold_file(ctx, reference).read_text(encoding="utf-8"))
    try:
        have = _ini_sections(p.read_text(encoding="utf-8", errors="replace"))
    except configparser.Error as exc:
        return Verdict.fail(f"{shown(ctx, p)} is not valid INI: {clip(str(exc), 160)}")
    if have == want:
        return Verdict.ok(f"{shown(ctx, p)} has the expected sections and settings")
    diffs = [f"[{s}] {k} = {clip(have.get(s, {}).get(k), 40)} (expected {clip(want.get(s, {}).get(k), 40)})"
             for s in sorted(set(have) | set(want)) for k in sorted(set(have.get(s, {})) | set(want.get(s, {})))
             if have.get(s, {}).get(k) != want.get(s, {}).get(k)]
    missing = sorted(set(want) - set(have))
    return Verdict.fail(f"{shown(ctx, p)} differs from the expected settings: "
                        + "; ".join(([f"sections {missing} missing"] if missing else []) + diffs[:5]))


class KeyRule(BaseModel):
    """A value found by ``key`` (a path of keys into the document) against ``ref`` by ``method``
    (OSWorld's methods: ``eq``, ``ne``, ``lt``..., ``re[.FLAG]``, ``approx:<tolerance>``, ...)."""

    model_config = ConfigDict(extra="forbid")
    key: list[str]
    method: str
    ref: Any = None


def _walk(doc: Any, key: list[str]) -> tuple[bool, Any]:
    value = doc
    for part in key:
        try:
            value = value[part]
        except (KeyError, TypeError, IndexError):
            return False, None
    return True, value


@judge("config.rules")
def config_rules(ctx: StepContext, path: str, expect: list[KeyRule] = [], unexpect: list[KeyRule] = [],  # noqa: B006
                 yaml_file: bool = False) -> Verdict:
    """The JSON (or, with ``yaml_file``, YAML) file ``path`` as OSWorld's ``check_json`` reads it:
    every ``expect`` rule's key is there and its value matches; no ``unexpect`` rule matches (a
    missing key reads as null). A rule OSWorld cannot even evaluate (a regex on a number or
    null) fails the file, as it does there."""
    from ._value_rules import match

    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a {'YAML' if yaml_file else 'JSON'} file but does not exist")
    try:
        text = p.read_text(encoding="utf-8")
        doc = safe_yaml.load(text, source=str(p)) if yaml_file else json.loads(text)
    except safe_yaml.AliasBombError:
        raise
    except (UnicodeDecodeError, ValueError, yaml.YAMLError) as exc:
        return Verdict.fail(f"{p} is not readable {'YAML' if yaml_file else 'JSON'}: {clip(str(exc), 120)}")
    if yaml_file and doc is None:
        return Verdict.fail(f"{p} holds no YAML values")
    problems = []
    for rule, wanted in [(r, True) for r in expect] + [(r, False) for r in unexpect]:
        found, value = _walk(doc, rule.key)
        if wanted and not found:
            problems.append(f"{'.'.join(rule.key)} is missing")
            continue
        try:
            hit = match(value, rule.method, rule.ref)
        except (TypeError, AttributeError, ValueError, re.error) as exc:
            problems.append(f"{'.'.join(rule.key)} = {clip(value, 60)} cannot be checked by {rule.method}: {exc}")
            continue
        if hit != wanted:
            problems.append(f"{'.'.join(rule.key)} = {clip(value, 60)} {'does not match' if wanted else 'matches'}"
                            f" {rule.method} {clip(rule.ref, 60)}")
    if problems:
        return Verdict.fail(f"{p}: " + "; ".join(problems))
    return Verdict.ok(f"{p} has the expected values")
