"""config.value: right files pass, near misses fail with feedback naming the difference."""

from __future__ import annotations

import pytest
from deskact.runtime.tasks.steps import StepContext, Verdict, lookup, run_judge


def j(name: str, ctx: StepContext, **params: object) -> Verdict:
    v = run_judge(name, params, ctx)
    assert not v.error, v.feedback
    return v


@pytest.mark.parametrize(("name", "text"), [
    ("app.ini", "debug = no\n[server]\nport = 9090\nhost = 0.0.0.0\n[db]\nhost = db.internal\n"),
    ("app.toml", 'debug = false\n[server]\nport = 9090\nhost = "0.0.0.0"\n[db]\nhost = "db.internal"\n'),
    ("app.json", '{"debug": false, "server": {"port": 9090, "host": "0.0.0.0"}, "db": {"host": "db.internal"}}'),
    ("app.yaml", "debug: false\nserver:\n  port: 9090\n  host: 0.0.0.0\ndb:\n  host: db.internal\n"),
])
def test_config_value_in_every_format(ctx: StepContext, name: str, text: str) -> None:
    (ctx.workspace / name).write_text(text)
    assert j("config.value", ctx, path=name, key="server.port", equals=9090).passed
    assert j("config.value", ctx, path=name, key="db.host", equals="db.internal").passed
    assert j("config.value", ctx, path=name, key=["db", "host"], regex=r"\.internal$").passed
    assert j("config.value", ctx, path=name, key="server.tls", exists=False).passed
    v = j("config.value", ctx, path=name, key="server.port", equals=9000)
    assert not v.passed and "server.port should be 9000 but is" in v.feedback and "9090" in v.feedback
    v = j("config.value", ctx, path=name, key="db.host", equals="localhost")  # the wrong section's host
    assert not v.passed
    assert not j("config.value", ctx, path=name, key="database.host", equals="db.internal").passed


def test_config_value_types_lists_and_bad_files(ctx: StepContext) -> None:
    (ctx.workspace / "c.json").write_text('{"on": "true", "ports": [80, 443]}')
    assert not j("config.value", ctx, path="c.json", key="on", equals=True).passed  # a string is not a boolean
    assert j("config.value", ctx, path="c.json", key="ports.1", equals=443).passed
    assert not j("config.value", ctx, path="c.json", key="ports.2", exists=True).passed
    (ctx.workspace / "broken.toml").write_text("port = = 1\n")
    assert "is not valid TOML" in j("config.value", ctx, path="broken.toml", key="port", equals=1).feedback
    (ctx.workspace / "settings").write_text('{"a": 1}')
    assert j("config.value", ctx, path="settings", key="a", equals=1, format="json").passed
    with pytest.raises(ValueError, match="exactly one of"):
        lookup("judge", "config.value").validate({"path": "a.ini", "key": "x"})


def test_ini_booleans_read_like_configparser(ctx: StepContext) -> None:
    (ctx.workspace / "a.ini").write_text("[x]\ndebug = no\nverbose = On\n")
    assert j("config.value", ctx, path="a.ini", key="x.debug", equals=False).passed
    assert j("config.value", ctx, path="a.ini", key="x.verbose", equals=True).passed
    assert not j("config.value", ctx, path="a.ini", key="x.debug", equals=True).passed


# AgentStudio's verify_ini: both files as configparser dicts, compared whole
SAME_INI_CASES = [
    ("[app]\nmax_connections = 200\nname = x\n", True),
    ("# edited\n[app]\nNAME = x\nmax_connections=200\n", True),  # comments, order, key case, spacing
    ("[DEFAULT]\nname = x\n[app]\nmax_connections = 200\n", True),  # DEFAULT reaches every section
    ("[app]\nmax_connections = 100\nname = x\n", False),
    ("[app]\nmax_connections = 200\nname = x\nextra = 1\n", False),  # a setting too many
    ("[app]\nmax_connections = 200\nname = x\n[more]\n", False),  # a section too many
    ("[app]\nmax_connections = 200\n", False),
    ("max_connections = 200\n", False),  # not INI at all
]


@pytest.mark.parametrize(("text", "passes"), SAME_INI_CASES)
def test_config_same_ini(ctx: StepContext, text: str, passes: bool) -> None:
    (ctx.gold / "ref.ini").write_text("[app]\nmax_connections = 200\nname = x\n")
    (ctx.workspace / "settings.ini").write_text(text)
    v = run_judge("config.same_ini", {"path": "settings.ini", "reference": "ref.ini"}, ctx)
    assert v.passed is passes and not v.error, v.feedback


def test_config_same_ini_missing_file(ctx: StepContext) -> None:
    (ctx.gold / "ref.ini").write_text("[app]\n")
    v = run_judge("config.same_ini", {"path": "settings.ini", "reference": "ref.ini"}, ctx)
    assert not v.passed and "does not exist" in v.feedback
