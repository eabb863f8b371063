"""Forms v1: forms create/get/batchUpdate and responses list/get.

A form is a `forms.form` document holding the Form resource (keyed by its
Drive file id); responses are `forms.response` documents scoped by form id.
The API has no way to submit a response, so reset steps seed them with
`submit_response(store, form_id, answers)` (answers keyed by questionId or by
question title).
"""

from __future__ import annotations

import copy
import hashlib
import re
from datetime import UTC, datetime
from typing import Any

from .. import drive
from ..common import check_revision, each_request, load_record, rename_hook
from ..drive.query import QueryError, parse_rfc3339
from ..drive.types import FORM, GoogleType, register_type
from ..errors import ApiError
from ..framework import Request, handler
from ..masks import apply_mask
from ..paging import paginate
from ..store import Store

KIND = "forms.form"
RESPONSE_KIND = "forms.response"
_QUESTION_KINDS = ("choiceQuestion", "textQuestion", "scaleQuestion", "dateQuestion", "timeQuestion",
                   "fileUploadQuestion", "rowQuestion", "ratingQuestion")
_ITEM_KINDS = ("questionItem", "questionGroupItem", "pageBreakItem", "textItem", "imageItem", "videoItem")


class FormsError(Exception):
    pass


def _hex_id(form: dict[str, Any], salt: str) -> str:
    form["_counter"] = int(form.get("_counter", 0)) + 1
    return hashlib.sha1(f"{form['formId']}:{salt}:{form['_counter']}".encode()).hexdigest()[:8]


def load(store: Store, form_id: str) -> dict[str, Any]:
    return load_record(store, KIND, "formId", form_id)


def revision_id(form: dict[str, Any]) -> str:
    return f"{int(form.get('_revision', 1)):08x}"


def to_resource(form: dict[str, Any]) -> dict[str, Any]:
    out = {k: copy.deepcopy(v) for k, v in form.items() if not k.startswith("_")}
    out["revisionId"] = revision_id(form)
    return out


def new_form(form_id: str, title: str, document_title: str | None = None, published: bool = True) -> dict[str, Any]:
    form: dict[str, Any] = {
        "formId": form_id, "info": {"title": title, "documentTitle": document_title or title},
        "settings": {"emailCollectionType": "DO_NOT_COLLECT"},
        "responderUri": f"https://docs.google.com/forms/d/e/{form_id}/viewform",
        "publishSettings": {"publishState": {"isPublished": published, "isAcceptingResponses": published}},
        "_revision": 1,
    }
    if not title:
        form["info"].pop("title")
    return form


def form_text(form: dict[str, Any]) -> str:
    parts = [form["info"].get("title", ""), form["info"].get("description", "")]
    for item in form.get("items") or []:
        parts += [item.get("title", ""), item.get("description", "")]
        q = (item.get("questionItem") or {}).get("question") or {}
        for opt in (q.get("choiceQuestion") or {}).get("options") or []:
            parts.append(str(opt.get("value", "")))
    return "\n".join(p for p in parts if p)


# ---------------------------------------------------------------- Drive hooks

def _copy(store: Store, src: str, dst: str, title: str) -> None:
    form = copy.deepcopy(store.get(KIND, src)) or new_form(dst, title)
    form["formId"] = dst
    form["info"]["documentTitle"] = title
    form["responderUri"] = f"https://docs.google.com/forms/d/e/{dst}/viewform"
    form["_revision"] = 1
    store.put(KIND, dst, form)


def _delete(store: Store, fid: str) -> None:
    store.delete(KIND, fid)
    store.delete_scope(RESPONSE_KIND, fid)


register_type(GoogleType(
    FORM, lambda store, fid, title: store.put(KIND, fid, new_form(fid, "", title)), _delete, _copy, rename_hook(KIND, "info", "documentTitle"),
    exporters={}, importers={}, text=lambda store, fid: form_text(store.get(KIND, fid) or {"info": {}})))


# ------------------------------------------------------------------- items

