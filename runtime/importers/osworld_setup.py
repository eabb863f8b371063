"""OSWorld set-up (``config``, ``evaluator.postconfig``) -> deskact reset and before-judge steps.

Commands keep OSWorld's semantics: its server runs a command given as a string with
``shell: true`` under ``/bin/sh`` (dash on Debian: ``echo -e`` prints ``-e``, which some
tasks depend on), anything else as an argv with no shell; it ignores exit codes and gives
a command 120 s. The VM's home ``/home/user`` (and ``~``) is the task's ``${HOME}``;
``sudo`` is dropped because set-up runs as the root of the task's world.

pyautogui scripts are read call by call (``osworld_pyautogui``), never dropped blindly: a
click in the screen's centre (focus) is noted, ctrl+s before judging becomes ``apps.save``,
ctrl+alt+t at set-up ``apps.terminal``, other keys and typed text ``xdotool`` in the world;
clicks, drags and scrolls at coordinates are report reasons.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from . import osworld_chrome as chrome
from . import osworld_pyautogui as pyautogui
from .common import Untranslatable, escape, has_step, step

VM_HOME = "/home/user"
SHELL_TIMEOUT = 120
"""Seconds OSWorld's server lets a set-up command run."""
_FOCUS_BEFORE = "w=$(xdotool getactivewindow 2>/dev/null); "
_FOCUS_MOVED = ('; i=0; while [ $i -lt 100 ] && [ "$(xdotool getactivewindow 2>/dev/null)" = "$w" ]; do sleep 0.1;'
                " i=$((i+1)); done; sleep {seconds}; true")
"""Around keys sent before judging that OSWorld follows with a pause: the window focused before them,
then a wait (10 s at most) until another one is, then the pause."""
CACHE_DIR = "/tmp/osworld-cache"
"""Where a command's ``stdout``/``stderr`` parameter saves its output in the world (OSWorld: its
host-side cache folder), for a later ``cache_file`` result to read."""
SCRIPT_SUFFIXES = (".py", ".sh")
"""Downloaded files a judge's command runs: the VM's home in them becomes the task's."""
OFFICE_SUFFIXES = (".xlsx", ".xls", ".ods", ".docx", ".doc", ".odt", ".pptx", ".ppt", ".odp", ".csv")
_PYTHON = re.compile(r"(^|[\s;&|(])python(?=\s)")
"""``python`` as a command: Python 3 on OSWorld's Ubuntu image, absent here (Debian has python3)."""
_SUDO = re.compile(r"echo\s+'?\"?password'?\"?\s*\|\s*sudo\s+-S\s+|\bsudo\s+(-\w+\s+)*")
_OPEN_TERMINAL = re.compile(r"(export DBUS_SESSION_BUS_ADDRESS=\S+\s*\n\s*)?gnome-terminal(\s+--maximize)?"
                            r"(\s+--working-directory=(?P<dir>[\w/.~-]+))?\s*")
"""OSWorld opening a terminal for the agent (GNOME's, maximized, in a folder): ``apps.terminal``."""
_KILL_TERMINAL = re.compile(r"(/bin/(ba)?sh -c ')?killall gnome-terminal-server'?")
"""OSWorld closing every GNOME terminal before judging (its shells then save their history)."""
_CLOSE_TERMINALS = (
    "shells=''; for x in $(pgrep -x xterm); do shells=\"$shells $(pgrep -P $x)\"; done; pkill -x xterm; i=0;"
    " while [ $i -lt 50 ]; do alive=''; for s in $shells; do kill -0 $s 2>/dev/null && alive=1; done;"
    " [ -z \"$alive\" ] && break; sleep 0.2; i=$((i+1)); done; true")
_PIP_INSTALL = re.compile(r"\bpip3?\s+install\s+(?P<what>[^;&|\n]+)")
"""A Python package installed from PyPI at set-up or before judging."""
WORLD_PYTHON_HAS = {"cssselect": "python3-cssselect"}
"""PyPI packages OSWorld's tasks pip-install that the world's Python has from Debian (scripts/setup.sh
installs them, with python3-lxml, which OSWorld's VM has): such an install is dropped. Debian's
python3-pysrt (1.0.1) is not one: it fails on Python 3.11."""
_GNOME = re.compile(r"\b(gsettings|dconf|gnome-terminal|gnome-shell|gnome-extensions)\b")
_VSCODE = re.compile(r"(^|[\s;&|(/])code(?=\s|$)|\.config/Code/")
"""VS Code started (``code``, ``/usr/bin/code``) or its settings written (``~/.config/Code/User``)."""
VSCODE_REASON = ("VS Code is not in deskact's world: no package registry reachable here ships it (no Debian"
                 " package or wheel; code-server's npm install downloads ripgrep from GitHub)")


