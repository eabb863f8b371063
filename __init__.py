"""deskact: a runtime for code-as-action computer agents."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("deskact")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"


def load_ipython_extension(ipython):  # noqa: ANN001 - IPython's hook signature
    """``%load_ext deskact``: registers %%act and %deskact_screen."""
    from .runtime.ui.notebook import load_ipython_extension as load

    load(ipython)


def __getattr__(name: str):  # lazy: `import deskact` stays fast and light
    if name in ("Env",):
        from .runtime.ui.notebook import Env

        return Env
    raise AttributeError(name)


__all__ = ["Env", "__version__"]
