"""google.* judges: what the agent left in the Google account, one module per API.

They read the account through host-side googleapiclient clients
(``ctx.services["google"]["clients"]``), so they judge the emulator and a real
account alike. Feedback names what was expected and what was found instead
(the nearest titles, the actual times, the actual cells). Importing this package
registers them all. ``file_text`` and ``slide_titles`` stay importable from here, as they
were when google was one module.
"""

from . import calendar, docs, forms, gmail, matching, sheets  # noqa: F401  (registration)
from .drive import file_text
from .slides import slide_titles

__all__ = ["file_text", "slide_titles"]
