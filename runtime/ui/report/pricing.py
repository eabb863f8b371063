"""List prices per model, to estimate a run's cost from its token counts.

USD per million tokens (input, output), public list prices at the time of
writing; matched on the longest prefix of the model name after ``provider/``.
Prices change: an unknown model shows "n/a" rather than a guess.
"""

from __future__ import annotations

from ...agent.models.base import Usage

PRICES: dict[str, tuple[float, float]] = {
    "claude-opus-4": (15.0, 75.0),
    "claude-3-opus": (15.0, 75.0),
    "claude-sonnet-4": (3.0, 15.0),
    "claude-3-7-sonnet": (3.0, 15.0),
    "claude-3-5-sonnet": (3.0, 15.0),
    "claude-3-5-haiku": (0.8, 4.0),
    "claude-3-haiku": (0.25, 1.25),
    "gpt-4o-mini": (0.15, 0.6),
    "gpt-4o": (2.5, 10.0),
    "gpt-4.1-nano": (0.1, 0.4),
    "gpt-4.1-mini": (0.4, 1.6),
    "gpt-4.1": (2.0, 8.0),
    "gemini-2.5-pro": (1.25, 10.0),
    "gemini-2.5-flash": (0.3, 2.5),
    "gemini-2.0-flash": (0.1, 0.4),
    "gemini-1.5-pro": (1.25, 5.0),
    "gemini-1.5-flash": (0.075, 0.3),
}

OFFLINE_PREFIXES = ("reference", "noop", "scripted", "human")
"""Models that call no API: they cost nothing."""


def price_of(model: str) -> tuple[float, float] | None:
    if model.split("/", 1)[0] in OFFLINE_PREFIXES:
        return (0.0, 0.0)
    name = model.split("/", 1)[-1]
    matches = [p for p in PRICES if name.startswith(p)]
    return PRICES[max(matches, key=len)] if matches else None


def cost_of(model: str, usage: Usage) -> float | None:
    """Estimated USD cost of ``usage`` on ``model``; None when the model's price is unknown."""
    if usage.input_tokens == 0 and usage.output_tokens == 0:
        return 0.0
    price = price_of(model)
    if price is None:
        return None
    return (usage.input_tokens * price[0] + usage.output_tokens * price[1]) / 1_000_000
