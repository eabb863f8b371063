"""The offline web apps as the agent sees them (kernel side: no imports beyond the stdlib).

Each app has a hostname that the task's world resolves to a loopback address of
its own (``/etc/hosts``, written by the ``site.serve`` reset step); a forwarder
in the world relays port 80 there to the app's Unix socket on the host. So
Chromium and code in the world open ``http://shop.test/`` like any site.
"""

from __future__ import annotations

SITES: dict[str, tuple[str, str]] = {
    "shop": ("shop.test", "127.0.0.2"),
    "wiki": ("wiki.test", "127.0.0.3"),
    "crm": ("crm.test", "127.0.0.4"),
}
"""App name -> (hostname, loopback address in the world)."""
PORT = 80

sites: dict[str, str] = {name: f"http://{host}/" for name, (host, _) in SITES.items()}
"""The offline web apps' base URLs: `shop` (search, product pages, cart, checkout with coupons, orders),
`wiki` (pages, search, edit with a summary, history, revert, comments) and `crm` (an admin app:
customers table with filters, customer forms, support requests form, settings). Each task starts
them in a fixed state; they are reachable by the browser and by HTTP from this kernel
(e.g. `requests.get(sites["shop"] + "search", params={"q": "mouse"})`)."""


def socket_env(name: str) -> str:
    """The kernel variable holding the app's forwarded URL (the same app, by a loopback port)."""
    return f"DESKACT_SITE_{name.upper()}_URL"
