import hashlib
import http.server
import stat
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from deskact.runtime.tasks.steps import StepContext, StepFailed, lookup, run_reset


def test_mkdir_with_placeholder_and_parents(ctx: StepContext) -> None:
    run_reset("files.mkdir", {"path": "${WORKSPACE}/a/b/c"}, ctx)
    assert (ctx.workspace / "a/b/c").is_dir()
    run_reset("files.mkdir", {"path": "a/b/c"}, ctx)  # relative = workspace, exists is fine


def test_mkdir_over_a_file_fails(ctx: StepContext) -> None:
    (ctx.workspace / "f").write_text("x")
    with pytest.raises(StepFailed, match="exists and is not a directory"):
        run_reset("files.mkdir", {"path": "f"}, ctx)


def test_write_with_mode(ctx: StepContext) -> None:
    run_reset("files.write", {"path": "${WORKSPACE}/d/note.txt", "content": "héllo\n", "mode": "0600"}, ctx)
    p = ctx.workspace / "d/note.txt"
    assert p.read_text(encoding="utf-8") == "héllo\n"
    assert stat.S_IMODE(p.stat().st_mode) == 0o600


def test_write_mode_as_yaml_octal_int(ctx: StepContext) -> None:
    run_reset("files.write", {"path": "x.sh", "content": "", "mode": 0o755}, ctx)
    assert stat.S_IMODE((ctx.workspace / "x.sh").stat().st_mode) == 0o755


def test_copy_file_and_dir_from_fixtures(ctx: StepContext) -> None:
    (ctx.files / "data").mkdir()
    (ctx.files / "data/a.csv").write_text("1,2\n")
    (ctx.files / "one.txt").write_text("one")
    (ctx.files / "one.txt").chmod(0o444)
    run_reset("files.copy", {"src": "data", "dst": "${WORKSPACE}/copy"}, ctx)
    run_reset("files.copy", {"src": "one.txt", "dst": "${WORKSPACE}/copy"}, ctx)  # into existing dir
    assert (ctx.workspace / "copy/a.csv").read_text() == "1,2\n"
    copied = ctx.workspace / "copy/one.txt"
    assert copied.read_text() == "one"
    assert copied.stat().st_mode & 0o200, "the agent's copy must be writable"


def test_copy_leaves_out_bytecode_beside_python_fixtures(ctx: StepContext) -> None:
    # As pip leaves an installed suite's fixtures: each .py file compiled into __pycache__.
    (ctx.files / "project/src/__pycache__").mkdir(parents=True)
    (ctx.files / "project/src/main.py").write_text("print(1)\n")
    (ctx.files / "project/src/__pycache__/main.cpython-311.pyc").write_bytes(b"\x00")
    run_reset("files.copy", {"src": "project", "dst": "${WORKSPACE}/project"}, ctx)
    copied = sorted(str(p.relative_to(ctx.workspace)) for p in (ctx.workspace / "project").rglob("*"))
    assert copied == ["project/src", "project/src/main.py"]


def test_copy_missing_fixture_and_escape(ctx: StepContext) -> None:
    with pytest.raises(StepFailed, match="fixture 'nope.txt' not found"):
        run_reset("files.copy", {"src": "nope.txt", "dst": "x"}, ctx)
    with pytest.raises(StepFailed, match="leaves the fixture folder"):
        run_reset("files.copy", {"src": "../ws", "dst": "x"}, ctx)


def test_remove_file_dir_readonly_and_missing(ctx: StepContext) -> None:
    d = ctx.workspace / "tree/sub"
    d.mkdir(parents=True)
    (d / "f").write_text("x")
    d.chmod(0o500)  # agent left a read-only folder behind
    run_reset("files.remove", {"path": "tree"}, ctx)
    assert not (ctx.workspace / "tree").exists()
    (ctx.workspace / "g").write_text("x")
    run_reset("files.remove", {"path": "${WORKSPACE}/g"}, ctx)
    assert not (ctx.workspace / "g").exists()
    run_reset("files.remove", {"path": "never-existed"}, ctx)
    run_reset("files.remove", {"path": "no-parent/never-existed"}, ctx)  # AgentStudio's cleanups do this