def check_not_gnome(command: object, where: str) -> None:
    """OSWorld's VM runs GNOME with settings of its own; deskact's desktop is openbox. A command that
    reads or sets a GNOME setting would judge defaults that are not the VM's (os-a4d98375 passed for
    an agent that did nothing: GNOME's default was already the answer), or start a GNOME app that
    is not here."""
    words = command if isinstance(command, list | tuple) else []
    found = _GNOME.search(command if isinstance(command, str) else " ".join(map(str, words)))
    if found:
        raise Untranslatable(f"GNOME: {where} runs {found.group(1)}; deskact's desktop is not GNOME")


def check_not_vscode(command: object, where: str) -> None:
    """A set-up that starts VS Code or writes its settings: the task would fail at its reset."""
    words = command if isinstance(command, list | tuple) else []
    if _VSCODE.search(command if isinstance(command, str) else " ".join(map(str, words))):
        raise Untranslatable(f"VS Code: {where} starts it or writes its settings; {VSCODE_REASON}")


def vm_path(path: str) -> str:
    """An agent-side path: the VM's home is the task's ${HOME}; relative paths are in it."""
    if not isinstance(path, str) or re.match(r"^[A-Za-z]:\\", path) or "\\" in path:
        raise Untranslatable(f"windows: path {str(path)[:60]!r} is a Windows path")
    if path == VM_HOME or path.startswith(VM_HOME + "/"):
        return "${HOME}" + escape(path[len(VM_HOME):])
    if path == "~" or path.startswith("~/"):
        return "${HOME}" + escape(path[1:])
    if not path.startswith("/"):
        return "${HOME}/" + escape(path)
    return escape(path)


def command_line(command: str | list[str], shell: bool = False) -> str:
    """The bash command line that runs what OSWorld's server runs for ``command`` (Python's
    subprocess: with ``shell``, a string runs under ``/bin/sh -c``, and so does a list's first item,
    the rest becoming the shell's ``$0 $1 ...``)."""
    if shell:
        first, rest = (command, []) if isinstance(command, str) else (str(command[0]), [str(a) for a in command[1:]])
        line = shlex.join(["/bin/sh", "-c", _PYTHON.sub(r"\1python3", _SUDO.sub("", first)), *rest])
    else:
        argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        while argv and argv[0] == "sudo":
            argv = argv[1:]
            while argv and argv[0].startswith("-"):
                argv = argv[1:]
        if argv and argv[0] == "python":
            argv[0] = "python3"
        line = shlex.join(VM_HOME + a[1:] if a.startswith("~/") else a for a in argv)
    return escape(line).replace(VM_HOME, "${HOME}")


def gimp_start(command: str | list[str]) -> dict[str, str] | None:
    """apps.gimp's params for a launch of GIMP alone or with one file under the VM's home, else None
    (flags or other paths stay an apps.launch)."""
    argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    if not argv or PurePosixPath(argv[0]).name not in ("gimp", "gimp-2.10") or len(argv) > 2:
        return None
    if len(argv) == 1:
        return {}
    path = VM_HOME + argv[1][1:] if argv[1].startswith("~/") else argv[1]
    if not path.startswith(VM_HOME + "/"):
        return None
    return {"path": escape(path).replace(VM_HOME, "${HOME}")}


def nautilus_folder(command: str | list[str]) -> dict[str, str] | None:
    """apps.files' params for a launch of GNOME's Nautilus alone (the home) or on one folder (the
    VM's home is the task's), else None. Nautilus is not here: the file manager is Thunar. Options
    (``--new-window``, ``--select``) raise: they are not translated."""
    argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    if not argv or PurePosixPath(argv[0]).name != "nautilus":
        return None
    if len(argv) > 2 or any(a.startswith("-") for a in argv[1:]):
        raise Untranslatable(f"launch of Nautilus with {shlex.join(argv[1:])[:60]!r}: apps.files opens one folder,"
                             " with no options")
    return {"path": vm_path(argv[1])} if len(argv) == 2 else {}


