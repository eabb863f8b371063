"""The code the offline ``explore`` model runs in the agent's kernel (one step).

It behaves like a lazy agent that only looks around: it echoes the task, lists
the workspace, prints the first lines of small text files, some system and
environment facts, the open windows, and (when the Google toolkit is loaded)
the titles of events, emails and Drive files. It changes nothing. Everything it
prints becomes the episode's answer, so an ``answer.*`` judge that matches any
of it is too loose, and so is any judge that a read-only agent can satisfy.

``Explore`` (offline.py) sends this file's source as the step's code, then a
call of ``_deskact_explore(instruction)``; so the file must stay self-contained
(standard library only, one top-level function) and leave nothing else behind
in the kernel's namespace.
"""


def _deskact_explore(instruction: str) -> None:
    import calendar
    import datetime
    import os
    import platform
    import subprocess
    import sys

    max_listing_lines = 400
    max_files = 40
    max_file_bytes = 64 * 1024
    head_lines = 200

    def section(title: str) -> None:
        print(f"\n=== {title} ===")

    def run(argv: list[str]) -> None:
        try:
            proc = subprocess.run(argv, check=False, capture_output=True, text=True, timeout=10, errors="replace")
        except (OSError, subprocess.SubprocessError) as exc:
            print(f"({' '.join(argv)}: {exc})")
            return
        lines = (proc.stdout + proc.stderr).splitlines()
        print("\n".join(lines[:max_listing_lines]))
        if len(lines) > max_listing_lines:
            print(f"... ({len(lines) - max_listing_lines} more lines)")

    def show(title: str, look) -> None:
        section(title)
        try:
            print("\n".join(str(line) for line in look()))
        except Exception as exc:  # noqa: BLE001 - looking around must never fail the step
            print(f"({title}: {exc})")

    section("task")
    print(instruction)

    workspace = os.environ.get("WORKSPACE") or os.getcwd()
    section("where am I")
    print(f"cwd={os.getcwd()} WORKSPACE={workspace} HOME={os.environ.get('HOME', '')}")
    print(f"python {sys.version.split()[0]} on {platform.platform()}")
    run(["id"])
    run(["date"])
    # The days of this month and the next on one line each: every number 1-31 shows, as an
    # ls -l listing or a date does on some day, so an unanchored small-number answer judge
    # fails every day, not 1 day in 30 (and no line holds a number alone: no false alarms).
    today = datetime.date.today()
    following = today.replace(day=1) + datetime.timedelta(days=32)
    for month in (today, following):
        days = calendar.monthrange(month.year, month.month)[1]
        print(f"{month:%B %Y}:", " ".join(str(day) for day in range(1, days + 1)))
    print("environment variables:", " ".join(sorted(os.environ)))

    section(f"ls -laR {workspace}")
    run(["ls", "-laR", workspace])

    section("small text files (first lines)")
    shown = 0
    for folder, dirs, files in os.walk(workspace):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            if shown >= max_files:
                break
            try:
                if os.path.getsize(path) > max_file_bytes:
                    continue
                with open(path, "rb") as handle:
                    data = handle.read(max_file_bytes)
            except OSError:
                continue
            if b"\0" in data[:4096]:
                continue  # binary: office files, images, archives
            shown += 1
            print(f"--- {path}")
            print("\n".join(data.decode("utf-8", "replace").splitlines()[:head_lines]))

    kernel = sys.modules["__main__"].__dict__
    if "windows" in kernel:
        show("windows", lambda: kernel["windows"].list())
    if "gmail" in kernel:
        show("calendar events", lambda: [
            f"{e.get('summary', '')} {e.get('start', {})}"
            for e in kernel["calendar"].events().list(calendarId="primary", maxResults=50)
            .execute().get("items", [])
        ])
        show("emails", lambda: [
            f"{m['subject']} | from {m['from']} | {m['date']} | {m['snippet']}"
            for m in kernel["search_emails"]("", max_results=30)
        ])
        show("drive files", lambda: [
            f"{f.get('name', '')} ({f.get('mimeType', '')})"
            for f in kernel["drive"].files().list(pageSize=50).execute().get("files", [])
        ])
