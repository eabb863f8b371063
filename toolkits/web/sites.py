"""The offline web apps as the agent sees them (kernel side: no imports beyond the stdlib).

Each app has a hostname that the task's world resolves to a loopback address of
its own (``/etc/hosts``, written by the ``site.serve`` reset step); a forwarder
in the world relays port 80 there to the app's Unix socket on the host. So
Chromium and code in the world open ``http://shop.test/`` like any site.
"""

from __future__ import annotations

from collections.abc import Iterator

SITES: dict[str, tuple[str, str]] = {
    "shop": ("shop.test", "127.0.0.2"),
    "wiki": ("wiki.test", "127.0.0.3"),
    "crm": ("crm.test", "127.0.0.4"),
}
"""App name -> (hostname, loopback address in the world)."""
PORT = 80

class Sites:
    """The offline web apps of this task, by name: `sites["shop"]` is "http://shop.test/".
    `shop`: search, product pages, cart, checkout with coupons, orders. `wiki`: pages, search,
    edit with a summary, history, revert, comments. `crm`: an admin app (customers table with
    filters, customer forms, a support-request form, settings). Each task starts them in a fixed
    state. The browser opens these URLs; Python can too, e.g.
    `requests.get(sites.url("shop", "search"), params={"q": "mouse"})`."""

    def __getitem__(self, name: str) -> str:
        if name not in SITES:
            raise KeyError(f"no site {name!r}; sites: {', '.join(SITES)}")
        return f"http://{SITES[name][0]}/"

    def __iter__(self) -> Iterator[str]:
        return iter(SITES)

    def __repr__(self) -> str:
        return repr({name: self[name] for name in SITES})

    def url(self, name: str, path: str = "") -> str:
        """The full URL of ``path`` (e.g. "wiki/onboarding/history") on site ``name``."""
        return self[name] + path.lstrip("/")


sites = Sites()


def socket_env(name: str) -> str:
    """The kernel variable holding the app's forwarded URL (the same app, by a loopback port)."""
    return f"DESKACT_SITE_{name.upper()}_URL"
