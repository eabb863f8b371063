"""Docs v1 in the emulator.

- ``handlers.py``  documents create/get/batchUpdate (registered with the
  framework when this package is imported), storage, Drive hooks
- ``model.py``     the document's structural model (pure, no I/O)
"""

from . import handlers
from .handlers import KIND, document_text, load, new_document, revision_id, to_resource

__all__ = ["KIND", "document_text", "handlers", "load", "new_document", "revision_id", "to_resource"]
