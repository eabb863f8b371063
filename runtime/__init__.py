"""The engine: config, worlds and kernels, model adapters, the task format, runs and UIs."""

from .legacy_paths import install as _install_legacy_paths

_install_legacy_paths()