def test_chmod(ctx: StepContext) -> None:
    p = ctx.workspace / "s.sh"
    p.write_text("#!/bin/sh\n")
    run_reset("files.chmod", {"path": "s.sh", "mode": "755"}, ctx)
    assert stat.S_IMODE(p.stat().st_mode) == 0o755
    with pytest.raises(StepFailed, match="does not exist"):
        run_reset("files.chmod", {"path": "missing", "mode": "0644"}, ctx)


@pytest.mark.parametrize("bad", [644, "rw-r--r--", "0999", True])
def test_mode_validation_at_load(bad: object) -> None:
    with pytest.raises(ValueError, match="param `mode` of `files.chmod`"):
        lookup("reset", "files.chmod").validate({"path": "x", "mode": bad})


def test_decimal_644_explains_quoting() -> None:
    with pytest.raises(ValueError, match='quote it as an octal string, e.g. "0644"'):
        lookup("reset", "files.chmod").validate({"path": "x", "mode": 644})


def test_touch_mtime_forms(ctx: StepContext) -> None:
    run_reset("files.touch", {"path": "old.log", "mtime": "-3d"}, ctx)
    age = time.time() - (ctx.workspace / "old.log").stat().st_mtime
    assert 3 * 86400 - 60 < age < 3 * 86400 + 60
    run_reset("files.touch", {"path": "e.log", "mtime": 1_000_000_000}, ctx)
    assert (ctx.workspace / "e.log").stat().st_mtime == 1_000_000_000
    run_reset("files.touch", {"path": "i.log", "mtime": "2020-01-02T03:04:05"}, ctx)
    assert time.localtime((ctx.workspace / "i.log").stat().st_mtime)[:3] == (2020, 1, 2)
    with pytest.raises(StepFailed, match="mtime 'yesterday'"):
        run_reset("files.touch", {"path": "x", "mtime": "yesterday"}, ctx)


def test_unzip_and_zip_slip(ctx: StepContext) -> None:
    with zipfile.ZipFile(ctx.files / "a.zip", "w") as zf:
        zf.writestr("docs/readme.txt", "hi")
    run_reset("files.unzip", {"src": "a.zip", "dst": "out"}, ctx)
    assert (ctx.workspace / "out/docs/readme.txt").read_text() == "hi"
    with zipfile.ZipFile(ctx.files / "evil.zip", "w") as zf:
        zf.writestr("../../escape.txt", "x")
    with pytest.raises(StepFailed, match="would land outside"):
        run_reset("files.unzip", {"src": "evil.zip", "dst": "out"}, ctx)


def test_param_errors_at_load() -> None:
    spec = lookup("reset", "files.write")
    with pytest.raises(ValueError, match="missing param `path` for `files.write`"):
        spec.validate({"content": "x"})
    with pytest.raises(ValueError, match="unknown param `contnet` for `files.write`; did you mean `content`?"):
        spec.validate({"path": "x", "contnet": "y"})
    with pytest.raises(ValueError, match="params of `files.write` must be a mapping"):
        spec.validate(["x"])
    with pytest.raises(KeyError, match="unknown reset step `files.mkdri`; did you mean `files.mkdir`?"):
        lookup("reset", "files.mkdri")
    with pytest.raises(KeyError, match="`files.exists` is a judge, not a reset step"):
        lookup("reset", "files.exists")


def test_copy_into_new_folder_with_trailing_slash(ctx: StepContext) -> None:
    (ctx.files / "a.txt").write_text("a")
    run_reset("files.copy", {"src": "a.txt", "dst": "${WORKSPACE}/new/dir/"}, ctx)
    assert (ctx.workspace / "new/dir/a.txt").read_text() == "a"


