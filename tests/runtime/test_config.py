from pathlib import Path

import pytest
from deskact.runtime.config import Config, default_config_path, load_config, render_defaults
from deskact.runtime.errors import ConfigError


def test_shipped_config_yaml_is_the_rendered_defaults():
    # config.yaml documents every default; regenerate it when a field changes.
    assert default_config_path().read_text() == render_defaults()
    assert load_config(default_config_path(), environ={}) == Config()


def test_precedence_defaults_file_env_flags(tmp_path: Path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("agent:\n  max_steps: 7\n  step_timeout: 9\n")
    assert load_config(cfg, environ={}).agent.max_steps == 7
    env = {"DESKACT_AGENT_MAX_STEPS": "8"}
    assert load_config(cfg, environ=env).agent.max_steps == 8
    final = load_config(cfg, overrides={"agent": {"max_steps": 9}}, environ=env)
    assert final.agent.max_steps == 9
    assert final.agent.step_timeout == 9  # untouched keys keep the file's value


def test_env_reaches_nested_keys_with_underscores():
    env = {"DESKACT_PROVIDERS_OPENAI_BASE_URL": "http://localhost:8000/v1", "DESKACT_TOOLKITS_ENABLED": "[gui, google]"}
    cfg = load_config(environ=env)
    assert cfg.providers.openai.base_url == "http://localhost:8000/v1"
    assert cfg.providers.openai.api_key_env == "OPENAI_API_KEY"
    assert cfg.toolkits.enabled == ["gui", "google"]


def test_unknown_key_names_file_path_and_value(tmp_path: Path):
    cfg = tmp_path / "bad.yaml"
    cfg.write_text("agent:\n  max_stepz: 3\n")
    with pytest.raises(ConfigError) as err:
        load_config(cfg, environ={})
    assert f"{cfg}: agent.max_stepz = 3: unknown key" in str(err.value)


def test_wrong_type_from_env_names_the_variable():
    with pytest.raises(ConfigError) as err:
        load_config(environ={"DESKACT_SANDBOX_MEMORY_MB": "lots"})
    msg = str(err.value)
    assert "environment variable DESKACT_SANDBOX_MEMORY_MB" in msg and "sandbox.memory_mb = 'lots'" in msg


def test_unknown_env_variable_is_an_error():
    with pytest.raises(ConfigError, match="DESKACT_NOPE_X: no config key"):
        load_config(environ={"DESKACT_NOPE_X": "1"})


def test_bad_literal_value_in_file(tmp_path: Path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("display:\n  mode: remote\n")
    with pytest.raises(ConfigError, match=r"display.mode = 'remote'"):
        load_config(cfg, environ={})


def test_provider_settings_are_keyed_by_name_for_any_provider(tmp_path: Path) -> None:
    cfg_file = tmp_path / "c.yaml"
    cfg_file.write_text("providers:\n  mine: {base_url: http://mine:9, max_tokens: 77}\n")
    cfg = load_config(cfg_file, environ={"DESKACT_PROVIDERS_MY_LAB_API_KEY_ENV": "LAB_KEY",
                                         "DESKACT_PROVIDERS_OPENAI_TIMEOUT": "5"})
    assert cfg.providers["mine"].base_url == "http://mine:9" and cfg.providers["mine"].max_tokens == 77
    assert cfg.providers["my_lab"].api_key_env == "LAB_KEY"
    assert cfg.providers["openai"].timeout == 5 and cfg.providers["openai"] is cfg.providers.openai
    assert list(cfg.providers.by_name()) == ["anthropic", "openai", "google", "mine", "my_lab"]
    unset = cfg.providers["other"]  # never configured: the defaults, kept for the caller's changes
    assert unset.api_key_env is None and unset.max_retries == 5 and cfg.providers["other"] is unset
    cfg_file.write_text("providers:\n  mine: {base_ulr: http://mine:9}\n")
    with pytest.raises(ConfigError, match=r"providers.mine.base_ulr = 'http://mine:9': unknown key; did you mean providers.mine.base_url"):
        load_config(cfg_file, environ={})
