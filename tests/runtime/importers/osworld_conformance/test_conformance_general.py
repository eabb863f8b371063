"""OSWorld's general metrics on a command's output (exact_match, check_include_exclude,
is_in_list) and vscode's compare_text_file agree with the judges they translate to."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.conformance


def _output(command: str) -> str:
    """What OSWorld's vm_command_line getter returns: the command's stdout."""
    return subprocess.run(["bash", "-c", command], capture_output=True, text=True, check=False).stdout


def _command_case(desktop_env: Any, deskact: Any, func: str, command: str, rules: dict[str, Any]) -> bool:
    evaluator = {"func": func, "result": {"type": "vm_command_line", "command": command, "shell": True},
                 "expected": {"type": "rule", "rules": rules}}
    theirs = desktop_env.passes("general", func, _output(command), rules)
    ours = deskact.passes(evaluator)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    return ours


@pytest.mark.parametrize(("command", "expected", "verdict"), [
    ("echo 'File exists.'", "File exists.\n", True),
    ("printf 'File exists.'", "File exists.\n", False),  # the final newline counts
    ("echo 'File does not exist.'", "File exists.\n", False),
    ("echo 'File exists.'; echo more", "File exists.\n", False),
    ("echo 'uint32 0'", "uint32 0\n", True),
    ("echo firefox.desktop", "firefox.desktop", False),  # as in OSWorld: the output ends with a newline
])
def test_exact_match(desktop_env: Any, deskact: Any, command: str, expected: str, verdict: bool) -> None:
    assert _command_case(desktop_env, deskact, "exact_match", command, {"expected": expected}) is verdict


@pytest.mark.parametrize(("command", "rules", "verdict"), [
    ("echo 'Success: file1 exists in dir1.'", {"include": ["Success: file1"], "exclude": []}, True),
    ("echo 'Failure: file1 missing'", {"include": ["Success: file1"], "exclude": []}, False),
    ("echo 'spotify is /snap/bin/spotify'", {"include": ["spotify"], "exclude": ["not found"]}, True),
    ("echo 'spotify not found'", {"include": ["spotify"], "exclude": ["not found"]}, False),
    ("echo 'user 1 0 /bin/sh ./my_process.sh'", {"include": [], "exclude": ["/bin/sh ./my_process.sh"]}, False),
    ("echo 'user 1 0 grep my_process.sh'", {"include": [], "exclude": ["/bin/sh ./my_process.sh"]}, True),
    ("printf 'a\\nb\\n'", {"include": ["a\nb"]}, True),  # a rule may span lines
    ("printf 'a\\nc\\nb\\n'", {"include": ["a\nb"]}, False),
])
def test_check_include_exclude(desktop_env: Any, deskact: Any, command: str, rules: dict[str, Any],
                               verdict: bool) -> None:
    assert _command_case(desktop_env, deskact, "check_include_exclude", command, rules) is verdict


@pytest.mark.parametrize(("command", "expected", "verdict"), [
    ("printf 'ext-a\\next-b\\n'", "ext-b", True),
    ("printf 'ext-a\\n'", "ext-b", False),
])
def test_is_in_list(desktop_env: Any, deskact: Any, command: str, expected: str, verdict: bool) -> None:
    assert _command_case(desktop_env, deskact, "is_in_list", command, {"expected": expected}) is verdict


RESULT = "/home/user/Desktop/notes.txt"
GOLD_URL = "https://example.org/gold/notes.txt"
GOLD_TEXT = "Line one\nLine  two\n"


@pytest.mark.parametrize(("options", "text", "verdict"), [
    ({}, GOLD_TEXT, True),
    ({}, "Line one\r\nLine  two\r\n", True),  # read as text: CRLF is LF on both sides
    ({}, "Line one\nLine  two", False),
    ({}, "Line one\nLine two\n", False),
    ({"ignore_blanks": True}, "Line one Line two", True),
    ({"ignore_blanks": True}, "Line one\nLine three\n", False),
    ({"ignore_case": True}, "LINE ONE\nline  TWO\n", True),
    ({"ignore_case": True}, "LINE ONE\nline TWO\n", False),
])
def test_compare_text_file(desktop_env: Any, deskact: Any, options: dict[str, Any], text: str, verdict: bool) -> None:
    gold = deskact.ctx.gold.parent / "expected.txt"
    gold.write_bytes(GOLD_TEXT.encode())
    result = deskact.home_file(RESULT)
    result.write_bytes(text.encode())
    evaluator = {"func": "compare_text_file", "result": {"type": "vm_file", "path": RESULT, "dest": "notes.txt"},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_notes.txt"}, "options": options}
    theirs = desktop_env.passes("vscode", "compare_text_file", str(result), str(gold), **options)
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict


def test_missing_text_file_fails_both(desktop_env: Any, deskact: Any, tmp_path: Path) -> None:
    gold = tmp_path / "expected.txt"
    gold.write_text(GOLD_TEXT)
    evaluator = {"func": "compare_text_file", "result": {"type": "vm_file", "path": RESULT},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_notes.txt"}}
    assert not deskact.passes(evaluator, {GOLD_URL: gold}) and "does not exist" in deskact.feedback
    assert not desktop_env.passes("vscode", "compare_text_file", None, str(gold))


LISTING = "org.openoffice.languagetool.oxt\nopenjdk-17-jre: installed\n/usr/lib/thunderbird/thunderbird-bin\n"


@pytest.mark.parametrize(("rules", "text", "verdict"), [
    ({"expect": [r"org\.openoffice\.languagetool\.oxt", r"openjdk-\d+-(jre|jdk)"]}, LISTING, True),
    ({"expect": [r"openjdk-\d+-(jre|jdk)"]}, "openjdk-jre\n", False),
    ({"expect": [r"\bCOMPANY\.msf\b", r"\bCOMPANY/?(?!\.msf)"]}, "COMPANY.msf\nCOMPANY\n", True),
    ({"expect": [r"\bCOMPANY\.msf\b", r"\bCOMPANY/?(?!\.msf)"]}, "COMPANY.msf\n", False),
    ({"unexpect": ["/usr/lib/thunderbird/thunderbird"]}, LISTING, False),
    ({"unexpect": ["/usr/lib/thunderbird/thunderbird$"]}, LISTING, True),
    ({"expect": ["installed$"]}, LISTING, True),  # a line keeps its newline; $ matches before it
    ({"expect": ["Orchis"], "unexpect": ["Adwaita"]}, "'Orchis'\n", True),
    ({"expect": ["a\nb"]}, "a\nb\n", False),  # one line at a time
])
@pytest.mark.parametrize("getter", ["vm_file", "cache_file"])
def test_check_list(desktop_env: Any, deskact: Any, rules: dict[str, Any], text: str, verdict: bool,
                    getter: str) -> None:
    if getter == "vm_file":
        result = {"type": "vm_file", "path": "/home/user/list.txt", "dest": "list.txt"}
        where = deskact.home_file("/home/user/list.txt")
    else:
        result = {"type": "cache_file", "path": "apt.out"}
        where = deskact.home_file("/home/user/.osworld-cache/apt.out")
    where.write_text(text)
    evaluator = {"func": "check_list", "result": result, "expected": {"type": "rule", "rules": rules}}
    theirs = desktop_env.passes("general", "check_list", str(where), rules)
    ours = deskact.passes(evaluator)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


@pytest.mark.parametrize(("data", "verdict"), [
    (GOLD_TEXT.encode(), True),
    (GOLD_TEXT.rstrip("\n").encode(), True),  # lines compared: the final newline does not count
    (b"Line one\r\nLine  two\r\n", True),
    (b"Line one\nLine two\n", False),
    (b"Line one\n", False),
    ("Line one\nLine  twö\n".encode("latin-1"), False),  # not UTF-8: OSWorld's read fails
])
def test_diff_text_file(desktop_env: Any, deskact: Any, data: bytes, verdict: bool) -> None:
    gold = deskact.ctx.gold.parent / "expected.txt"
    gold.write_bytes(GOLD_TEXT.encode())
    result = deskact.home_file(RESULT)
    result.write_bytes(data)
    evaluator = {"func": "diff_text_file", "result": {"type": "vm_file", "path": RESULT, "dest": "notes.txt"},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_notes.txt"}}
    theirs = desktop_env.passes("general", "diff_text_file", str(result), str(gold))
    ours = deskact.passes(evaluator, {GOLD_URL: gold}, errors_fail=True)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


CONFIG = {"name": "Test Account", "author": {"name": "Test Account", "email": "Test@gmail.com"}, "count": 3,
          "folders": "inbox,sent", "tree": {"mode": "smart"}}


@pytest.mark.parametrize(("rules", "doc", "verdict"), [
    ({"expect": [{"key": ["name"], "method": "eq", "ref": "Test Account"},
                 {"key": ["author", "email"], "method": "eq", "ref": "Test@gmail.com"}]}, CONFIG, True),
    ({"expect": [{"key": ["author", "email"], "method": "eq", "ref": "Test@gmail.com"}]},
     {**CONFIG, "author": {"email": "test@gmail.com"}}, False),
    ({"expect": [{"key": ["author", "phone"], "method": "eq", "ref": None}]}, CONFIG, False),  # missing key
    ({"expect": [{"key": ["tree", "mode"], "method": "re", "ref": "\\bsmart\\b$"}]}, CONFIG, True),
    ({"expect": [{"key": ["count"], "method": "re", "ref": "3"}]}, CONFIG, False),  # a regex on a number
    ({"expect": [{"key": ["count"], "method": "ge", "ref": 2}]}, CONFIG, True),
    ({"expect": [{"key": ["folders"], "method": "str_set_eq", "ref": ["sent", "inbox"]}]}, CONFIG, True),
    ({"unexpect": [{"key": ["author", "phone"], "method": "eq", "ref": "1"}]}, CONFIG, True),
    ({"unexpect": [{"key": ["author", "phone"], "method": "re", "ref": "1"}]}, CONFIG, False),  # re on null
    ({"unexpect": [{"key": ["name"], "method": "eq", "ref": "Test Account"}]}, CONFIG, False),
])
@pytest.mark.parametrize("yaml_file", [False, True])
def test_check_json(desktop_env: Any, deskact: Any, rules: dict[str, Any], doc: dict[str, Any], verdict: bool,
                    yaml_file: bool) -> None:
    import json

    import yaml

    where = deskact.home_file("/home/user/site/_config.yml" if yaml_file else "/home/user/site/config.json")
    where.write_text(yaml.safe_dump(doc) if yaml_file else json.dumps(doc))
    vm_path = "/home/user/" + str(where.relative_to(deskact.ctx.home))
    evaluator = {"func": "check_json", "result": {"type": "vm_file", "path": vm_path, "dest": where.name},
                 "expected": {"type": "rule", "rules": rules}, "options": {"is_yaml": True} if yaml_file else {}}
    theirs = desktop_env.passes("general", "check_json", str(where), rules, is_yaml=yaml_file)
    ours = deskact.passes(evaluator)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


@pytest.mark.parametrize(("gold_text", "text", "verdict"), [
    ("42.5\n", "42.5", True),
    ("42.5\n", "The answer is 42.5 tokens.\n", True),  # a number found within the output
    ("42.5\n", "42.50001\n", True),  # within 1e-4
    ("42.5\n", "42.6\n", False),
    ("42.5\n", "about forty-two\n", False),
    ("done\n", "  done \n", True),
    ("done\n", "done.\n", False),
])
def test_compare_result_files(desktop_env: Any, deskact: Any, gold_text: str, text: str, verdict: bool) -> None:
    gold = deskact.ctx.gold.parent / "expected.txt"
    gold.write_text(gold_text)
    result = deskact.home_file(RESULT)
    result.write_text(text)
    evaluator = {"func": "compare_result_files", "result": {"type": "vm_file", "path": RESULT, "dest": "notes.txt"},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_notes.txt"}}
    theirs = desktop_env.passes("vscode", "compare_result_files", str(result), str(gold))
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


@pytest.mark.parametrize(("output", "rules", "verdict"), [
    ("{'k1': ['Kilimanjaro'], 'k2': ['Mount Everest']}",
     {"expected": {"k1": ["Kilimanjaro"], "k2": ["Himalayas", "Everest"]}, "expect_in_result": True}, False),
    ("{'k1': ['Kilimanjaro'], 'k2': ['Everest', 'K2']}",
     {"expected": {"k1": ["Kilimanjaro"], "k2": ["Himalayas", "Everest"]}, "expect_in_result": True}, True),
    ("{'k1': 'Kilimanjaro'}", {"expected": {"k1": ["Kilimanjaro", "Kibo"]}, "expect_in_result": True}, True),
    ("{'k1': 'Mount Hua'}", {"expected": {"k1": "Hua"}, "expect_in_result": True}, True),
    ("{'k2': 'Mount Hua'}", {"expected": {"k1": "Hua"}, "expect_in_result": True}, False),  # missing key
    ("{'a': 1, 'b': [2, 1]}", {"expected": {"a": 1, "b": [2, 1]}}, True),
    ("{'a': 1, 'b': [1, 2]}", {"expected": {"a": 1, "b": [2, 1]}}, False),
    ("{'a': 1}", {"expected": {"a": "__EVALUATION_FAILED__"}}, False),
    ("not json", {"expected": {"a": 1}}, False),
])
def test_check_direct_json_object(desktop_env: Any, deskact: Any, output: str, rules: dict[str, Any],
                                  verdict: bool) -> None:
    import shlex

    command = f"printf '%s\\n' {shlex.quote(output)}"
    evaluator = {"func": "check_direct_json_object",
                 "result": {"type": "vm_command_line", "command": command, "shell": "true"},
                 "expected": {"type": "rule", "rules": rules}}
    theirs = desktop_env.passes("general", "check_direct_json_object", _output(command), rules)
    ours = deskact.passes(evaluator)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback
