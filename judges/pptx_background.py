"""pptx.background_image: a slide's background picture compared with a gold image, as OSWorld's
``background_image_in_slide`` getter finds the picture and ``compare_images`` compares it.

The getter opens ``ppt/slides/slide<N>.xml`` (N = the index + 1: the part's name, not the
presentation order), takes the first ``p:bgPr`` element whose first ``a:blip`` has an ``r:embed``,
and looks that id up in the slide's relationships: an image relationship's target under ``..`` is
the zip member it names (normalized from ``ppt/slides``); a ``file://`` target is a file on the
machine (here: in the task's world, through its descriptors), any other target makes the getter
raise. Anything missing gives the metric nothing, and it scores 0. The picture then passes when it
is the gold image pixel for pixel in grayscale after both are resized (Lanczos) to the smaller
size, as image.same_gray decides compare_images.
"""

from __future__ import annotations

import io
import posixpath
import xml.etree.ElementTree as ET
import zipfile

from ..runtime.tasks.helpers import gold_file, shown
from ..runtime.tasks.steps import StepContext, Verdict, judge
from .image import _gray_pair

P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
R_EMBED = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}embed"
PACKAGE_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"


class NoPicture(Exception):
    """Where the getter gives the metric nothing (or raises): the reason."""


def _background_id(slide_xml: bytes) -> str:
    for bg in ET.fromstring(slide_xml).iter(f"{P}bgPr"):
        blip = next(bg.iter(f"{A}blip"), None)
        if blip is not None and R_EMBED in blip.attrib:
            return blip.attrib[R_EMBED]
    raise NoPicture("has no background picture (no p:bgPr with an embedded a:blip)")


def _attribute(rel: ET.Element, name: str, rels: str) -> str:
    if name not in rel.attrib:
        raise NoPicture(f"{rels} has a relationship without {name} (the getter raises)")
    return rel.attrib[name]


def background_picture(ctx: StepContext, pptx: zipfile.ZipFile, slide: int) -> bytes:
    """The bytes of slide ``slide``'s (from 0) background picture, found as the getter finds it."""
    names = set(pptx.namelist())
    part = f"ppt/slides/slide{slide + 1}.xml"
    if part not in names:
        raise NoPicture(f"has no {part}")
    image_id = _background_id(pptx.read(part))
    rels = f"ppt/slides/_rels/slide{slide + 1}.xml.rels"
    if rels not in names:
        raise NoPicture(f"has no {rels} for background picture {image_id}")
    for rel in ET.fromstring(pptx.read(rels)).findall(PACKAGE_REL):
        # The getter reads Type, then Id of an image relationship, then Target of the one it wants:
        # a missing one of those raises there.
        if "image" not in _attribute(rel, "Type", rels) or _attribute(rel, "Id", rels) != image_id:
            continue
        target = _attribute(rel, "Target", rels)
        if target.startswith(".."):
            member = posixpath.normpath(posixpath.join("ppt/slides", target))
            if member not in names:
                raise NoPicture(f"background picture {image_id} names {member}, which the file lacks")
            return pptx.read(member)
        if not target.startswith("file://"):
            raise NoPicture(f"background picture {image_id}'s target {target!r} is neither under .. nor file://")
        linked = ctx.path(target[len("file://"):])
        if not linked.is_file():
            raise NoPicture(f"background picture {image_id} links {target}, which does not exist")
        return linked.read_bytes()
    raise NoPicture(f"{rels} has no image relationship {image_id}")


@judge("pptx.background_image")
def pptx_background_image(ctx: StepContext, path: str, slide: int, reference: str) -> Verdict:
    """Slide ``slide`` (from 0: the part ``ppt/slides/slide<slide+1>.xml``) of the presentation at
    ``path`` has a background picture that is ``reference`` (in the suite's gold/ folder) pixel for
    pixel in grayscale after both are resized (Lanczos) to the smaller size: OSWorld's
    ``compare_images`` on its ``background_image_in_slide`` getter, which finds the picture by the
    first ``p:bgPr``'s embedded ``a:blip`` and the slide's relationships."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} should be a presentation but does not exist")
    try:
        with zipfile.ZipFile(p.bytes_io()) as pptx:
            picture = background_picture(ctx, pptx, slide)
        a, g = _gray_pair(io.BytesIO(picture), gold_file(ctx, reference))
    except NoPicture as exc:
        return Verdict.fail(f"slide {slide + 1} of {shown(ctx, p)} {exc}")
    except (zipfile.BadZipFile, ET.ParseError, OSError) as exc:
        return Verdict.fail(f"{shown(ctx, p)}'s slide {slide + 1} background cannot be read: {exc}")
    differing = int((a != g).sum())
    if differing:
        return Verdict.fail(f"slide {slide + 1}'s background picture differs from {reference} in grayscale in"
                            f" {differing} of {a.size} pixels", differing=differing)
    return Verdict.ok(f"slide {slide + 1}'s background picture is {reference} in grayscale ({a.shape[1]}x{a.shape[0]})")
