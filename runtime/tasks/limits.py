"""Limits on what one judge may take from the runner: time, memory, and the size of what it reads.

The runner, its judges and per-worker services share one process, and a judge reads files the agent
wrote: a 1 KB YAML alias bomb, a zip of a few KB that inflates to gigabytes, a sheet of millions of
cells. So each judge runs in a child process (``run_in_child``, forked by ``judge_server``) with an address-space limit,
killed past its wall-clock limit, and sends its verdict back through a pipe; and every file it reads
through ``ctx.path`` is checked against the size limits (``check_read``) before it is parsed.
Whatever crosses a limit ends as an ``error`` verdict naming the limit: the run goes on.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import re
import resource
import select
import signal
import sys
import time
import zipfile
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Annotated, Any

from pydantic import Field

from ..config import LimitsConfig
from ..errors import DeskactError

MB = 1 << 20
_REPLY_MAX = 64 * MB
"""Largest verdict a judge's child may send back (its feedback and details, pickled)."""


Seconds = Annotated[float, Field(gt=0, allow_inf_nan=False)]
"""A step's timeout param: positive and finite, checked when the task loads (``.inf`` would let a
step outlive its task)."""


class LimitExceeded(DeskactError):
    """A judge went past one of ``config.limits``; the message names the limit and its value."""


_current: ContextVar[LimitsConfig | None] = ContextVar("deskact_step_limits", default=None)


@contextlib.contextmanager
def applied(limits: LimitsConfig) -> Iterator[None]:
    """``limits`` apply to the files read inside the block (a judge's reads)."""
    token = _current.set(limits)
    try:
        yield
    finally:
        _current.reset(token)


_runner_pid: int | None = None


def runner_pid() -> int:
    """The runner's pid, also inside a judge's child process: what is named or owned per process
    (a transcript, LibreOffice's profile) belongs to the runner, which outlives the child."""
    return _runner_pid or os.getpid()


def current() -> LimitsConfig | None:
    """The limits of the judge running in this thread, None outside a judge."""
    return _current.get()


def of(config: Any) -> LimitsConfig:
    """A run config's limits (the defaults for a context without a config, as in a step's tests)."""
    limits = getattr(config, "limits", None)
    return limits if isinstance(limits, LimitsConfig) else LimitsConfig()


# --- sizes -------------------------------------------------------------------------------------

_DIMENSION = re.compile(rb'<(?:\w+:)?dimension\s+ref="([A-Z]{1,3})(\d{1,7})(?::([A-Z]{1,3})(\d{1,7}))?"')


def read_cap(limit: int | None) -> int | None:
    """How many bytes a read of a whole file may take: the caller's own limit, else the judge's
    ``file_mb`` plus one byte (so a file just past the limit is seen to be past it)."""
    if limit is not None:
        return limit
    limits = current()
    return None if limits is None else limits.file_mb * MB + 1


def check_read(data: bytes, what: str, limit: int | None) -> bytes:
    """``data`` read whole from ``what`` for a judge: within ``file_mb``, and if it is a zip (docx,
    pptx, xlsx, odf), within the zip limits. Raises LimitExceeded; outside a judge returns ``data``."""
    limits = current()
    if limits is None or limit is not None:
        return data
    if len(data) > limits.file_mb * MB:
        raise LimitExceeded(f"{what} is larger than limits.file_mb = {limits.file_mb} MB: not read")
    if data[:4] == b"PK\x03\x04":
        check_zip(io.BytesIO(data), what, limits)
    return data


def check_zip(file: io.BytesIO, what: str, limits: LimitsConfig) -> None:
    """Refuse a zip whose members, once inflated, are too many or too large, or an xlsx sheet whose
    declared dimension holds more than ``sheet_cells`` cells, before any library parses it."""
    try:
        archive = zipfile.ZipFile(file)
    except (zipfile.BadZipFile, ValueError):
        return  # not a zip after all: the judge's own parser says what is wrong with it
    with archive:
        members = archive.infolist()
        if len(members) > limits.zip_entries:
            raise LimitExceeded(f"{what} holds {len(members)} zip members, more than limits.zip_entries"
                                f" = {limits.zip_entries}: not read")
        total = 0
        for info in members:
            total += info.file_size
            if info.file_size > limits.zip_part_mb * MB:
                raise LimitExceeded(f"{what}: member {info.filename} inflates to {info.file_size // MB} MB, more than"
                                    f" limits.zip_part_mb = {limits.zip_part_mb} MB: not read")
            if total > limits.zip_mb * MB:
                raise LimitExceeded(f"{what} inflates to more than limits.zip_mb = {limits.zip_mb} MB: not read")
        for info in members:
            if info.filename.startswith("xl/worksheets/") and info.filename.endswith(".xml"):
                _check_sheet(archive, info, what, limits)