VLC_OPTIONS = {"--start-time": True, "--stop-time": True, "--play-and-pause": False, "--repeat": False}
"""VLC options OSWorld's launches give (name -> takes ``=value``), passed on to apps.vlc as written."""


def vlc_start(command: str | list[str]) -> dict[str, Any] | None:
    """apps.vlc's params for a launch of VLC alone or with options of ``VLC_OPTIONS`` and one file
    under the VM's home (playing, as OSWorld starts it), else None (other options or paths). Every
    VLC of OSWorld's VM has its web interface on (its vlcrc enables it for the ``vlc_playing_info``
    getter): apps.vlc's ``http``."""
    argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    if not argv or PurePosixPath(argv[0]).name != "vlc":
        return None
    options, files = [a for a in argv[1:] if a.startswith("-")], [a for a in argv[1:] if not a.startswith("-")]
    for option in options:
        name, has_value, value = option.partition("=")
        if VLC_OPTIONS.get(name) is not bool(has_value) or (has_value and not re.fullmatch(r"\d+(\.\d+)?", value)):
            return None
    if len(files) > 1 or (options and not files):
        return None
    if not files:
        return {"http": True}
    path = VM_HOME + files[0][1:] if files[0].startswith("~/") else files[0]
    if not path.startswith(VM_HOME + "/"):
        return None
    params: dict[str, Any] = {"path": escape(path).replace(VM_HOME, "${HOME}"), "paused": False, "http": True}
    return params | ({"options": options} if options else {})


def is_vlc(command: str | list[str]) -> bool:
    argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    return bool(argv) and PurePosixPath(argv[0]).name == "vlc"