def _prepare_item(form: dict[str, Any], item: dict[str, Any], existing_ids: set[str]) -> tuple[dict[str, Any], list[str]]:
    """Validate a new item and give it (and its questions) ids; returns (item, questionIds)."""
    item = copy.deepcopy(item)
    kinds = [k for k in _ITEM_KINDS if k in item]
    if len(kinds) != 1:
        raise FormsError(f"An item must set exactly one of {list(_ITEM_KINDS)}; got {kinds or 'none'}.")
    if item.get("itemId"):
        if not re.fullmatch(r"[0-9a-f]{1,8}", str(item["itemId"])) or item["itemId"] in existing_ids:
            raise FormsError(f"itemId {item['itemId']!r} must be unique hex digits.")
    else:
        item["itemId"] = _hex_id(form, "item")
    qids: list[str] = []
    questions = []
    if "questionItem" in item:
        questions = [item["questionItem"].setdefault("question", {})]
    elif "questionGroupItem" in item:
        questions = item["questionGroupItem"].get("questions") or []
        if not questions:
            raise FormsError("questionGroupItem.questions must not be empty.")
    for q in questions:
        qkinds = [k for k in _QUESTION_KINDS if k in q]
        if len(qkinds) != 1:
            raise FormsError(f"A question must set exactly one of {list(_QUESTION_KINDS)}; got {qkinds or 'none'}.")
        if "choiceQuestion" in q:
            cq = q["choiceQuestion"]
            if cq.get("type") not in ("RADIO", "CHECKBOX", "DROP_DOWN"):
                raise FormsError("choiceQuestion.type must be RADIO, CHECKBOX or DROP_DOWN.")
            if not cq.get("options"):
                raise FormsError("choiceQuestion.options must have at least one option.")
        if "scaleQuestion" in q:
            sq = q["scaleQuestion"]
            low, high = int(sq.get("low", 1)), int(sq.get("high", 5))
            if low not in (0, 1) or not 2 <= high <= 10:
                raise FormsError("scaleQuestion.low must be 0 or 1 and high between 2 and 10.")
        if not q.get("questionId"):
            q["questionId"] = _hex_id(form, "question")
        qids.append(q["questionId"])
    return item, qids


def _index(loc: Any, size: int, what: str, inclusive: bool) -> int:
    if not isinstance(loc, dict) or "index" not in loc:
        raise FormsError(f"{what}.index is required.")
    idx = int(loc["index"])
    limit = size if inclusive else size - 1
    if idx < 0 or idx > limit:
        raise FormsError(f"{what}.index {idx} is out of range (the form has {size} items).")
    return idx


def _apply(form: dict[str, Any], kind: str, body: dict[str, Any]) -> dict[str, Any]:
    items: list[dict[str, Any]] = form.setdefault("items", [])
    if kind == "createItem":
        idx = _index(body.get("location"), len(items), "location", inclusive=True)
        item, qids = _prepare_item(form, body.get("item") or {}, {i["itemId"] for i in items})
        items.insert(idx, item)
        reply: dict[str, Any] = {"itemId": item["itemId"]}
        if qids:
            reply["questionId"] = qids
        return {"createItem": reply}
    if kind == "updateFormInfo":
        mask = body.get("updateMask")
        if mask and "documentTitle" in str(mask):
            raise FormsError("info.documentTitle cannot be updated through the Forms API (rename the file in Drive).")
        apply_mask(form["info"], body.get("info") or {}, mask, "updateFormInfo",
                   allowed={"title", "description"})
        return {}
    if kind == "updateSettings":
        apply_mask(form["settings"], body.get("settings") or {}, body.get("updateMask"), "updateSettings",
                   allowed={"quizSettings", "emailCollectionType"})
        return {}
    if kind == "updateItem":
        idx = _index(body.get("location"), len(items), "location", inclusive=False)
        cur = items[idx]
        new = body.get("item") or {}
        apply_mask(cur, {k: v for k, v in new.items() if k != "itemId"}, body.get("updateMask"), "updateItem")
        cur.setdefault("itemId", new.get("itemId") or _hex_id(form, "item"))
        return {}
    if kind == "deleteItem":
        idx = _index(body.get("location"), len(items), "location", inclusive=False)
        del items[idx]
        return {}
    if kind == "moveItem":
        src = _index(body.get("originalLocation"), len(items), "originalLocation", inclusive=False)
        dst = _index(body.get("newLocation"), len(items), "newLocation", inclusive=False)
        items.insert(dst, items.pop(src))
        return {}
    raise ApiError(501, f"Forms batchUpdate request '{kind}' is not emulated by deskact", "notImplemented")


# ---------------------------------------------------------------- responses