def _check_sheet(archive: zipfile.ZipFile, info: zipfile.ZipInfo, what: str, limits: LimitsConfig) -> None:
    with archive.open(info) as part:
        head = part.read(8192)  # the dimension comes before the sheet's data
    found = _DIMENSION.search(head)
    if found is None:
        return
    first_col, first_row, last_col, last_row = found.groups()
    rows = int(last_row or first_row) - int(first_row) + 1
    cols = _column_number(last_col or first_col) - _column_number(first_col) + 1
    if rows * cols > limits.sheet_cells:
        raise LimitExceeded(f"{what}: sheet {info.filename} spans {rows} x {cols} cells, more than"
                            f" limits.sheet_cells = {limits.sheet_cells}: not read")


def _column_number(letters: bytes) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + letter - ord("A") + 1
    return number


# --- a judge in its own process --------------------------------------------------------------


def set_runner_pid(pid: int) -> None:
    """In a judge's child: the runner it works for (``runner_pid``)."""
    global _runner_pid
    _runner_pid = pid


def run_in_child(name: str, params: dict[str, Any], ctx: Any, what: str, limits: LimitsConfig) -> Any:
    """Judge ``name`` in a child process under ``limits`` (its address space and wall-clock time),
    forked by the judge server (``judge_server.py``: never from this multi-threaded process); its
    result comes back pickled. Raises LimitExceeded past a limit, ``ChildFailed`` for whatever the
    child raised (BaseException included: a judge's SystemExit ends the child, not the run).
    Returns a ``judge_server.NeedsRunner`` instance when the judge needs what only the runner has."""
    from . import judge_server
    from .steps import lookup

    request = pickle.dumps((name, params, judge_server.child_context(ctx), limits, runner_pid()))
    read_end, write_end = os.pipe()
    try:
        pid = _spawn(judge_server, name, lookup("judge", name), request, write_end)
    finally:
        os.close(write_end)
    try:
        kind, value = _collect(read_end, what, limits)
    except BaseException:
        _kill(pid)  # Ctrl-C or a limit: the child and anything it started go too
        raise
    finally:
        os.close(read_end)
    if kind == "ok":
        return value
    if kind == "memory":
        raise LimitExceeded(f"{what} ran out of memory: limits.judge_memory_mb = {limits.judge_memory_mb} MB")
    raise ChildFailed(value)


def _spawn(judge_server: Any, name: str, spec: Any, request: bytes, write_end: int) -> int:
    for attempt in (1, 2):  # a server that died (killed from outside) is forked again, once
        server = judge_server.server_for(name, spec)
        try:
            return int(server.spawn(request, write_end))
        except (OSError, EOFError):
            judge_server.drop(server)
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


class ChildFailed(Exception):
    """What a judge's child process raised, as ``Type: message``."""


def child_main(call: Callable[[], Any], write_end: int, limits: LimitsConfig) -> None:
    """A judge's child: ``call()`` under the memory limit, its reply written to ``write_end``."""
    code = 0
    try:
        os.setpgid(0, 0)  # its own group: a limit kills whatever the judge started, too
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _limit_memory(limits.judge_memory_mb * MB)
        try:
            reply: tuple[str, Any] = ("ok", call())
        except MemoryError:
            reply = ("memory", "")
        except BaseException as exc:  # noqa: BLE001 - SystemExit, KeyboardInterrupt: this task's error
            reply = ("raised", f"{type(exc).__name__}: {exc}")
        try:
            payload = pickle.dumps(reply)
        except Exception as exc:  # noqa: BLE001 - a verdict that cannot travel is the judge's error
            payload = pickle.dumps(("raised", f"its result cannot be sent back: {type(exc).__name__}: {exc}"))
        with os.fdopen(write_end, "wb") as out:
            out.write(payload)
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
    except BaseException:  # noqa: BLE001 - the parent reports a child that sent nothing
        code = 1
    finally:
        os._exit(code)  # no atexit, no finalizers: they belong to the runner


def _limit_memory(extra: int) -> None:
    """Address space: what the process already mapped (inherited) plus ``extra``; only the soft
    limit, so the judge's own tools (LibreOffice) may raise it back."""
    mapped = 0
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                mapped = int(line.split()[1]) * 1024
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    wanted = mapped + extra
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))


def _collect(read_end: int, what: str, limits: LimitsConfig) -> tuple[str, Any]:
    deadline = time.monotonic() + limits.judge_seconds
    chunks: list[bytes] = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise LimitExceeded(f"{what} ran past limits.judge_seconds = {limits.judge_seconds:g} s: stopped")
        ready, _, _ = select.select([read_end], [], [], min(left, 1.0))
        if not ready:
            continue
        chunk = os.read(read_end, 1 << 20)
        if not chunk:
            break
        size += len(chunk)
        if size > _REPLY_MAX:
            raise LimitExceeded(f"{what} sent back more than {_REPLY_MAX // MB} MB")
        chunks.append(chunk)
    if not chunks:
        raise ChildFailed("its process ended without a verdict: killed or crashed (out of memory?"
                          f" limits.judge_memory_mb = {limits.judge_memory_mb} MB)")
    kind, value = pickle.loads(b"".join(chunks))
    return str(kind), value


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)
