"""RFC 2822 messages -> Gmail's message resource pieces (payload, snippet, search index).

Parsing uses the standard ``email`` package. Text parts are inlined as
``body.data`` (base64url); parts with a filename are attachments, referenced by
``body.attachmentId`` and fetched with ``messages.attachments.get``, as Gmail does.
"""

from __future__ import annotations

import base64
import email
import email.header
import email.policy
import html
import re
from email.message import Message
from email.utils import getaddresses, parsedate_to_datetime
from typing import Any

from ..errors import ApiError


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode()


def unb64url(text: str, field: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, TypeError):
        raise ApiError(400, f"Invalid value for ByteString: {field}", "invalidArgument") from None


def parse(raw: bytes) -> Message:
    return email.message_from_bytes(raw, policy=email.policy.compat32)


def _decoded_header(value: str) -> str:
    """A header as text (RFC 2047 encoded words decoded)."""
    try:
        return str(email.header.make_header(email.header.decode_header(value)))
    except Exception:  # noqa: BLE001 - malformed encodings fail in many ways: keep the raw text
        return value


def headers_of(msg: Message) -> list[dict[str, str]]:
    return [{"name": k, "value": _decoded_header(str(v))} for k, v in msg.items()]


def header(msg: Message, name: str) -> str:
    value = msg.get(name)
    return _decoded_header(str(value)) if value is not None else ""


def addresses(msg: Message, *names: str) -> list[str]:
    values = [header(msg, n) for n in names if msg.get(n)]
    return [addr.lower() for _, addr in getaddresses(values) if addr]


def date_ms(msg: Message) -> int | None:
    value = msg.get("Date")
    if not value:
        return None
    try:
        return int(parsedate_to_datetime(str(value)).timestamp() * 1000)
    except (TypeError, ValueError, IndexError):
        return None


def payload_bytes(part: Message) -> bytes:
    """A leaf part's decoded body (a multipart container has none: b"")."""
    data = part.get_payload(decode=True)
    return data if isinstance(data, bytes) else b""


def _part_text(part: Message) -> str:
    payload = payload_bytes(part)
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:
        return payload.decode("utf-8", errors="replace")


def _is_attachment(part: Message) -> bool:
    return bool(part.get_filename()) or part.get_content_disposition() == "attachment"


def _attachment_id(message_id: str, part_id: str) -> str:
    return "ANGjdJ" + b64url(f"{message_id}:{part_id}".encode()).rstrip("=")


def split_attachment_id(att_id: str) -> tuple[str, str] | None:
    if not att_id.startswith("ANGjdJ"):
        return None
    try:
        message_id, _, part_id = unb64url(att_id[6:], "id").decode().partition(":")
    except (ApiError, UnicodeDecodeError):
        return None
    return message_id, part_id


def payload(msg: Message, message_id: str, part_id: str = "", with_body: bool = True) -> dict[str, Any]:
    """The ``payload`` MessagePart tree."""
    out: dict[str, Any] = {
        "partId": part_id,
        "mimeType": msg.get_content_type(),
        "filename": msg.get_filename() or "",
        "headers": headers_of(msg),
    }
    if msg.is_multipart():
        out["body"] = {"size": 0}
        children = msg.get_payload()
        assert isinstance(children, list)
        out["parts"] = [
            payload(child, message_id, f"{part_id + '.' if part_id else ''}{i}", with_body)
            for i, child in enumerate(children)
        ]
        return out
    data = payload_bytes(msg)
    if _is_attachment(msg):
        out["body"] = {"attachmentId": _attachment_id(message_id, part_id), "size": len(data)}
    elif with_body:
        out["body"] = {"size": len(data), "data": b64url(data)} if data else {"size": 0}
    return out


def find_part(msg: Message, part_id: str) -> Message | None:
    if part_id == "":
        return msg
    node = msg
    for index in part_id.split("."):
        children = node.get_payload() if node.is_multipart() else None
        if not isinstance(children, list) or not index.isdigit() or int(index) >= len(children):
            return None
        child = children[int(index)]
        if not isinstance(child, Message):
            return None
        node = child
    return node


def text_of(msg: Message) -> str:
    """All text/plain content (text/html stripped of tags when there is no plain part)."""
    plain: list[str] = []
    htmls: list[str] = []
    for part in msg.walk():
        if part.is_multipart() or _is_attachment(part):
            continue
        if part.get_content_type() == "text/plain":
            plain.append(_part_text(part))
        elif part.get_content_type() == "text/html":
            htmls.append(html.unescape(re.sub(r"<[^>]+>", " ", _part_text(part))))
    return "\n".join(plain or htmls)


def snippet(msg: Message) -> str:
    return " ".join(text_of(msg).split())[:200]


def attachment_names(msg: Message) -> list[str]:
    return [part.get_filename() or "" for part in msg.walk() if not part.is_multipart() and _is_attachment(part)]


def search_index(msg: Message) -> dict[str, Any]:
    """What ``q`` searches, computed once at insert time."""
    return {
        "from": header(msg, "From").lower(),
        "to": header(msg, "To").lower(),
        "cc": header(msg, "Cc").lower(),
        "bcc": header(msg, "Bcc").lower(),
        "subject": header(msg, "Subject").lower(),
        "text": text_of(msg).lower(),
        "filenames": [n.lower() for n in attachment_names(msg)],
        "message_id": header(msg, "Message-ID").strip(),
        "references": " ".join([header(msg, "In-Reply-To"), header(msg, "References")]).split(),
    }
