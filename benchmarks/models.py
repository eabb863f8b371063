"""What a model adapter adds to each agent step, measured against local fake servers.

For each provider: build_request alone (encoding the conversation, base64 of
the screenshots) and a full ``reply()`` through the real SDK to a loopback
server speaking that wire format (the server's own JSON parsing included).
The conversation is a realistic mid-episode one: 10 steps, the latest 3
observations carrying a 1280x800 PNG screenshot (the default keep_screenshots).

    .venv/bin/python benchmarks/models.py --repeat 50
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

from PIL import Image as PILImage
from PIL import ImageDraw

# benchmarks/google.py would shadow the google namespace package: drop the script's folder.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "runtime" / "agent" / "models"))

from deskact.runtime.agent.models import Message, make_model
from deskact.runtime.agent.models.remote import RemoteModel
from deskact.runtime.config import Config
from deskact.runtime.execution import Image
from fake_servers import FakeAnthropicServer, FakeGeminiServer, FakeOpenAIServer

SERVERS = {"anthropic": FakeAnthropicServer, "openai": FakeOpenAIServer, "google": FakeGeminiServer}
KEYS = {"ANTHROPIC_API_KEY": "k", "OPENAI_API_KEY": "k", "GEMINI_API_KEY": "k"}


def screenshot(seed: int) -> Image:
    """A text-heavy 1280x800 screen, like a desktop with an editor open."""
    img = PILImage.new("RGB", (1280, 800), "white")
    draw = ImageDraw.Draw(img)
    for row in range(60):
        draw.text((20, 10 + row * 13), f"line {row + seed}: the quick brown fox {seed * row}", fill="black")
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return Image(media_type="image/png", data=buf.getvalue())


def conversation(steps: int = 10, keep: int = 3) -> list[Message]:
    messages = [Message(role="user", text="Task: tidy the reports folder. " * 20)]
    for step in range(steps):
        messages.append(Message(role="assistant", text=f"```python\nprint({step})\n```"))
        images = [screenshot(step)] if step >= steps - keep else []
        messages.append(Message(role="user", text=f"Output: {step}\n" * 30, images=images))
    return messages


def stats(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p95 * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    messages = conversation()
    image_bytes = sum(len(i.data) for m in messages for i in m.images)
    print(f"conversation: {len(messages)} messages, 3 screenshots, {image_bytes / 1e3:.0f} KB of PNG")
    print("| provider | build_request median ms | p95 ms | reply() to loopback median ms | p95 ms |")
    print("|---|---:|---:|---:|---:|")
    for provider, server_cls in SERVERS.items():
        with server_cls(replies=["```python\nexit()\n```"] * (args.repeat + 1)) as server:
            config = Config()
            getattr(config.providers, provider).base_url = server.url
            model = make_model(f"{provider}/bench", config, environ=KEYS)
            assert isinstance(model, RemoteModel)
            model.reply("system prompt " * 200, messages)  # warm-up: SDK import, client, connection
            build, full = [], []
            for _ in range(args.repeat):
                start = time.perf_counter()
                model.build_request("system prompt " * 200, messages)
                build.append(time.perf_counter() - start)
                start = time.perf_counter()
                model.reply("system prompt " * 200, messages)
                full.append(time.perf_counter() - start)
        b_med, b_p95 = stats(build)
        f_med, f_p95 = stats(full)
        print(f"| {provider} | {b_med:.2f} | {b_p95:.2f} | {f_med:.2f} | {f_p95:.2f} |")


if __name__ == "__main__":
    main()
