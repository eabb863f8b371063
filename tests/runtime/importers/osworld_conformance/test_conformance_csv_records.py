"""OSWorld's check_csv (desktop-env general.py: csv.DictReader records against expect/unexpect
records) and deskact's csv.records agree, on the CSV firefox_decrypt writes of a Thunderbird
profile's saved logins (thunderbird-7b6c7e24: add the account; bb5e4c0d: remove it)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.conformance

CACHE = "thunderbird-accounts.csv"
PASSWORD = "Wlv(z._6y|a,rrjfQuQhIi\\$;"
ADD = {"expect": [{"url": "imap://outlook.office365.com", "user": "anonym-x2024@outlook.com", "password": PASSWORD},
                  {"url": "smtp://smtp.office365.com", "user": "anonym-x2024@outlook.com", "password": PASSWORD}]}
REMOVE = {"unexpect": [{"url": "imap://outlook.office365.com", "user": "anonym-x2024@outlook.com"}]}
HEADER = "url,user,password\n"
IMAP = f'imap://outlook.office365.com,anonym-x2024@outlook.com,"{PASSWORD}"\n'
SMTP = f'smtp://smtp.office365.com,anonym-x2024@outlook.com,"{PASSWORD}"\n'
OTHER = "imap://imap.gmail.com,someone@gmail.com,secret\n"

CASES = [
    (ADD, HEADER + IMAP + SMTP, True),
    (ADD, HEADER + OTHER + SMTP + IMAP, True),
    (ADD, HEADER + IMAP, False),  # the outgoing server's login is missing
    (ADD, HEADER + IMAP + SMTP.replace("Wlv(", "wlv("), False),  # a password one letter off
    (ADD, HEADER + IMAP.replace("imap://", "imaps://") + SMTP, False),
    (ADD, "", False),
    (REMOVE, HEADER + OTHER, True),
    (REMOVE, HEADER + OTHER + IMAP, False),
    (REMOVE, HEADER + SMTP, True),  # only the incoming server's login is named
    (REMOVE, "url,user\r\nimap://outlook.office365.com,anonym-x2024@outlook.com\r\n", False),
    (REMOVE, "user,url,password\n" + "anonym-x2024@outlook.com,imap://outlook.office365.com,x\n", False),
]


@pytest.mark.parametrize(("rules", "text", "verdict"), CASES)
def test_check_csv(desktop_env: Any, deskact: Any, rules: dict[str, Any], text: str, verdict: bool) -> None:
    path = deskact.home_file("/home/user/.osworld-cache/" + CACHE)
    path.write_text(text)
    evaluator = {"func": "check_csv", "result": {"type": "cache_file", "path": CACHE},
                 "expected": {"type": "rule", "rules": rules}}
    theirs = desktop_env.passes("general", "check_csv", str(path), rules)
    ours = deskact.passes(evaluator)
    assert ours == theirs == verdict, f"deskact {ours} ({deskact.feedback}); desktop-env {theirs}"


def test_an_empty_output_fails_an_unexpect_only_rule_where_osworld_passes(desktop_env: Any, deskact: Any) -> None:
    """The one place deskact is stricter, on purpose: a tool that wrote nothing (not a CSV at all)."""
    path = deskact.home_file("/home/user/.osworld-cache/" + CACHE)
    path.write_text("")
    evaluator = {"func": "check_csv", "result": {"type": "cache_file", "path": CACHE},
                 "expected": {"type": "rule", "rules": REMOVE}}
    assert desktop_env.passes("general", "check_csv", str(path), REMOVE)
    assert not deskact.passes(evaluator)
