"""Build googleapiclient service objects for the emulator or for real Google.

The bundled discovery document is loaded, its ``rootUrl`` (and ``mtlsRootUrl``)
replaced by ``base_url``, and ``build_from_document`` does the rest. Unlike
``client_options.api_endpoint``, this routes media uploads and batch requests
too, because googleapiclient derives both from ``rootUrl``. No network is used
to build a service.
"""

from __future__ import annotations

import copy
import functools
import threading
from collections.abc import Callable
from typing import Any

import httplib2
from googleapiclient.discovery import Resource, build_from_document
from googleapiclient.schema import Schemas

from .emulator.discovery import load_document


def build_service(
    api: str,
    version: str,
    base_url: str | None = None,
    credentials: Any = None,
    http: Any = None,
    *,
    shared: bool = False,
) -> Any:
    """A ready service object (``build_service("calendar", "v3", "http://127.0.0.1:8080")``).

    ``base_url``: the emulator's URL; None keeps Google's real endpoints (then
    pass ``credentials``). ``http``: an ``httplib2.Http`` to reuse (it must not
    follow 308, which googleapiclient's resumable uploads use).

    ``shared``: the service is used from many threads (the runner's reset steps and judges, each
    in a thread of its own, one possibly given up and still running): each thread then gets its
    own connection, and methods get no docstrings (nobody reads them there; for Sheets and Docs
    they are tens of MB of pretty-printed schemas per service, built and dropped every worker).
    """
    doc = copy.deepcopy(load_document(api, version))
    if base_url is not None:
        root = base_url.rstrip("/") + "/"
        doc["rootUrl"] = root
        doc["mtlsRootUrl"] = root
        doc["baseUrl"] = root + doc.get("servicePath", "")
    if shared and http is None:
        http = PerThreadHttp(functools.partial(_new_http, credentials))
        credentials = None  # PerThreadHttp authorizes each thread's connection itself
    elif base_url is not None and http is None and credentials is None:
        http = _new_http(None)
    service = build_from_document(doc, credentials=credentials, http=http)
    if shared:  # the same root again, its nested resources (all the methods here) built without docs
        service = Resource(http=service._http, baseUrl=service._baseUrl, model=service._model,
                           developerKey=service._developerKey, requestBuilder=service._requestBuilder,
                           resourceDesc=doc, rootDesc=doc, schema=_Undocumented(doc),
                           universe_domain=service._universe_domain)
    return _memoize_resources(service)


def _new_http(credentials: Any) -> Any:
    http = httplib2.Http(timeout=60)
    http.redirect_codes = http.redirect_codes - {308}
    if credentials is not None:
        import google_auth_httplib2  # type: ignore[import-untyped]  # the package ships no type hints

        return google_auth_httplib2.AuthorizedHttp(credentials, http=http)
    return http


class PerThreadHttp:
    """An ``httplib2.Http`` for each thread that uses it. One Http is one connection and not
    thread safe: two threads on it read each other's responses (a judge got a reset step's
    reply), and a thread waiting for a reply another took hangs to its timeout. A thread's
    connection closes when the thread ends and its Http is collected."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self._make = make
        self._local = threading.local()

    def _http(self) -> Any:
        http = getattr(self._local, "http", None)
        if http is None:
            http = self._local.http = self._make()
        return http

    def request(self, *args: Any, **kwargs: Any) -> Any:
        return self._http().request(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._http(), name)


class _Undocumented(Schemas):
    """Schemas without the pretty-printed prototypes googleapiclient puts in method docstrings."""

    def prettyPrintByName(self, name: str) -> str:
        return f"(the {name} schema)"

    def prettyPrintSchema(self, schema: Any) -> str:
        return "(a schema)"


def _memoize_resources(resource: Any) -> Any:
    """Make ``service.documents()`` (and nested ``.values()``...) build its Resource once.

    googleapiclient rebuilds a nested Resource from the discovery document on
    every call: 1 ms for Calendar but 20-40 ms for Docs and Sheets, more than the
    emulator's whole request. Resources hold no per-call state, so one is reused.
    """
    for name in resource._resourceDesc.get("resources", {}):
        factory = getattr(resource, name, None)
        if factory is None:
            continue
        cache: dict[str, Any] = {}

        def cached(factory: Any = factory, cache: dict[str, Any] = cache) -> Any:
            if "resource" not in cache:
                cache["resource"] = _memoize_resources(factory())
            return cache["resource"]

        cached.__doc__ = factory.__doc__
        setattr(resource, name, cached)
    return resource
