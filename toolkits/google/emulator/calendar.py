"""Calendar v3 (work in progress: the framework example first)."""

from __future__ import annotations

from typing import Any

from .framework import Request, handler

_COLORS = {
    "1": ("#ac725e", "#1d1d1d"), "2": ("#d06b64", "#1d1d1d"), "3": ("#f83a22", "#1d1d1d"),
}


@handler("calendar.colors.get")
def colors_get(req: Request) -> dict[str, Any]:
    palette = {k: {"background": bg, "foreground": fg} for k, (bg, fg) in _COLORS.items()}
    return {"kind": "calendar#colors", "updated": "2012-02-14T00:00:00.000Z",
            "calendar": palette, "event": palette}
