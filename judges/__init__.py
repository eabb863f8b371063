"""Built-in judges. Importing this package registers them."""

from . import answer, data, docx, files, image, pptx, shell, windows, xlsx  # noqa: F401  (registration)
from . import extra_text, extra_xlsx  # noqa: F401  (files.same_text, xlsx.numbers)
from . import extra_gui  # noqa: F401  (windows.geometry, windows.state)
from . import google  # noqa: F401  (google.* judges)
from . import site  # noqa: F401  (site.state)
from . import process, system  # noqa: F401  (process.*, users.*, groups.*, packages.*)
from . import xlsx_compare  # noqa: F401  (xlsx.compare)
from . import files_stat  # noqa: F401  (files.stat)
from . import config_value  # noqa: F401  (config.value)
from . import browser  # noqa: F401  (browser.* judges)
from . import xlsx_format  # noqa: F401  (xlsx.format, xlsx.validation)
from . import office_runs  # noqa: F401  (docx.runs, pptx.runs)
