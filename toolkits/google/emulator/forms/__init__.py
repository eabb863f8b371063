"""Forms v1 in the emulator: ``handlers.py`` holds forms, responses and
``submit_response`` (how reset steps seed responses: the API cannot submit);
its methods are registered with the framework when this package is imported."""

from . import handlers
from .handlers import (
    KIND,
    RESPONSE_KIND,
    FormsError,
    form_text,
    load,
    new_form,
    revision_id,
    submit_response,
    to_resource,
)

__all__ = [
    "KIND", "RESPONSE_KIND", "FormsError", "form_text", "handlers", "load", "new_form",
    "revision_id", "submit_response", "to_resource",
]
