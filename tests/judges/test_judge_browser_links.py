"""browser.* judges never read the host through a link the agent planted in its world.

The profile judges (bookmark, history, setting) and browser.download open the
profile and the download folder by descriptors inside the world: the agent's
``/tmp/deskact-chromium/Default -> <host profile>``, a whole profile folder linked
to the host, or ``Downloads/report.txt -> <host secret>`` lead to the world's own
(absent) files, so neither the verdict nor its feedback depends on the host file.
No browser runs here: the judges read a closed profile.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge
from deskact.toolkits.browser.chromium import PROFILE_IN_WORLD

MARKER = "host-secret-b7c2"
SECRET_URL = "https://secret-site.example/"


def host_profile(root: Path) -> Path:
    """A root-only host folder holding a Chromium profile whose every file names MARKER."""
    default = root / "Default"
    default.mkdir(parents=True)
    root.chmod(0o700)
    node = {"type": "url", "name": MARKER, "url": SECRET_URL}
    (default / "Bookmarks").write_text(json.dumps(
        {"roots": {"bookmark_bar": {"type": "folder", "name": "Bookmarks bar", "children": [node]}}, "version": 1}))
    (default / "Preferences").write_text(json.dumps({"homepage": SECRET_URL}))
    db = sqlite3.connect(default / "History")
    db.execute("CREATE TABLE urls(url TEXT, title TEXT, visit_count INT, last_visit_time INT, hidden INT)")
    db.execute("INSERT INTO urls VALUES (?, ?, 3, 1, 0)", (SECRET_URL, MARKER))
    db.commit()
    db.close()
    return root


def profile_judges(ctx: StepContext) -> tuple[list[Verdict], list[Verdict]]:
    """(judges asking about the host's content: none may pass; judges asking about something
    else: their feedback lists what they found, which must hold nothing of the host)."""
    oracle = [run_judge("browser.bookmark", {"url": SECRET_URL}, ctx),
              run_judge("browser.bookmark", {"name": MARKER}, ctx),
              run_judge("browser.setting", {"name": "homepage", "equals": SECRET_URL}, ctx),
              run_judge("browser.history", {"contains": MARKER}, ctx)]
    listing = [run_judge("browser.bookmark", {"url": "https://other.example/"}, ctx),
               run_judge("browser.setting", {"name": "homepage", "equals": "https://other.example/"}, ctx),
               run_judge("browser.history", {"contains": "other.example"}, ctx)]
    return oracle, listing


def assert_blind(oracle: list[Verdict], listing: list[Verdict]) -> None:
    for verdict in oracle:
        assert not verdict.passed, f"{verdict.judge} passed on the host's file: {verdict.feedback}"
    for verdict in listing:
        assert MARKER not in verdict.feedback + repr(verdict.details), verdict.feedback


def sh(ctx: StepContext, cmd: str) -> None:
    proc = ctx.world.run(["bash", "-c", cmd], timeout=60)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("link", ["Default", "whole profile"])
def test_profile_judges_never_read_a_host_profile_through_a_link(wctx: StepContext, tmp_path: Path,
                                                                  link: str) -> None:
    host = host_profile(tmp_path / "host-profile")
    if link == "Default":
        sh(wctx, f"mkdir -p {PROFILE_IN_WORLD} && ln -s {host}/Default {PROFILE_IN_WORLD}/Default")
    else:
        sh(wctx, f"ln -s {host} {PROFILE_IN_WORLD}")
    assert_blind(*profile_judges(wctx))


def test_download_judge_never_tests_a_host_file_through_a_link(wctx: StepContext, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text(MARKER)
    secret.chmod(0o600)
    (wctx.workspace / "Downloads").mkdir()
    (wctx.workspace / "Downloads" / "report.txt").symlink_to(secret)
    assert_blind([run_judge("browser.download", {"name": "report.txt", "contains": MARKER}, wctx)],
                 [run_judge("browser.download", {"name": "report.txt", "contains": "something else"}, wctx)])
    # The same folder linked whole: nothing of the host is listed or read either.
    (wctx.workspace / "Downloads" / "report.txt").unlink()
    (wctx.workspace / "Downloads").rmdir()
    (wctx.workspace / "Downloads").symlink_to(tmp_path)
    assert_blind([run_judge("browser.download", {"name": "*", "contains": MARKER}, wctx),
                  run_judge("browser.download", {"name": "secret.txt"}, wctx)],
                 [run_judge("browser.download", {"name": "nothing-like-it"}, wctx)])


def test_download_judge_without_a_world_refuses_a_link_out_of_the_workspace(ctx: StepContext,
                                                                             tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text(MARKER)
    (ctx.workspace / "Downloads").mkdir()
    (ctx.workspace / "Downloads" / "report.txt").symlink_to(secret)
    assert_blind([run_judge("browser.download", {"name": "report.txt", "contains": MARKER}, ctx)], [])
