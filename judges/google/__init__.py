"""google.* judges: what the agent left in the Google account, one module per API.

They read the account through host-side googleapiclient clients
(``ctx.services["google"]["clients"]``), so they judge the emulator and a real
account alike. Feedback names what was expected and what was found instead
(the nearest titles, the actual times, the actual cells). Importing this package
registers them all.
"""

from . import calendar, docs, drive, forms, gmail, sheets, slides  # noqa: F401  (registration)
