"""google.slide_title: a presentation's slide titles."""

from __future__ import annotations

from ...reset_scripts.google.account import MIME_SHORT, clients
from ...runtime.tasks.steps import StepContext, Verdict, judge
from ._lookup import _find_by_title, _missing_doc


def _shape_text(element: dict) -> str:
    runs = element.get("shape", {}).get("text", {}).get("textElements", [])
    return "".join(r.get("textRun", {}).get("content", "") for r in runs).strip()


def slide_titles(pres: dict) -> list[str]:
    titles = []
    for slide in pres.get("slides", []):
        title = ""
        for el in slide.get("pageElements", []):
            if el.get("shape", {}).get("placeholder", {}).get("type") in ("TITLE", "CENTERED_TITLE"):
                title = _shape_text(el)
                break
        titles.append(title)
    return titles


@judge("google.slide_title")
def slide_title(ctx: StepContext, presentation: str, title: str, index: int | None = None,
                slide_count: int | None = None) -> Verdict:
    """Slide ``index`` (0-based; any slide when omitted) of the presentation titled (or with id)
    ``presentation`` has the title ``title`` (trimmed, case-sensitive); ``slide_count``: the deck
    has exactly this many slides."""
    files = _find_by_title(ctx, presentation, MIME_SHORT["presentation"])
    if not files:
        return _missing_doc(ctx, presentation, MIME_SHORT["presentation"], "presentation")
    reports = []
    for f in files:
        titles = slide_titles(clients(ctx).slides.presentations().get(presentationId=f["id"]).execute())
        if slide_count is not None and len(titles) != slide_count:
            reports.append(f"has {len(titles)} slides, expected {slide_count} (titles {titles})")
            continue
        if (index is None and title.strip() in titles) or (index is not None and index < len(titles) and titles[index] == title.strip()):
            return Verdict.ok(f"presentation {presentation!r} has a slide titled {title!r}")
        where = f"slide {index}" if index is not None else "no slide"
        reports.append(f"{where} is not titled {title!r}: slide titles are {titles}")
    return Verdict.fail(f"presentation {presentation!r}: " + reports[0])
