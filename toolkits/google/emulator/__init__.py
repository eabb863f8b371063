'''A local, offline emulator of the Google Workspace REST APIs.

Layout
------
- ``discovery.py``  routes + parameter validation from the bundled discovery docs
- ``framework.py``  the request pipeline, ``Request``/``Response``, the registry
- ``store.py``      SQLite document store, snapshots (reset in well under 20 ms)
- ``errors.py``     ``ApiError`` and helpers -> Google's JSON error format
- ``fields.py``     ``fields=`` partial responses (applied by the framework)
- ``paging.py``     ``paginate()`` for ``pageToken``/``nextPageToken``
- ``batch.py``      ``/batch`` and ``/batch/<api>/<version>`` (multipart/mixed)
- ``server.py``     ``start_server()``: TCP and/or Unix socket, keep-alive,
  optionally a separate host-only admin socket
- ``cli.py``        ``serve()`` behind ``deskact emulate google``
- ``service.py``    ``emulator_service(ctx)``: the per-worker service factory
  for the Google toolkit (data Unix socket -> ``DESKACT_GOOGLE_URL`` in the
  kernel; ``handle.host["url"]`` (data), ``["admin_socket"]`` and
  ``["emulator"]`` for reset steps and judges)
- ``common.py``     helpers the services share (update = patch, records with
  a revision id, batchUpdate requests one by one)
- one subpackage per API: ``calendar/``, ``gmail/``, ``drive/``, ``sheets/``,
  ``docs/``, ``slides/``, ``forms/``. Each has ``handlers.py`` (the methods it
  registers; importing the package registers them) and its own pure modules
  (``gmail/mime.py``, ``gmail/query.py``, ``drive/query.py``, ``drive/types.py``,
  ``sheets/model.py``, ``sheets/cells.py``, ``sheets/formulas.py``,
  ``sheets/a1.py``, ``docs/model.py``, ``calendar/time.py``); its
  ``__init__.py`` exports what the other services and the reset steps call
  (``drive.register_file``, ``forms.submit_response``, ...)

Writing a service (the contract)
--------------------------------
A service's ``handlers.py`` registers one function per discovery method id. Its
package is imported by every ``Emulator`` (see ``framework.SERVICE_MODULES``);
methods with no handler answer 501 naming the method, never a fake success::

    from ..errors import ApiError, not_found, duplicate, bad_request
    from ..framework import Request, Response, handler, on_reset
    from ..paging import paginate

    @on_reset                      # seeds the *empty* state (run once per
    def _seed(store, user):        # emulator; reset restores its snapshot)
        store.put("calendar.calendar", "primary-id", {...})

    @handler("calendar.colors.get")   # the discovery method id
    def colors_get(req: Request) -> dict:
        return {"kind": "calendar#colors", ...}

What the framework has already done when a handler runs:

- the route matched (servicePath + flatPath/path, upload paths, batch parts);
- ``req.params``: path + query parameters converted to their discovery type
  (int, bool, float, str; ``repeated`` ones are lists), enums/minimums/
  RFC 3339 date-times checked, required ones present, unknown ones rejected;
  defaults are NOT filled in (use ``req.params.get("maxResults", 250)``);
- ``req.body``: the parsed JSON body (dict) or None. A missing body on a method
  that declares a ``request`` is already a 400 (except the methods listed in
  ``framework._BODY_OPTIONAL``, which Google lets clients call without one);
- media uploads (``uploadType=media|multipart|resumable``, all three, including
  googleapiclient's chunked resumable PUTs) arrive as ``req.media`` (bytes) and
  ``req.media_type``; multipart metadata is in ``req.body``. A handler registered
  with ``@handler(id, media_file=True)`` gets a finished resumable upload as
  ``req.media_file`` (a file, never loaded whole; ``req.media`` is then None);
- ``req.store`` (``Store``), ``req.user`` (the account's email),
  ``req.headers`` (lower-case), ``req.base_url`` (``http://host:port``).

What a handler returns:

- a ``dict`` -> 200 JSON. If it has an ``"etag"`` key the framework sends the
  ``ETag`` header and answers ``If-None-Match`` GETs with 304;
- ``None`` -> 204 empty (deletes);
- ``Response(status, body, content_type, headers)`` for anything else:
  ``body`` bytes for ``alt=media`` downloads/exports (check
  ``req.params.get("alt") == "media"``), or a dict with another status.

``fields`` is applied to the returned dict by the framework (and validated
against the method's response schema), so handlers always return the full
resource. Errors: ``raise not_found("...")``, ``bad_request(msg)``,
``duplicate()`` (409), ``invalid_param(name, value)``, or ``ApiError(code,
message, reason)``. Each request runs inside one SQLite transaction under the
store lock: a raised error rolls back everything the handler wrote.

Paging: ``items, token = paginate(all_items, req.params, default_size=100,
max_size=1000, size_param="maxResults")`` (``pageSize`` for the newer APIs);
put ``token`` in ``nextPageToken`` when it is not None.

Store (``store.py``): JSON documents by ``(kind, id, scope)``:
``get(kind, id, scope="")``, ``find(kind, id) -> (scope, doc)``,
``put(kind, id, doc, scope="")`` (upsert, keeps list order),
``insert(...) -> bool`` (False if the id exists: answer 409),
``delete(kind, id, scope="") -> bool``, ``delete_scope(kind, scope)``,
``list(kind, scope="" | None)``, ``items(kind, scope)``, blobs
``put_blob(key, bytes)/get_blob(key)/delete_blob(key)``, counters
``next_counter(name)``, ``Store.new_id(length)``. Name kinds
``"<service>.<type>"`` (``"drive.file"``, ``"sheets.spreadsheet"``); a service
that must show up in another (Sheets files in Drive) writes the other's kind
through a function the owning package exports (``drive.register_file(...)``).

Python API
----------
``Emulator(state_dir=None, user="me@deskact.test", limits=EmulatorLimits(), files_dir=None)``
(``limits.py``: request size, Drive quota, upload session lifetime; ``server.py``
says how requests are read) with ``.reset(snapshot=None)``,
``.snapshot(name)``, ``.dispatch(method, target, headers, body, base_url)``;
``start_server(emulator, port=0, socket_path=None, admin_socket=None) -> RunningServer``
(``.url``, ``.close()``); ``deskact.toolkits.google.client.build_service(api, version, base_url)``.

HTTP admin: ``GET /_emulator/health``, ``GET /_emulator/snapshots``,
``POST /_emulator/reset`` (optional JSON ``{"snapshot": NAME}``),
``POST /_emulator/snapshot/NAME``, ``DELETE /_emulator/snapshot/NAME``.

The admin API is host-only. ``dispatch(..., admin=False)`` answers every
``/_emulator`` path (batch parts included) with 403 ``forbidden``; the data
endpoints (what a kernel reaches) dispatch that way whenever ``start_server``
is given an ``admin_socket``, which alone then serves the admin API. The
per-worker service always does so; ``deskact emulate google`` does with
``--admin-socket PATH`` (without it, its port and ``--socket`` serve both).
'''

from .framework import Emulator, Request, Response, handler, on_reset
from .server import RunningServer, start_server

__all__ = ["Emulator", "Request", "Response", "RunningServer", "handler", "on_reset", "start_server"]
