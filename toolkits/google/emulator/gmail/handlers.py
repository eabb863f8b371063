"""Gmail v1: messages, threads, labels, drafts, attachments, profile.

Storage kinds: ``gmail.message`` (id -> metadata + search index; the RFC 2822
bytes are the blob ``gmail.raw/<id>``), ``gmail.label`` (user labels),
``gmail.draft`` (id -> {"id", "messageId"}). System labels are fixed. Threads
are derived from messages' ``threadId``: a new message joins the thread of
the message its ``In-Reply-To``/``References`` names, or the ``threadId``
given in the request, else starts its own (thread id = its message id).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from email.utils import formatdate, make_msgid
from typing import Any, TypeVar

from ..common import update_and_patch
from ..errors import ApiError, bad_request, not_found
from ..framework import Request, Response, handler
from ..paging import paginate
from ..store import Store
from . import mime
from .query import compile_query

T = TypeVar("T")

MSG, LABEL, DRAFT = "gmail.message", "gmail.label", "gmail.draft"
# The search index (header fields, body text) lives apart from the message
# metadata so that listing by label does not decode every body.
INDEX = "gmail.index"

SYSTEM_LABELS = [
    "INBOX", "SENT", "DRAFT", "TRASH", "SPAM", "UNREAD", "STARRED", "IMPORTANT", "CHAT",
    "CATEGORY_PERSONAL", "CATEGORY_SOCIAL", "CATEGORY_PROMOTIONS", "CATEGORY_UPDATES", "CATEGORY_FORUMS",
]
# Labels a client may not add or remove with modify (Gmail answers 400).
_IMMUTABLE = {"DRAFT", "SENT", "CHAT"}
_HIDDEN_IN_LIST = {"CHAT"}


# ---- helpers ----------------------------------------------------------------------
def _check_user(req: Request) -> None:
    user_id = req.params.get("userId", "me")
    if user_id != "me" and user_id.lower() != req.user.lower():
        raise ApiError(403, f"Delegation denied for {req.user}", "forbidden")


def _history(store: Store) -> str:
    return str(store.next_counter("gmail.history", start=1000))


def _new_message_id(store: Store) -> str:
    # 16 hex digits, increasing: Gmail's ids look like this and sort by arrival.
    return format(0x18F0000000000000 + store.next_counter("gmail.msgid") * 0x1000 + int(time.time()) % 0x1000, "x")


def _user_labels(store: Store) -> dict[str, dict[str, Any]]:
    return {lab["id"]: lab for lab in store.list(LABEL)}


def _label_names(store: Store) -> dict[str, str]:
    names = {lid: lid for lid in SYSTEM_LABELS}
    names.update({lid: lab["name"] for lid, lab in _user_labels(store).items()})
    return names


def _check_labels(store: Store, ids: list[str], field: str) -> None:
    known = _label_names(store)
    for lid in ids:
        if lid not in known:
            raise ApiError(400, f"Invalid label: {lid}", "invalidArgument", location=field)


def _get_msg(req: Request, message_id: str) -> dict[str, Any]:
    msg = req.store.get(MSG, message_id)
    if msg is None:
        raise not_found("Requested entity was not found.")
    return msg


def _raw(store: Store, message_id: str) -> bytes:
    data = store.get_blob(f"gmail.raw/{message_id}")
    assert data is not None, f"message {message_id} has no stored content"
    return data


def _thread_for(store: Store, index: dict[str, Any], requested: str | None) -> str | None:
    if requested:
        if any(m["threadId"] == requested for m in store.list(MSG)):
            return requested
        raise not_found(f"Thread {requested} not found.")
    refs = {r.strip() for r in index["references"]}
    if refs:
        for idx in store.list(INDEX):
            if idx["message_id"] in refs:
                found = store.get(MSG, idx["id"])
                if found is not None:
                    return found["threadId"]
    return None


def _store_message(
    req: Request, raw: bytes, labels: list[str], thread_id: str | None, internal_ms: int | None,
) -> dict[str, Any]:
    parsed = mime.parse(raw)
    index = mime.search_index(parsed)
    message_id = _new_message_id(req.store)
    labels = list(dict.fromkeys(labels))
    msg = {
        "id": message_id,
        "threadId": _thread_for(req.store, index, thread_id) or message_id,
        "labelIds": labels,
        "snippet": mime.snippet(parsed),
        "sizeEstimate": len(raw),
        "historyId": _history(req.store),
        "internalDate": str(internal_ms if internal_ms is not None else int(time.time() * 1000)),
    }
    req.store.put(MSG, message_id, msg)
    req.store.put(INDEX, message_id, {"id": message_id, **index})
    req.store.put_blob(f"gmail.raw/{message_id}", raw)
    return msg


def _public(msg: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in msg.items() if not k.startswith("_")}


def _render(req: Request, msg: dict[str, Any], fmt: str | None = None) -> dict[str, Any]:
    fmt = fmt or req.params.get("format", "full")
    out = _public(msg)
    if fmt == "minimal":
        return out
    raw = _raw(req.store, msg["id"])
    if fmt == "raw":
        out["raw"] = mime.b64url(raw)
        return out
    parsed = mime.parse(raw)
    if fmt == "metadata":
        wanted = {h.lower() for h in req.params.get("metadataHeaders", [])}
        heads = mime.headers_of(parsed)
        if wanted:
            heads = [h for h in heads if h["name"].lower() in wanted]
        out["payload"] = {"mimeType": parsed.get_content_type(), "headers": heads}
        return out
    out["payload"] = mime.payload(parsed, msg["id"])
    return out


def _raw_from_request(req: Request, body: dict[str, Any] | None, field: str = "raw") -> bytes:
    if req.media is not None:
        return req.media
    if not body or not body.get("raw"):
        raise ApiError(400, "'raw' RFC822 payload message string or uploading message via /upload/* URL required",
                       "invalidArgument")
    return mime.unb64url(body["raw"], field)


def _prepare_outgoing(req: Request, raw: bytes, require_recipient: bool) -> bytes:
    """Add From/Date/Message-ID when missing, as Gmail does on send."""
    parsed = mime.parse(raw)
    if require_recipient and not mime.addresses(parsed, "To", "Cc", "Bcc"):
        raise ApiError(400, "Invalid To header", "invalidArgument")
    changed = False
    if not parsed.get("From"):
        parsed["From"] = req.user
        changed = True
    if not parsed.get("Date"):
        parsed["Date"] = formatdate(localtime=False)
        changed = True
    if not parsed.get("Message-ID"):
        parsed["Message-ID"] = make_msgid(domain="mail.gmail.com")
        changed = True
    return parsed.as_bytes() if changed else raw


def _send(req: Request, raw: bytes, thread_id: str | None) -> dict[str, Any]:
    raw = _prepare_outgoing(req, raw, require_recipient=True)
    recipients = mime.addresses(mime.parse(raw), "To", "Cc", "Bcc")
    labels = ["SENT"]
    if req.user.lower() in recipients:  # a message to yourself also arrives
        labels += ["INBOX", "UNREAD"]
    return _store_message(req, raw, labels, thread_id, None)


def _with_label_names(store: Store, msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    names = _label_names(store)
    for m in msgs:
        m["_label_names"] = [names.get(lid, lid) for lid in m["labelIds"]]
    return msgs


def _with_index(store: Store, msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if len(msgs) > 20:
        every = {idx["id"]: idx for idx in store.list(INDEX)}
        for m in msgs:
            m["_index"] = every[m["id"]]
    else:
        for m in msgs:
            m["_index"] = store.get(INDEX, m["id"])
    return msgs


def _select(req: Request, msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Filter by labelIds, q and includeSpamTrash; newest first."""
    p = req.params
    wanted = p.get("labelIds", [])
    if wanted:
        msgs = [m for m in msgs if all(lid in m["labelIds"] for lid in wanted)]
    q = p.get("q") or ""
    in_trash_query = any(t in q.lower() for t in ("in:trash", "in:spam", "in:anywhere", "label:trash",
                                                              "label:spam"))
    if not p.get("includeSpamTrash") and not in_trash_query and not set(wanted) & {"TRASH", "SPAM"}:
        msgs = [m for m in msgs if "TRASH" not in m["labelIds"] and "SPAM" not in m["labelIds"]]
    if q:
        pred = compile_query(q)
        _with_index(req.store, msgs)
        msgs = [m for m in _with_label_names(req.store, msgs) if pred(m)]
    msgs.sort(key=lambda m: (int(m["internalDate"]), m["id"]), reverse=True)
    return msgs


