"""Slides v1: presentations create/get/batchUpdate and pages.get.

Stored form (`slides.presentation`, keyed by the Drive file id): the title and
a list of slides, each with its predefined layout and page elements (shapes
with plain text, images). `to_resource` renders Google's Presentation JSON,
including a master and the predefined layouts with their placeholders, so a
new slide made from `TITLE_AND_BODY` has real TITLE and BODY placeholder
shapes an agent can find and fill. Text indices are UTF-16, as in Google.
"""

from __future__ import annotations

import copy
import hashlib
import re
from typing import Any

from .. import drive
from ..common import check_revision, each_request, load_record, rename_hook
from ..docs.model import u16
from ..drive.types import PRESENTATION, GoogleType, register_type
from ..errors import ApiError
from ..framework import Request, handler
from ..store import Store

KIND = "slides.presentation"
_EMU_W, _EMU_H = 9144000, 5143500
_ID_RE = re.compile(r"^[a-zA-Z0-9_][a-zA-Z0-9_\-:]{4,49}$")

# Predefined layouts: placeholders as (type, index, x, y, w, h) in EMU.
LAYOUTS: dict[str, tuple[str, list[tuple[str, int, int, int, int, int]]]] = {
    "BLANK": ("Blank", []),
    "CAPTION_ONLY": ("Caption", [("BODY", 0, 311700, 4230575, 8520600, 605100)]),
    "TITLE": ("Title slide", [("CENTERED_TITLE", 0, 311700, 744575, 8520600, 2052600),
                              ("SUBTITLE", 0, 311700, 2834125, 8520600, 792600)]),
    "TITLE_AND_BODY": ("Title and body", [("TITLE", 0, 311700, 445025, 8520600, 572700),
                                          ("BODY", 0, 311700, 1152475, 8520600, 3416400)]),
    "TITLE_AND_TWO_COLUMNS": ("Title and two columns", [("TITLE", 0, 311700, 445025, 8520600, 572700),
                                                        ("BODY", 0, 311700, 1152475, 3999900, 3416400),
                                                        ("BODY", 1, 4832400, 1152475, 3999900, 3416400)]),
    "TITLE_ONLY": ("Title only", [("TITLE", 0, 311700, 445025, 8520600, 572700)]),
    "SECTION_HEADER": ("Section header", [("TITLE", 0, 311700, 2150850, 8520600, 841800)]),
    "SECTION_TITLE_AND_DESCRIPTION": ("Section title and description",
                                      [("TITLE", 0, 265500, 1233175, 4045200, 1482300),
                                       ("SUBTITLE", 0, 265500, 2803075, 4045200, 1235100),
                                       ("BODY", 0, 4939500, 724075, 3837000, 3694800)]),
    "ONE_COLUMN_TEXT": ("One column text", [("TITLE", 0, 311700, 555600, 2808000, 755700),
                                            ("BODY", 0, 311700, 1389600, 2808000, 3198300)]),
    "MAIN_POINT": ("Main point", [("TITLE", 0, 490250, 450150, 8222100, 3759000)]),
    "BIG_NUMBER": ("Big number", [("TITLE", 0, 311700, 1106125, 8520600, 1963500),
                                  ("BODY", 0, 311700, 3152225, 8520600, 1300800)]),
}
_MASTER_ID = "p"


def _layout_id(name: str) -> str:
    return f"p{list(LAYOUTS).index(name) + 2}"


def _layout_placeholder_id(layout: str, i: int) -> str:
    return f"{_layout_id(layout)}_i{i}"


class SlidesError(Exception):
    pass


def _new_object_id(pres: dict[str, Any]) -> str:
    pres["counter"] = int(pres.get("counter", 0)) + 1
    return "g" + hashlib.sha1(f"{pres['presentationId']}:{pres['counter']}".encode()).hexdigest()[:11] + f"_0_{pres['counter']}"


def _all_ids(pres: dict[str, Any]) -> set[str]:
    ids = {s["objectId"] for s in pres["slides"]}
    for s in pres["slides"]:
        ids |= {e["objectId"] for e in s["elements"]}
        ids.add(s["notesId"])
    ids |= {_MASTER_ID} | {_layout_id(n) for n in LAYOUTS}
    return ids


