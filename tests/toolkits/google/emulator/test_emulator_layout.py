"""The emulator's one-subpackage-per-API layout: every API package registers its
methods, and the module paths from before the split still import (with a warning)."""

import importlib
import sys
import warnings

import pytest
from deskact.runtime.legacy_paths import MOVED
from deskact.toolkits.google.emulator import Emulator
from deskact.toolkits.google.emulator.discovery import APIS
from deskact.toolkits.google.emulator.framework import HANDLERS, SERVICE_MODULES

PREFIX = "deskact.toolkits.google.emulator."
OLD_EMULATOR_PATHS = {old: new for old, new in MOVED.items() if old.startswith(PREFIX)}


def test_every_served_api_has_a_package_whose_handlers_are_registered() -> None:
    Emulator()
    assert sorted(SERVICE_MODULES) == sorted(api for api, _ in APIS)
    for api in SERVICE_MODULES:
        package = importlib.import_module(PREFIX + api)
        assert package.__file__ is not None and package.__file__.endswith("__init__.py")
        registered = {m for m, fn in HANDLERS.items() if fn.__module__ == f"{PREFIX}{api}.handlers"}
        assert registered, f"{api}: no method registered from {api}/handlers.py"
        assert all(m.startswith(api + ".") for m in registered), sorted(registered)


@pytest.mark.parametrize("old", sorted(OLD_EMULATOR_PATHS))
def test_module_paths_before_the_split_import_the_moved_module(
        old: str, monkeypatch: pytest.MonkeyPatch) -> None:
    new = importlib.import_module(OLD_EMULATOR_PATHS[old])
    # An earlier import under the old name would be served from the cache, silently.
    monkeypatch.delitem(sys.modules, old, raising=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert importlib.import_module(old) is new
    assert any(issubclass(w.category, DeprecationWarning) and old in str(w.message) for w in caught)


def test_old_service_module_names_still_export_what_steps_and_services_call() -> None:
    from deskact.toolkits.google.emulator import docs, drive, forms, gmail, sheets, slides

    assert callable(forms.submit_response) and callable(gmail.raw_message)
    for fn in (drive.register_file, drive.touch_file, drive.rename_file, drive.get_file,
               drive.new_file_id, sheets.load_book, docs.document_text, slides.presentation_text):
        assert callable(fn)
    assert drive.ROOT_ID and sheets.KIND == "sheets.spreadsheet"
