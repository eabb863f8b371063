"""The Google toolkit end to end: a sandboxed kernel uses the worker's emulator through the
socket forwarder and reaches nothing else; host judges see what the kernel did; the real
backend keeps refresh tokens on the host."""

from __future__ import annotations

import json
import socket
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.errors import ToolkitError
from deskact.runtime.tasks.steps import StepContext, run_judge, run_reset
from deskact.runtime.world.kernel import KernelSession
from deskact.toolkits.base import ServiceContext, ServiceHandle, load_toolkit
from deskact.toolkits.google import api, toolkit
from deskact.toolkits.google.service import google_service


@pytest.fixture
def step_ctx(handle: ServiceHandle, tmp_path: Path) -> StepContext:
    ctx = StepContext(workspace=tmp_path, files=tmp_path, home=tmp_path, services={"google": handle.host},
                      config=Config(), task_id="toolkit-test")
    run_reset("google.reset", {}, ctx)
    return ctx


def _run(kernel: KernelSession, code: str) -> str:
    result = kernel.execute(code, timeout=60)
    assert result.error is None, result.error
    return result.stdout


def test_toolkit_is_registered_with_service_plugins_and_docs() -> None:
    tk = load_toolkit("google")
    assert tk is toolkit and tk.service is not None
    docs = tk.documentation()
    for name in api.EXPORTS:
        assert f"`{name}" in docs, name
    assert "nextPageToken" in docs
    assert "deskact.judges.google" in tk.plugins


def test_kernel_uses_the_emulator_and_host_judges_see_it(kernel: KernelSession, step_ctx: StepContext) -> None:
    run_reset("google.emails", {"messages": [{"from": "ann@example.com", "subject": "Quarterly numbers",
                                              "body": "Revenue is 42."}]}, step_ctx)
    out = _run(kernel, "import os\n"
                       "print(os.environ['DESKACT_GOOGLE_URL'])\n"
                       "m = search_emails('subject:quarterly')[0]\n"
                       "print(m['body'])\n"
                       "send_email('bob@example.com', 'Re: ' + m['subject'], 'Got it: ' + m['body'])\n")
    assert out.startswith("http://127.0.0.1:")
    assert "Revenue is 42." in out
    verdict = run_judge("google.email_sent", {"to": "bob@example.com", "body_contains": "Got it"}, step_ctx)
    assert verdict.passed, verdict.feedback


def test_kernel_cannot_reach_other_addresses(kernel: KernelSession, handle: ServiceHandle) -> None:
    # A TCP server on the host's loopback (the emulator's own host-only port is another).
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    accepted: list[object] = []
    threading.Thread(target=lambda: accepted.append(server.accept()), daemon=True).start()
    ports = {"test": server.getsockname()[1], "emulator-host-port": int(handle.host["url"].rsplit(":", 1)[1])}
    try:
        code = (
            "import socket, json\n"
            "out = {}\n"
            f"for name, port in {ports!r}.items():\n"
            "    try:\n"
            "        socket.create_connection(('127.0.0.1', port), timeout=3).close(); out[name] = 'connected'\n"
            "    except OSError as exc:\n"
            "        out[name] = type(exc).__name__\n"
            "for host in ('1.1.1.1', '8.8.8.8'):\n"
            "    try:\n"
            "        socket.create_connection((host, 53), timeout=3).close(); out[host] = 'connected'\n"
            "    except OSError as exc:\n"
            "        out[host] = type(exc).__name__\n"
            "print(json.dumps(out))\n"
        )
        result = json.loads(_run(kernel, code).strip().splitlines()[-1])
    finally:
        server.close()
    assert set(result) == {"test", "emulator-host-port", "1.1.1.1", "8.8.8.8"}
    assert all(v != "connected" for v in result.values()), result
    assert not accepted
    # ...while the forwarded emulator URL still works from the same kernel.
    assert _run(kernel, "print(gmail.users().getProfile(userId='me').execute()['emailAddress'])").strip() \
        == "me@deskact.test"


def test_kernel_env_holds_no_host_credentials(kernel: KernelSession) -> None:
    out = _run(kernel, "import os; print(sorted(k for k in os.environ if 'GOOGLE' in k))")
    assert out.strip() == "['DESKACT_GOOGLE_URL']"


