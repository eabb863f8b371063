"""Chromium for one task: flags, a template profile, start in the task's world, stop.

Host side only (reset steps, judges). Chromium runs in the task's world as the
agent, on the worker's display, with its profile in the world's own /tmp. It
listens for DevTools on a port of the world's loopback (``--remote-debugging-port=0``:
Chromium picks a free one and writes it to ``DevToolsActivePort`` in the profile),
which the kernel reaches directly and host judges reach through the world's
network namespace (``cdp.py``).

A fresh profile is slow to make (~1 s: Chromium creates dozens of databases at
its first start), so one template is initialised per process and copied into
each world (~0.25 s start instead).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the kernel imports this module: no step API at import
    from ...runtime.tasks.step_paths import StepPath

PROFILE_IN_WORLD = "/tmp/deskact-chromium"
"""Where a world's Chromium keeps its profile (the world's own /tmp; the kernel finds it here)."""
PORT_FILE = "DevToolsActivePort"

# No request leaves for Google's services (the world's network is loopback only anyway, but an
# unanswered lookup must not cost time): no first-run UI, no sync, no component updates, no
# field trials, no safe-browsing or translate pings, no keyring (no D-Bus session here).
FLAGS = [
    "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-breakpad",
    "--disable-crash-reporter", "--disable-domain-reliability", "--disable-client-side-phishing-detection",
    # BackForwardCache: back/forward reload the page, so automation sees its load event every time.
    ("--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication,"
     "CertificateTransparencyComponentUpdater,InterestFeedContentSuggestions,DialMediaRouteProvider,"
     "BackForwardCache"),
    "--metrics-recording-only", "--no-pings", "--password-store=basic", "--use-mock-keychain",
    "--disable-gpu", "--no-sandbox",  # the world is the sandbox; Chromium's own needs setuid or userns
    "--test-type",  # no "unsupported flag --no-sandbox" bar over every page
    "--remote-debugging-port=0", "--remote-allow-origins=*",
    "--window-position=0,0",
]


def host_mode_profile(display: str | None) -> str:
    """The profile of a browser run without a world, one per display (notebooks, tests)."""
    tag = (display or ":0").lstrip(":").split(".")[0] or "0"
    return f"{tempfile.gettempdir()}/deskact-chromium-{os.getuid()}-{tag}"


def binary() -> str:
    """Debian's Chromium (the binary itself: its /usr/bin wrapper only adds a shell's start-up)."""
    for candidate in ("/usr/lib/chromium/chromium", shutil.which("chromium") or "", shutil.which("chromium-browser") or ""):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise FileNotFoundError("Chromium is not installed (apt-get install chromium)")


def argv(profile: str, urls: list[str], width: int, height: int) -> list[str]:
    return [binary(), f"--user-data-dir={profile}", *FLAGS, f"--window-size={width},{height}", *urls]


def env(profile: str) -> dict[str, str]:
    """Chromium keeps its crash database and disk cache under XDG folders of $HOME (the task's
    workspace): they go into the profile folder instead, out of the agent's files."""
    return {"XDG_CONFIG_HOME": f"{profile}/xdg-config", "XDG_CACHE_HOME": f"{profile}/xdg-cache"}


def _wait_port(profile: Path | StepPath, proc: subprocess.Popen[bytes], timeout: float) -> int:
    """The DevTools port once Chromium wrote it; raises if it exits or takes longer than ``timeout``."""
    deadline = time.monotonic() + timeout
    port_file = profile / PORT_FILE
    while True:
        try:
            text = port_file.read_text()
            if "\n" in text:
                return int(text.split("\n", 1)[0])
        except (OSError, ValueError):
            pass
        if proc.poll() is not None:
            raise RuntimeError(f"Chromium exited with {proc.returncode} before DevTools was ready")
        if time.monotonic() > deadline:
            raise TimeoutError(f"Chromium did not open DevTools within {timeout:g} s")
        time.sleep(0.01)


def scrub(profile: Path | StepPath) -> None:
    """Remove what ties a profile to the Chromium that last ran it (its lock, its port)."""
    for name in ("SingletonLock", "SingletonSocket", "SingletonCookie", PORT_FILE):
        try:
            (profile / name).unlink()
        except FileNotFoundError:
            pass


