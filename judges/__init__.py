"""Built-in judges, one module (or package) per family: ``xlsx.*`` in xlsx/, ``files.*`` in
files.py, and so on. Importing this package registers them."""

from . import (  # noqa: F401  (registration)
    a11y,
    answer,
    archive,
    browser,
    browser_state,
    config,
    csv,
    docx,
    files,
    gimp,
    google,
    groups,
    image,
    judges,
    packages,
    pptx,
    process,
    shell,
    site,
    terminal,
    users,
    vlc,
    windows,
    xlsx,
)