def test_paging_helpers_in_the_kernel(kernel: KernelSession, step_ctx: StepContext) -> None:
    run_reset("google.drive_files", {"files": [{"name": "report-{i}.txt", "content": "r{i}", "repeat": 130}]}, step_ctx)
    out = _run(kernel, "page = drive.files().list(q=\"name contains 'report-'\").execute()\n"
                       "print(len(page['files']), 'nextPageToken' in page, len(find_files(name_contains='report-')))")
    assert out.split() == ["100", "True", "130"]


def test_api_without_backend_names_the_env_vars(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(api.URL_ENV, raising=False)
    monkeypatch.delenv(api.TOKEN_ENV, raising=False)
    service = api.CalendarService()
    with pytest.raises(RuntimeError, match="DESKACT_GOOGLE_URL.*DESKACT_GOOGLE_TOKEN"):
        service.events()


def test_real_backend_gives_the_kernel_only_an_access_token(tmp_path: Path) -> None:
    token = tmp_path / "token.json"
    expiry = (datetime.now(UTC) + timedelta(hours=1)).replace(tzinfo=None).isoformat() + "Z"
    token.write_text(json.dumps({"token": "ya29.short-lived", "refresh_token": "1//secret-refresh",
                                 "client_id": "cid.apps.googleusercontent.com", "client_secret": "shh",
                                 "token_uri": "https://oauth2.googleapis.com/token", "expiry": expiry}))
    cfg = Config.model_validate({"google": {"backend": "google", "token_file": str(token)}})
    with google_service(ServiceContext(0, tmp_path / "state", cfg)) as h:
        assert h.env == {api.TOKEN_ENV: "ya29.short-lived"}
        assert h.sockets == {}
        assert "secret-refresh" not in json.dumps(h.env)
        assert h.host["backend"] == "google" and h.host["clients"].credentials.refresh_token == "1//secret-refresh"


@pytest.mark.parametrize(("token_json", "message"), [
    (None, "does not exist; run `deskact google login`"),
    ('{"nope": 1}', "is not an OAuth token"),
])
def test_real_backend_without_a_usable_token_says_how_to_fix(tmp_path: Path, token_json: str | None,
                                                               message: str) -> None:
    token = tmp_path / "token.json"
    if token_json is not None:
        token.write_text(token_json)
    cfg = Config.model_validate({"google": {"backend": "google", "token_file": str(token)}})
    with pytest.raises(ToolkitError, match="deskact google login") as info, \
            google_service(ServiceContext(0, tmp_path / "state", cfg)):
        pass
    assert message in str(info.value)


def test_real_backend_expired_token_without_refresh_token(tmp_path: Path) -> None:
    token = tmp_path / "token.json"
    token.write_text(json.dumps({"token": "old", "refresh_token": "", "client_id": "c", "client_secret": "s",
                                 "expiry": "2001-01-01T00:00:00Z"}))
    cfg = Config.model_validate({"google": {"backend": "google", "token_file": str(token)}})
    with pytest.raises(ToolkitError, match="expired and has no refresh token.*deskact google login"), \
            google_service(ServiceContext(0, tmp_path / "state", cfg)):
        pass


GOOGLE_SUITES = ("google_calendar", "gmail", "google_drive", "google_sheets", "google_docs", "google_slides",
                 "google_forms")


def test_google_suites_are_api_tasks_that_start_from_a_reset() -> None:
    """Running them is `deskact validate` (tests/task_suites/test_validate_suites.py); this is the static part."""
    from deskact.runtime.tasks.task import SUITES_DIR, load_tasks

    result = load_tasks([SUITES_DIR / s for s in GOOGLE_SUITES])
    assert not result.invalid, "\n".join(map(str, result.invalid))
    assert len(result.tasks) >= 50
    tags: set[str] = set()
    for task in result.tasks:
        assert "google" in task.toolkits, task.id
        assert not task.visual, task.id
        assert task.reset and task.reset[0].name == "google.reset", f"{task.source}: list google.reset first"
        assert task.reference and task.reference.strip().endswith("exit()"), task.id
        tags.update(task.tags)
    assert {"paging", "timezones", "search", "cross-service", "relative-time"} <= tags
