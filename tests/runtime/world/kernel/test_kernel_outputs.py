"""Ordered outputs: prints, images and an error reach ExecResult, the model and the
trajectory in the order the code produced them."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from deskact.runtime.agent.agent import StepRecord
from deskact.runtime.agent.models.anthropic import _message as anthropic_message
from deskact.runtime.agent.models.base import Message
from deskact.runtime.agent.models.openai import _message as openai_message
from deskact.runtime.config import Config
from deskact.runtime.execution import ErrorPart, ExecError, ExecResult, Image, ImagePart, TextPart
from deskact.runtime.run.trajectory import TrajectoryWriter
from deskact.runtime.world.kernel import KernelSession
from deskact.runtime.world.kernel_outputs import OrderedOutputs

INTERLEAVED = textwrap.dedent("""
    import sys
    from PIL import Image as PILImage
    from IPython.display import display
    print('first')
    display(PILImage.new('RGB', (4, 4), 'red'))
    print('second', file=sys.stderr)
    print('third')
    display(PILImage.new('RGB', (6, 6), 'blue'))
    print('fourth')
    1 / 0
""")


@pytest.fixture(scope="module")
def interleaved() -> Iterator[ExecResult]:
    with KernelSession(Config()) as session:
        yield session.execute(INTERLEAVED, timeout=60)


def _shape(parts: list) -> list[str]:
    out = []
    for p in parts:
        if isinstance(p, TextPart):
            out.append(f"{p.stream}:{p.text.strip()}")
        elif isinstance(p, ImagePart):
            out.append(f"image:{p.image.data[:4]!r}" if p.image else f"file:{p.file}")
        else:
            out.append(f"error:{p.error.ename}")
    return out


def test_kernel_keeps_prints_images_and_error_in_order(interleaved: ExecResult) -> None:
    r = interleaved
    assert r.status == "error"
    assert _shape(r.outputs) == [
        "stdout:first", "image:b'\\x89PNG'", "stderr:second", "stdout:third",
        "image:b'\\x89PNG'", "stdout:fourth", "error:ZeroDivisionError",
    ]
    # The grouped fields still hold the same outputs.
    assert (r.stdout, r.stderr, len(r.images), r.error.ename) == ("first\nthird\nfourth\n", "second\n", 2,
                                                                  "ZeroDivisionError")
    assert [p.image for p in r.outputs if isinstance(p, ImagePart)] == r.images


def test_model_reads_text_and_images_in_order(interleaved: ExecResult) -> None:
    parts = interleaved.model_parts(8000)
    kinds = ["image" if isinstance(p, Image) else "text" for p in parts]
    assert kinds == ["text", "image", "text", "image", "text"]
    assert parts[0] == "first"
    assert parts[2] == "[stderr]\nsecond\nthird"
    assert parts[4].startswith("fourth\n") and "ZeroDivisionError" in parts[4]
    assert parts[4].rstrip().endswith("[2 image(s) displayed]")
    # The same order on the wire of two providers.
    msg = Message.of_parts("user", ["[observation]\n", *parts, "\nScreenshot:"])
    wire = anthropic_message(msg)["content"]
    assert [b["type"] for b in wire] == ["text", "image", "text", "image", "text"]
    assert wire[0]["text"] == "[observation]\nfirst" and wire[-1]["text"].endswith("\nScreenshot:")
    assert [b["type"] for b in openai_message(msg)["content"]] == ["text", "image_url", "text", "image_url", "text"]
    assert msg.text.count("[image]") == 2 and len(msg.images) == 2


def test_trajectory_keeps_order_with_images_as_files(interleaved: ExecResult, tmp_path: Path) -> None:
    writer = TrajectoryWriter(tmp_path)
    writer.step(StepRecord(index=3, code=INTERLEAVED, result=interleaved))
    data = json.loads((tmp_path / "step_003.json").read_text())
    kinds = [(p["kind"], p.get("file")) for p in data["result"]["outputs"]]
    assert kinds[1] == ("image", "step_003_output_0.png") and kinds[4] == ("image", "step_003_output_1.png")
    assert (tmp_path / "step_003_output_1.png").read_bytes() == interleaved.images[1].data
    back = StepRecord.model_validate(data)  # what the report reads
    assert _shape(back.result.outputs)[4] == "file:step_003_output_1.png"


def test_truncation_keeps_images_in_place() -> None:
    img = Image(media_type="image/png", data=b"\x89PNG")
    r = ExecResult(status="ok", images=[img, img], outputs=[TextPart(text="a" * 100), ImagePart(image=img),
                                         TextPart(text="b" * 100), ImagePart(image=img), TextPart(text="c" * 100)])
    parts = r.model_parts(60)
    assert [type(p).__name__ for p in parts] == ["str", "Image", "Image", "str"]
    assert parts[0].startswith("a" * 30) and "characters cut" in parts[0]
    assert parts[-1].rstrip().endswith("[2 image(s) displayed]")
    assert sum(len(p) for p in parts if isinstance(p, str)) < 150


def test_results_saved_before_outputs_existed_still_read_in_kind_order() -> None:
    old = ExecResult(status="error", stdout="x\n", error=ExecError(ename="E", evalue="v"))
    assert old.model_parts(100) == ["x\nE: v"]
    assert old.text() == "x\nE: v"


def test_capture_bound_keeps_head_and_tail_in_order() -> None:
    cap = OrderedOutputs(100)
    img = Image(media_type="image/png", data=b"\x89PNG")
    cap.text("stdout", "h" * 40)
    cap.image(img)
    cap.text("stdout", "m" * 500)
    cap.error(ExecError(ename="Late", evalue=""))
    cap.text("stderr", "t" * 20)
    parts = cap.value()
    assert _shape(parts)[:2] == ["stdout:" + "h" * 40, "image:b'\\x89PNG'"]
    assert isinstance(parts[-2], ErrorPart) and parts[-1].text == "t" * 20
    assert sum(len(p.text) for p in parts if isinstance(p, TextPart) and "dropped" not in p.text) == 100
    assert any(isinstance(p, TextPart) and "characters dropped at capture" in p.text for p in parts)
