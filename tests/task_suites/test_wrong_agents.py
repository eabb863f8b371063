"""Plausible wrong solutions of built-in tasks must get reward 0, failed by the judge meant to catch them.

Each case is a mistake a real agent makes (copy instead of move, a duplicate
instead of an edit, a listing instead of the answer). Each passed the task's
judges before they were tightened. Tasks' own `counterexamples:` (validate's
fourth pass) check that wrong solutions fail; these also pin *which* judge
must catch each one.
"""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest
import yaml
from deskact.runtime.config import Config
from deskact.runtime.run.runner import Run, RunOptions
from deskact.runtime.tasks.task import SUITES_DIR

# task id -> (suite, wrong code, judge that must fail)
WRONG: dict[str, tuple[str, str, str]] = {
    "os-move-large-files": ("os", """
        import os, pathlib, shutil
        W = pathlib.Path(os.environ["WORKSPACE"])
        (W / "large").mkdir(exist_ok=True)
        for p in list((W / "data").rglob("*")):
            if p.is_file() and p.stat().st_size > 1048576:
                shutil.copy(p, W / "large" / p.name)   # copied, not moved
        (W / "data" / "backup.iso").unlink()
        """, "files.absent"),
    "os-json-top-scorer": ("os", """
        import json, os
        for u in json.load(open(os.environ["WORKSPACE"] + "/users.json")):
            print(u["email"], u["score"])              # every user, not the answer
        """, "answer.regex"),
    "gcal-move-dentist-tomorrow": ("google_calendar", """
        from datetime import datetime, timedelta
        from zoneinfo import ZoneInfo
        tz = calendar.calendars().get(calendarId="primary").execute()["timeZone"]
        day = datetime.now(ZoneInfo(tz)).date() + timedelta(days=1)
        at = lambda h, m: {"dateTime": datetime.combine(day, datetime.min.time()).replace(hour=h, minute=m).isoformat(), "timeZone": tz}
        calendar.events().insert(calendarId="primary", body={"summary": "Dentist", "location": "Rue Cler 3",
            "start": at(11, 0), "end": at(11, 45)}).execute()   # a second event; the 09:00 one stays
        """, "google.event_absent"),
    "gmail-vacation-draft": ("gmail", """
        body = "Hello,\\nmay I take leave from 4 August to 8 August 2025?\\nThanks"
        create_draft("boss@example.com", "Vacation request", body)
        send_email("boss@example.com", "Vacation request", body)   # told not to send
        """, "google.email_state"),
    "gmail-attachment-to-drive": ("gmail", """
        upload_text("agenda.txt", "09:00 Keynote\\n12:00 Lunch\\n")   # part of the attachment
        """, "google.drive_file"),
    "drive-move-pdfs": ("google_drive", """
        folder = drive.files().create(body={"name": "PDFs", "mimeType": "application/vnd.google-apps.folder"}).execute()["id"]
        for f in find_files(mime_type="application/pdf", parent="root"):
            drive.files().copy(fileId=f["id"], body={"name": f["name"], "parents": [folder]}).execute()  # copies
        """, "google.drive_file"),
    "drive-copy-template": ("google_drive", """
        reports = find_files(name="Reports", mime_type="application/vnd.google-apps.folder")[0]["id"]
        upload_text("Report 2025.txt", "Summary:\\n", parent=reports)   # not a copy of the template
        """, "google.drive_file"),
    "drive-find-budget-sheet": ("google_drive", """
        for f in find_files(mime_type="application/vnd.google-apps.spreadsheet"):
            print(f["name"])                                # every spreadsheet
        """, "answer.regex"),
    # os_admin: mistakes pinned when the suite was written (each task in its own world, the agent root of it)
    "os-admin-create-user": ("os_admin", """
        !useradd --uid 1500 --shell /bin/bash deploy   # no --create-home
        """, "files.exists"),
    "os-admin-add-users-to-group": ("os_admin", """
        !groupadd developers && usermod -g developers alice && usermod -g developers bob   # primary, not supplementary
        """, "users.exists"),
    "os-admin-disable-login": ("os_admin", """
        !userdel intern   # deleted instead of locked
        """, "users.exists"),
    "os-admin-delete-user": ("os_admin", """
        !userdel olduser   # the home directory stays
        """, "files.absent"),
    "os-admin-create-owned-dir": ("os_admin", """
        !mkdir -m 0750 /test   # owned by root
        """, "files.owner"),
    "os-admin-shared-group-dir": ("os_admin", """
        !chgrp developers /srv/shared && chmod 775 /srv/shared   # no setgid bit
        """, "files.mode"),
    "os-admin-fix-script-owner": ("os_admin", """
        !chmod 755 /usr/local/bin/rotate-logs   # still guest's
        """, "files.owner"),
    "os-admin-user-by-uid": ("os_admin", """
        !getent passwd | grep 204   # three accounts, not the answer
        """, "answer.regex"),
    "os-admin-hosts-entry": ("os_admin", """
        open("/etc/hosts", "w").write("10.20.0.15 db.internal\\n")   # the other entries are gone
        """, "shell.output"),
    "os-admin-harden-sshd": ("os_admin", """
        open("/etc/ssh/sshd_config", "a").write("PermitRootLogin no\\nPasswordAuthentication no\\n")   # sshd keeps the first
        """, "shell.output"),
    "os-admin-cron-backup": ("os_admin", """
        import os
        os.makedirs("/etc/cron.d", exist_ok=True)
        open("/etc/cron.d/backup-db", "w").write("30 2 * * * /usr/local/bin/backup-db\\n")   # no user field
        """, "files.content"),
    "os-admin-rename-host": ("os_admin", """
        open("/etc/hostname", "w").write("web-01\\n")   # the running system keeps its name
        open("/etc/hosts", "w").write("127.0.0.1\\tlocalhost\\n127.0.1.1\\tweb-01\\n")
        """, "shell.output"),
    "os-admin-profile-java": ("os_admin", """
        open("/etc/profile.d/java.sh", "w").write("JAVA_HOME=/opt/jdk-21\\nPATH=/opt/jdk-21/bin:$PATH\\n")   # not exported
        """, "shell.output"),
    "os-admin-kill-runaway": ("os_admin", """
        !pkill sleep   # the other sleeping processes too
        """, "process.running"),
    "os-admin-start-web-server": ("os_admin", """
        import subprocess, time
        subprocess.Popen(["python3", "-m", "http.server", "8080"], start_new_session=True,   # serves the workspace
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)
        """, "shell.output"),
    "os-admin-restart-service": ("os_admin", """
        import subprocess, time
        subprocess.Popen(["/opt/inventory/server.py"], start_new_session=True)   # the old one still runs
        time.sleep(1)
        """, "shell.output"),
    "os-admin-port-owner": ("os_admin", """
        !ss -ltnp   # a listing, not the answer
        """, "answer.regex"),
    "os-admin-stop-port-listener": ("os_admin", """
        !pkill -f /opt/svc/   # every service
        """, "process.running"),
    "os-admin-run-as-user": ("os_admin", """
        import subprocess, time
        subprocess.Popen(["/opt/worker/worker.py"], start_new_session=True)   # as root
        time.sleep(0.5)
        """, "process.running"),
    "os-admin-install-deb": ("os_admin", """
        !dpkg-deb -x /srv/packages/acme-cli_1.4.0_all.deb /   # unpacked, not installed
        """, "packages.installed"),
    "os-admin-purge-package": ("os_admin", """
        !dpkg -r legacy-agent   # its configuration stays
        """, "files.absent"),
    "os-admin-link-tool": ("os_admin", """
        !cp /opt/logstat-2.1/bin/logstat /usr/local/bin/logstat   # a copy
        """, "shell.output"),
}


@pytest.mark.slow
@pytest.mark.parametrize("task_id", sorted(WRONG))
def test_wrong_solution_is_rejected(task_id: str, tmp_path: Path) -> None:
    suite, code, judge_name = WRONG[task_id]
    if suite == "os_admin":
        from deskact.runtime.world.world import world_status

        if not world_status()[0]:
            pytest.skip(f"os_admin needs worlds, and this machine cannot make them: {world_status()[1]}")
    script = tmp_path / "wrong.yaml"
    script.write_text(yaml.safe_dump([f"```python\n{dedent(code).strip()}\nexit()\n```"]))
    opts = RunOptions(paths=[str(SUITES_DIR / suite)], model=f"scripted/{script}", out=tmp_path / "out",
                      tasks_glob=task_id)
    (result,) = Run(Config(), opts).execute()
    assert result.status == "failed", f"{result.status}: {result.error or result.feedback}"
    failing = [v.judge for v in result.verdicts if not v.passed]
    assert judge_name in failing, f"failed by {failing}, expected {judge_name}: {result.feedback}"
    assert not any(v.error for v in result.verdicts), result.feedback
