"""apps.thunderbird: Thunderbird on the task's display, in its world, on an offline profile with a
"Local Folders" store of seeded mail.

A fresh Thunderbird profile shows the account set-up hub, and its first start does more work
(extensions registered, certificate, address book, calendar and key databases created). So a
template is made once per process on the host by a real start of Thunderbird on a private Xvfb,
quit with Ctrl+Q, with ``SETTLED`` prefs in its ``prefs.js``:
one Local Folders account (no network account: the 3-pane window opens, not the set-up hub), no
first-run pages, default-client check, update checks, telemetry or global search indexing. Each
task's profile is that template copied to ``~/.thunderbird/deskact.default-release`` (the place
OSWorld's getters read a profile: ``~/.thunderbird/<name>.default-release``) with its mail folders
written as mbox files, each message with the ``X-Mozilla-Status`` headers Thunderbird rewrites in
place when a message is read, flagged or deleted (without them it keeps that state in the ``.msf``
summary only, where no judge reads it).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import zlib
from email.utils import format_datetime, parsedate_to_datetime
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict, Field

from ...runtime.screen.drawn import wait_drawn
from ...runtime.tasks.step_paths import StepPath
from ...runtime.tasks.steps import StepContext, StepFailed, reset_step
from .. import _x11
from .gimp import _maximize as maximize
from .launcher import SETTLE_TIMEOUT_S, launch

PROFILE = ".thunderbird/deskact.default-release"
"""The profile under $HOME (``--profile`` names it; ``profiles.ini`` too, for a restart by hand)."""

LOCAL_FOLDERS = "Mail/Local Folders"
"""The Local Folders store under the profile: one mbox file per folder, subfolders in ``<name>.sbd``."""

FOLDER_URI = "mailbox://nobody@Local%20Folders"
"""The Local Folders account's root folder URI (server1's user name is ``nobody``)."""

WINDOW = "{folder} - Local Folders - Mozilla Thunderbird"
"""The 3-pane window's title once it shows a folder of Local Folders (it is first titled ``Home -
Mozilla Thunderbird``, without its folder pane, for a moment)."""

SETTLED: dict[str, Any] = {
    "mail.account.account1.server": "server1",
    "mail.accountmanager.accounts": "account1",
    "mail.accountmanager.localfoldersserver": "server1",
    "mail.server.server1.directory-rel": "[ProfD]Mail/Local Folders",
    "mail.server.server1.hostname": "Local Folders",
    "mail.server.server1.name": "Local Folders",
    "mail.server.server1.type": "none",
    "mail.server.server1.userName": "nobody",
    "mail.server.server1.storeContractID": "@mozilla.org/msgstore/berkeleystore;1",
    "mail.provider.suppress_dialog_on_startup": True,
    "mail.shell.checkDefaultClient": False,
    "mailnews.start_page.enabled": False,
    "mail.rights.version": 1,
    "mail.inappnotifications.enabled": False,
    "app.donation.eoy.version.viewed": 999,
    "app.update.enabled": False,
    "app.update.auto": False,
    "extensions.update.enabled": False,
    "app.normandy.enabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.enabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "mailnews.database.global.indexer.enabled": False,
    "network.captive-portal-service.enabled": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
}
"""What a settled offline profile sets (written in the template's prefs.js, not a user.js: a
user.js would put its values back at every start, over what the agent changed)."""

TEMPLATE_WAIT_S = 60.0
"""The longest the template's first start is given to show its window."""

DEFAULT_DATE = "Mon, 02 Nov 2026 09:00:00 +0000"


