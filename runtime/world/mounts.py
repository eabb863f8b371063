"""The mount syscalls a world is built from: user namespaces, idmapped binds, overlays, tmpfs.

The world's root is an overlay whose lower layers are host directories seen
through *idmapped* mounts: a file the host's root owns shows, in the world,
as owned by the world's root, who is an unprivileged uid on the host. Without
the idmapping, the world's root could not edit /etc/hosts (an unmapped owner
defeats CAP_DAC_OVERRIDE in a user namespace). Python has no wrappers for
open_tree/mount_setattr/move_mount, so they are called through libc.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import time
from functools import lru_cache

from ..errors import SandboxError

# The new mount API's syscall numbers are the same on every architecture (they came after the unification).
_SYS_OPEN_TREE, _SYS_MOVE_MOUNT, _SYS_MOUNT_SETATTR = 428, 429, 442
_OPEN_TREE_CLONE = 1
_AT_FDCWD = -100
_AT_EMPTY_PATH = 0x1000
_MOVE_MOUNT_F_EMPTY_PATH = 0x4
_MOUNT_ATTR_RDONLY = 0x1
_MOUNT_ATTR_NOSUID = 0x2
_MOUNT_ATTR_NODEV = 0x4
_MOUNT_ATTR_IDMAP = 0x100000
_MNT_DETACH = 2
_MS_NOSUID, _MS_NODEV, _MS_BIND, _MS_REC = 0x2, 0x4, 0x1000, 0x4000


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]


@lru_cache(maxsize=1)
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> int:
    if result < 0:
        err = ctypes.get_errno()
        raise SandboxError(f"world: {what}: {os.strerror(err)}")
    return result


def user_namespace(base: int, count: int) -> int:
    """A new user namespace mapping ids 0..count-1 to host ids base..base+count-1; its fd.

    A throwaway ``unshare --user`` process makes it; we (root) write its maps,
    keep a handle on the namespace and let the process go.
    """
    proc = subprocess.Popen(["unshare", "--user", "sleep", "60"], stdin=subprocess.DEVNULL)
    try:
        own = os.readlink("/proc/self/ns/user")
        deadline = time.monotonic() + 5
        while True:  # the namespace exists once unshare has exec'd sleep
            try:
                if os.readlink(f"/proc/{proc.pid}/ns/user") != own:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SandboxError("world: `unshare --user` did not make a user namespace")
            time.sleep(0.0002)
        for kind in ("uid_map", "gid_map"):
            with open(f"/proc/{proc.pid}/{kind}", "w") as f:
                f.write(f"0 {base} {count}\n")
        return os.open(f"/proc/{proc.pid}/ns/user", os.O_RDONLY | os.O_CLOEXEC)
    finally:
        proc.kill()
        proc.wait()


def idmapped_bind(source: str, target: str, userns_fd: int) -> None:
    """Bind ``source`` read-only at ``target`` with its owners shifted into ``userns_fd``'s range."""
    libc = _libc()
    fd = _check(libc.syscall(_SYS_OPEN_TREE, _AT_FDCWD, source.encode(), _OPEN_TREE_CLONE | os.O_CLOEXEC),
                f"open_tree({source})")
    try:
        attr = _MountAttr(_MOUNT_ATTR_IDMAP | _MOUNT_ATTR_RDONLY | _MOUNT_ATTR_NODEV, 0, 0, userns_fd)
        _check(libc.syscall(_SYS_MOUNT_SETATTR, fd, b"", _AT_EMPTY_PATH, ctypes.byref(attr), ctypes.sizeof(attr)),
               f"idmapping {source}")
        _check(libc.syscall(_SYS_MOVE_MOUNT, fd, b"", _AT_FDCWD, target.encode(), _MOVE_MOUNT_F_EMPTY_PATH),
               f"move_mount({source} -> {target})")
    finally:
        os.close(fd)


def overlay(lowers: list[str], upper: str, work: str, target: str) -> None:
    """Mount an overlay at ``target``: ``lowers`` top first, writes go to ``upper``."""
    options = f"lowerdir={':'.join(lowers)},upperdir={upper},workdir={work}"
    _check(_libc().mount(b"overlay", target.encode(), b"overlay", _MS_NODEV, options.encode()),
           f"overlay mount at {target}")


def tmpfs(target: str, size_mb: int, mode: int = 0o755) -> None:
    """A size-limited tmpfs (writes past ``size_mb`` fail with ENOSPC)."""
    _check(_libc().mount(b"tmpfs", target.encode(), b"tmpfs", _MS_NODEV,
                         f"size={size_mb}m,mode={mode:o}".encode()), f"tmpfs at {target}")


def bind(source: str, target: str) -> None:
    """Bind ``source`` (a file or directory) at ``target``, which must exist and be of the same kind."""
    _check(_libc().mount(source.encode(), target.encode(), None, _MS_BIND | _MS_REC, None), f"bind {source}")


def unmount(target: str) -> None:
    """Detach ``target`` (lazily: a process still inside does not block teardown)."""
    if _libc().umount2(target.encode(), _MNT_DETACH) != 0 and ctypes.get_errno() not in (22, 2):  # EINVAL, ENOENT
        err = ctypes.get_errno()
        raise SandboxError(f"world: umount {target}: {os.strerror(err)}")

