"""Built-in reset and cleanup steps, one module (or package) per family: ``apps.*`` in apps/,
``files.*`` in files.py, and so on. Importing this package registers them. The google, site
and browser toolkits also list their family's module as a plugin."""

from . import (  # noqa: F401  (registration)
    apps,
    browser,
    desktop,
    files,
    google,
    office,
    shell,
    site,
    world,
)
