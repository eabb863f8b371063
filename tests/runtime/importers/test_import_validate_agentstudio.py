"""AgentStudio tasks the importer converts, given hand-written references, pass `deskact validate`:
the reference scores 1, a do-nothing agent and the explorer 0 (the cases that were dropped or
loosened before: colour, "in": draft, a permanent delete, cc and attachment, trash, labels)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from deskact.runtime.importers import ImportOptions
from deskact.runtime.importers.agentstudio import import_agentstudio
from deskact.runtime.importers.common import SUITE_FILE

sys.path.insert(0, str(Path(__file__).parent))
from imported_suite import assert_validates, write_tasks

TASKS = Path(__file__).parent / "fixtures" / "agentstudio" / "tasks" / "single_api"
# What an author writes under each imported task: the kernel's google toolkit names (calendar,
# gmail, drive, docs) reach the same account the judges read.
REFERENCES = {
    "agentstudio-google-calendar-ab0b454a": (
        'ev = calendar.events().list(calendarId="primary").execute()["items"][0]\n'
        'calendar.events().patch(calendarId="primary", eventId=ev["id"], body={"colorId": "11"}).execute()\nexit()\n'),
    "agentstudio-google-calendar-faa27d68": (
        'calendar.events().insert(calendarId="primary", body={"summary": "Annual Strategy Meeting",\n'
        '    "start": {"dateTime": "2024-06-15T14:00:00Z"}, "end": {"dateTime": "2024-06-15T16:00:00Z"},\n'
        '    "attendees": [{"email": "ceo@example.com"}],\n'
        '    "reminders": {"useDefault": False, "overrides": [{"method": "popup", "minutes": 30}]}}).execute()\nexit()\n'),
    "agentstudio-gmail-729b3221": (
        'd = gmail.users().drafts().list(userId="me").execute()["drafts"][0]\n'
        'gmail.users().drafts().send(userId="me", body={"id": d["id"]}).execute()\nexit()\n'),
    "agentstudio-gmail-76406d27": (
        "import base64\nfrom email.message import EmailMessage\nm = EmailMessage()\n"
        'm["To"], m["Cc"], m["Subject"] = "gduser@workspacesamples.dev", "gduser1@workspacesamples.dev", "Automated draft"\n'
        'm.set_content("This is automated draft mail")\n'
        'm.add_attachment(b"notes", maintype="text", subtype="plain", filename="attachment.txt")\n'
        'gmail.users().drafts().create(userId="me", body={"message": {"raw": base64.urlsafe_b64encode(m.as_bytes()).decode()}}).execute()\n'
        "exit()\n"),
    "agentstudio-gmail-b87bf58e": (
        'for m in gmail.users().messages().list(userId="me", includeSpamTrash=True).execute()["messages"]:\n'
        '    gmail.users().messages().untrash(userId="me", id=m["id"]).execute()\nexit()\n'),
    "agentstudio-gmail-5565ec62": 'gmail.users().labels().create(userId="me", body={"name": "Benchmarking Agent"}).execute()\nexit()\n',
    "agentstudio-google-docs-acf13dbb": (
        'for f in drive.files().list(q="name = \'Sample Document\'").execute()["files"]:\n'
        '    drive.files().delete(fileId=f["id"]).execute()\nexit()\n'),
}


@pytest.mark.slow
def test_agentstudio_tasks_with_references_validate(tmp_path: Path) -> None:
    suite = tmp_path / "agentstudio"
    import_agentstudio(TASKS, ImportOptions(out=suite))
    path = suite / SUITE_FILE
    tasks: list[dict[str, Any]] = yaml.safe_load(path.read_text())["tasks"]
    kept = [{**t, "reference": REFERENCES[t["id"]]} for t in tasks if t["id"] in REFERENCES]
    assert {t["id"] for t in kept} == set(REFERENCES)
    write_tasks(path, kept)
    assert_validates(suite, tmp_path, len(REFERENCES), workers=2)
