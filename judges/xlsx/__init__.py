"""xlsx.* judges, one module per concern: values and sheets (``cells``), number-typed
cells (``numbers``), a whole workbook against a gold one (``compare``), and how cells
look and what they accept (``format``). Importing this package registers them all."""

from . import cells, compare, format, numbers  # noqa: F401  (registration)
