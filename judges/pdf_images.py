"""pdf.same_images: the images embedded in two PDFs, compared by perceptual hash, as desktop-env
1.0.2's ``compare_pdf_images`` compares them.

The metric lists, page by page, the image XObjects of each page's resources in the order the file
gives them (PyMuPDF's ``get_images``), takes each one's image (a JPEG stream as it is stored, any
other decoded to its pixels: PyMuPDF's ``extract_image``) and opens it with Pillow, skipping one
Pillow cannot open. The two lists must be as long; two PDFs without images match. Each pair's
64-bit perceptual hashes (imagehash's ``phash``: grayscale, 32x32 Lanczos, the signs of the 8x8
lowest frequencies of a 2-D DCT against their median) may differ in at most 5 bits. Here pdfminer
reads the file (in memory, read through ``ctx.path``): JPEG streams and 8-bit Flate (or
uncompressed) gray or RGB images are read as PyMuPDF gives them; an image in another encoding is
an error (the judge cannot say what PyMuPDF would give), not a verdict.
"""

from __future__ import annotations

import io
from typing import Any

from ..runtime.tasks.helpers import gold_file, shown
from ..runtime.tasks.steps import StepContext, Verdict, judge

HASH_BITS_APART = 5
"""The metric's threshold: at most this many of the 64 bits differ."""


class UnsupportedImage(Exception):
    """An embedded image in an encoding this judge does not decode as PyMuPDF does."""


def _name(value: Any) -> str:
    return str(getattr(value, "name", value))


def _components(colorspace: Any) -> int:
    from pdfminer.pdftypes import resolve1

    space = resolve1(colorspace)
    if isinstance(space, list) and space and _name(space[0]) == "ICCBased":
        return int(resolve1(resolve1(space[1]).get("N", 0)))
    return {"DeviceGray": 1, "DeviceRGB": 3}.get(_name(space), 0)


def _image(stream: Any) -> Any | None:
    """The stream's image as Pillow opens what PyMuPDF extracts; None where Pillow cannot open it."""
    from pdfminer.pdftypes import resolve1
    from PIL import Image, UnidentifiedImageError

    filters = [_name(f) for f, _ in stream.get_filters()]
    if filters in (["DCTDecode"], ["DCT"]):
        try:
            return Image.open(io.BytesIO(stream.get_rawdata()))
        except (UnidentifiedImageError, OSError):
            return None  # the metric skips an image Pillow cannot open
    width, height = int(resolve1(stream.get("Width"))), int(resolve1(stream.get("Height")))
    bits = int(resolve1(stream.get("BitsPerComponent", 8)))
    count = _components(stream.get("ColorSpace"))
    if filters not in ([], ["FlateDecode"], ["Fl"]) or bits != 8 or count not in (1, 3) or stream.get("Decode"):
        raise UnsupportedImage(f"an image with filters {filters}, {bits} bits, colour space "
                               f"{_name(resolve1(stream.get('ColorSpace')))}")
    data = stream.get_data()
    if len(data) < width * height * count:
        raise UnsupportedImage(f"an image of {width}x{height} with {len(data)} bytes of pixels")
    return Image.frombytes("L" if count == 1 else "RGB", (width, height), data[:width * height * count])


def _collect(resources: Any, into: list[Any], forms: set[int]) -> None:
    from pdfminer.pdftypes import PDFObjRef, PDFStream, resolve1

    objects = resolve1((resolve1(resources) or {}).get("XObject")) or {}
    for ref in objects.values():
        stream = resolve1(ref)
        if not isinstance(stream, PDFStream):
            continue
        kind = _name(stream.get("Subtype"))
        if kind == "Image":
            image = _image(stream)
            if image is not None:
                into.append(image)
        elif kind == "Form" and isinstance(ref, PDFObjRef) and ref.objid not in forms:
            forms.add(ref.objid)  # a form drawing itself would loop
            _collect(stream.get("Resources"), into, forms)


def embedded_images(data: bytes) -> list[Any]:
    """Every page's embedded images in the file's order, as Pillow images."""
    from pdfminer.pdfpage import PDFPage

    images: list[Any] = []
    for page in PDFPage.get_pages(io.BytesIO(data)):
        _collect(page.resources, images, set())
    return images


def perceptual_hash(image: Any) -> Any:
    """imagehash's ``phash`` of a Pillow image: 64 booleans."""
    import numpy as np
    from PIL import Image
    from scipy import fftpack

    pixels = np.asarray(image.convert("L").resize((32, 32), Image.Resampling.LANCZOS))
    low = fftpack.dct(fftpack.dct(pixels, axis=0), axis=1)[:8, :8]
    return (low > np.median(low)).flatten()


@judge("pdf.same_images")
def pdf_same_images(ctx: StepContext, path: str, reference: str) -> Verdict:
    """``path`` is a PDF embedding as many images as ``reference`` (a PDF in the suite's gold/
    folder), each within 5 bits of the reference's in the same place by perceptual hash (two PDFs
    without images match): OSWorld's ``compare_pdf_images``. A missing or unreadable file fails; an
    image in an encoding the judge does not decode is an error."""
    import numpy as np

    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} should be a PDF but does not exist")
    lists = []
    # Read first: a file past the judge's limits is an error naming the limit, not a failed comparison.
    for what, data in ((shown(ctx, p), p.read_bytes()), (reference, gold_file(ctx, reference).read_bytes())):
        try:
            lists.append(embedded_images(data))
        except UnsupportedImage:
            raise
        except Exception as exc:  # noqa: BLE001 - a file the metric cannot read scores 0
            return Verdict.fail(f"{what} is not a PDF whose images can be read ({type(exc).__name__}: {exc})")
    mine, gold = lists
    if len(mine) != len(gold):
        return Verdict.fail(f"{shown(ctx, p)} embeds {len(mine)} image(s); {reference} embeds {len(gold)}")
    for i, (have, want) in enumerate(zip(mine, gold), 1):
        apart = int(np.count_nonzero(perceptual_hash(have) != perceptual_hash(want)))
        if apart > HASH_BITS_APART:
            return Verdict.fail(f"{shown(ctx, p)}: image {i} is {apart} bits from the reference's by perceptual hash"
                                f" (at most {HASH_BITS_APART})")
    return Verdict.ok(f"{shown(ctx, p)} embeds the reference's {len(mine)} image(s)")
