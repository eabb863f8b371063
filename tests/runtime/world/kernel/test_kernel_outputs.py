"""Ordered outputs: prints, images and an error reach ExecResult, the model and the
trajectory in the order the code produced them."""

from __future__ import annotations

import base64
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
from deskact.runtime.world.kernel.outputs import OutputCollector, strip_ansi, terminal_text

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


def _collector(text_limit: int, **caps: int) -> OutputCollector:
    limits = {"max_images": 8, "max_image_bytes": 1000, "result_limit": 50, **caps}
    return OutputCollector(text_limit, **limits)


def test_each_stream_keeps_its_head_and_tail() -> None:
    cap = _collector(10)
    for chunk in ["01234", "56789", "abcde", "fghij"]:
        cap.text("stdout", chunk)
    assert cap.stream_text("stdout") == "01234\n[... 10 characters dropped at capture ...]\nfghij"
    assert _shape(cap.parts()) == ["stdout:01234\n[... 10 characters dropped at capture ...]\nfghij"]
    cap.clear()
    cap.text("stdout", "short")
    assert (cap.stream_text("stdout"), cap.stream_text("stderr")) == ("short", "")


def test_capture_bound_keeps_head_and_tail_in_order() -> None:
    cap = _collector(100)
    img = Image(media_type="image/png", data=b"\x89PNG")
    cap.text("stdout", "h" * 40)
    cap.image({"image/png": base64.b64encode(img.data).decode(), "text/plain": "<Figure>"})
    cap.text("stdout", "m" * 500)
    cap.add_error(ExecError(ename="Late", evalue=""))
    cap.text("stderr", "t" * 20)
    parts = cap.parts()
    # Nothing but text is dropped from the middle: the image stays where it came.
    assert _shape(parts)[:2] == ["stdout:" + "h" * 40, "image:b'\\x89PNG'"]
    assert _shape(parts)[2].startswith("stdout:" + "m" * 10 + "\n[... 440 characters dropped at capture ...]\n")
    assert isinstance(parts[-2], ErrorPart) and parts[-1].text == "t" * 20
    assert len((parts[0].text + parts[2].text).replace("\n[... 440 characters dropped at capture ...]\n", "")) == 100
    # The grouped views read the same capture: stdout's head and tail, stderr untouched.
    stdout = cap.stream_text("stdout")
    assert stdout.startswith("h" * 40 + "m" * 10 + "\n[... 440") and stdout.endswith("m" * 50)
    assert cap.stream_text("stderr") == "t" * 20 and cap.images == [img] and cap.error.ename == "Late"


def test_interleaved_streams_are_bounded_each_and_kept_in_order() -> None:
    cap = _collector(20)
    for i in range(1000):  # many small alternating parts: trimmed ones are swept, order survives
        cap.text("stdout", f"o{i % 10}")
        cap.text("stderr", f"e{i % 10}")
    parts = cap.parts()
    assert [p.stream for p in parts[:4]] == ["stdout", "stderr", "stdout", "stderr"]
    assert len(cap.stream_text("stdout").replace("\n[... 1980 characters dropped at capture ...]\n", "")) == 20
    assert cap.stream_text("stderr").endswith("e7e8e9") and "1980 characters dropped" in cap.stream_text("stderr")
    assert len(cap._parts) < 1100  # dead parts do not pile up


def test_a_long_stream_keeps_exactly_its_first_and_latest_characters() -> None:
    # Writes large (kept as they came) and small (joined), trimmed over many chunks.
    writes = [f"<{i}:" + "y" * (3000 if i % 3 else 5) + ">" for i in range(3000)]
    cap = _collector(10_000)
    for w in writes:
        cap.text("stdout", w)
    whole = "".join(writes)
    dropped = len(whole) - 10_000
    assert cap.stream_text("stdout") == (whole[:5000] + f"\n[... {dropped} characters dropped at capture ...]\n"
                                         + whole[-5000:])
    assert sum(len(c) for p in cap._parts for c in p.chunks) == 10_000  # nothing beyond the bound is held


def test_images_are_capped_by_count_and_size() -> None:
    cap = _collector(100, max_images=2, max_image_bytes=30)
    small, big = base64.b64encode(b"\x89PNG" * 2).decode(), base64.b64encode(b"x" * 40).decode()
    assert cap.image({"image/png": big})
    for _ in range(3):
        assert cap.image({"image/jpeg": small})
    assert not cap.image({"text/plain": "no image"})
    assert (len(cap.images), cap.images_dropped) == (2, 2)
    assert [type(p).__name__ for p in cap.parts()] == ["ImagePart", "ImagePart"]


def test_result_is_capped_and_survives_clear() -> None:
    cap = _collector(100, result_limit=5)
    cap.set_result("0123456789")
    cap.add_error(ExecError(ename="E", evalue="v"))
    assert _shape(cap.parts()) == ["result:01234", "error:E"]
    cap.clear()
    assert (cap.parts(), cap.result, cap.error.ename) == ([], "01234", "E")


def test_strip_ansi() -> None:
    assert strip_ansi("\x1b[0;31mZeroDivisionError\x1b[0m: x") == "ZeroDivisionError: x"


def test_terminal_text_collapses_progress_bars_in_linear_time() -> None:
    assert terminal_text("\x1b[32mget\x1b[0m\n 10%\r 50%\r100%\ndone\r\n") == "get\n100%\ndone\r\n"
    long = "x" * 4_000_000  # one huge line without newline: must not backtrack
    assert terminal_text(long + "\r" + "y") == "y"
    assert terminal_text(long) == long
