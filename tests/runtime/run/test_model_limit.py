"""models.max_concurrency: at most N model calls in flight per provider, across all workers."""

import threading
import time

from deskact.runtime.agent.models.base import Message, Model, ModelReply
from deskact.runtime.config import Config
from deskact.runtime.run.model_limit import LimitedModel, limit_model, local_slots, provider_of


class Counting(Model):
    """Sleeps in reply and records the most calls ever in flight at once (shared by instances)."""

    code_only = True
    lock = threading.Lock()
    now = 0
    most = 0

    def __init__(self, name: str = "openai/gpt-x") -> None:
        self.name = name

    def reply(self, system: str, messages: list[Message]) -> ModelReply:
        with Counting.lock:
            Counting.now += 1
            Counting.most = max(Counting.most, Counting.now)
        time.sleep(0.05)
        with Counting.lock:
            Counting.now -= 1
        return ModelReply(text="done")


def most_in_flight(config: Config, workers: int = 4, calls: int = 3) -> int:
    Counting.now = Counting.most = 0
    models = [limit_model(Counting(), config) for _ in range(workers)]  # one model per worker, as in a run

    def work(model: Model) -> None:
        for _ in range(calls):
            model.reply("", [])

    threads = [threading.Thread(target=work, args=(m,)) for m in models]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return Counting.most


def test_the_limit_holds_across_workers():
    config = Config.model_validate({"models": {"max_concurrency": {"openai": 2}}})
    assert most_in_flight(config) == 2


def test_a_provider_without_a_limit_is_left_alone():
    config = Config.model_validate({"models": {"max_concurrency": {"anthropic": 1}}})
    model = Counting()
    assert limit_model(model, config) is model
    assert most_in_flight(config) == 4


def test_the_wrapper_passes_the_deadline_and_hints_on():
    config = Config.model_validate({"models": {"max_concurrency": {"openai": 1}}})
    inner = Counting()
    model = limit_model(inner, config)
    assert isinstance(model, LimitedModel) and model.name == "openai/gpt-x"
    model.deadline = 123.0  # the agent sets it on the model it holds
    assert inner.deadline == 123.0 and model.deadline == 123.0
    assert model.code_only is True


def test_providers_and_slots():
    assert provider_of("anthropic/claude-x") == "anthropic" and provider_of("reference") == "reference"
    assert local_slots("p-test", 3) is local_slots("p-test", 3)
    assert local_slots("p-test", 2) is not local_slots("p-test", 3)


def test_a_limit_below_one_is_a_config_error():
    import pytest
    from deskact.runtime.errors import ConfigError

    with pytest.raises((ConfigError, ValueError), match="max_concurrency"):
        Config.model_validate({"models": {"max_concurrency": {"openai": 0}}})
