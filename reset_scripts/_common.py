"""The built-in reset steps' helpers now live in ``deskact.runtime.tasks.helpers`` (public, also
exported from ``deskact``); this module keeps the old names importable."""

from __future__ import annotations

from ..runtime.tasks.helpers import (
    FileMode,
    clip,
    fixture,
    give_to_world,
    gold_file,
    make_dirs,
    short,
    shown,
    step_path,
)

__all__ = ["FileMode", "clip", "fixture", "give_to_world", "gold_file", "make_dirs", "short", "shown", "step_path"]
