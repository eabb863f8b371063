"""OSWorld metrics on command output, text files, JSON and images -> deskact judges (``FILES``)."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import PurePosixPath

from .common import NULL, Untranslatable, escape, step
from .osworld_metrics_env import (
    MetricEnv,
    Part,
    command_of,
    escaped,
    known_options,
    literal,
    needs_judge,
    result_and_gold,
    result_file,
    rules_of,
    text_result,
)


def _lacks(text: str) -> str:
    """A regex that matches a text not containing ``text`` anywhere (``\\A`` anchors it once)."""
    return escape(r"\A(?![\s\S]*" + literal(text) + ")")


def _exact_match(env: MetricEnv, part: Part) -> None:
    """``result == expected``: the whole output, its final newline included (``\\Z`` is the very end)."""
    cmd, expected = command_of(env, part), str(rules_of(part)["expected"])
    env.judge("shell.output", cmd=cmd, regex=escape(r"\A" + literal(expected) + r"\Z"), exit_code=NULL)


def _is_in_list(env: MetricEnv, part: Part) -> None:
    """``expected in result`` on a command's output (a string) is a substring test."""
    cmd, expected = command_of(env, part), str(rules_of(part)["expected"])
    env.judge("shell.output", cmd=cmd, contains=escape(expected), exit_code=NULL)


def _check_direct_json_object(env: MetricEnv, part: Part) -> None:
    """On a command's output (the getters that read a browser are the chrome domain's)."""
    needs_judge(part["func"], "shell.json_object")
    cmd, rules = command_of(env, part), rules_of(part)
    if not isinstance(rules.get("expected"), dict):
        raise Untranslatable("func check_direct_json_object: its rule has no expected object")
    unread = sorted(set(rules) - {"expected", "expect_in_result"})
    if unread:
        env.out.notes.append(f"check_direct_json_object ignores rule keys {unread} (as OSWorld does)")
    env.judge("shell.json_object", cmd=cmd, expected=escaped(rules.get("expected") or {}),
              expect_in_result=bool(rules.get("expect_in_result")) or None)


def _check_include_exclude(env: MetricEnv, part: Part) -> None:
    rules = rules_of(part)
    result = part.get("result") or {}
    if result.get("type") == "vm_terminal_output":
        # OSWorld reads the text of the terminal it opens with ctrl+alt+t: a terminal opened at
        # reset, read back with terminal.text.
        if not any("apps.terminal" in s for s in env.out.reset):
            env.out.reset.append(step("reset", "apps.terminal"))
            env.out.notes.append("a terminal window is opened at reset (OSWorld reads its text)")
        for text in rules.get("include", []):
            env.judge("terminal.text", contains=escape(text))
        for text in rules.get("exclude", []):
            env.judge("terminal.text", regex=_lacks(text))
        return
    cmd = command_of(env, part)
    for text in rules.get("include", []):
        env.judge("shell.output", cmd=cmd, contains=escape(text), exit_code=NULL)
    for text in rules.get("exclude", []):
        env.judge("shell.output", cmd=cmd, regex=_lacks(text), exit_code=NULL)
    if rules.get("exclude") and not rules.get("include"):
        # The agent must remove something OSWorld's VM image has (os-ddc75b62: uninstall Mahjongg).
        # Where the world lacks it, doing nothing would pass: the reset checks it is there first,
        # so such a task is an error, never a pass.
        present = " && ".join(f"printf '%s' \"$$out\" | grep -qF -e {shlex.quote(escape(text))}"
                              for text in rules["exclude"])  # $$: a literal $ in a deskact step
        env.out.reset.append(step("reset", "shell.run", cmd=f"out=$$({cmd} 2>&1); {present}"))
        env.out.notes.append("the reset checks that what the agent must remove is there at the start"
                             " (OSWorld's image has it)")


def _check_list(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "files.lines")
    rules = rules_of(part)
    env.judge("files.lines", path=text_result(env, part), expect=[escape(r) for r in rules.get("expect", [])],
              unexpect=[escape(r) for r in rules.get("unexpect", [])])


def _compare_text_file(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "files.compare_text")
    opts = known_options(part, {"ignore_blanks", "ignore_case"}, {})
    path, reference = result_and_gold(env, part)
    env.judge("files.compare_text", path=path, reference=reference, **opts)


def _diff_text_file(env: MetricEnv, part: Part) -> None:
    """difflib's ratio of the two files' lines is 1 only when the lines are the same."""
    needs_judge(part["func"], "files.compare_text")
    path, reference = result_and_gold(env, part)
    env.judge("files.compare_text", path=path, reference=reference, by_lines=True)


def _compare_result_files(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "files.compare_text")
    path, reference = result_and_gold(env, part)
    env.judge("files.compare_text", path=path, reference=reference, result_number=True)


def _check_json(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "config.rules")
    opts = known_options(part, {"is_yaml"}, {})
    rules = rules_of(part)
    env.judge("config.rules", path=result_file(env, part), expect=escaped(rules.get("expect") or []),
              unexpect=escaped(rules.get("unexpect") or []), yaml_file=bool(opts.get("is_yaml")) or None)


def _compare_images(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "image.same_gray")
    known_options(part, set(), {"reference_base_result": "scores the gain over a base similarity, not a match"})
    path, reference = result_and_gold(env, part)
    env.judge("image.same_gray", path=path, reference=reference)


def _compare_image_list(env: MetricEnv, part: Part) -> None:
    """A list of images, each the same as its gold one; a multi getter gives the metric only the
    first of each list (gives: [0]), so only those are compared, as in OSWorld."""
    needs_judge(part["func"], "image.identical")
    path, reference = result_and_gold(env, part)
    env.judge("image.identical", path=path, reference=reference)