class Setup:
    """What the set-up of one task becomes: steps, notes, and what the world must have."""

    def __init__(self, downloads: Callable[[str, str], dict[str, Any]]) -> None:
        self.download_step = downloads
        """(url, agent-side path) -> the reset step that puts that file there."""
        self.notes: list[str] = []
        self.needs_world = False
        self.office = False
        self.keys = False
        """Keys are sent to the task's display: the task needs one (visual)."""

    def item(self, item: Any, into: list[dict[str, Any]], where: str) -> None:
        """One ``{type, parameters}`` of ``config`` (``where`` = config) or ``postconfig``."""
        if not isinstance(item, dict):
            raise Untranslatable(f"{where} item {str(item)[:40]!r}: not a {{type, parameters}} object")
        kind, p = str(item.get("type")), item.get("parameters") or {}
        handler = SETUP_TYPES.get(kind)
        if handler is None:
            raise Untranslatable(f"config type {kind}: {SETUP_REASONS.get(kind, 'no deskact reset step does this')}")
        handler(self, p, into, where)

    def _sleep(self, p: dict[str, Any], into: list[dict[str, Any]], where: str) -> None:
        seconds = p.get("seconds")
        last: dict[str, Any] = next(iter(into[-1].values()), {}) if into and len(into[-1]) == 1 else {}
        keys = str(last.get("cmd", ""))
        if (where == "postconfig" and keys.startswith("xdotool ") and keys.endswith(" || true")
                and isinstance(seconds, int | float) and not isinstance(seconds, bool) and 0 < seconds <= 60):
            # Keys sent before judging open and close the app's dialogs (GIMP's Export As, then its PNG
            # options), and the next keys must wait for them, or they reach the canvas: OSWorld's pause
            # is kept, after the focus has moved to another window (10 s at most; a busy app opens its
            # dialog later than the pause allows).
            into[-1] = step("reset", "shell.run", cmd=escape(_FOCUS_BEFORE) + keys.removesuffix(" || true")
                            + escape(_FOCUS_MOVED.format(seconds=f"{seconds:g}")), timeout=SHELL_TIMEOUT)
            self.notes.append(f"postconfig sleep {seconds:g} s kept after keys sent to the app, once the focus has"
                              " moved (its dialogs open and close meanwhile)")
            return
        self.notes.append(f"{where} sleep {seconds} s dropped (deskact's steps wait on conditions)")

    def _activate(self, p: dict[str, Any], into: list[dict[str, Any]], where: str) -> None:
        # apps.open/apps.launch leave the window they started focused, the only window a task opens.
        self.notes.append(f"{where} activate_window {p.get('window_name')!r} dropped (the app's window has focus)")

    def _download(self, p: dict[str, Any], into: list[dict[str, Any]], where: str) -> None:
        for f in p.get("files") or []:
            into.append(self.download_step(f["url"], vm_path(f["path"])))
            if where == "postconfig" and str(f["path"]).endswith(SCRIPT_SUFFIXES):
                # A check script the judge runs names the VM's home (/home/user) as its files' folder:
                # the task's ${HOME} here, as in every command the importer translates.
                line = f"sed -i 's#{VM_HOME}\\b#${{HOME}}#g' {shlex.quote(vm_path(f['path']))}"
                into.append(step("reset", "shell.run", cmd=line, timeout=SHELL_TIMEOUT))
                self.needs_world = True
                self.notes.append(f"{where} download of a script: the VM's home (/home/user) in it became the"
                                  " task's ${HOME}")

    def _open(self, p: dict[str, Any], into: list[dict[str, Any]], where: str) -> None:
        from ...reset_scripts.apps.launcher import OFFICE_EXTENSIONS, PDF_EXTENSIONS, TEXT_EXTENSIONS, VIDEO_EXTENSIONS

        suffix = PurePosixPath(str(p["path"])).suffix.lower()
        if suffix not in OFFICE_EXTENSIONS | TEXT_EXTENSIONS | PDF_EXTENSIONS | VIDEO_EXTENSIONS:
            # OSWorld's xdg-open picks the VM's app (GIMP, a browser); apps.open would fail at reset.
            raise Untranslatable(f"open: no deskact app opens {suffix} files (apps.open knows text, office, PDF"
                                 " and media files)")
        into.append(step("reset", "apps.open", path=vm_path(p["path"])))
        if suffix in PDF_EXTENSIONS:
            self.notes.append(f"{where} open of a PDF: Chromium's PDF viewer in its own window (OSWorld's VM opens"
                              " its document viewer)")
        elif suffix in VIDEO_EXTENSIONS:
            self.notes.append(f"{where} open of a media file: VLC, playing it (as OSWorld's VM opens it)")
        self.office |= str(p["path"]).lower().endswith(OFFICE_SUFFIXES)

    def _launch(self, p: dict[str, Any], into: list[dict[str, Any]], where: str) -> None:
        cmd = p["command"]
        if isinstance(cmd, str) and not p.get("shell"):
            cmd = cmd.split()  # OSWorld's controller splits a launch string at whitespace, quotes and all
        if not p.get("shell") and chrome.chrome_command(self, cmd, into, where):
            return
        files = None if p.get("shell") else nautilus_folder(cmd)
        if files is not None:
            into.append(step("reset", "apps.files", **files))
            self.notes.append(f"{where} launch of OSWorld's Nautilus became apps.files: the folder open in Thunar"
                              " (its window waited for)")
            return
        check_not_gnome(cmd, f"{where} launch")
        check_not_vscode(cmd, f"{where} launch")
        gimp = None if p.get("shell") else gimp_start(cmd)
        if gimp is not None:
            into.append(step("reset", "apps.gimp", **gimp))
            self.notes.append(f"{where} launch of GIMP became apps.gimp (its window waited for; a settled profile)")
            return
        vlc = None if p.get("shell") else vlc_start(cmd)
        if vlc is not None:
            into.append(step("reset", "apps.vlc", **vlc))
            self.notes.append(f"{where} launch of VLC became apps.vlc (its window waited for; a settled vlcrc)")
            return
        if not p.get("shell") and is_vlc(cmd):
            # apps.launch would start it as the world's root, which VLC refuses.
            raise Untranslatable(f"{where} launch of VLC with options other than {', '.join(VLC_OPTIONS)}, several"
                                 " files or one outside the home: apps.vlc is not given them")
        if not p.get("shell") and [str(c) for c in cmd] in [["libreoffice", f"--{app}"] for app in
                                                            ("writer", "calc", "impress")]:
            # An empty document: the keys OSWorld sends next (after its own 5 s pause) must find it
            # drawn, so its window and document are waited for, as apps.open's are.
            into.append(step("reset", "apps.launch", cmd=" ".join(map(str, cmd)), window="LibreOffice", timeout=120))
            return
        if not p.get("shell") and [str(c) for c in cmd] in (["thunderbird"], ["/usr/bin/thunderbird"]):
            # Its first window can take seconds: the task starts when it is there, as OSWorld's does.
            into.append(step("reset", "apps.launch", cmd=command_line(cmd, False), window="Thunderbird", timeout=120))
            return
        into.append(step("reset", "apps.launch", cmd=command_line(cmd, bool(p.get("shell")))))
        self.office |= any(app in str(cmd) for app in ("soffice", "libreoffice"))

    def _execute(self, p: dict[str, Any], into: list[dict[str, Any]], where: str) -> None:
        cmd = p["command"]
        unknown = sorted(set(p) - {"command", "shell", "stdout", "stderr"})
        if unknown:
            raise Untranslatable(f"execute parameters {unknown}: not translated (OSWorld retries until a condition)")
        kind = pyautogui.kind(cmd)
        if kind == "focus":
            self.notes.append(f"{where} pyautogui click in the screen's centre dropped (the app's window has focus)")
            return
        if kind == "save" and where == "postconfig":
            if not has_step("reset", "apps.save"):
                raise Untranslatable("postconfig save: needs before_judge step apps.save")
            if {"apps.save": {}} not in into:
                into.append(step("reset", "apps.save"))
            return
        if kind == "terminal" and where == "config":
            if {"apps.terminal": {}} not in into:
                into.append(step("reset", "apps.terminal"))
            self.notes.append("ctrl+alt+t (Ubuntu's terminal shortcut) became apps.terminal")
            return
        if kind == "keys":
            # Keys go to the focused window of the task's display; OSWorld ignores the script's exit code.
            into.append(step("reset", "shell.run", cmd=escape(f"{pyautogui.xdotool(cmd)} || true"), timeout=SHELL_TIMEOUT))
            if where == "config":
                # The app redraws after the keys (LibreOffice for up to a second): the model's first
                # observation must show it drawn, as apps.open's own wait does for the app's start.
                # Its tree lags on a loaded box (Impress's after its panes toggle): up to 30 s for it.
                into.append(step("reset", "desktop.settle", quiet=0.8, timeout=30))
            self.needs_world = self.keys = True
            pointer = pyautogui.pointer_calls(cmd)
            if pointer:
                self.notes.append(f"{where} pyautogui {', '.join(pointer)} became xdotool's at the same points of the"
                                  " same 1920x1080 screen: what lies there is deskact's layout of the app"[:300])
            return
        if kind is not None:
            found = ", ".join(f"{f}({a})" for f, a in pyautogui.calls(cmd) or [] if not f.startswith("time."))
            raise Untranslatable(f"pyautogui script: {where} drags, calls what xdotool is not given, or types into"
                                 f" a GNOME terminal: {found}"[:300])
        if chrome.chrome_command(self, cmd, into, where):
            return
        opened = _OPEN_TERMINAL.fullmatch(cmd) if isinstance(cmd, str) and where == "config" else None
        if opened:
            self._terminal_in(opened.group("dir"), into)
            return
        if where == "postconfig" and _KILL_TERMINAL.fullmatch(cmd if isinstance(cmd, str) else shlex.join(cmd)):
            self._close_terminals(into)
            return
        check_not_gnome(cmd, f"{where} command")
        check_not_vscode(cmd, f"{where} command")
        installs = _PIP_INSTALL.search(cmd if isinstance(cmd, str) else " ".join(map(str, cmd)))
        if installs:
            # A check script the judge runs imports it; offline pip installs nothing, so it must be in
            # the world's Python already (Debian's package, scripts/setup.sh), or every agent fails.
            wanted = installs.group("what").split()
            if all(w in WORLD_PYTHON_HAS for w in wanted):
                self.notes.append(f"{where} pip install {' '.join(wanted)} dropped: the world's Python has it"
                                  f" ({', '.join(WORLD_PYTHON_HAS[w] for w in wanted)}, scripts/setup.sh)")
                return
            raise Untranslatable(f"{where} command runs pip install {' '.join(wanted)}: worlds have no network, so"
                                 " the package is never installed")
        line = command_line(cmd, bool(p.get("shell")))
        for stream, fd in (("stdout", ""), ("stderr", "2")):
            if p.get(stream):
                line = f"mkdir -p {CACHE_DIR} && {line} {fd}> {CACHE_DIR}/{shlex.quote(str(PurePosixPath(p[stream]).name))}"
        # `|| true`: OSWorld ignores a set-up command's exit code.
        into.append(step("reset", "shell.run", cmd=f"{line} || true", timeout=SHELL_TIMEOUT))
        self.needs_world = True

    def _terminal_in(self, folder: str | None, into: list[dict[str, Any]]) -> None:
        """The agent's terminal (xterm here), in ``folder`` as gnome-terminal's --working-directory.
        Its bash keeps history as the VM's (Ubuntu's ~/.bashrc): tasks read ~/.bash_history after
        closing it; the ``cd`` typed here starts with a space, so it stays out of that history as
        gnome-terminal's option does."""
        if not any("apps.terminal" in s for s in into):
            into.append(step("reset", "apps.terminal", ubuntu_history=True))
        self.notes.append("gnome-terminal became apps.terminal (an xterm; bash's history kept as Ubuntu's ~/.bashrc"
                          " keeps it)")
        if folder:
            typed = f"xdotool type --delay 20 {shlex.quote(f' cd {folder} && clear')} && xdotool key Return || true"
            into.append(step("reset", "shell.run", cmd=escape(typed).replace(VM_HOME, "${HOME}"), timeout=SHELL_TIMEOUT))
            self.needs_world = self.keys = True

    def _close_terminals(self, into: list[dict[str, Any]]) -> None:
        """``killall gnome-terminal-server`` before judging: every terminal window closes and its
        shell, hung up, appends its history to ~/.bash_history, which the judges then read. Here the
        world's xterms get the same signal (SIGTERM: each hangs up its shell) and their shells are
        waited for (10 s at most) so the history is written before the judges run."""
        into.append(step("reset", "shell.run", cmd=escape(_CLOSE_TERMINALS), timeout=SHELL_TIMEOUT))
        self.needs_world = True
        self.notes.append("postconfig killall gnome-terminal-server closes the world's xterms (their shells write"
                          " ~/.bash_history) and waits for the shells to end")

    def _close_window(self, p: dict[str, Any], into: list[dict[str, Any]], where: str) -> None:
        name = str(p["window_name"])
        if not (p.get("strict") or p.get("by_class")):
            into.append(step("reset", "apps.close", window=name))
            return
        # OSWorld's server runs `wmctrl -c NAME` with -x (NAME is a window class, instance.Class as
        # `wmctrl -lx` lists it) and -F (the whole name, case kept). Thunderbird's main window was
        # Mail.thunderbird on OSWorld's VM; this Thunderbird (153) names its class after the profile
        # too (Mail.thunderbird-default), so a class also matches NAME followed by "-". The windows are
        # closed as wmctrl -c does (gracefully), then waited for (10 s at most) so the app has
        # written its files before the judges read them.
        by_class, strict = bool(p.get("by_class")), bool(p.get("strict"))
        flags = "-" + ("x" if by_class else "") + ("F" if strict else "") + "c"
        quoted = shlex.quote(name)
        if by_class:
            test = ('$3 == n || index($3, n "-") == 1' if strict else 'index(tolower($3), tolower(n)) > 0')
            pick = f"wmctrl -lx | awk -v n={quoted} '{test} {{print $1}}'"
        else:
            pick = f"wmctrl -l | awk -v n={quoted} '{{t = $0; sub(/^[^ ]+ +[^ ]+ +[^ ]+ /, \"\", t)}} " + (
                "t == n {print $1}'" if strict else "index(tolower(t), tolower(n)) > 0 {print $1}'")
        cmd = (f"ids=$({pick}); for id in $ids; do wmctrl -ic $id; done; i=0;"
               " while [ -n \"$ids\" ] && [ $i -lt 50 ]; do left=''; for id in $ids; do"
               " wmctrl -l | grep -q \"^$id \" && left=\"$left $id\"; done; ids=$left; sleep 0.2; i=$((i+1)); done; true")
        into.append(step("reset", "shell.run", cmd=escape(cmd), timeout=SHELL_TIMEOUT))
        self.needs_world = self.keys = True
        self.notes.append(f"{where} close_window {name!r} ({flags}: OSWorld's wmctrl) closes the matching windows"
                          " in the world and waits for them to go")


SETUP_TYPES: dict[str, Callable[[Setup, dict[str, Any], list[dict[str, Any]], str], None]] = {
    "sleep": Setup._sleep, "activate_window": Setup._activate, "download": Setup._download,
    "open": Setup._open, "launch": Setup._launch, "execute": Setup._execute, "command": Setup._execute,
    "close_window": Setup._close_window, **chrome.SETUP_TYPES,
}
"""OSWorld config type -> translation."""

SETUP_REASONS: dict[str, str] = {
    **chrome.SETUP_REASONS,
    "googledrive": "needs a live Google Drive account and its OAuth settings file",
    "login": "needs a live account's password in a settings file",
    "": "an empty set-up type (OSWorld's template)",
}
"""OSWorld config types that are reported, with the reason."""
