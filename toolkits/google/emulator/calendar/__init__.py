"""Calendar v3 in the emulator.

- ``handlers.py``  calendarList, calendars, events, settings, colors, freebusy
  (registered with the framework when this package is imported)
- ``time.py``      event times, time zones, recurrence expansion
"""

from . import handlers
from .handlers import DEFAULT_TZ

__all__ = ["DEFAULT_TZ", "handlers"]
