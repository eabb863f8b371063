"""A model error that would fail every task alike (a wrong key, an unknown model, a server that is
down, a wrong URL) stops the run after its first task with one message naming the model and its URL;
``--keep-going`` runs every task anyway; a 429 is still retried (issue 26). The real SDKs talk to
local fake servers in each provider's wire format."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest
from deskact.runtime.agent.models.retry import Failure
from deskact.runtime.config import Config
from deskact.runtime.run.results import TaskResult, read_results
from deskact.runtime.run.runner import Run, RunOptions
from deskact.runtime.ui.cli import app
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parents[1] / "agent" / "models"))
from fake_servers import FakeAnthropicServer, FakeGeminiServer, FakeOpenAIServer, FakeServer

SERVERS: dict[str, type[FakeServer]] = {
    "anthropic": FakeAnthropicServer, "openai": FakeOpenAIServer, "google": FakeGeminiServer,
}
SUITE = """
tasks:
  - id: fatal-one
    instruction: Say one.
    judge: [{answer.contains: {text: one}}]
  - id: fatal-two
    instruction: Say two.
    judge: [{answer.contains: {text: two}}]
  - id: fatal-three
    instruction: Say three.
    judge: [{answer.contains: {text: three}}]
"""
EXIT = "```python\nexit()\n```"


def closed_port() -> int:
    """A port on 127.0.0.1 nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def run(tmp_path: Path, provider: str, base_url: str, **options: object) -> tuple[list[TaskResult], Run]:
    folder = tmp_path / "fatal_suite"
    folder.mkdir(exist_ok=True)
    (folder / "tasks.yaml").write_text(SUITE)
    cfg = Config()
    cfg.display.mode = "none"
    cfg.toolkits.enabled = []
    settings = cfg.providers[provider]
    settings.base_url, settings.api_key_env = base_url, None
    settings.max_retries, settings.backoff_initial, settings.backoff_max = 1, 0.01, 0.05
    runner = Run(cfg, RunOptions(paths=[str(folder)], model=f"{provider}/some-model", out=tmp_path / "out",
                                 **options))
    return runner.execute(), runner


CASES = ["401", "unknown model", "connection refused", "wrong path"]


@pytest.mark.slow  # a run of up to three tasks, each with its kernel
@pytest.mark.timeout(300)
@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("provider", sorted(SERVERS))
def test_a_fatal_model_error_stops_the_run_after_one_task(tmp_path: Path, provider: str, case: str) -> None:
    fake = SERVERS[provider]
    with fake() as server:
        url = server.url
        if case == "401":
            server.push(*[fake.error(401, "invalid x-api-key")] * 6)
        elif case == "unknown model":
            server.push(*[fake.error(404, "model some-model does not exist")] * 6)
        elif case == "connection refused":
            url = f"http://127.0.0.1:{closed_port()}"
        else:
            url = server.url + "/wrong"
        results, runner = run(tmp_path, provider, url)
    assert len(results) == 1, [r.task_id for r in results]
    (result,) = results
    assert result.status == "error" and result.stops_run and result.finish_reason == "model_error"
    assert read_results(tmp_path / "out" / "results.jsonl") == results
    message = runner.stop_message()
    assert message is not None and f"{provider}/some-model at {url}" in message, message
    assert f"providers.{provider}.base_url" in message and "--keep-going" in message


@pytest.mark.slow  # a run of up to three tasks, each with its kernel
@pytest.mark.timeout(300)
def test_keep_going_runs_every_task(tmp_path: Path) -> None:
    with FakeOpenAIServer([FakeOpenAIServer.error(401, "bad key")] * 3) as server:
        results, runner = run(tmp_path, "openai", server.url, keep_going=True)
    assert len(results) == 3 and all(r.stops_run for r in results)
    assert runner.stop_message() is None


@pytest.mark.slow  # a run of up to three tasks, each with its kernel
@pytest.mark.timeout(300)
@pytest.mark.parametrize("provider", sorted(SERVERS))
def test_a_429_is_retried_and_the_run_goes_on(tmp_path: Path, provider: str) -> None:
    fake = SERVERS[provider]
    with fake([fake.error(429, "slow down", headers={"retry-after": "0"}), EXIT, EXIT, EXIT]) as server:
        results, runner = run(tmp_path, provider, server.url)
    assert len(results) == 3 and runner.stop_message() is None
    assert not any(r.stops_run for r in results) and {r.status for r in results} == {"failed"}
    assert sorted(r.tokens.retries for r in results) == [0, 0, 1]


@pytest.mark.parametrize(("failure", "fatal"), [
    (Failure("status", 401), True), (Failure("status", 403), True), (Failure("status", 404), True),
    (Failure("status", 400, body='{"reason": "API_KEY_INVALID"}'), True), (Failure("connection"), True),
    (Failure("status", 400, body="max_tokens too large"), False), (Failure("status", 429), False),
    (Failure("status", 500), False), (Failure("status", 503), False), (Failure("timeout"), False),
    (Failure("invalid_response"), False),
])
def test_which_failures_stop_a_run(failure: Failure, fatal: bool) -> None:
    assert failure.fatal is fatal


@pytest.mark.slow  # a run of up to three tasks, each with its kernel
@pytest.mark.timeout(300)
def test_the_cli_prints_one_message_with_the_url_and_the_resume_command(tmp_path: Path) -> None:
    folder = tmp_path / "fatal_suite"
    folder.mkdir()
    (folder / "tasks.yaml").write_text(SUITE)
    url = f"http://127.0.0.1:{closed_port()}/v1"
    env = {"DESKACT_TOOLKITS_ENABLED": "[]", "DESKACT_DISPLAY_MODE": "none", "DESKACT_CONFIG": "",
           "DESKACT_PROVIDERS_OPENAI_BASE_URL": url, "DESKACT_PROVIDERS_OPENAI_API_KEY_ENV": "",
           "DESKACT_PROVIDERS_OPENAI_MAX_RETRIES": "0", "NO_COLOR": "1"}
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["run", str(folder), "--model", "openai/gpt-x", "--out", str(out)], env=env)
    assert result.exit_code == 1, result.output
    flat = " ".join(result.output.split())
    assert f"the run stopped after task fatal-one: model_error: openai/gpt-x at {url}: could not connect" in flat
    assert f"--out {out} --resume" in flat
    assert len(read_results(out / "results.jsonl")) == 1