# ---- profile ------------------------------------------------------------------------
@handler("gmail.users.getProfile")
def get_profile(req: Request) -> dict[str, Any]:
    _check_user(req)
    msgs = req.store.list(MSG)
    return {"emailAddress": req.user, "messagesTotal": len(msgs),
            "threadsTotal": len({m["threadId"] for m in msgs}),
            "historyId": str(req.store.counter("gmail.history", 1000))}


# ---- messages --------------------------------------------------------------------------
@handler("gmail.users.messages.send")
def messages_send(req: Request) -> dict[str, Any]:
    _check_user(req)
    body = req.body or {}
    return _public(_send(req, _raw_from_request(req, body), body.get("threadId")))


def _insert_like(req: Request, default_source: str) -> dict[str, Any]:
    _check_user(req)
    body = req.body or {}
    raw = _raw_from_request(req, body)
    labels = body.get("labelIds", [])
    _check_labels(req.store, labels, "labelIds")
    source = req.params.get("internalDateSource", default_source)
    internal = mime.date_ms(mime.parse(raw)) if source == "dateHeader" else None
    return _public(_store_message(req, raw, labels, body.get("threadId"), internal))


@handler("gmail.users.messages.insert")
def messages_insert(req: Request) -> dict[str, Any]:
    return _insert_like(req, "receivedTime")


