from io import StringIO

from deskact.runtime.agent.confirm import confirmation_enabled, console_confirm
from deskact.runtime.config import Config
from rich.console import Console


def test_on_by_default_only_in_attach_mode():
    config = Config()
    assert not confirmation_enabled(config)
    config.display.mode = "attach"
    assert confirmation_enabled(config)
    config.agent.confirm = False
    assert not confirmation_enabled(config)


def answers(*items: str):
    it = iter(items)
    return lambda prompt: next(it)


def test_approve_reject_and_edit(monkeypatch):
    quiet = Console(file=StringIO())
    assert console_confirm(answers("a"), quiet)("print(1)") == "print(1)"
    assert console_confirm(answers("r"), quiet)("print(1)") is None
    assert console_confirm(answers("maybe", "n"), quiet)("print(1)") is None  # asks again on nonsense
    monkeypatch.delenv("EDITOR", raising=False)
    edited = console_confirm(answers("e", "print(2)", "print(3)", "."), quiet)("print(1)")
    assert edited == "print(2)\nprint(3)"