def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def submit_response(store: Store, form_id: str, answers: dict[str, Any], *,
                    respondent_email: str | None = None, submitted: str | None = None) -> dict[str, Any]:
    """Record a response as if someone filled the form (the API cannot submit).

    `answers` maps a questionId or a question title to a string or a list of
    strings (checkboxes). Unknown questions raise ValueError naming them.
    """
    form = store.get(KIND, form_id)
    if form is None:
        raise ValueError(f"form {form_id!r} does not exist")
    by_key: dict[str, str] = {}
    for item in form.get("items") or []:
        q = (item.get("questionItem") or {}).get("question")
        if q:
            by_key[q["questionId"]] = q["questionId"]
            if item.get("title"):
                by_key[item["title"]] = q["questionId"]
    out_answers = {}
    for key, value in answers.items():
        qid = by_key.get(key)
        if qid is None:
            raise ValueError(f"form {form_id!r} has no question {key!r} (known: {sorted(by_key)})")
        values = value if isinstance(value, list) else [value]
        out_answers[qid] = {"questionId": qid, "textAnswers": {"answers": [{"value": str(v)} for v in values]}}
    when = submitted or _now()
    rid = "ACYDBN" + hashlib.sha1(f"{form_id}:{store.next_counter('forms.response')}".encode()).hexdigest()[:30]
    resp: dict[str, Any] = {"formId": form_id, "responseId": rid, "createTime": when, "lastSubmittedTime": when,
                            "answers": out_answers}
    if respondent_email:
        resp["respondentEmail"] = respondent_email
    store.put(RESPONSE_KIND, rid, resp, scope=form_id)
    return resp


_FILTER = re.compile(r"^\s*timestamp\s*(>=|>)\s*(\S+)\s*$")


# ------------------------------------------------------------------ handlers

@handler("forms.forms.create")
def forms_create(req: Request) -> dict[str, Any]:
    body = req.body or {}
    extra = [k for k in body if k not in ("info",)]
    info = body.get("info") or {}
    extra += [f"info.{k}" for k in info if k not in ("title", "documentTitle")]
    if extra:
        raise ApiError(400, f"Only info.title and info.document_title can be set when creating a form; "
                            f"got {extra}. Add items with batchUpdate.", "badRequest")
    title = info.get("title", "")
    doc_title = info.get("documentTitle") or title or "Untitled form"
    fid = drive.new_file_id()
    form = new_form(fid, title, doc_title, published=not req.params.get("unpublished"))
    req.store.put(KIND, fid, form)
    drive.register_file(req.store, req.user, file_id=fid, name=doc_title, mime_type=FORM)
    return to_resource(form)


@handler("forms.forms.get")
def forms_get(req: Request) -> dict[str, Any]:
    return to_resource(load(req.store, req.params["formId"]))


@handler("forms.forms.batchUpdate")
def forms_batch_update(req: Request) -> dict[str, Any]:
    form = load(req.store, req.params["formId"])
    body = req.body or {}
    check_revision(body, revision_id(form), "the form's latest revision")
    replies = []
    for where, kind, payload in each_request(body.get("requests") or []):
        try:
            replies.append(_apply(form, kind, payload))
        except FormsError as exc:
            raise ApiError(400, f"Invalid {where}: {exc}", "badRequest") from None
    if replies:
        form["_revision"] = int(form.get("_revision", 1)) + 1
        req.store.put(KIND, form["formId"], form)
        drive.touch_file(req.store, form["formId"])
    out: dict[str, Any] = {"replies": replies, "writeControl": {"requiredRevisionId": revision_id(form)}}
    if body.get("includeFormInResponse"):
        out["form"] = to_resource(form)
    return out


@handler("forms.forms.responses.list")
def responses_list(req: Request) -> dict[str, Any]:
    form = load(req.store, req.params["formId"])
    responses = req.store.list(RESPONSE_KIND, form["formId"])
    flt = req.params.get("filter")
    if flt:
        m = _FILTER.match(flt)
        if not m:
            raise ApiError(400, f"Invalid filter {flt!r}: use 'timestamp > RFC3339' or 'timestamp >= RFC3339'.",
                           "invalid", location="filter")
        try:
            when = parse_rfc3339(m.group(2))
        except QueryError as exc:
            raise ApiError(400, f"Invalid filter {flt!r}: {exc}", "invalid", location="filter") from None
        strict = m.group(1) == ">"
        responses = [r for r in responses
                     if (parse_rfc3339(r["lastSubmittedTime"]) > when if strict else parse_rfc3339(r["lastSubmittedTime"]) >= when)]
    page, token = paginate(responses, req.params, default_size=5000, max_size=5000, size_param="pageSize")
    out: dict[str, Any] = {}
    if page:
        out["responses"] = page
    if token:
        out["nextPageToken"] = token
    return out


@handler("forms.forms.responses.get")
def responses_get(req: Request) -> dict[str, Any]:
    form = load(req.store, req.params["formId"])
    resp = req.store.get(RESPONSE_KIND, req.params["responseId"], scope=form["formId"])
    if resp is None:
        raise ApiError(404, f"Requested entity was not found. (responseId {req.params['responseId']})", "notFound")
    return resp
