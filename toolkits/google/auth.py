"""Credentials for the real Google backend (host side only).

Headless runs never start a browser: a missing, unreadable or unrefreshable
token is a ``ToolkitError`` naming the file and the command that fixes it,
``deskact google login``, which runs the one-time OAuth consent for a person at
a terminal (google-auth-oauthlib's ``InstalledAppFlow``) and saves the token.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...runtime.errors import ToolkitError

SCOPES = [
    "https://www.googleapis.com/auth/calendar",
    "https://www.googleapis.com/auth/gmail.modify",
    "https://www.googleapis.com/auth/drive",
    "https://www.googleapis.com/auth/spreadsheets",
    "https://www.googleapis.com/auth/documents",
    "https://www.googleapis.com/auth/presentations",
    "https://www.googleapis.com/auth/forms.body",
    "https://www.googleapis.com/auth/forms.responses.readonly",
]
LOGIN_HINT = "run `deskact google login` (needs google.client_secrets_file in the config)"


def load_credentials(google: Any) -> Any:
    """Valid credentials from ``google.service_account_file`` or ``google.token_file``
    (``google`` is the config's google section). Refreshes an expired user token with
    its refresh token and saves it back; never prompts."""
    from google.auth.exceptions import GoogleAuthError
    from google.auth.transport.requests import Request

    if google.service_account_file:
        from google.oauth2 import service_account

        path = Path(google.service_account_file).expanduser()
        if not path.is_file():
            raise ToolkitError(f"google.service_account_file {str(path)!r} does not exist")
        try:
            creds = service_account.Credentials.from_service_account_file(str(path), scopes=SCOPES)
            creds.refresh(Request())
        except (GoogleAuthError, ValueError, OSError) as exc:
            raise ToolkitError(f"google.service_account_file {str(path)!r}: {exc}") from exc
        return creds
    if not google.token_file:
        raise ToolkitError(f"google.backend is 'google' but google.token_file is not set; {LOGIN_HINT}")
    from google.oauth2.credentials import Credentials

    path = Path(google.token_file).expanduser()
    if not path.is_file():
        raise ToolkitError(f"google.token_file {str(path)!r} does not exist; {LOGIN_HINT}")
    try:
        creds = Credentials.from_authorized_user_file(str(path), SCOPES)
    except (ValueError, json.JSONDecodeError) as exc:
        raise ToolkitError(f"google.token_file {str(path)!r} is not an OAuth token: {exc}; {LOGIN_HINT}") from exc
    if creds.valid:
        return creds
    if not creds.refresh_token:
        raise ToolkitError(f"the token in {str(path)!r} expired and has no refresh token; {LOGIN_HINT}")
    try:
        creds.refresh(Request())
    except GoogleAuthError as exc:
        raise ToolkitError(f"cannot refresh the token in {str(path)!r} ({exc}); {LOGIN_HINT}") from exc
    path.write_text(creds.to_json())
    return creds


def login(google: Any, open_browser: bool = True, port: int = 0) -> Path:
    """One-time OAuth consent in a browser; saves the token to ``google.token_file``."""
    from google_auth_oauthlib.flow import InstalledAppFlow

    if not google.client_secrets_file:
        raise ToolkitError("google.client_secrets_file is not set: download an OAuth client (Desktop app) JSON "
                           "from the Google Cloud console and put its path in the config")
    secrets = Path(google.client_secrets_file).expanduser()
    if not secrets.is_file():
        raise ToolkitError(f"google.client_secrets_file {str(secrets)!r} does not exist")
    if not google.token_file:
        raise ToolkitError("google.token_file is not set: say where `deskact google login` should save the token")
    flow = InstalledAppFlow.from_client_secrets_file(str(secrets), SCOPES)
    creds = flow.run_local_server(port=port, open_browser=open_browser)
    token = Path(google.token_file).expanduser()
    token.parent.mkdir(parents=True, exist_ok=True)
    token.write_text(creds.to_json())
    token.chmod(0o600)
    return token
