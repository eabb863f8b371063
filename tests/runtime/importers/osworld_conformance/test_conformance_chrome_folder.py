"""OSWorld's is_expected_bookmarks with the liked_authors_websites_urls rule (desktop-env's chrome.py)
and deskact's browser.bookmark_folder agree on the same Bookmarks files, with multi_apps-a82b78bb's
rule. desktop-env's getter returns the Bookmarks file's ``roots``: the metric is given that."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.conformance

RULE = {"type": "liked_authors_websites_urls", "names": ["Liked Authors"], "urls": [
    ["https://jimfan.me/", "https://research.nvidia.com/person/linxi-jim-fan"],
    ["https://research.nvidia.com/person/de-an-huang", "https://ai.stanford.edu/~dahuang/"],
    ["https://yukezhu.me/", "https://www.cs.utexas.edu/people/faculty-researchers/yuke-zhu",
     "https://experts.utexas.edu/yuke_zhu", "https://research.nvidia.com/person/yuke-zhu"],
    ["http://tensorlab.cms.caltech.edu/users/anima/", "https://www.eas.caltech.edu/people/anima"]]}
FIRST = [alternatives[0] for alternatives in RULE["urls"]]


def _url(url: str) -> dict[str, Any]:
    return {"type": "url", "name": url.split("/")[2], "url": url}


def _folder(name: str, children: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "folder", "name": name, "children": children}


def _roots(bar: list[dict[str, Any]]) -> dict[str, Any]:
    return {"bookmark_bar": _folder("Bookmarks bar", bar), "other": _folder("Other bookmarks", [])}


CASES = [
    ("the first addresses", [_folder("Liked Authors", [_url(u) for u in FIRST])], True),
    ("other alternatives", [_folder("Liked Authors", [_url(a[-1]) for a in RULE["urls"]])], True),
    ("in another order, among other bar items", [_url("https://arxiv.org/abs/2206.08853"),
                                                 _folder("Liked Authors", [_url(u) for u in reversed(FIRST)])], True),
    ("one bookmarked twice", [_folder("Liked Authors", [_url(u) for u in [*FIRST, FIRST[0]]])], True),
    ("one missing", [_folder("Liked Authors", [_url(u) for u in FIRST[:3]])], False),
    ("one more", [_folder("Liked Authors", [_url(u) for u in [*FIRST, "https://arxiv.org/"]])], False),
    ("two pages of one author", [_folder("Liked Authors", [_url(u) for u in [*FIRST, RULE["urls"][0][1]]])], False),
    ("an address without its final slash", [_folder("Liked Authors", [_url(u) for u in [FIRST[0][:-1], *FIRST[1:]]])],
     False),
    ("the folder named otherwise", [_folder("Liked authors", [_url(u) for u in FIRST])], False),
    ("in a subfolder", [_folder("Liked Authors", [_folder("NVIDIA", [_url(u) for u in FIRST])])], False),
    ("the folder inside another", [_folder("Papers", [_folder("Liked Authors", [_url(u) for u in FIRST])])], False),
    ("a first, wrong folder of that name", [_folder("Liked Authors", []),
                                            _folder("Liked Authors", [_url(u) for u in FIRST])], False),
    ("no folder", [_url(u) for u in FIRST], False),
]


@pytest.mark.parametrize(("what", "bar", "verdict"), CASES, ids=[c[0] for c in CASES])
def test_liked_authors_websites_urls(desktop_env: Any, deskact: Any, chromium_profile: Path, what: str,
                                     bar: list[dict[str, Any]], verdict: bool) -> None:
    roots = _roots(bar)
    (chromium_profile / "Bookmarks").write_text(json.dumps({"roots": roots, "version": 1}))
    theirs = desktop_env.passes("chrome", "is_expected_bookmarks", roots, copy.deepcopy(RULE))
    ours = deskact.passes({"func": "is_expected_bookmarks", "result": {"type": "bookmarks"},
                           "expected": {"type": "rule", "rules": copy.deepcopy(RULE)}})
    assert ours == theirs == verdict, deskact.feedback
