"""google.form_question: a form's questions, their kind and choices."""

from __future__ import annotations

from ...reset_scripts.google.account import MIME_SHORT, clients, list_all
from ...runtime.tasks.steps import StepContext, Verdict, judge
from ._lookup import _missing_doc, _nearest

_KINDS = {"text": "textQuestion", "paragraph": "textQuestion", "radio": "choiceQuestion",
          "checkbox": "choiceQuestion", "dropdown": "choiceQuestion", "scale": "scaleQuestion"}


def _forms_titled(ctx: StepContext, title: str) -> list[dict]:
    api = clients(ctx).forms
    found = []
    for f in list_all(clients(ctx).drive.files().list, "files", q=f"mimeType = '{MIME_SHORT['form']}' and trashed = false",
                      fields="nextPageToken, files(id, name)"):
        if f["id"] == title or f["name"] == title:
            found.append(api.forms().get(formId=f["id"]).execute())
            continue
        form = api.forms().get(formId=f["id"]).execute()
        if form.get("info", {}).get("title") == title:
            found.append(form)
    return found


@judge("google.form_question")
def form_question(ctx: StepContext, form: str, title: str, kind: str | None = None,
                  options: list[str] | None = None, required: bool | None = None) -> Verdict:
    """The form titled (or with id) ``form`` has a question titled ``title`` (case-insensitive)
    of ``kind`` (text, paragraph, radio, checkbox, dropdown, scale) with exactly these options
    (any order) and this required flag."""
    forms = _forms_titled(ctx, form)
    if not forms:
        return _missing_doc(ctx, form, MIME_SHORT["form"], "form")
    reports = []
    for f in forms:
        items = f.get("items", [])
        match = [i for i in items if (i.get("title") or "").strip().lower() == title.strip().lower()]
        if not match:
            reports.append(f"has no question {title!r}; " + _nearest(title, [i.get("title", "") for i in items], "questions"))
            continue
        question = match[0].get("questionItem", {}).get("question", {})
        problems = []
        if kind is not None:
            have = next((k for k in ("textQuestion", "choiceQuestion", "scaleQuestion", "dateQuestion", "timeQuestion")
                         if k in question), "none")
            sub = question.get("choiceQuestion", {}).get("type", "")
            ok = have == _KINDS.get(kind) and (
                have != "choiceQuestion" or sub == {"radio": "RADIO", "checkbox": "CHECKBOX", "dropdown": "DROP_DOWN"}[kind])
            if kind in ("text", "paragraph") and have == "textQuestion":
                ok = bool(question["textQuestion"].get("paragraph")) == (kind == "paragraph")
            if not ok:
                problems.append(f"is a {have}{' ' + sub if sub else ''}, not a {kind} question")
        if options is not None:
            have_opts = [o.get("value", "") for o in question.get("choiceQuestion", {}).get("options", [])]
            if sorted(have_opts) != sorted(options):
                problems.append(f"has options {have_opts} instead of {options}")
        if required is not None and bool(question.get("required")) != required:
            problems.append(f"is {'not ' if required else ''}required")
        if not problems:
            return Verdict.ok(f"form {form!r} has the question {title!r} as expected")
        reports.append(f"question {title!r} " + "; ".join(problems))
    return Verdict.fail(f"form {form!r}: " + reports[0])

