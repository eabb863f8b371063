"""OSWorld's metrics on LibreOffice's registrymodifications.xcu (check_presenter_console_disable,
check_auto_saving_time, find_default_font) agree with config.libreoffice."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.conformance

XCU = "/home/user/.config/libreoffice/4/user/registrymodifications.xcu"
ITEMS = {
    "presenter": '<item oor:path="/org.openoffice.Office.Impress/Misc/Start"><prop oor:name="EnablePresenterScreen"'
                 ' oor:op="fuse"><value>{}</value></prop></item>',
    "autosave": '<item oor:path="/org.openoffice.Office.Common/Save/Document"><prop oor:name="AutoSaveTimeIntervall"'
                ' oor:op="fuse"><value>{}</value></prop></item>',
    "font": '<item oor:path="/org.openoffice.Office.Writer/DefaultFont"><prop oor:name="Standard" oor:op="fuse">'
            '<value>{}</value></prop></item>',
}


def _xcu(items: list[str]) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<oor:items xmlns:oor="http://openoffice.org/2001/registry"'
            ' xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
            + "\n".join(items) + "\n</oor:items>\n")


@pytest.mark.parametrize(("func", "rules", "items", "verdict"), [
    ("check_presenter_console_disable", None, [ITEMS["presenter"].format("false")], True),
    ("check_presenter_console_disable", None, [ITEMS["presenter"].format("False")], True),
    ("check_presenter_console_disable", None, [ITEMS["presenter"].format("true")], False),
    ("check_presenter_console_disable", None, [], False),
    ("check_presenter_console_disable", None,
     [ITEMS["presenter"].format("true"), ITEMS["presenter"].format("false")], False),  # the first one counts
    ("check_auto_saving_time", {"minutes": 3}, [ITEMS["autosave"].format("3")], True),
    ("check_auto_saving_time", {"minutes": 3}, [ITEMS["autosave"].format("10")], False),
    ("check_auto_saving_time", {"minutes": 3}, [ITEMS["font"].format("3")], False),
    ("find_default_font", {"font_name": "Times New Roman"}, [ITEMS["font"].format("Times New Roman")], True),
    ("find_default_font", {"font_name": "Times New Roman"}, [ITEMS["font"].format("Liberation Serif")], False),
    ("find_default_font", {"font_name": "Times New Roman"},
     [ITEMS["font"].format("Arial"), ITEMS["font"].format("Times New Roman")], True),  # the last one counts
])
def test_libreoffice_settings(desktop_env: Any, deskact: Any, func: str, rules: dict[str, Any] | None,
                              items: list[str], verdict: bool) -> None:
    where = deskact.home_file(XCU)
    where.write_text(_xcu(items))
    evaluator: dict[str, Any] = {"func": func, "result": {"type": "vm_file", "path": XCU,
                                                           "dest": "registrymodifications.xcu"}}
    if rules is None:
        theirs = desktop_env.passes("slides", func, str(where))
    else:
        evaluator["expected"] = {"type": "rule", "rules": rules}
        theirs = desktop_env.passes("slides" if func != "find_default_font" else "docs", func, str(where), rules)
    ours = deskact.passes(evaluator)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


def test_an_unchanged_profile_fails_both(desktop_env: Any, deskact: Any) -> None:
    evaluator = {"func": "check_auto_saving_time", "result": {"type": "vm_file", "path": XCU},
                 "expected": {"type": "rule", "rules": {"minutes": 3}}}
    assert not deskact.passes(evaluator) and "does not exist" in deskact.feedback
    assert not desktop_env.passes("slides", "check_auto_saving_time", str(deskact.home_file(XCU)), {"minutes": 3})
