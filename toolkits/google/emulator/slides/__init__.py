"""Slides v1 in the emulator: ``handlers.py`` holds the model, its storage and
the methods (registered with the framework when this package is imported)."""

from . import handlers
from .handlers import (
    KIND,
    LAYOUTS,
    SlidesError,
    load,
    new_presentation,
    presentation_text,
    revision_id,
    to_resource,
)

__all__ = [
    "KIND", "LAYOUTS", "SlidesError", "handlers", "load", "new_presentation", "presentation_text",
    "revision_id", "to_resource",
]
