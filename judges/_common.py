"""The built-in judges' helpers now live in ``deskact.runtime.tasks.helpers`` (public, also
exported from ``deskact``); this module keeps the old names importable."""

from __future__ import annotations

from ..runtime.tasks.helpers import Regex, check_text, normalize

__all__ = ["Regex", "check_text", "normalize"]
