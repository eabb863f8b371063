"""Sheets v4 in the emulator.

- ``handlers.py``  spreadsheets and values.* (registered with the framework
  when this package is imported), storage, Drive hooks
- ``model.py``     the spreadsheet model (pure, no I/O)
- ``cells.py``     cell input parsing and rendering
- ``formulas.py``  the formula engine
- ``a1.py``        A1 notation
"""

from . import handlers
from .handlers import KIND, column_letter, load_book, save_book

__all__ = ["KIND", "column_letter", "handlers", "load_book", "save_book"]
