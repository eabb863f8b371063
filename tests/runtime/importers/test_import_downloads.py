"""--fetch and mirror files: every input and gold file fetched once into the suite, within limits,
never written outside --out; a local HTTP server on 127.0.0.1 stands in for the file hosts."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from deskact.runtime.importers import ImportOptions
from deskact.runtime.importers.common import SUITE_FILE, ImportError_
from deskact.runtime.importers.downloads import load_mirror
from deskact.runtime.importers.osworld import import_osworld
from deskact.runtime.tasks.task import load_tasks

DRIVE = "https://drive.usercontent.google.com/download?id={}&export=download"


def calc_task(uid: str, gold_id: str, inputs: dict[str, str] | None = None) -> dict[str, Any]:
    """An OSWorld compare_table task whose input and gold workbooks come from Drive ids."""
    files = [{"url": DRIVE.format(i), "path": f"/home/user/{name}"} for i, name in (inputs or {}).items()]
    return {"id": uid, "snapshot": "libreoffice_calc", "instruction": "Fix the sheet.",
            "config": [{"type": "download", "parameters": {"files": files}}] if files else [],
            "evaluator": {"func": "compare_table",
                          "result": {"type": "vm_file", "path": "/home/user/Book.xlsx", "dest": "Book.xlsx"},
                          "expected": {"type": "cloud_file", "path": DRIVE.format(gold_id), "dest": "Book_gold.xlsx"},
                          "options": {"rules": [{"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": "EI0"}]}}}


def write_tasks(root: Path, tasks: list[dict[str, Any]]) -> Path:
    (root / "libreoffice_calc").mkdir(parents=True)
    for t in tasks:
        (root / "libreoffice_calc" / f"{t['id']}.json").write_text(json.dumps(t))
    return root


def mirror_to(file_host: Any, tasks: Path, at: Path) -> Path:
    return file_host.mirror(tasks, at / "mirror.json")


def test_fetch_puts_inputs_and_gold_in_the_suite_each_url_once(tmp_path: Path, file_host: Any) -> None:
    """26 different gold files stay 26 files (a folder mirror once made 2 of them), and a URL two
    tasks share is fetched once."""
    for n in range(26):
        file_host.served[f"gold{n}"] = f"gold workbook {n}".encode()
    tasks = [calc_task(f"{n:08d}-task", f"gold{n}", {"in-shared": "Book.xlsx"}) for n in range(26)]
    src = write_tasks(tmp_path / "src", tasks)
    before = file_host.hits()
    report = import_osworld(src, ImportOptions(out=tmp_path / "suite", fetch=True,
                                               mirror=mirror_to(file_host, src, tmp_path)))
    assert len(report.converted) == 26 and not report.skipped
    assert file_host.hits() - before == 27  # 26 gold files and the shared input once
    golds = sorted((tmp_path / "suite" / "gold").rglob("*.xlsx"))
    assert len(golds) == 26 and len({g.read_bytes() for g in golds}) == 26
    suite = yaml.safe_load((tmp_path / "suite" / SUITE_FILE).read_text())["tasks"]
    copy = next(s["files.copy"] for s in suite[0]["reset"] if "files.copy" in s)
    assert copy == {"src": "osworld-libreoffice-calc-00000000/Book.xlsx", "dst": "${HOME}/Book.xlsx"}
    assert (tmp_path / "suite" / "files" / copy["src"]).read_bytes().startswith(b"file for /m/")
    assert not (tmp_path / "suite" / ".downloads").exists()
    loaded = load_tasks([tmp_path / "suite"])
    assert not loaded.invalid and len(loaded.tasks) == 26


def test_without_fetch_inputs_stay_downloads_through_the_mirror(tmp_path: Path, file_host: Any) -> None:
    src = write_tasks(tmp_path / "src", [calc_task("00000001-a", "g", {"in1": "Book.xlsx"})])
    import_osworld(src, ImportOptions(out=tmp_path / "suite", mirror=mirror_to(file_host, src, tmp_path)))
    (task,) = yaml.safe_load((tmp_path / "suite" / SUITE_FILE).read_text())["tasks"]
    (download,) = [s["files.download"] for s in task["reset"] if "files.download" in s]
    assert download == {"url": file_host.url_for(DRIVE.format("in1")), "path": "${HOME}/Book.xlsx"}
    assert not (tmp_path / "suite" / "files").exists()


def test_mirror_file_local_paths_and_checks(tmp_path: Path) -> None:
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "gold.xlsx").write_bytes(b"local gold")
    digest = hashlib.sha256(b"local gold").hexdigest()
    mirror = tmp_path / "mirror.yaml"
    mirror.write_text(yaml.safe_dump({DRIVE.format("g"): {"path": "cache/gold.xlsx", "sha256": digest, "size": 10}}))
    src = write_tasks(tmp_path / "src", [calc_task("00000001-a", "g")])
    report = import_osworld(src, ImportOptions(out=tmp_path / "suite", mirror=mirror))
    assert len(report.converted) == 1
    (gold,) = (tmp_path / "suite" / "gold").rglob("*.xlsx")
    assert gold.read_bytes() == b"local gold"
    mirror.write_text(yaml.safe_dump({DRIVE.format("g"): {"path": "cache/gold.xlsx", "sha256": "0" * 64}}))
    report = import_osworld(src, ImportOptions(out=tmp_path / "suite2", mirror=mirror))
    assert report.skipped[0].reasons == [f"download: the mirror's copy of {DRIVE.format('g')} does not have sha256 {'0' * 64}"]
    assert not list((tmp_path / "suite2").rglob("*.xlsx"))


def test_mirror_file_must_map_urls(tmp_path: Path) -> None:
    bad = tmp_path / "m.yaml"
    bad.write_text("- just a list\n")
    with pytest.raises(ImportError_, match="maps source URLs to a local path or URL"):
        load_mirror(bad)
    bad.write_text(yaml.safe_dump({"https://x/a?id=1": {"url": "http://a", "path": "b"}}))
    with pytest.raises(ImportError_, match="needs exactly one of url and path"):
        load_mirror(bad)
    # An URL with '=' in it is one key, not a prefix split at the first '='.
    bad.write_text(yaml.safe_dump({"https://x/a?id=1&e=2": "http://127.0.0.1:1/one"}))
    assert load_mirror(bad)["https://x/a?id=1&e=2"].url == "http://127.0.0.1:1/one"


def test_size_cap_and_deadline_become_reasons(tmp_path: Path, file_host: Any) -> None:
    file_host.served["big"] = b"x" * 5000
    src = write_tasks(tmp_path / "src", [calc_task("00000001-a", "big"), calc_task("00000002-b", "g2")])
    mirror = mirror_to(file_host, src, tmp_path)
    report = import_osworld(src, ImportOptions(out=tmp_path / "s1", mirror=mirror, max_total_bytes=1000))
    big = next(s for s in report.skipped if s.source_id == "00000001-a")
    assert "larger than max_bytes=1000" in big.reasons[0]
    assert [c.source_id for c in report.converted] == ["00000002-b"]
    report = import_osworld(src, ImportOptions(out=tmp_path / "s2", mirror=mirror, deadline=0))
    assert len(report.skipped) == 2
    assert all("download deadline of 0 s had passed" in s.reasons[0] for s in report.skipped)


def test_a_task_file_cannot_steer_writes_out_of_the_suite(tmp_path: Path, file_host: Any) -> None:
    evil = calc_task("../../../escaped", "g")
    evil["evaluator"]["expected"]["dest"] = "../../../../escaped.xlsx"
    named = calc_task("00000001-ok", "g")
    named["evaluator"]["expected"]["dest"] = "../../../../escaped.xlsx"
    (tmp_path / "src" / "libreoffice_calc").mkdir(parents=True)
    (tmp_path / "src" / "libreoffice_calc" / "a.json").write_text(json.dumps(evil))
    (tmp_path / "src" / "libreoffice_calc" / "b.json").write_text(json.dumps(named))
    report = import_osworld(tmp_path / "src", ImportOptions(out=tmp_path / "suite",
                                                            mirror=mirror_to(file_host, tmp_path / "src", tmp_path)))
    assert report.skipped[0].reasons[0].startswith("id: '../../../escaped'")
    (ok,) = report.converted
    written = [p for p in tmp_path.rglob("*") if p.is_file() and "src" not in p.parts]
    assert all(p.is_relative_to(tmp_path / "suite") or p.name == "mirror.json" for p in written)
    assert (tmp_path / "suite" / "gold" / ok.task_id / "escaped.xlsx").is_file()


def test_cli_fetch_with_a_mirror_file(tmp_path: Path, file_host: Any) -> None:
    from deskact.runtime.ui.cli import app
    from typer.testing import CliRunner

    src = write_tasks(tmp_path / "src", [calc_task("00000001-a", "g", {"in1": "Book.xlsx"})])
    mirror = mirror_to(file_host, src, tmp_path)
    res = CliRunner().invoke(app, ["import", "osworld", str(src), "--out", str(tmp_path / "s"), "--fetch",
                                   "--mirror", str(mirror), "--deadline", "60"])
    assert res.exit_code == 0, res.output
    assert "1/1 tasks converted" in res.output
    assert (tmp_path / "s" / "files" / "osworld-libreoffice-calc-00000001" / "Book.xlsx").is_file()
