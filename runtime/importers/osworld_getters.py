"""OSWorld's ``result``/``expected`` getters: which ones deskact reads, and which keys of them.

An OSWorld getter fetches the state a metric compares: a file from the VM (``vm_file``),
a command's output (``vm_command_line``), the terminal's text, a file from the web
(``cloud_file``), or a literal (``rule``). The metric translations (``osworld_metrics``)
turn those into judge params; this table says which keys of each getter they honour, so
any other key (``multi``, ``gives``, ``time_suffix``) is a report reason, never ignored,
and names every getter deskact does not read, with the reason.
"""

from __future__ import annotations

import shlex
from typing import Any

from . import osworld_chrome as chrome
from .common import Untranslatable

GETTER_KEYS: dict[str, set[str]] = {
    "vm_file": {"type", "path", "dest", "multi", "gives"},
    "cloud_file": {"type", "path", "dest", "multi", "gives"},
    "cache_file": {"type", "path"},
    "vm_command_line": {"type", "command", "shell"},
    "vm_command_error": {"type", "command", "shell"},  # read as vm_command_line (stderr_as_output)
    "vm_terminal_output": {"type"},
    "rule": {"type", "rules"},
    "gimp_config_file": {"type", "file_name", "dest"},  # a file of ~/.config/GIMP/2.10 (gimp.config)
    "vlc_config": {"type", "dest"},  # ~/.config/vlc/vlcrc (vlc.config)
    "accessibility_tree": {"type"},  # the desktop's AT-SPI tree as XML (a11y.selectors)
    "vlc_playing_info": {"type", "dest"},  # VLC's web interface's status.xml (vlc.playing)
    "vm_screen_size": {"type"},  # with vm_window_size: windows.screen_sized
    "vm_window_size": {"type", "app_class_name"},
    "background_image_in_slide": {"type", "ppt_file_path", "slide_index", "dest"},  # pptx.background_image
    "list_directory": {"type", "path"},  # a folder's entries (check_moved_jpgs: files.names)
    **chrome.GETTER_KEYS,
}
"""Getters the metric translations (``osworld_metrics``) read, each with the keys they honour."""

GETTER_REASONS: dict[str, str] = {
    **dict.fromkeys((
        "active_tab_html_parse", "active_tab_info", "active_tab_url_parse", "open_tabs_info", "url_dashPart",
        "page_info", "info_from_website", "gotoRecreationPage_and_get_html_content", "pdf_from_url"),
        "a Chrome getter of a live web page (its address or content): this machine reaches no public site"),
    "find_installed_extension_name": "a Chrome getter of installed extensions' names: no deskact judge reads them",
    "cookie_data": "Chrome's cookies set by live web pages: offline none are set, so a deleted-cookie check"
                   " would pass for an agent that did nothing",
    "enabled_experiments": "chrome://flags experiments of 2023 Chrome: this Chromium has no such flags",
    "shortcuts_on_desktop": "the desktop shortcut (.desktop file) Chrome's Create shortcut names after the live page's"
                            " title: offline the tab shows Chromium's error page, on which this Chromium (156)"
                            " disables Create shortcut",
    "default_video_player": "the desktop's default video player (xdg-mime): here VLC is the only video player and"
                            " already the default, so a do-nothing agent would pass",
    "vscode_config": "a VS Code getter: VS Code is not in deskact's world (no package registry reachable here"
                     " ships it)",
    "googledrive_file": "needs a live Google Drive account",
    "audio_in_slide": "reads audio out of a pptx slide: no deskact judge does",
    "vm_wallpaper": "the GNOME wallpaper: deskact's desktop has none",
    "content_from_vm_file": "the last row of a workbook as strings: no judge compares it",
    "rule_relativeTime": "rules relative to the day the task runs: no judge computes them",
    "time_diff_range": "a time range relative to the run: no judge computes it",
    "calc_insensitive_md5": "a case-insensitive md5 of a sheet: no judge computes it",
    "": "an empty getter type (OSWorld's template)",
}
"""Getters reported, with the reason."""


def check_keys(spec: Any, where: str) -> None:
    """A reason for a getter that is reported, or that carries keys nobody honours; other getters
    are left to the metric's translation, which says whether it reads them."""
    if not isinstance(spec, dict):
        raise Untranslatable(f"{where} {str(spec)[:40]!r}: not a getter object")
    kind = str(spec.get("type"))
    if kind in GETTER_REASONS:
        raise Untranslatable(f"{where} type {kind}: {GETTER_REASONS[kind]}")
    extra = sorted(set(spec) - GETTER_KEYS.get(kind, set(spec)))
    if extra:
        raise Untranslatable(f"{where} type {kind} keys {extra}: not translated")


def stderr_as_output(spec: Any) -> Any:
    """``vm_command_error`` (a command's stderr, OSWorld's server's ``error``) as the
    ``vm_command_line`` output of the same command with its stderr sent to stdout and its stdout
    dropped, so every metric translation that reads a command's output reads it too."""
    if not isinstance(spec, dict) or spec.get("type") != "vm_command_error":
        return spec
    extra = sorted(set(spec) - {"type", "command", "shell"})
    if extra:
        raise Untranslatable(f"result type vm_command_error keys {extra}: not translated")
    cmd = spec["command"]
    inner = cmd if spec.get("shell") and isinstance(cmd, str) else shlex.join(
        [str(a) for a in cmd] if isinstance(cmd, list) else shlex.split(cmd))
    return {"type": "vm_command_line", "command": f"{{ {inner} ; }} 2>&1 >/dev/null", "shell": True}