@handler("gmail.users.messages.import")
def messages_import(req: Request) -> dict[str, Any]:
    return _insert_like(req, "dateHeader")


@handler("gmail.users.messages.get")
def messages_get(req: Request) -> dict[str, Any]:
    _check_user(req)
    return _render(req, _get_msg(req, req.params["id"]))


def _list_reply(req: Request, key: str, items: list[T], entry: Callable[[T], dict[str, Any]]) -> dict[str, Any]:
    """One page of a Gmail list: ``key`` is left out when the page is empty (as Gmail
    does) and resultSizeEstimate counts every match, not just this page."""
    page, token = paginate(items, req.params, default_size=100, max_size=500)
    out: dict[str, Any] = {}
    if page:
        out[key] = [entry(item) for item in page]
    if token:
        out["nextPageToken"] = token
    out["resultSizeEstimate"] = len(items)
    return out


@handler("gmail.users.messages.list")
def messages_list(req: Request) -> dict[str, Any]:
    _check_user(req)
    msgs = _select(req, req.store.list(MSG))
    return _list_reply(req, "messages", msgs, lambda m: {"id": m["id"], "threadId": m["threadId"]})


def _modify(req: Request, msg: dict[str, Any], add: list[str], remove: list[str]) -> dict[str, Any]:
    labels = [lid for lid in msg["labelIds"] if lid not in remove]
    labels += [lid for lid in add if lid not in labels]
    msg["labelIds"] = labels
    msg["historyId"] = _history(req.store)
    req.store.put(MSG, msg["id"], msg)
    return msg


