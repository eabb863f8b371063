"""What every world is built on: the root skeleton, the masks over the host's secrets, the host
paths kernels need. Made once per process (root-owned, read-only to worlds)."""

from __future__ import annotations

import os
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import host_view, reaper

PACKAGE_ROOT = Path(__file__).resolve().parents[2]
"""deskact's package folder (an editable install's checkout: its suites, gold files and .git too)."""

# Host directories the world's root is built on (copy-on-write). Top-level
# symlinks (/bin -> usr/bin on merged-/usr systems) are copied as symlinks.
BASE_DIRS = ("usr", "etc", "var", "opt")
TOP_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
# /root is traversable (not listable): an interpreter under it (pyenv) must run for a non-root agent.
EMPTY_DIRS = {"tmp": 0o1777, "root": 0o711, "home": 0o755, "run": 0o755, "srv": 0o755, "mnt": 0o755,
              "media": 0o755, "proc": 0o555, "sys": 0o555, "dev": 0o755, "boot": 0o755}
# Host files that never enter a world, by base dir (whiteouts in a mask layer above it).
SECRET_GLOBS = {
    "etc": ("ssh/ssh_host_*_key", "ssh/ssh_host_*_key.pub", "ssl/private", "sudoers.d",
            "apt/auth.conf", "apt/auth.conf.d"),
    "var": ("backups/*shadow*", "backups/*passwd*", "backups/*group*", "lib/sudo", "mail", "spool/mail"),
}
SANITIZED = ("shadow", "gshadow", "shadow-", "gshadow-")


@lru_cache(maxsize=1)
def agent_account_id() -> int:
    """The first uid from 1000 up that the world's passwd and group (the host's) leave free."""
    taken = set()
    for name in ("passwd", "group"):
        try:
            taken |= {int(line.split(":")[2]) for line in Path("/etc", name).read_text().splitlines()
                      if line.count(":") >= 3 and line.split(":")[2].isdigit()}
        except OSError:
            pass
    return next(i for i in range(1000, 65536) if i not in taken)


_etc_seen: dict[str, Any] = {}
"""What build_base saw of /etc: its folders' mtimes and the entries it hid."""


def etc_hidden_since_base() -> list[Path]:
    """Entries of /etc to hide that the base does not (the host's /etc changed since it was built):
    a world puts them in a mask layer of its own."""
    if not _etc_seen or host_view.folder_times("etc") == _etc_seen["times"]:
        return []
    return [rel for rel in host_view.hidden("etc") if rel not in _etc_seen["hidden"]]


@lru_cache(maxsize=1)
def build_base() -> Path:
    """Once per process: the root skeleton and the /etc mask layer (root-owned, read-only to worlds).

    The first world of a process also removes what dead deskact processes left (``reaper``)."""
    reaper.reap_all()
    base = Path(tempfile.mkdtemp(prefix="deskact-world-base-"))
    reaper.own(base)
    base.chmod(0o755)
    reaper.mark(base)
    skeleton = base / "root"
    skeleton.mkdir()
    for name, mode in EMPTY_DIRS.items():
        (skeleton / name).mkdir()
        (skeleton / name).chmod(mode)
    for name in TOP_LINKS:
        host = Path("/") / name
        if host.is_symlink():
            (skeleton / name).symlink_to(os.readlink(host))
    for name in BASE_DIRS:
        (skeleton / name).mkdir(exist_ok=True)
    mask = base / "mask-etc"
    mask.mkdir()
    for name in SANITIZED:
        source = Path("/etc") / name
        if source.exists():
            # Every account keeps its line, no account keeps its password hash.
            lines = [f"{line.split(':', 1)[0]}:*:{line.split(':', 2)[2]}" if line.count(":") >= 2 else line
                     for line in source.read_text().splitlines()]
            (mask / name).write_text("\n".join(lines) + "\n")
            st = source.stat()
            os.chown(mask / name, st.st_uid, st.st_gid)
            (mask / name).chmod(st.st_mode & 0o7777)
    # The host's /etc and /var as any user of the host sees them (host_view): the emptied
    # folders of /var first, then the secret globs, then whatever others may not read.
    for rel in host_view.emptied_var():
        host_view.opaque_dir(base / "mask-var", rel, Path("/var") / rel)
    for top, patterns in SECRET_GLOBS.items():
        layer = base / f"mask-{top}"
        layer.mkdir(exist_ok=True)
        for pattern in patterns:
            for secret in Path("/", top).glob(pattern):
                whiteout = layer / secret.relative_to(Path("/", top))
                whiteout.parent.mkdir(parents=True, exist_ok=True)
                if not whiteout.exists():  # a 0/0 char device hides the lower file
                    os.mknod(whiteout, 0o600 | 0o020000, os.makedev(0, 0))
    _etc_seen.update(times=host_view.folder_times("etc"), hidden=set(host_view.hidden("etc")))
    for top in ("etc", "var"):
        for rel in _etc_seen["hidden"] if top == "etc" else host_view.hidden("var"):
            host_view.whiteout(base / f"mask-{top}", rel)
    return base


def kernel_side_paths() -> list[Path]:
    """What kernels need from the host, shown read-only: the interpreter and deskact's kernel-side code."""
    package = PACKAGE_ROOT
    paths = {Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(),
             package / "__init__.py", package / "runtime", package / "toolkits"}
    # A venv inside the checkout is fine; the checkout itself (.git, suites, judges) is not shown.
    return sorted(p for p in paths if p.exists())