@lru_cache(maxsize=1)
def template_profile() -> Path:
    """A profile Chromium initialised once in this process (headless, on the host, nothing
    opened): copied into each task's world. Its caches are dropped (they hold nothing yet)."""
    from ...runtime.world import reaper  # here: the kernel imports this module too

    template = Path(tempfile.mkdtemp(prefix="deskact-chromium-template-"))
    atexit.register(shutil.rmtree, template, True)
    reaper.own(template)  # removed by the next deskact command after a kill -9
    proc = subprocess.Popen([*argv(str(template), ["about:blank"], 800, 600), "--headless=new"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        _wait_port(template, proc, timeout=60)
        time.sleep(0.5)  # the profile's databases are created just after DevTools opens
    finally:
        proc.send_signal(signal.SIGTERM)  # a clean exit writes Preferences and Local State
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    scrub(template)
    for cache in ("Default/DawnWebGPUCache", "Default/DawnGraphiteCache", "Default/GPUCache", "GrShaderCache",
                  "GraphiteDawnCache", "ShaderCache", "component_crx_cache", "Crash Reports"):
        shutil.rmtree(template / cache, ignore_errors=True)
    return template


@lru_cache(maxsize=1)
def _template_snapshot() -> tuple[list[tuple[str, int]], list[tuple[str, int, bytes | str]]]:
    """The template profile read once into memory (~1 MB, ~130 entries): folders, then files
    (contents, or a symlink's target as a str)."""
    root = template_profile()
    dirs: list[tuple[str, int]] = []
    files: list[tuple[str, int, bytes | str]] = []
    for here, subdirs, names in os.walk(root):
        rel = os.path.relpath(here, root)
        for name in subdirs:
            path = os.path.join(here, name)
            if os.path.islink(path):
                files.append((os.path.join(rel, name), 0, os.readlink(path)))
            else:
                dirs.append((os.path.join(rel, name), os.stat(path).st_mode & 0o7777))
        for name in names:
            path = os.path.join(here, name)
            if os.path.islink(path):
                files.append((os.path.join(rel, name), 0, os.readlink(path)))
            else:
                files.append((os.path.join(rel, name), os.stat(path).st_mode & 0o7777, Path(path).read_bytes()))
    return dirs, files


def copy_template(dest: Path | StepPath, owner: int | None = None) -> None:
    """Write a copy of the template profile at ``dest`` (which must not exist), owned by ``owner``.

    From memory rather than ``shutil.copytree``: no re-reading ~130 files, no copystat per file,
    no second pass to chown (at load 30 copytree plus the chown walk took 0.2-1.6 s of a task's
    ``browser.open``).
    """
    dirs, files = _template_snapshot()
    dest.mkdir(mode=0o700, parents=True)
    made = [dest]
    for rel, mode in dirs:
        (dest / rel).mkdir(mode=mode)
        made.append(dest / rel)
    from ...runtime.tasks.step_paths import StepPath

    for rel, mode, content in files:
        path = dest / rel
        if isinstance(path, StepPath):  # in a world: through descriptors inside it
            if isinstance(content, str):
                path.symlink_to(content, owner=(owner, owner) if owner is not None else None)
                continue
            fd = path.root.open_regular(path.inner, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        elif isinstance(content, str):
            os.symlink(content, path)
            if owner is not None:
                os.lchown(path, owner, owner)
            continue
        else:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        with open(fd, "wb") as out:
            if owner is not None:
                os.fchown(out.fileno(), owner, owner)
            out.write(content)
    if owner is not None:
        for made_dir in made:
            if isinstance(made_dir, StepPath):
                made_dir.lchown(owner, owner)
            else:
                os.chown(made_dir, owner, owner)


def edit_json(path: Path | StepPath, change: Any) -> None:
    """Load a profile JSON file (an empty dict if absent), let ``change(data)`` edit it, write it."""
    data = json.loads(path.read_text()) if path.exists() else {}
    change(data)
    path.write_text(json.dumps(data))


def set_pref(prefs: dict[str, Any], dotted: str, value: Any) -> None:
    """``prefs["a"]["b"]["c"] = value`` for ``a.b.c``, making the levels on the way."""
    *parents, last = dotted.split(".")
    node = prefs
    for key in parents:
        node = node.setdefault(key, {})
    node[last] = value


def get_pref(prefs: dict[str, Any], dotted: str) -> Any:
    node: Any = prefs
    for key in dotted.split("."):
        if not isinstance(node, dict) or key not in node:
            raise KeyError(dotted)
        node = node[key]
    return node
