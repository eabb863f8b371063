"""The Google toolkit's per-worker service: the emulator (default) or a real account.

What the kernel gets and what the host keeps are kept apart:

- emulator: the worker's emulator listens on a data Unix socket bound into
  the sandbox (``sockets={"DESKACT_GOOGLE_URL": sock}``), on a host-only data
  TCP port that judges use through ``host["clients"]``, and on a host-only
  admin socket (``host["admin_socket"]``); only that one serves the admin API
  (``/_emulator/...``: reset, snapshots), the data endpoints answer it with 403.
- real Google: the host loads the token/service-account credentials
  (refreshing them without a browser) and keeps them; the kernel only gets a
  short-lived access token in ``DESKACT_GOOGLE_TOKEN``. Refresh tokens and
  key files never enter the kernel (the sandbox also hides their paths).

``host`` (``ctx.services["google"]`` in reset steps and judges) holds:
``backend`` ("emulator" | "google"), ``clients`` (:class:`GoogleClients`),
``state`` (a dict a task's reset steps share with its judges, e.g. the date
relative times were resolved against) and, for the emulator, ``emulator``,
``url``, ``socket`` and ``admin_socket``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..base import ServiceContext, ServiceHandle
from .api import SERVICES, TOKEN_ENV
from .client import build_service


class GoogleClients:
    """Host-side googleapiclient services (``clients.calendar``, ``clients.gmail``, ...),
    built on first use against the emulator's host URL or with host credentials."""

    def __init__(self, base_url: str | None = None, credentials: Any = None) -> None:
        if base_url is None and credentials is None:
            raise ValueError("GoogleClients needs an emulator base_url or credentials")
        self.base_url = base_url
        self.credentials = credentials
        self._built: dict[str, Any] = {}

    def service(self, name: str) -> Any:
        if name not in self._built:
            api, version = SERVICES[name]
            self._built[name] = build_service(api, version, self.base_url, credentials=self.credentials, shared=True)
        return self._built[name]

    def __getattr__(self, name: str) -> Any:
        if name in SERVICES:
            return self.service(name)
        raise AttributeError(name)


@contextmanager
def google_service(ctx: ServiceContext) -> Iterator[ServiceHandle]:
    """Start this worker's Google backend (see the module docstring for what goes where)."""
    if ctx.config.google.backend == "google":
        from .auth import load_credentials

        creds = load_credentials(ctx.config.google)
        yield ServiceHandle(
            env={TOKEN_ENV: creds.token},
            host={"backend": "google", "clients": GoogleClients(credentials=creds), "state": {}},
        )
        return
    from .emulator.service import emulator_service

    with emulator_service(ctx) as handle:
        handle.host.update(backend="emulator", clients=GoogleClients(base_url=handle.host["url"]), state={})

        def before_task() -> None:  # an empty account, whether or not the task lists google.reset
            handle.host["emulator"].reset()
            handle.host["state"].clear()

        handle.before_task = before_task
        yield handle
