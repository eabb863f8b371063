"""A replacement kernel booting in the background while a hung one gets its grace.

Started at the deadline, so a kernel that ignores the interrupt is replaced
after max(grace, boot) rather than grace + boot. Dropped if the interrupt works.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from .process import LaunchedKernel, kill_kernel


class Standby:
    def __init__(self, boot: Callable[[], LaunchedKernel]) -> None:
        self._boot_kernel = boot
        self._kernel: LaunchedKernel | None = None
        self._error: BaseException | None = None
        self._cancelled = False
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._boot, name="deskact-kernel-standby", daemon=True)
        self._thread.start()

    def _boot(self) -> None:
        try:
            kernel = self._boot_kernel()
        except BaseException as exc:  # noqa: BLE001 - the caller starts a kernel itself and reports
            self._error = exc
            return
        with self._lock:
            if self._cancelled:
                kill_kernel(kernel)
            else:
                self._kernel = kernel

    def take(self) -> LaunchedKernel | None:
        """The booted kernel, or None if it failed (the caller then starts one itself)."""
        self._thread.join()
        return self._kernel

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            kernel, self._kernel = self._kernel, None
        if kernel is not None:
            kill_kernel(kernel)
