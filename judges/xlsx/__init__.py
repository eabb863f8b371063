"""xlsx.* judges, one module per concern: values and sheets (``cells``), number-typed
cells (``numbers``), a whole workbook against a gold one (``compare``), and how cells
look and what they accept (``format``). Importing this package registers them all.

The cell comparison stays importable from here, as it was when xlsx was one module."""

from . import charts, compare, format, numbers, pivots, ranges, styles, validation_rules, view  # noqa: F401  (registration)
from .cells import cell_equal, show_cell

__all__ = ["cell_equal", "show_cell"]
