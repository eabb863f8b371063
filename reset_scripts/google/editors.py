"""google.spreadsheet, document, presentation and form: files of Google's editors, made through their APIs."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...runtime.tasks.helpers import fixture
from ...runtime.tasks.steps import StepContext, StepFailed, reset_step
from .account import _require_reset, clients, folder_path, google_host


def _place(ctx: StepContext, file_id: str, parent: str) -> None:
    if not parent:
        return
    folder = folder_path(ctx, parent, create=True)
    drive = clients(ctx).drive
    meta = drive.files().get(fileId=file_id, fields="parents").execute()
    drive.files().update(fileId=file_id, addParents=folder,
                         removeParents=",".join(meta.get("parents", [])), fields="id").execute()


@reset_step("google.spreadsheet")
def spreadsheet(ctx: StepContext, title: str, sheets: dict[str, list[list[Any]] | str] = {"Sheet1": []},  # noqa: B006
                parent: str = "") -> None:
    """Create a spreadsheet with tabs and their rows from A1 (entered as typed: numbers,
    booleans and "=formulas" are parsed); a tab's value may instead name a CSV fixture file.
    ``parent``: a Drive folder path."""
    import csv

    _require_reset(ctx)
    sheets = {name: list(csv.reader(fixture(ctx, rows).read_text(encoding="utf-8").splitlines()))
              if isinstance(rows, str) else rows for name, rows in sheets.items()}
    api = clients(ctx).sheets
    body = {"properties": {"title": title}, "sheets": [{"properties": {"title": name}} for name in sheets]}
    sid = api.spreadsheets().create(body=body, fields="spreadsheetId").execute()["spreadsheetId"]
    data = [{"range": f"'{name}'!A1", "values": rows} for name, rows in sheets.items() if rows]
    if data:
        api.spreadsheets().values().batchUpdate(spreadsheetId=sid, body={
            "valueInputOption": "USER_ENTERED", "data": data}).execute()
    _place(ctx, sid, parent)


@reset_step("google.document")
def document(ctx: StepContext, title: str, paragraphs: list[str] = [], bold: list[str] = [],  # noqa: B006
             parent: str = "") -> None:
    """Create a Google Doc with one paragraph per item; every occurrence of a ``bold`` text is bold."""
    _require_reset(ctx)
    api = clients(ctx).docs
    doc_id = api.documents().create(body={"title": title}).execute()["documentId"]
    text = "".join(p + "\n" for p in paragraphs)
    requests: list[dict[str, Any]] = []
    if text:
        requests.append({"insertText": {"location": {"index": 1}, "text": text.removesuffix("\n")}})
    for phrase in bold:
        start = text.find(phrase)
        if start < 0:
            raise StepFailed(f"google.document: bold text {phrase!r} is in no paragraph")
        while start >= 0:
            requests.append({"updateTextStyle": {
                "range": {"startIndex": 1 + _utf16(text[:start]), "endIndex": 1 + _utf16(text[:start + len(phrase)])},
                "textStyle": {"bold": True}, "fields": "bold"}})
            start = text.find(phrase, start + len(phrase))
    if requests:
        api.documents().batchUpdate(documentId=doc_id, body={"requests": requests}).execute()
    _place(ctx, doc_id, parent)


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


class SlideSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str
    body: str | None = None


@reset_step("google.presentation")
def presentation(ctx: StepContext, title: str, slides: list[SlideSpec] = [], parent: str = "") -> None:  # noqa: B006
    """Create a presentation whose slides have a title (and a body text when given)."""
    _require_reset(ctx)
    api = clients(ctx).slides
    pres = api.presentations().create(body={"title": title}).execute()
    pid = pres["presentationId"]
    requests: list[dict[str, Any]] = [{"deleteObject": {"objectId": s["objectId"]}} for s in pres.get("slides", [])]
    for n, spec in enumerate(slides):
        layout = "TITLE_AND_BODY" if spec.body is not None else "TITLE_ONLY"
        mappings = [{"layoutPlaceholder": {"type": "TITLE"}, "objectId": f"slide_{n:03d}_title"}]
        if spec.body is not None:
            mappings.append({"layoutPlaceholder": {"type": "BODY"}, "objectId": f"slide_{n:03d}_body"})
        requests.append({"createSlide": {"objectId": f"slide_{n:03d}", "insertionIndex": n,
                                         "slideLayoutReference": {"predefinedLayout": layout},
                                         "placeholderIdMappings": mappings}})
        requests.append({"insertText": {"objectId": f"slide_{n:03d}_title", "text": spec.title}})
        if spec.body:
            requests.append({"insertText": {"objectId": f"slide_{n:03d}_body", "text": spec.body}})
    if requests:
        api.presentations().batchUpdate(presentationId=pid, body={"requests": requests}).execute()
    _place(ctx, pid, parent)


class QuestionSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str
    kind: Literal["text", "paragraph", "radio", "checkbox", "dropdown", "scale"] = "text"
    options: list[str] = Field(default_factory=list)
    required: bool = False


def question_item(spec: QuestionSpec) -> dict[str, Any]:
    """The Forms API item for a question spec (used by the judges' feedback too)."""
    question: dict[str, Any] = {"required": spec.required}
    if spec.kind in ("text", "paragraph"):
        question["textQuestion"] = {"paragraph": spec.kind == "paragraph"}
    elif spec.kind == "scale":
        question["scaleQuestion"] = {"low": 1, "high": 5}
    else:
        question["choiceQuestion"] = {"type": {"radio": "RADIO", "checkbox": "CHECKBOX", "dropdown": "DROP_DOWN"}[spec.kind],
                                      "options": [{"value": o} for o in spec.options]}
    return {"title": spec.title, "questionItem": {"question": question}}


@reset_step("google.form")
def form(ctx: StepContext, title: str, questions: list[QuestionSpec] = [], description: str = "",  # noqa: B006
         responses: list[dict[str, str | list[str]]] = []) -> None:  # noqa: B006
    """Create a form with questions; ``responses`` (emulator only: the API cannot submit) are
    answers keyed by question title, e.g. ``{"Name": "Ann", "Topics": ["A", "B"]}``."""
    _require_reset(ctx)
    api = clients(ctx).forms
    fid = api.forms().create(body={"info": {"title": title}}).execute()["formId"]
    requests: list[dict[str, Any]] = []
    if description:
        requests.append({"updateFormInfo": {"info": {"description": description}, "updateMask": "description"}})
    for n, spec in enumerate(questions):
        requests.append({"createItem": {"item": question_item(spec), "location": {"index": n}}})
    if requests:
        api.forms().batchUpdate(formId=fid, body={"requests": requests}).execute()
    if responses:
        host = google_host(ctx)
        if host.get("backend") != "emulator":
            raise StepFailed("google.form responses can only be seeded on the emulator backend")
        from ...toolkits.google.emulator.forms import submit_response

        store = host["emulator"].store
        for n, answers in enumerate(responses):
            with store.lock:
                submit_response(store, fid, answers, respondent_email=f"respondent{n + 1}@example.com")