def _label_changes(req: Request, body: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(addLabelIds, removeLabelIds) of a modify body, refused if a label is unknown or not user-changeable."""
    add, remove = body.get("addLabelIds", []), body.get("removeLabelIds", [])
    _check_labels(req.store, add, "addLabelIds")
    _check_labels(req.store, remove, "removeLabelIds")
    for lid in set(add) | set(remove):
        if lid in _IMMUTABLE:
            raise ApiError(400, f"Invalid label: {lid} cannot be added or removed", "invalidArgument")
    return add, remove


@handler("gmail.users.messages.modify")
def messages_modify(req: Request) -> dict[str, Any]:
    _check_user(req)
    add, remove = _label_changes(req, req.body or {})
    return _public(_modify(req, _get_msg(req, req.params["id"]), add, remove))


@handler("gmail.users.messages.batchModify")
def messages_batch_modify(req: Request) -> None:
    _check_user(req)
    body = req.body or {}
    add, remove = _label_changes(req, body)
    for message_id in body.get("ids", []):
        msg = req.store.get(MSG, message_id)
        if msg is not None:
            _modify(req, msg, add, remove)


@handler("gmail.users.messages.trash")
def messages_trash(req: Request) -> dict[str, Any]:
    _check_user(req)
    return _public(_modify(req, _get_msg(req, req.params["id"]), ["TRASH"], ["INBOX", "SPAM"]))


@handler("gmail.users.messages.untrash")
def messages_untrash(req: Request) -> dict[str, Any]:
    _check_user(req)
    msg = _get_msg(req, req.params["id"])
    # Gmail puts received mail back in the inbox; sent mail just leaves the trash.
    add = [] if "SENT" in msg["labelIds"] or "DRAFT" in msg["labelIds"] else ["INBOX"]
    return _public(_modify(req, msg, add, ["TRASH"]))


def _delete_message(store: Store, message_id: str) -> bool:
    store.delete_blob(f"gmail.raw/{message_id}")
    store.delete(INDEX, message_id)
    return store.delete(MSG, message_id)


@handler("gmail.users.messages.delete")
def messages_delete(req: Request) -> None:
    _check_user(req)
    if not _delete_message(req.store, req.params["id"]):
        raise not_found("Requested entity was not found.")


@handler("gmail.users.messages.batchDelete")
def messages_batch_delete(req: Request) -> None:
    _check_user(req)
    for message_id in (req.body or {}).get("ids", []):
        _delete_message(req.store, message_id)


@handler("gmail.users.messages.attachments.get")
def attachments_get(req: Request) -> dict[str, Any]:
    _check_user(req)
    msg = _get_msg(req, req.params["messageId"])
    split = mime.split_attachment_id(req.params["id"])
    if split is None or split[0] != msg["id"]:
        raise ApiError(400, "Invalid attachment token", "invalidArgument")
    part = mime.find_part(mime.parse(_raw(req.store, msg["id"])), split[1])
    if part is None or part.is_multipart():
        raise not_found("Requested entity was not found.")
    data = mime.payload_bytes(part)
    return {"attachmentId": req.params["id"], "size": len(data), "data": mime.b64url(data)}


# ---- threads ------------------------------------------------------------------------------
def _threads(req: Request) -> dict[str, list[dict[str, Any]]]:
    threads: dict[str, list[dict[str, Any]]] = {}
    for m in req.store.list(MSG):
        threads.setdefault(m["threadId"], []).append(m)
    for msgs in threads.values():
        msgs.sort(key=lambda m: (int(m["internalDate"]), m["id"]))
    return threads


def _thread(req: Request) -> list[dict[str, Any]]:
    msgs = _threads(req).get(req.params["id"])
    if not msgs:
        raise not_found("Requested entity was not found.")
    return msgs


@handler("gmail.users.threads.list")
def threads_list(req: Request) -> dict[str, Any]:
    _check_user(req)
    matching = _select(req, req.store.list(MSG))
    threads = _threads(req)
    order: list[str] = list(dict.fromkeys(m["threadId"] for m in matching))

    def entry(tid: str) -> dict[str, Any]:
        return {"id": tid, "snippet": threads[tid][-1]["snippet"],
                "historyId": max(m["historyId"] for m in threads[tid])}

    return _list_reply(req, "threads", order, entry)


@handler("gmail.users.threads.get")
def threads_get(req: Request) -> dict[str, Any]:
    _check_user(req)
    msgs = _thread(req)
    return {"id": req.params["id"], "historyId": max(m["historyId"] for m in msgs),
            "messages": [_render(req, m) for m in msgs]}


def _thread_modify(req: Request, add: list[str], remove: list[str]) -> dict[str, Any]:
    msgs = [_modify(req, m, add, remove) for m in _thread(req)]
    return {"id": req.params["id"], "historyId": msgs[-1]["historyId"],
            "messages": [_public(m) for m in msgs]}


@handler("gmail.users.threads.modify")
def threads_modify(req: Request) -> dict[str, Any]:
    _check_user(req)
    add, remove = _label_changes(req, req.body or {})
    return _thread_modify(req, add, remove)


@handler("gmail.users.threads.trash")
def threads_trash(req: Request) -> dict[str, Any]:
    _check_user(req)
    return _thread_modify(req, ["TRASH"], ["INBOX", "SPAM"])


@handler("gmail.users.threads.untrash")
def threads_untrash(req: Request) -> dict[str, Any]:
    _check_user(req)
    out = []
    for m in _thread(req):
        add = [] if "SENT" in m["labelIds"] or "DRAFT" in m["labelIds"] else ["INBOX"]
        out.append(_modify(req, m, add, ["TRASH"]))
    return {"id": req.params["id"], "historyId": out[-1]["historyId"], "messages": [_public(m) for m in out]}


@handler("gmail.users.threads.delete")
def threads_delete(req: Request) -> None:
    _check_user(req)
    for m in _thread(req):
        _delete_message(req.store, m["id"])


# ---- labels ----------------------------------------------------------------------------------
def _system_label(lid: str) -> dict[str, Any]:
    label: dict[str, Any] = {"id": lid, "name": lid, "type": "system"}
    if not lid.startswith("CATEGORY_") and lid not in ("UNREAD", "DRAFT", "SENT", "TRASH", "SPAM"):
        label.update(messageListVisibility="hide" if lid == "CHAT" else "show",
                     labelListVisibility="labelHide" if lid == "CHAT" else "labelShow")
    return label


def _with_counts(req: Request, label: dict[str, Any]) -> dict[str, Any]:
    msgs = [m for m in req.store.list(MSG) if label["id"] in m["labelIds"]]
    out = dict(label)
    out["messagesTotal"] = len(msgs)
    out["messagesUnread"] = sum("UNREAD" in m["labelIds"] for m in msgs)
    out["threadsTotal"] = len({m["threadId"] for m in msgs})
    out["threadsUnread"] = len({m["threadId"] for m in msgs if "UNREAD" in m["labelIds"]})
    return out


@handler("gmail.users.labels.list")
def labels_list(req: Request) -> dict[str, Any]:
    _check_user(req)
    return {"labels": [_system_label(lid) for lid in SYSTEM_LABELS] + req.store.list(LABEL)}


@handler("gmail.users.labels.get")
def labels_get(req: Request) -> dict[str, Any]:
    _check_user(req)
    lid = req.params["id"]
    if lid in SYSTEM_LABELS:
        return _with_counts(req, _system_label(lid))
    label = req.store.get(LABEL, lid)
    if label is None:
        raise not_found("Requested entity was not found.")
    return _with_counts(req, label)


def _check_label_name(req: Request, name: Any, own_id: str | None = None) -> None:
    if not isinstance(name, str) or not name.strip():
        raise ApiError(400, "Invalid label name", "invalidArgument")
    taken = {lab["name"].lower() for lab in req.store.list(LABEL) if lab["id"] != own_id}
    if name.lower() in taken or name.upper() in SYSTEM_LABELS:
        raise ApiError(409, "Label name exists or conflicts", "duplicate", status="ALREADY_EXISTS")


_LABEL_FIELDS = ("name", "messageListVisibility", "labelListVisibility", "color")


@handler("gmail.users.labels.create")
def labels_create(req: Request) -> dict[str, Any]:
    _check_user(req)
    body = req.body or {}
    _check_label_name(req, body.get("name"))
    label = {"id": f"Label_{req.store.next_counter('gmail.label')}", "type": "user",
             "messageListVisibility": "show", "labelListVisibility": "labelShow"}
    label.update({k: body[k] for k in _LABEL_FIELDS if k in body})
    req.store.put(LABEL, label["id"], label)
    return label


def _label_write(req: Request, patch: bool) -> dict[str, Any]:
    _check_user(req)
    lid = req.params["id"]
    if lid in SYSTEM_LABELS:
        raise ApiError(400, f"Invalid update request: system label {lid} cannot be changed", "invalidArgument")
    label = req.store.get(LABEL, lid)
    if label is None:
        raise not_found("Requested entity was not found.")
    body = req.body or {}
    if "name" in body or not patch:
        _check_label_name(req, body.get("name"), own_id=lid)
    new = dict(label) if patch else {"id": lid, "type": "user"}
    new.update({k: body[k] for k in _LABEL_FIELDS if k in body})
    req.store.put(LABEL, lid, new)
    return new


update_and_patch("gmail.users.labels.update", "gmail.users.labels.patch", _label_write)


@handler("gmail.users.labels.delete")
def labels_delete(req: Request) -> None:
    _check_user(req)
    lid = req.params["id"]
    if lid in SYSTEM_LABELS:
        raise ApiError(400, "Invalid delete request", "invalidArgument")
    if not req.store.delete(LABEL, lid):
        raise not_found("Requested entity was not found.")
    for m in req.store.list(MSG):  # the label disappears from every message
        if lid in m["labelIds"]:
            _modify(req, m, [], [lid])


# ---- drafts -----------------------------------------------------------------------------------
def _draft_id(store: Store) -> str:
    return f"r{7_000_000_000_000_000_000 + store.next_counter('gmail.draft')}"


def _draft_message(req: Request) -> tuple[bytes, str | None]:
    body = req.body or {}
    message = body.get("message") or {}
    if req.media is not None:
        return req.media, message.get("threadId")
    if not message.get("raw"):
        raise ApiError(400, "Missing draft message", "invalidArgument")
    return mime.unb64url(message["raw"], "message.raw"), message.get("threadId")


def _get_draft(req: Request, draft_id: str) -> dict[str, Any]:
    draft = req.store.get(DRAFT, draft_id)
    if draft is None:
        raise not_found("Requested entity was not found.")
    return draft


@handler("gmail.users.drafts.create")
def drafts_create(req: Request) -> dict[str, Any]:
    _check_user(req)
    raw, thread_id = _draft_message(req)
    msg = _store_message(req, _prepare_outgoing(req, raw, require_recipient=False), ["DRAFT"], thread_id, None)
    draft = {"id": _draft_id(req.store), "messageId": msg["id"]}
    req.store.put(DRAFT, draft["id"], draft)
    return {"id": draft["id"], "message": {"id": msg["id"], "threadId": msg["threadId"], "labelIds": ["DRAFT"]}}


@handler("gmail.users.drafts.get")
def drafts_get(req: Request) -> dict[str, Any]:
    _check_user(req)
    draft = _get_draft(req, req.params["id"])
    return {"id": draft["id"], "message": _render(req, _get_msg(req, draft["messageId"]))}


@handler("gmail.users.drafts.list")
def drafts_list(req: Request) -> dict[str, Any]:
    _check_user(req)
    drafts = req.store.list(DRAFT)
    msgs = {d["messageId"]: req.store.get(MSG, d["messageId"]) for d in drafts}
    if req.params.get("q"):
        pred = compile_query(req.params["q"])
        found = _with_index(req.store, [m for m in msgs.values() if m])
        keep = {m["id"] for m in _with_label_names(req.store, found) if pred(m)}
        drafts = [d for d in drafts if d["messageId"] in keep]
    drafts.reverse()  # newest first
    return _list_reply(req, "drafts", drafts, lambda d: {
        "id": d["id"], "message": {"id": d["messageId"], "threadId": msgs[d["messageId"]]["threadId"]}})  # type: ignore[index]


@handler("gmail.users.drafts.update")
def drafts_update(req: Request) -> dict[str, Any]:
    _check_user(req)
    draft = _get_draft(req, req.params["id"])
    old = _get_msg(req, draft["messageId"])
    raw, thread_id = _draft_message(req)
    _delete_message(req.store, old["id"])
    msg = _store_message(req, _prepare_outgoing(req, raw, require_recipient=False), ["DRAFT"],
                         thread_id or (old["threadId"] if old["threadId"] != old["id"] else None), None)
    draft["messageId"] = msg["id"]
    req.store.put(DRAFT, draft["id"], draft)
    return {"id": draft["id"], "message": {"id": msg["id"], "threadId": msg["threadId"], "labelIds": ["DRAFT"]}}


@handler("gmail.users.drafts.send")
def drafts_send(req: Request) -> dict[str, Any]:
    _check_user(req)
    body = req.body or {}
    if not body.get("id"):
        raise bad_request("Invalid draft: the request must name the draft's id", "invalidArgument")
    draft = _get_draft(req, body["id"])
    old = _get_msg(req, draft["messageId"])
    if body.get("message", {}).get("raw") or req.media is not None:  # send with replaced content
        raw, _ = _draft_message(req)
    else:
        raw = _raw(req.store, old["id"])
    thread = old["threadId"] if old["threadId"] != old["id"] else None
    _delete_message(req.store, old["id"])
    req.store.delete(DRAFT, draft["id"])
    return _public(_send(req, raw, thread))


@handler("gmail.users.drafts.delete")
def drafts_delete(req: Request) -> None:
    _check_user(req)
    draft = _get_draft(req, req.params["id"])
    _delete_message(req.store, draft["messageId"])
    req.store.delete(DRAFT, draft["id"])


def raw_message(store: Store, message_id: str) -> bytes | None:
    """The RFC 2822 bytes of a stored message (for judges/reset steps on the host)."""
    return store.get_blob(f"gmail.raw/{message_id}")


__all__ = ["Response", "raw_message"]
