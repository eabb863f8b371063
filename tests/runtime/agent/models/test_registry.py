"""Model providers as a registry: the decorator, entry points in ``deskact.models``, settings keyed by
provider name, did-you-mean, and a missing SDK named by its extra when the model is made."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from deskact.runtime.agent.models import (
    Model,
    ModelReply,
    known_models,
    make_model,
    model_provider,
    registry,
)
from deskact.runtime.config import Config, load_config
from deskact.runtime.errors import ModelError


class Echo(Model):
    def __init__(self, name: str, settings: object) -> None:
        self.name, self.settings = name, settings

    def reply(self, system: str, messages: list) -> ModelReply:
        return ModelReply(text="```python\nprint('echo')\n```")


@pytest.fixture(autouse=True)
def registry_restored() -> Iterator[None]:
    """Each test's providers leave with it (the built-in ones stay registered)."""
    before = dict(registry._registry)
    yield
    registry._registry.clear()
    registry._registry.update(before)


def test_a_decorated_factory_is_found_by_name_and_gets_its_settings() -> None:
    seen: dict[str, object] = {}

    @model_provider("echo")
    def make_echo(model_name: str, config: Config, environ: Mapping[str, str]) -> Model:
        seen.update(name=model_name, key=environ.get("ECHO_KEY"))
        return Echo(f"echo/{model_name}", config.providers["echo"])

    config = load_config(environ={"DESKACT_PROVIDERS_ECHO_BASE_URL": "http://echo:1"})
    model = make_model("echo/big/v2", config, environ={"ECHO_KEY": "k"})
    assert isinstance(model, Echo) and model.name == "echo/big/v2"
    assert seen == {"name": "big/v2", "key": "k"}  # everything after the first slash is the model
    assert model.settings.base_url == "http://echo:1" and model.settings.max_retries == 5  # the same fields
    assert "echo/<model>" in known_models()


def test_unknown_names_get_did_you_mean_and_the_known_providers() -> None:
    with pytest.raises(ModelError) as info:
        make_model("antropic/claude-x", Config())
    message = str(info.value)
    assert message.startswith("unknown model 'antropic/claude-x': did you mean 'anthropic/claude-x'?")
    assert "anthropic/<model>, openai/<model>, google/<model>, reference, noop, explore, scripted/<file>, human" in message
    assert "counterexample" not in message  # deskact validate's own model is not offered
    with pytest.raises(ModelError, match="reference takes nothing after it"):
        make_model("reference/x", Config())


@pytest.mark.parametrize(("provider", "module", "extra"), [
    ("anthropic", "anthropic", "anthropic"), ("openai", "openai", "openai"), ("google", "google.genai", "google")])
def test_a_missing_sdk_names_the_extra_when_the_model_is_made(
        provider: str, module: str, extra: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # `import module` now raises ImportError
    with pytest.raises(ModelError) as info:
        make_model(f"{provider}/some-model", Config(), environ={})
    assert f"pip install 'deskact[{extra}]'" in str(info.value)
    assert f"{provider} models need the {module} package" in str(info.value)


def test_the_extras_are_declared_for_each_sdk_provider() -> None:
    import tomllib

    from deskact.runtime.world.base import PACKAGE_ROOT

    project = tomllib.loads((PACKAGE_ROOT / "pyproject.toml").read_text())["project"]
    extras, base = project["optional-dependencies"], " ".join(project["dependencies"])
    (everything,) = extras["all"]
    in_all = set(everything.removeprefix("deskact[").removesuffix("]").split(","))
    sdk_extras = {p.extra for p in registry.registered().values() if p.sdk is not None}
    assert sdk_extras == {"anthropic", "openai", "google"} and sdk_extras | {"ray"} <= in_all <= set(extras)
    assert not any(sdk in base for sdk in ("anthropic", "openai", "google-genai", "ray"))


def write_plugin(root: Path, entry: str, module_text: str) -> None:
    """A package 'mine_models' with a dist-info folder declaring one deskact.models entry point."""
    (root / "mine_models.py").write_text(textwrap.dedent(module_text))
    info = root / "mine_models-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mine-models\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[deskact.models]\n{entry}\n")


PLUGIN = """
    from deskact.runtime.agent.models import Model, ModelReply, model_provider

    class Mine(Model):
        def __init__(self, name, base_url):
            self.name, self.base_url = name, base_url

        def reply(self, system, messages):
            return ModelReply(text="```python\\nprint(1)\\n```")

    def make_mine(model_name, config, environ):
        return Mine(f"mine/{model_name}", config.providers["mine"].base_url)

    @model_provider("theirs")
    def make_theirs(model_name, config, environ):
        return Mine(f"theirs/{model_name}", None)
"""


@pytest.fixture
def plugin_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("mine_models", None)


def test_an_entry_point_naming_a_factory_adds_a_provider(plugin_path: Path) -> None:
    write_plugin(plugin_path, "mine = mine_models:make_mine", PLUGIN)
    assert "mine/<model>" in known_models()  # listed before it is loaded
    config = Config()
    config.providers["mine"].base_url = "http://mine"
    model = make_model("mine/x", config)
    assert model.name == "mine/x" and model.base_url == "http://mine"
    with pytest.raises(ModelError, match=r"did you mean 'mine/x'\?"):
        make_model("mien/x", config)


def test_an_entry_point_naming_a_module_that_registers(plugin_path: Path) -> None:
    write_plugin(plugin_path, "theirs = mine_models", PLUGIN)
    assert make_model("theirs/y", Config()).name == "theirs/y"


def test_an_entry_point_that_registers_nothing_or_fails_says_so(plugin_path: Path) -> None:
    write_plugin(plugin_path, "other = mine_models\nbroken = no_such_module:make", PLUGIN)
    with pytest.raises(ModelError, match=r"registered no provider 'other' \(decorate its factory"):
        make_model("other/x", Config())
    with pytest.raises(ModelError, match="entry point no_such_module:make .* cannot be loaded: ModuleNotFoundError"):
        make_model("broken/x", Config())
