"""Render the prompt templates in prompts/*.yaml (Jinja2 with StrictUndefined)."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from jinja2 import Environment, StrictUndefined, Template

from .. import safe_yaml

_ENV = Environment(undefined=StrictUndefined, keep_trailing_newline=False, trim_blocks=True, lstrip_blocks=True)


@cache
def templates(name: str = "system") -> dict[str, str]:
    text = (resources.files("deskact.runtime.agent") / "prompts" / f"{name}.yaml").read_text()
    return safe_yaml.load(text, source=f"prompts/{name}.yaml")


@cache
def _compiled(template_set: str, key: str) -> Template:
    # Compiling costs ~2 ms per template; every episode renders the same few.
    return _ENV.from_string(templates(template_set)[key])


def render(key: str, template_set: str = "system", **values: Any) -> str:
    """Render one template; a missing variable is an error, never an empty string."""
    return _compiled(template_set, key).render(**values).strip()