class MailMessage(BaseModel):
    """One message of a seeded folder."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    sender: str = Field(alias="from")
    """The From header, such as ``Alice Martin <alice@example.com>``."""
    to: str = "me@example.com"
    subject: str
    date: str = DEFAULT_DATE
    """An RFC 2822 date (``Mon, 02 Nov 2026 09:00:00 +0000``)."""
    body: str = ""
    read: bool = False
    flagged: bool = False


def pref_line(key: str, value: Any) -> str:
    """A prefs.js line as Thunderbird writes it (values as JSON: strings quoted, booleans bare)."""
    return f"user_pref({json.dumps(key)}, {json.dumps(value)});\n"


def mbox(messages: list[MailMessage], folder: str) -> bytes:
    """The messages as an mbox file as Thunderbird writes one: a ``From -`` separator, its
    ``X-Mozilla-*`` headers (room for status and keywords to be rewritten in place), ``>From``
    quoting in bodies, a blank line after each message."""
    out: list[str] = []
    for i, m in enumerate(messages):
        try:
            when = parsedate_to_datetime(m.date)
        except (TypeError, ValueError) as exc:
            raise StepFailed(f"apps.thunderbird: message {m.subject!r} in {folder}: date {m.date!r} is not"
                             " an RFC 2822 date") from exc
        status = (0x0001 if m.read else 0) | (0x0004 if m.flagged else 0)
        body = [(">" + line if line.startswith("From ") else line) for line in m.body.split("\n")]
        out += [f"From - {when.strftime('%a %b %d %H:%M:%S %Y')}", f"X-Mozilla-Status: {status:04x}",
                "X-Mozilla-Status2: 00000000", "X-Mozilla-Keys: " + " " * 80,
                f"Message-ID: <{zlib.crc32(f'{folder}/{i}/{m.subject}'.encode()):08x}@deskact.invalid>",
                f"Date: {format_datetime(when)}", f"From: {m.sender}", f"To: {m.to}", f"Subject: {m.subject}",
                "MIME-Version: 1.0", "Content-Type: text/plain; charset=UTF-8", "Content-Transfer-Encoding: 8bit",
                "", *body, ""]
    return ("\n".join(out) + ("\n" if out else "")).encode()


def folder_file(name: str) -> str:
    """A folder's mbox path under Local Folders: ``Work/Projects`` is ``Work.sbd/Projects``."""
    parts = [p for p in name.split("/") if p]
    if not parts or any(p in (".", "..") or p.endswith((".sbd", ".msf")) for p in parts):
        raise StepFailed(f"apps.thunderbird: {name!r} is not a folder name")
    return "/".join([p + ".sbd" for p in parts[:-1]] + [parts[-1]])


def folder_uri(name: str) -> str:
    return FOLDER_URI + "/" + "/".join(quote(p) for p in name.split("/") if p)


def _session(folder: str) -> str:
    """session.json: the 3-pane tab showing ``folder`` (Thunderbird restores it at start)."""
    state = {"firstTab": True, "folderPaneVisible": True, "folderURI": folder_uri(folder), "messagePaneVisible": True}
    tab = {"mode": "mail3PaneTab", "state": state, "ext": {}}
    return json.dumps({"rev": 0, "windows": [{"type": "3pane", "tabs": {"rev": 0, "selectedIndex": 0, "tabs": [tab]}}]})


def _folder_tree(folders: list[str]) -> str:
    """folderTree.json: Local Folders and every seeded parent folder expanded."""
    opened = {FOLDER_URI}
    for name in folders:
        parts = [p for p in name.split("/") if p]
        opened |= {folder_uri("/".join(parts[:i])) for i in range(1, len(parts))}
    return json.dumps({"open": {"all": sorted(opened)}})


@lru_cache(maxsize=1)
def profile_template() -> Path:
    """A Thunderbird profile started once per process (on a private Xvfb: what its window's first
    start writes is made too) with ``SETTLED`` prefs; its mail store and folder caches emptied
    afterwards, so that each task's folders are read afresh."""
    home = Path(tempfile.mkdtemp(prefix="deskact-thunderbird-template-"))
    profile = home / PROFILE
    (profile / LOCAL_FOLDERS).mkdir(parents=True)
    (profile / "prefs.js").write_text("".join(pref_line(k, v) for k, v in SETTLED.items()))
    (profile / LOCAL_FOLDERS / "Inbox").write_bytes(b"")
    _first_start(home, profile)
    for leftover in ("lock", ".parentlock", "sessionCheckpoints.json", "session.json", "folderTree.json",
                     "folderCache.json"):
        target = profile / leftover
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target, ignore_errors=True)
        elif target.exists() or target.is_symlink():
            target.unlink()
    for item in (profile / LOCAL_FOLDERS).iterdir():
        if item.name not in ("Trash", "Unsent Messages"):
            item.unlink() if not item.is_dir() else shutil.rmtree(item)
    prefs = (profile / "prefs.js").read_text()
    missing = [pref_line(k, v) for k, v in SETTLED.items() if f'user_pref("{k}",' not in prefs]
    (profile / "prefs.js").write_text(prefs + "".join(missing))
    return profile


