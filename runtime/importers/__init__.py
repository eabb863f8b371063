"""Importers: other benchmarks' task files -> a deskact suite folder, plus a report.

``deskact import osworld DIR --out SUITE`` and ``deskact import agentstudio PATH --out SUITE``
translate set-up steps into reset steps and evaluators into judges where deskact has an
equivalent; every task that cannot be translated is listed in ``import-report.md`` and
``import-report.json`` with the config type or evaluator function that stopped it.
Imported tasks carry ``imported_from`` and no ``reference``: ``deskact validate`` says so
until someone writes one.
"""

from .common import ImportOptions, ImportReport, run_import

__all__ = ["ImportOptions", "ImportReport", "run_import"]
