"""Built-in reset and cleanup steps. Importing this package registers them."""

from . import apps, files, office, shell  # noqa: F401  (imported for registration)
from . import google  # noqa: F401  (google.* steps; the toolkit also lists it as a plugin)
from . import extra_gui  # noqa: F401  (apps.terminal)
from . import world  # noqa: F401  (world.require)
from . import site  # noqa: F401  (site.serve; the web toolkit also lists it as a plugin)
from . import before_judge  # noqa: F401  (apps.save, apps.close, desktop.settle)
from . import download  # noqa: F401  (files.download)
from . import browser  # noqa: F401  (browser.*; the browser toolkit also lists it as a plugin)
