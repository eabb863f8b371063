"""The agent: the episode loop, model providers, prompts, code parsing, observations, confirmation."""
