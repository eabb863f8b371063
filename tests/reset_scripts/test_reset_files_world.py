"""files.* reset steps at absolute paths of a real world: what they make is the world root's.

A file the host writes into a world is owned by a host uid the world does not
map: the agent would see it as nobody's and could not change it. ``wctx``
(tests/conftest.py) skips where no world can be made.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from deskact.runtime.tasks.steps import StepContext, StepFailed, run_reset


def sh(ctx: StepContext, cmd: str) -> str:
    proc = ctx.world.run(["bash", "-c", cmd], timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_write_creates_parents_owned_by_the_worlds_root(wctx: StepContext) -> None:
    run_reset("files.write", {"path": "/srv/app/conf/app.ini", "content": "port = 8080\n", "mode": "0640"}, wctx)
    assert sh(wctx, "stat -c '%U:%G %a %n' /srv/app /srv/app/conf /srv/app/conf/app.ini") == (
        "root:root 755 /srv/app\nroot:root 755 /srv/app/conf\nroot:root 640 /srv/app/conf/app.ini\n")
    sh(wctx, "echo 'workers = 4' >> /srv/app/conf/app.ini && rm -r /srv/app/conf")  # the agent can change it all
    assert not wctx.path("/srv/app/conf").exists()


def test_write_over_a_system_file_keeps_its_owner(wctx: StepContext) -> None:
    sh(wctx, "useradd alice && touch /etc/alice.conf && chown alice /etc/alice.conf")
    run_reset("files.write", {"path": "/etc/hosts", "content": "127.0.0.1 localhost\n10.0.0.5 db\n"}, wctx)
    run_reset("files.write", {"path": "/etc/alice.conf", "content": "x = 1\n"}, wctx)
    assert sh(wctx, "getent hosts db") == "10.0.0.5        db\n"
    assert sh(wctx, "stat -c '%U %n' /etc/hosts /etc/alice.conf") == "root /etc/hosts\nalice /etc/alice.conf\n"
    assert Path("/etc/hosts").read_text() != "127.0.0.1 localhost\n10.0.0.5 db\n", "the host's /etc/hosts changed"


def test_mkdir_touch_copy_unzip_chmod_remove(wctx: StepContext) -> None:
    (wctx.files / "site/css").mkdir(parents=True)
    (wctx.files / "site/index.html").write_text("<h1>hi</h1>\n")
    (wctx.files / "site/css/main.css").write_text("h1 {}\n")
    with zipfile.ZipFile(wctx.files / "b.zip", "w") as zf:
        zf.writestr("docs/readme.txt", "read me\n")
    run_reset("files.mkdir", {"path": "/opt/acme/data"}, wctx)
    run_reset("files.touch", {"path": "/var/log/acme/app.log", "mtime": "-2d"}, wctx)
    run_reset("files.copy", {"src": "site", "dst": "/srv/www/"}, wctx)
    run_reset("files.unzip", {"src": "b.zip", "dst": "/srv/unpacked"}, wctx)
    run_reset("files.chmod", {"path": "/srv/www/site/index.html", "mode": "0600"}, wctx)
    not_roots = sh(wctx, "find /opt/acme /var/log/acme /srv ! -user root -printf '%u %p\\n'")
    assert not_roots == "", f"left to a uid the world does not map: {not_roots}"
    assert sh(wctx, "cat /srv/www/site/css/main.css /srv/unpacked/docs/readme.txt") == "h1 {}\nread me\n"
    assert sh(wctx, "stat -c %a /srv/www/site/index.html") == "600\n"
    run_reset("files.remove", {"path": "/srv/www"}, wctx)
    run_reset("files.remove", {"path": "/srv/never-there"}, wctx)
    assert sh(wctx, "ls /srv") == "unpacked\n"


def test_chown_by_names_of_the_world(wctx: StepContext) -> None:
    sh(wctx, "groupadd -g 3000 web && useradd -u 1500 alice && mkdir -p /srv/site/img && touch /srv/site/img/a.png")
    run_reset("files.chown", {"path": "/srv/site", "user": "alice", "recursive": True}, wctx)
    assert sh(wctx, "stat -c '%U:%G' /srv/site /srv/site/img/a.png") == "alice:alice\nalice:alice\n"
    run_reset("files.chown", {"path": "/srv/site/img", "user": "0", "group": "web"}, wctx)
    assert sh(wctx, "stat -c '%U:%G' /srv/site/img /srv/site/img/a.png") == "root:web\nalice:alice\n"
    with pytest.raises(StepFailed, match=r"files.chown: no user 'bob' in /etc/passwd \(users: "):
        run_reset("files.chown", {"path": "/srv/site", "user": "bob"}, wctx)
    with pytest.raises(StepFailed, match="files.chown: .*/srv/nope does not exist"):
        run_reset("files.chown", {"path": "/srv/nope", "user": "root"}, wctx)


def test_a_symlink_of_the_world_never_leads_to_the_host(wctx: StepContext, tmp_path: Path) -> None:
    host_file = tmp_path / "host-secret.txt"
    host_file.write_text("host\n")
    sh(wctx, f"mkdir -p {tmp_path} && ln -s {host_file} /srv/link")
    run_reset("files.write", {"path": "/srv/link", "content": "world\n"}, wctx)
    assert host_file.read_text() == "host\n"
    assert sh(wctx, f"cat {host_file}") == "world\n"  # the world's own file at that path


def test_without_a_world_only_the_workspace_is_written(ctx: StepContext, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "hosts"
    for step, params in [("files.write", {"path": str(outside), "content": "x"}),
                         ("files.mkdir", {"path": "/etc/deskact-test-dir"}),
                         ("files.remove", {"path": "/etc/hostname"}),
                         ("files.chown", {"path": "/etc/hostname", "user": "root"})]:
        with pytest.raises(StepFailed, match=f"{step}: .* is outside the workspace and task t has no world"):
            run_reset(step, params, ctx)
    assert not outside.parent.exists() and not Path("/etc/deskact-test-dir").exists()
    assert Path("/etc/hostname").exists()
    run_reset("files.write", {"path": f"{ctx.workspace}/in/ws.txt", "content": "fine"}, ctx)
    assert (ctx.workspace / "in/ws.txt").read_text() == "fine"


def _victim(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    victim = tmp_path / "victim"
    victim.mkdir(mode=0o750)
    (victim / "f").write_text("host")

    return victim, _victim_state(victim)


@pytest.mark.parametrize(("step", "params"), [
    ("files.write", {"content": "x"}), ("files.remove", {}), ("files.chmod", {"mode": "0777"}),
    ("files.mkdir", {}), ("files.touch", {}), ("files.chown", {"user": "root"}),
])
@pytest.mark.parametrize("below", ["../victim", "../victim/f", "sub/../../victim/f", "../../ws/../victim"])
def test_dot_dot_never_leaves_the_workspace_without_a_world(ctx: StepContext, tmp_path: Path, step: str,
                                                            params: dict[str, str], below: str) -> None:
    """``${WORKSPACE}/../x`` is resolved, not compared as text: it is outside, so it is refused."""
    (ctx.workspace / "sub").mkdir()
    below = below.replace("../../ws", f"../../{ctx.workspace.parent.name}/ws")
    victim, before = _victim(tmp_path)
    with pytest.raises(StepFailed, match="is outside the workspace and task t has no world"):
        run_reset(step, {"path": "${WORKSPACE}/" + below, **params}, ctx)
    assert before == _victim_state(victim)


@pytest.mark.parametrize(("step", "params"), [
    ("files.write", {"content": "x"}), ("files.remove", {}), ("files.chmod", {"mode": "0777"}),
    ("files.mkdir", {}), ("files.touch", {}),
])
def test_a_link_out_of_the_workspace_is_refused_without_a_world(ctx: StepContext, tmp_path: Path, step: str,
                                                                params: dict[str, str]) -> None:
    victim, before = _victim(tmp_path)
    (ctx.workspace / "out").symlink_to(victim)
    with pytest.raises((OSError, StepFailed), match="leads outside the root|does not exist"):
        run_reset(step, {"path": "out/f", **params}, ctx)  # as far as the workspace goes, out/f is nothing
    assert before == _victim_state(victim)
    run_reset("files.write", {"path": "${WORKSPACE}/sub/../inside.txt", "content": "fine"}, ctx)
    assert (ctx.workspace / "inside.txt").read_text() == "fine"  # `..` that stays inside is fine


def _victim_state(victim: Path) -> dict[str, object]:
    return {"listing": sorted(p.name for p in victim.iterdir()), "mode": victim.stat().st_mode,
            "text": (victim / "f").read_text(), "fmode": (victim / "f").stat().st_mode}


def test_a_mode_with_special_bits_survives_loading(ctx: StepContext) -> None:
    """Params are checked when the task loads, then parsed again when the step runs (setgid dirs)."""
    from deskact.runtime.tasks.steps import lookup

    (ctx.workspace / "shared").mkdir()
    params = lookup("reset", "files.chmod").validate({"path": "shared", "mode": "2775"})
    assert params == {"path": "shared", "mode": "2775"}
    run_reset("files.chmod", params, ctx)
    assert (ctx.workspace / "shared").stat().st_mode & 0o7777 == 0o2775
    assert lookup("reset", "files.write").validate({"path": "x", "mode": 0o640})["mode"] == "0640"


def test_world_require(ctx: StepContext, wctx: StepContext) -> None:
    run_reset("world.require", {}, wctx)
    with pytest.raises(StepFailed, match="task t changes the system, so it needs a world, and it has none"):
        run_reset("world.require", {}, ctx)
