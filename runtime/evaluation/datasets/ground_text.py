"""Instructions a person would write for a grounding target, from its role, name and state.

Phrasings vary (seeded by the sample, so a dataset is the same every run): "click the Bold
button", "turn on Bold", "open the File menu", "select cell C4", "switch to the notes.txt tab".
"""

from __future__ import annotations

import random
import re

_SHORTCUT = re.compile(r"\s*\((?:ctrl|shift|alt|f\d+)[^)]*\)\s*$", re.IGNORECASE)


def clean_name(name: str) -> str:
    """An accessible name as a person reads it: no mnemonic marks, no shortcut in brackets,
    no trailing ellipsis or colon, one line."""
    name = name.replace("_", "").replace("~", "").strip()
    name = _SHORTCUT.sub("", name)
    name = re.sub(r"\s+", " ", name)
    return name.rstrip(".:…").strip()


def quoted(name: str) -> str:
    """A name inside a sentence: bare when it is one plain word, else in quotes."""
    return name if re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", name) else f"'{name}'"


def first_words(text: str, words: int = 6) -> str:
    parts = text.split()
    return " ".join(parts[:words])


def column_name(column: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    out = ""
    column += 1
    while column:
        column, rest = divmod(column - 1, 26)
        out = chr(ord("A") + rest) + out
    return out


def instruction(kind: str, name: str, rng: random.Random, *, checked: bool = False, parent: str = "",
                where: str = "") -> str:
    """One instruction for a target of ``kind`` named ``name``."""
    q = quoted(name)
    options: list[str]
    if kind == "menu":
        options = [f"open the {q} menu", f"click {q} in the menu bar", f"show the {q} menu"]
    elif kind == "submenu":
        options = [f"open the {q} submenu of the {quoted(parent)} menu", f"click {q} in the {quoted(parent)} menu",
                   f"click {q} in the open {quoted(parent)} menu"]
    elif kind == "toggle":
        state = ("turn off" if checked else "turn on")
        options = [f"click the {q} button{where}", f"{state} {q}{where}", f"press the {q} button{where}"]
    elif kind == "check":
        options = [f"{'untick' if checked else 'tick'} the {q} check box{where}", f"click the {q} check box{where}"]
    elif kind == "radio":
        options = [f"choose the {q} option{where}", f"select {q}{where}"]
    elif kind == "tab":
        options = [f"switch to the {q} tab{where}", f"open the {q} tab{where}", f"click the {q} tab{where}"]
    elif kind == "cell":
        options = [f"select cell {name}", f"click cell {name}", f"go to cell {name}", f"click on the cell {name}"]
    elif kind == "paragraph":
        options = [f"click in the paragraph that starts with '{name}'", f"put the cursor in the line '{name}'",
                   f"click on the text '{name}'"]
    elif kind == "slide":
        options = [f"select the slide '{name}' in the slide pane", f"click the '{name}' slide thumbnail",
                   f"go to the slide '{name}' in the slides list"]
    elif kind == "field":
        options = [f"click in the {q} field{where}", f"put the cursor in the {q} box{where}"]
    elif kind == "list item":
        options = [f"select {q} in the list{where}", f"click {q} in the list{where}"]
    elif kind == "link":
        options = [f"click the '{name}' link", f"follow the link '{name}'", f"open the '{name}' link"]
    elif kind == "button":
        options = [f"click the '{name}' button", f"press the '{name}' button"]
    else:
        options = [f"click {q}"]
    return rng.choice(options)
