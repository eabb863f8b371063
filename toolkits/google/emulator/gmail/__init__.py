"""Gmail v1 in the emulator.

- ``handlers.py``  messages, threads, labels, drafts, attachments, profile
  (registered with the framework when this package is imported)
- ``mime.py``      RFC 2822 messages -> payload, snippet, search index
- ``query.py``     the ``q`` search language
"""

from . import handlers
from .handlers import INDEX, SYSTEM_LABELS, raw_message

__all__ = ["INDEX", "SYSTEM_LABELS", "handlers", "raw_message"]