def _check_new_id(pres: dict[str, Any], object_id: str | None) -> str:
    if object_id is None:
        return _new_object_id(pres)
    if not _ID_RE.match(object_id):
        raise SlidesError(f"The object ID ({object_id}) should be 5 to 50 characters long, start with a letter, "
                          "digit or underscore, and contain only letters, digits, '_', '-' or ':'.")
    if object_id in _all_ids(pres):
        raise SlidesError(f"The object ID ({object_id}) should be unique among all object IDs in the presentation.")
    return object_id


def _add_slide(pres: dict[str, Any], layout: str, object_id: str | None, index: int | None,
               mappings: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    if layout not in LAYOUTS:
        raise SlidesError(f"Unknown predefinedLayout {layout!r}; use one of {list(LAYOUTS)}.")
    slide_id = _check_new_id(pres, object_id)
    slide: dict[str, Any] = {"objectId": slide_id, "layout": layout, "elements": [], "notesId": slide_id + "_notes"}
    pres["slides"].insert(len(pres["slides"]) if index is None else max(0, min(index, len(pres["slides"]))), slide)
    wanted = {}
    for m in mappings or []:
        lp = m.get("layoutPlaceholder") or {}
        wanted[(lp.get("type"), int(lp.get("index", 0)))] = m.get("objectId")
    for i, (ptype, pidx, x, y, w, h) in enumerate(LAYOUTS[layout][1]):
        el_id = _check_new_id(pres, wanted.pop((ptype, pidx), None))
        slide["elements"].append({"objectId": el_id, "kind": "shape", "shapeType": "TEXT_BOX", "text": "",
                                  "placeholder": {"type": ptype, "index": pidx,
                                                  "parentObjectId": _layout_placeholder_id(layout, i)},
                                  "size": _size(w, h), "transform": _transform(x, y)})
    if wanted:
        (missing_type, missing_index), _ = next(iter(wanted.items()))
        raise SlidesError(f"The placeholder ({missing_type}, index {missing_index}) does not exist on layout {layout}.")
    return slide


def _size(w: float, h: float) -> dict[str, Any]:
    return {"width": {"magnitude": w, "unit": "EMU"}, "height": {"magnitude": h, "unit": "EMU"}}


def _transform(x: float, y: float) -> dict[str, Any]:
    return {"scaleX": 1, "scaleY": 1, "translateX": x, "translateY": y, "unit": "EMU"}


def new_presentation(pid: str, title: str) -> dict[str, Any]:
    pres: dict[str, Any] = {"presentationId": pid, "title": title, "revision": 1, "slides": [], "counter": 0}
    _add_slide(pres, "TITLE", None, None)  # Google starts a deck with one title slide
    return pres


def _text_elements(text: str) -> list[dict[str, Any]]:
    if not text:
        return []
    out: list[dict[str, Any]] = []
    pos = 0
    paras = text.split("\n")
    for para in paras:
        content = para + "\n"
        end = pos + u16(content)
        start = {"startIndex": pos} if pos else {}
        out.append({**start, "endIndex": end, "paragraphMarker": {"style": {}}})
        out.append({**start, "endIndex": end, "textRun": {"content": content, "style": {}}})
        pos = end
    return out


def _element_json(el: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"objectId": el["objectId"], "size": el["size"], "transform": el["transform"]}
    if el.get("title"):
        out["title"] = el["title"]
    if el.get("description"):
        out["description"] = el["description"]
    if el["kind"] == "image":
        out["image"] = {"contentUrl": el["url"], "sourceUrl": el["url"], "imageProperties": {}}
        return out
    shape: dict[str, Any] = {"shapeType": el["shapeType"], "shapeProperties": {}}
    if el.get("text"):
        shape["text"] = {"textElements": _text_elements(el["text"])}
    if el.get("placeholder"):
        shape["placeholder"] = copy.deepcopy(el["placeholder"])
    out["shape"] = shape
    return out


def _layout_json(name: str) -> dict[str, Any]:
    display, placeholders = LAYOUTS[name]
    return {"objectId": _layout_id(name), "pageType": "LAYOUT",
            "pageElements": [{"objectId": _layout_placeholder_id(name, i), "size": _size(w, h),
                              "transform": _transform(x, y),
                              "shape": {"shapeType": "TEXT_BOX", "shapeProperties": {},
                                        "placeholder": {"type": t, "index": idx, "parentObjectId": _MASTER_ID + "_" + t}}}
                             for i, (t, idx, x, y, w, h) in enumerate(placeholders)],
            "layoutProperties": {"masterObjectId": _MASTER_ID, "name": name, "displayName": display},
            "pageProperties": {"pageBackgroundFill": {"propertyState": "INHERIT"}}}


def _slide_json(slide: dict[str, Any]) -> dict[str, Any]:
    return {"objectId": slide["objectId"], "pageElements": [_element_json(e) for e in slide["elements"]],
            "slideProperties": {"layoutObjectId": _layout_id(slide["layout"]), "masterObjectId": _MASTER_ID,
                                "notesPage": {"objectId": slide["notesId"], "pageType": "NOTES",
                                              "pageElements": [],
                                              "notesProperties": {"speakerNotesObjectId": slide["notesId"] + "_sn"}}},
            "pageProperties": {"pageBackgroundFill": {"propertyState": "INHERIT"}}}


def revision_id(pres: dict[str, Any]) -> str:
    return hashlib.sha1(f"{pres['presentationId']}:{pres['revision']}".encode()).hexdigest()[:20]


def to_resource(pres: dict[str, Any]) -> dict[str, Any]:
    master = {"objectId": _MASTER_ID, "pageType": "MASTER", "pageElements": [],
              "masterProperties": {"displayName": "Simple Light"},
              "pageProperties": {"pageBackgroundFill": {"solidFill": {"color": {"rgbColor": {"red": 1, "green": 1, "blue": 1}}, "alpha": 1}}}}
    return {"presentationId": pres["presentationId"], "pageSize": _size(_EMU_W, _EMU_H),
            "slides": [_slide_json(s) for s in pres["slides"]], "title": pres["title"],
            "masters": [master], "layouts": [_layout_json(n) for n in LAYOUTS], "locale": "en",
            "revisionId": revision_id(pres),
            "notesMaster": {"objectId": "n", "pageType": "NOTES_MASTER", "pageElements": []}}


def presentation_text(pres: dict[str, Any]) -> str:
    return "\n".join(e.get("text", "") for s in pres["slides"] for e in s["elements"] if e.get("text"))


def load(store: Store, pid: str) -> dict[str, Any]:
    return load_record(store, KIND, "presentationId", pid)


# ---------------------------------------------------------------- Drive hooks

def _copy(store: Store, src: str, dst: str, title: str) -> None:
    pres = copy.deepcopy(store.get(KIND, src)) or new_presentation(dst, title)
    pres.update(presentationId=dst, title=title, revision=1)
    store.put(KIND, dst, pres)


def _export_text(store: Store, fid: str) -> bytes:
    return presentation_text(load(store, fid)).encode("utf-8") + b"\n"


def _export_pptx(store: Store, fid: str) -> bytes:
    import io

    from pptx import Presentation
    from pptx.util import Emu
    pres = load(store, fid)
    out = Presentation()
    out.slide_width, out.slide_height = Emu(_EMU_W), Emu(_EMU_H)
    blank = out.slide_layouts[6]
    for slide in pres["slides"]:
        s = out.slides.add_slide(blank)
        for el in slide["elements"]:
            if el["kind"] != "shape":
                continue
            t = el["transform"]
            box = s.shapes.add_textbox(Emu(int(t["translateX"])), Emu(int(t["translateY"])),
                                       Emu(int(el["size"]["width"]["magnitude"])), Emu(int(el["size"]["height"]["magnitude"])))
            box.text_frame.text = el.get("text", "")
            if el.get("placeholder"):
                box.name = el["placeholder"]["type"]
    buf = io.BytesIO()
    out.save(buf)
    return buf.getvalue()


register_type(GoogleType(
    PRESENTATION, lambda store, fid, title: store.put(KIND, fid, new_presentation(fid, title)),
    lambda store, fid: store.delete(KIND, fid), _copy, rename_hook(KIND, "title"),
    exporters={"text/plain": _export_text,
               "application/vnd.openxmlformats-officedocument.presentationml.presentation": _export_pptx},
    importers={},
    text=lambda store, fid: presentation_text(store.get(KIND, fid) or {"slides": []})))


# ----------------------------------------------------------------- requests

def _find(pres: dict[str, Any], object_id: str) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """(slide, element) for an object id; element is None when it names a slide."""
    for s in pres["slides"]:
        if s["objectId"] == object_id:
            return s, None
        for e in s["elements"]:
            if e["objectId"] == object_id:
                return s, e
    return None, None


def _find_object(pres: dict[str, Any], object_id: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Like `_find`, but the id must name something: a slide (element None) or an element on one."""
    slide, el = _find(pres, object_id)
    if slide is None:
        raise SlidesError(f"The object ({object_id}) could not be found.")
    return slide, el


def _shape(pres: dict[str, Any], object_id: Any) -> dict[str, Any]:
    _, el = _find(pres, str(object_id))
    if el is None:
        raise SlidesError(f"The object ({object_id}) could not be found.")
    if el["kind"] != "shape":
        raise SlidesError(f"The object ({object_id}) is not a shape and cannot hold text.")
    return el


def _py_index(text: str, index: int, object_id: str) -> int:
    pos = 0
    for i, ch in enumerate(text):
        if pos == index:
            return i
        pos += 2 if ord(ch) > 0xFFFF else 1
        if pos > index:
            raise SlidesError(f"Index {index} splits a surrogate pair in ({object_id}).")
    if pos == index:
        return len(text)
    raise SlidesError(f"The insertion index {index} is out of range for the text of ({object_id}) "
                      f"(length {u16(text)}).")


def _apply(pres: dict[str, Any], kind: str, body: dict[str, Any]) -> dict[str, Any]:
    if kind == "createSlide":
        ref = body.get("slideLayoutReference") or {}
        layout = ref.get("predefinedLayout")
        if layout is None and ref.get("layoutId"):
            layout = next((n for n in LAYOUTS if _layout_id(n) == ref["layoutId"]), None)
            if layout is None:
                raise SlidesError(f"The layout ({ref['layoutId']}) could not be found.")
        created = _add_slide(pres, layout or "BLANK", body.get("objectId"),
                             body.get("insertionIndex"), body.get("placeholderIdMappings"))
        return {"createSlide": {"objectId": created["objectId"]}}
    if kind in ("createShape", "createImage"):
        props = body.get("elementProperties") or {}
        slide, el = _find(pres, str(props.get("pageObjectId")))
        if slide is None or el is not None:
            raise SlidesError(f"The page ({props.get('pageObjectId')}) could not be found.")
        new_id = _check_new_id(pres, body.get("objectId"))
        size = props.get("size") or _size(3000000, 3000000)
        transform = props.get("transform") or _transform(0, 0)
        if kind == "createShape":
            if not body.get("shapeType"):
                raise SlidesError("shapeType is required.")
            slide["elements"].append({"objectId": new_id, "kind": "shape", "shapeType": body["shapeType"],
                                      "text": "", "placeholder": None, "size": size, "transform": transform})
        else:
            if not body.get("url"):
                raise SlidesError("url is required.")
            slide["elements"].append({"objectId": new_id, "kind": "image", "url": body["url"], "size": size,
                                      "transform": transform})
        return {kind: {"objectId": new_id}}
    if kind == "insertText":
        if body.get("cellLocation"):
            raise ApiError(501, "Slides insertText into table cells is not emulated by deskact", "notImplemented")
        el = _shape(pres, body.get("objectId"))
        text = str(body.get("text") or "")
        at = _py_index(el["text"], int(body.get("insertionIndex", 0)), el["objectId"])
        el["text"] = el["text"][:at] + text + el["text"][at:]
        return {}
    if kind == "deleteText":
        el = _shape(pres, body.get("objectId"))
        rng = body.get("textRange") or {"type": "ALL"}
        kind_ = rng.get("type", "ALL")
        n = u16(el["text"])
        start = 0 if kind_ == "ALL" else int(rng.get("startIndex", 0))
        end = n if kind_ in ("ALL", "FROM_START_INDEX") else int(rng.get("endIndex", n))
        if kind_ not in ("ALL", "FROM_START_INDEX", "FIXED_RANGE") or start > end or end > n:
            raise SlidesError(f"Invalid textRange {rng} for text of length {n}.")
        a, b = _py_index(el["text"], start, el["objectId"]), _py_index(el["text"], end, el["objectId"])
        el["text"] = el["text"][:a] + el["text"][b:]
        return {}
    if kind == "deleteObject":
        oid = str(body.get("objectId"))
        slide, el = _find_object(pres, oid)
        if el is None:
            pres["slides"].remove(slide)
        else:
            slide["elements"].remove(el)
        return {}
    if kind == "replaceAllText":
        ct = body.get("containsText") or {}
        needle = str(ct.get("text") or "")
        if not needle:
            raise SlidesError("containsText.text must not be empty.")
        rx = re.compile(re.escape(needle), 0 if ct.get("matchCase") else re.IGNORECASE)
        pages = set(body.get("pageObjectIds") or [])
        count = 0
        for s in pres["slides"]:
            if pages and s["objectId"] not in pages:
                continue
            for e in s["elements"]:
                if e["kind"] == "shape" and e.get("text"):
                    e["text"], n = rx.subn(lambda _m: str(body.get("replaceText") or ""), e["text"])
                    count += n
        return {"replaceAllText": {"occurrencesChanged": count} if count else {}}
    if kind == "updateSlidesPosition":
        ids = list(body.get("slideObjectIds") or [])
        moving = [s for s in pres["slides"] if s["objectId"] in ids]
        if len(moving) != len(ids):
            raise SlidesError(f"Some of the slides {ids} could not be found.")
        rest = [s for s in pres["slides"] if s["objectId"] not in ids]
        index = int(body.get("insertionIndex", 0))
        if index > len(pres["slides"]):
            raise SlidesError(f"insertionIndex {index} is out of range.")
        before = sum(1 for s in pres["slides"][:index] if s["objectId"] not in ids)
        moving.sort(key=lambda s: ids.index(s["objectId"]))
        pres["slides"] = rest[:before] + moving + rest[before:]
        return {}
    if kind == "duplicateObject":
        oid = str(body.get("objectId"))
        slide, el = _find_object(pres, oid)
        mapping = body.get("objectIds") or {}
        if el is None:
            dup = copy.deepcopy(slide)
            dup["objectId"] = _check_new_id(pres, mapping.get(oid))
            dup["notesId"] = dup["objectId"] + "_notes"
            for e in dup["elements"]:
                e["objectId"] = _check_new_id(pres, mapping.get(e["objectId"]))
            pres["slides"].insert(pres["slides"].index(slide) + 1, dup)
            return {"duplicateObject": {"objectId": dup["objectId"]}}
        dup_el = copy.deepcopy(el)
        dup_el["objectId"] = _check_new_id(pres, mapping.get(oid))
        slide["elements"].append(dup_el)
        return {"duplicateObject": {"objectId": dup_el["objectId"]}}
    if kind == "updatePageElementAltText":
        _, el = _find(pres, str(body.get("objectId")))
        if el is None:
            raise SlidesError(f"The object ({body.get('objectId')}) could not be found.")
        for k in ("title", "description"):
            if k in body:
                el[k] = body[k]
        return {}
    raise ApiError(501, f"Slides batchUpdate request '{kind}' is not emulated by deskact", "notImplemented")


# ------------------------------------------------------------------ handlers

@handler("slides.presentations.create")
def presentations_create(req: Request) -> dict[str, Any]:
    body = req.body or {}
    title = body.get("title") or "Untitled presentation"
    pid = body.get("presentationId") or drive.new_file_id()
    if req.store.get(KIND, pid) is not None or drive.get_file(req.store, pid) is not None:
        raise ApiError(409, f"A presentation with id {pid} already exists.", "duplicate")
    pres = new_presentation(pid, title)
    req.store.put(KIND, pid, pres)
    drive.register_file(req.store, req.user, file_id=pid, name=title, mime_type=PRESENTATION)
    return to_resource(pres)


@handler("slides.presentations.get")
def presentations_get(req: Request) -> dict[str, Any]:
    return to_resource(load(req.store, req.params["presentationId"]))


@handler("slides.presentations.pages.get")
def pages_get(req: Request) -> dict[str, Any]:
    res = to_resource(load(req.store, req.params["presentationId"]))
    oid = req.params["pageObjectId"]
    for page in res["slides"] + res["layouts"] + res["masters"]:
        if page["objectId"] == oid:
            return page
    raise ApiError(404, f"The page ({oid}) could not be found.", "notFound")


@handler("slides.presentations.batchUpdate")
def presentations_batch_update(req: Request) -> dict[str, Any]:
    pres = load(req.store, req.params["presentationId"])
    body = req.body or {}
    check_revision(body, revision_id(pres), "the latest revision of the presentation")
    replies = []
    for where, kind, payload in each_request(body.get("requests") or []):
        try:
            replies.append(_apply(pres, kind, payload))
        except SlidesError as exc:
            raise ApiError(400, f"Invalid {where}: {exc}", "badRequest") from None
    if replies:
        pres["revision"] += 1
        req.store.put(KIND, pres["presentationId"], pres)
        drive.touch_file(req.store, pres["presentationId"])
    return {"presentationId": pres["presentationId"], "replies": replies,
            "writeControl": {"requiredRevisionId": revision_id(pres)}}
