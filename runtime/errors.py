"""Errors deskact raises on purpose. Each names what was wrong and where."""


class DeskactError(Exception):
    """Base class: an error that deskact explains itself (no traceback needed)."""


class ConfigError(DeskactError):
    """A configuration file, environment variable or flag has a bad key or value."""


class TaskError(DeskactError):
    """A task file is malformed: the message names file, line, task id and field."""


class KernelError(DeskactError):
    """The kernel could not be started, preloaded or talked to."""


class SandboxError(DeskactError):
    """The requested sandbox cannot be built on this machine."""


class DisplayError(DeskactError):
    """A display could not be started, attached or stopped."""


class ModelError(DeskactError):
    """A model call failed after its retries, or the reply could not be read."""


class MissingAPIKey(ModelError):
    """A provider's API key variable is not set; raised before any task starts."""


class ToolkitError(DeskactError):
    """A toolkit could not be found, loaded or preloaded."""