def test_write_over_a_directory_fails(ctx: StepContext) -> None:
    (ctx.workspace / "d").mkdir()
    with pytest.raises(StepFailed, match=r"files.write: .*/ws/d is a directory"):
        run_reset("files.write", {"path": "d", "content": "x"}, ctx)


# --- files.download, against a local HTTP server (tests need no network) ---------------

BODY = b"col1,col2\n1,2\n" * 100


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path == "/trickle":  # a byte every 0.2 s: each read is quick, the whole takes 40 s
            self.send_response(200)
            self.send_header("Content-Length", "200")
            self.end_headers()
            for _ in range(200):
                self.wfile.write(b"x")
                self.wfile.flush()
                time.sleep(0.2)
        elif self.path == "/data.csv":
            self.send_response(200)
            self.send_header("Content-Length", str(len(BODY)))
            self.end_headers()
            self.wfile.write(BODY)
        else:
            self.send_error(404, "Not Found")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_download_to_workspace_with_sha_and_mode(ctx: StepContext, server: str) -> None:
    sha = hashlib.sha256(BODY).hexdigest()
    run_reset("files.download", {"url": f"{server}/data.csv", "path": "${WORKSPACE}/in/data.csv",
                                 "sha256": sha, "mode": "0600"}, ctx)
    target = ctx.workspace / "in/data.csv"
    assert target.read_bytes() == BODY
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    run_reset("files.download", {"url": f"{server}/data.csv", "path": "in/data.csv"}, ctx)  # replaces
    assert target.read_bytes() == BODY


def test_download_http_error_names_url_and_leaves_nothing(ctx: StepContext, server: str) -> None:
    with pytest.raises(StepFailed, match=r"/missing.csv answered HTTP 404"):
        run_reset("files.download", {"url": f"{server}/missing.csv", "path": "x.csv"}, ctx)
    assert list(ctx.workspace.iterdir()) == []


def test_download_wrong_sha_and_size_cap(ctx: StepContext, server: str) -> None:
    with pytest.raises(StepFailed, match="has sha256 .*, expected 00ff"):
        run_reset("files.download", {"url": f"{server}/data.csv", "path": "x.csv", "sha256": "00ff"}, ctx)
    with pytest.raises(StepFailed, match="larger than max_bytes=10"):
        run_reset("files.download", {"url": f"{server}/data.csv", "path": "x.csv", "max_bytes": 10}, ctx)
    assert list(ctx.workspace.iterdir()) == []


def test_download_timeout_bounds_the_whole_download(ctx: StepContext, server: str) -> None:
    with pytest.raises(StepFailed, match=r"/trickle took longer than timeout=1 s \(the whole download\)"):
        run_reset("files.download", {"url": f"{server}/trickle", "path": "x", "timeout": 1}, ctx)
    assert list(ctx.workspace.iterdir()) == []
    with pytest.raises(ValueError, match="timeout.*finite"):
        run_reset("files.download", {"url": f"{server}/data.csv", "path": "x", "timeout": float("inf")}, ctx)


def test_download_unreachable_and_bad_scheme(ctx: StepContext, tmp_path: Path) -> None:
    with pytest.raises(StepFailed, match=r"cannot fetch http://127.0.0.1:9/x: .*network"):
        run_reset("files.download", {"url": "http://127.0.0.1:9/x", "path": "x", "timeout": 5}, ctx)
    with pytest.raises(StepFailed, match="must start with http://"):
        run_reset("files.download", {"url": "ftp://example.org/x", "path": "x"}, ctx)
    src = tmp_path / "local.bin"
    src.write_bytes(b"abc")
    run_reset("files.download", {"url": src.as_uri(), "path": "local.bin"}, ctx)
    assert (ctx.workspace / "local.bin").read_bytes() == b"abc"


def test_download_params_checked_at_load() -> None:
    spec = lookup("reset", "files.download")
    with pytest.raises(ValueError, match="url"):
        spec.validate({"path": "x"})
    with pytest.raises(ValueError, match="folder"):
        spec.validate({"url": "http://x/y", "path": "x", "bogus": 1, "folder": 1})