def _first_start(home: Path, profile: Path) -> None:
    """Thunderbird started on the profile until its window is up, then quit as a person quits it
    (Ctrl+Q: a shutdown that writes its startup cache, which SIGTERM's does not). Best effort: a
    colder profile otherwise."""
    xvfb, tb, xdotool = shutil.which("Xvfb"), shutil.which("thunderbird"), shutil.which("xdotool")
    if xvfb is None or tb is None or xdotool is None:
        return
    read_fd, write_fd = os.pipe()
    server = subprocess.Popen([xvfb, "-displayfd", str(write_fd), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                              pass_fds=(write_fd,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    os.close(write_fd)
    app = None
    try:
        with os.fdopen(read_fd) as pipe:
            number = pipe.readline().strip()
        if not number:
            return
        env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "DISPLAY": f":{number}"}
        app = subprocess.Popen([tb, "--profile", str(profile)], env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

        def xdo(*args: str) -> str:
            done = subprocess.run([xdotool, *args], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                                  text=True, timeout=10, check=False)
            return done.stdout.strip()

        deadline = time.monotonic() + TEMPLATE_WAIT_S
        window = ""
        while time.monotonic() < deadline and app.poll() is None and not window:
            window = xdo("search", "--name", "Local Folders - Mozilla Thunderbird").split("\n")[0]
            time.sleep(0.2)
        if window:
            time.sleep(3.0)  # its first idle tasks (extensions, calendars) settle
            xdo("windowfocus", "--sync", window)
            xdo("key", "ctrl+q")
            app.wait(timeout=30)
    except subprocess.TimeoutExpired:
        pass
    finally:
        if app is not None and app.poll() is None:
            os.killpg(app.pid, signal.SIGKILL)
            app.wait()
        server.terminate()
        server.wait(timeout=10)


def seed_profile(ctx: StepContext, folders: dict[str, list[MailMessage]], prefs: dict[str, Any],
                 selected: str) -> StepPath:
    """The template copied into the agent's profile with ``folders`` written as mbox files and
    ``prefs`` appended to prefs.js; written through descriptors inside the world."""
    home = PurePosixPath(str(ctx.home))
    target = ctx.agent_path(str(home / PROFILE))
    if target.exists():
        raise StepFailed(f"apps.thunderbird: {target} exists already (one Thunderbird start per task)")
    owner = (ctx.world.uid + ctx.world.agent_id,) * 2 if ctx.world is not None else None
    template = profile_template()
    target.make_dirs(owner=owner)
    for item in sorted(template.rglob("*")):
        dest = target / str(item.relative_to(template))
        if item.is_symlink():
            continue
        if item.is_dir():
            dest.make_dirs(owner=owner)
        elif item.is_file():
            data = item.read_bytes()
            if item.name == "prefs.js" and item.parent == template:
                data += "".join(pref_line(k, v) for k, v in prefs.items()).encode()
            dest.write_bytes(data, owner=owner)
    store = target / LOCAL_FOLDERS
    for name, messages in folders.items():
        mbox_file = store / folder_file(name)
        mbox_file.parent.make_dirs(owner=owner)
        mbox_file.write_bytes(mbox(messages, name), owner=owner)
    (target / "session.json").write_text(_session(selected), owner=owner)
    (target / "folderTree.json").write_text(_folder_tree(list(folders)), owner=owner)
    profiles = ("[Profile0]\nName=default-release\nIsRelative=1\nPath=" + PROFILE.split("/", 1)[1]
                + "\nDefault=1\n\n[General]\nStartWithLastProfile=1\nVersion=2\n")
    (target.parent / "profiles.ini").write_text(profiles, owner=owner)
    return target


@reset_step("apps.thunderbird")
def apps_thunderbird(ctx: StepContext, folders: dict[str, list[MailMessage]] | None = None,
                     prefs: dict[str, Any] | None = None, selected: str = "Inbox", timeout: float = 60) -> None:
    """Start Thunderbird (offline: one Local Folders account, no set-up hub, no first-run pages,
    update checks or telemetry) on a profile at ``${HOME}/.thunderbird/deskact.default-release``
    made from a warm template, with ``folders`` of Local Folders seeded (``Inbox``, ``Archive``,
    ``Work/Projects``...: each a list of messages with ``from``, ``to``, ``subject``, ``date``,
    ``body``, ``read``, ``flagged``) and ``prefs`` written to its prefs.js; the 3-pane window
    shows folder ``selected``, maximized, drawn."""
    if not ctx.display:
        raise StepFailed(f"apps.thunderbird needs a display, but task {ctx.task_id or '?'} has none (set visual: true)")
    folders = dict(folders) if folders is not None else {}
    folders.setdefault("Inbox", [])
    if selected not in folders:
        raise StepFailed(f"apps.thunderbird: selected folder {selected!r} is not one of the seeded {sorted(folders)}")
    profile = seed_profile(ctx, folders, prefs or {}, selected)
    window = WINDOW.format(folder=[p for p in selected.split("/") if p][-1])
    launch(ctx, ["thunderbird", "--profile", str(profile)], window, timeout, "apps.thunderbird")
    found = _x11.find_window(ctx.display, window)
    if found is not None:
        maximize(ctx.display, found.id)
        wait_drawn(ctx.display, found.id, SETTLE_TIMEOUT_S, quiet=1.0)