def _compare_pdfs(env: MetricEnv, part: Part) -> None:
    """rapidfuzz's ratio of the two PDFs' texts is 1 only for equal texts (two empty ones too); a
    missing or unreadable file scores 0. Lists of PDFs score the mean over pairs (by position), which
    is 1 only when every pair scores 1: one ``pdf.same_text`` per pair."""
    needs_judge(part["func"], "pdf.same_text")
    if not any((part.get(k) or {}).get("multi") for k in ("result", "expected")):
        path, reference = result_and_gold(env, part)
        env.judge("pdf.same_text", path=path, reference=reference)
        return
    sides = {(part.get(k) or {}).get("type"): _given_files(part, k) for k in ("result", "expected")}
    if set(sides) != {"vm_file", "cloud_file"}:
        raise Untranslatable(f"func compare_pdfs: lists of PDFs are translated for a vm_file and a cloud_file getter,"
                             f" not {sorted(map(str, sides))}")
    agent, gold = sides["vm_file"], sides["cloud_file"]
    if len(agent) != len(gold):
        raise Untranslatable(f"func compare_pdfs: {len(agent)} files against {len(gold)}: pairs cut at the shorter list")
    for (path, _), (url, name) in zip(agent, gold):
        env.judge("pdf.same_text", path=env.agent_path(path), reference=env.gold(url, name))


def _given_files(part: Part, where: str) -> list[tuple[str, str]]:
    """(path or URL, local name) of the files a ``multi`` getter gives the metric, in the getter's order:
    those whose index is in ``gives`` (a set in OSWorld: order and repeats in it do not matter)."""
    spec = part.get(where) or {}
    paths, dests = spec.get("path"), spec.get("dest")
    if not spec.get("multi"):
        return [(str(paths), str(dests or PurePosixPath(str(paths)).name))]
    if not isinstance(paths, list) or not isinstance(dests, list) or len(paths) != len(dests):
        raise Untranslatable(f"{where} multi: needs lists of paths and dests of the same length")
    gives = set(spec.get("gives", [0]))
    return [(str(p), str(d)) for i, (p, d) in enumerate(zip(paths, dests)) if i in gives]


def _check_pdf_pages(env: MetricEnv, part: Part) -> None:
    """PyPDF2's page count against ``ref_value`` by ``relation`` (an operator module name)."""
    needs_judge(part["func"], "pdf.pages")
    rules = rules_of(part)
    relation, count = rules.get("relation"), rules.get("ref_value")
    if relation not in ("eq", "ne", "lt", "le", "gt", "ge") or not isinstance(count, int):
        raise Untranslatable(f"func check_pdf_pages: relation {relation!r} to {count!r} is not a page count comparison")
    env.judge("pdf.pages", path=result_file(env, part), relation=relation, count=count)


def _compare_python_pure_text(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "pysource.same_text")
    path, reference = result_and_gold(env, part)
    env.judge("pysource.same_text", path=path, reference=reference)


def _check_csv(env: MetricEnv, part: Part) -> None:
    """csv.DictReader's records against expect/unexpect records (every key, the exact text). With
    only unexpect records, the file must name their fields on its first line: a tool that wrote
    nothing (thunderbird-bb5e4c0d's firefox_decrypt) would otherwise pass a do-nothing agent."""
    needs_judge(part["func"], "csv.records")
    rules = rules_of(part)
    expect, unexpect = rules.get("expect") or [], rules.get("unexpect") or []
    if not all(isinstance(r, dict) for r in [*expect, *unexpect]) or set(rules) - {"expect", "unexpect"}:
        raise Untranslatable("func check_csv: rules other than expect/unexpect lists of records")
    fields = sorted({k for r in unexpect for k in r}) if not expect else None
    env.judge("csv.records", path=text_result(env, part), expect=escaped(expect) or None,
              unexpect=escaped(unexpect) or None, fields=fields)
    if fields:
        env.out.notes.append("check_csv with only unexpected records: the CSV must name their fields on its first line")


def _check_moved_jpgs(env: MetricEnv, part: Part) -> None:
    """The names of a ``list_directory`` tree's top-level entries (files and folders alike) against
    the expected names: as many, and the same set (a name expected twice is never met)."""
    needs_judge(part["func"], "files.names")
    result, names = part.get("result") or {}, rules_of(part).get("expected")
    if result.get("type") != "list_directory" or not isinstance(result.get("path"), str):
        raise Untranslatable(f"result type {result.get('type')}: check_moved_jpgs is translated for list_directory")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise Untranslatable("func check_moved_jpgs: its rule's expected is not a list of names")
    env.judge("files.names", dir=env.agent_path(result["path"]), names=escaped(names))


FILES: dict[str, Callable[[MetricEnv, Part], None]] = {
    "exact_match": _exact_match,
    "check_include_exclude": _check_include_exclude,
    "is_in_list": _is_in_list,
    "check_direct_json_object": _check_direct_json_object,
    "check_list": _check_list,
    "check_json": _check_json,
    "compare_text_file": _compare_text_file,
    "diff_text_file": _diff_text_file,
    "compare_result_files": _compare_result_files,
    "compare_images": _compare_images,
    "compare_image_list": _compare_image_list,
    "compare_pdfs": _compare_pdfs,
    "check_pdf_pages": _check_pdf_pages,
    "compare_python_pure_text": _compare_python_pure_text,
    "check_csv": _check_csv,
    "check_moved_jpgs": _check_moved_jpgs,
}
