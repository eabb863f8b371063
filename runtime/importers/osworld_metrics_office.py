"""OSWorld's Writer and Impress metrics, and those reading LibreOffice's settings -> deskact judges
(``OFFICE``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .common import Untranslatable, escape
from .osworld_metrics_env import (
    PARTIAL,
    MetricEnv,
    Part,
    escaped,
    known_options,
    needs_judge,
    result_and_gold,
    result_file,
    rule_value,
    rules_of,
)


def _compare_docx_files(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "docx.compare")
    opts = known_options(part, {"ignore_blanks", "ignore_case", "ignore_order", "delete_empty_lines"},
                          {"fuzzy_match": PARTIAL, "content_only": PARTIAL})
    path, reference = result_and_gold(env, part)
    if not path.endswith(".docx"):
        raise Untranslatable(f"func {part['func']}: only .docx files are compared (not {path.rsplit('.', 1)[-1]})")
    env.judge("docx.compare", path=path, reference=reference, **opts)


def _compare_docx_ignoring_new_lines(env: MetricEnv, part: Part) -> None:
    """compare_docx_files' text comparison after paragraphs with no text at all are dropped."""
    needs_judge(part["func"], "docx.compare")
    opts = known_options(part, {"ignore_blanks"}, {})
    path, reference = result_and_gold(env, part)
    if not path.endswith(".docx"):
        raise Untranslatable(f"func {part['func']}: only .docx files are compared")
    env.judge("docx.compare", path=path, reference=reference, drop_empty_paragraphs=True, **opts)


def _compare_references(env: MetricEnv, part: Part) -> None:
    """At its full score (the references' mean similarity is 1): the same references."""
    needs_judge(part["func"], "docx.compare")
    opts = known_options(part, {"reference_indicator", "reference_base_result"}, {})
    if float(opts.get("reference_base_result", 0.5)) > 0.99:  # 1 must reach the base + 0.01
        raise Untranslatable("func compare_references: a reference_base_result above 0.99 cannot be reached")
    path, reference = result_and_gold(env, part)
    if not path.endswith(".docx"):
        raise Untranslatable(f"func {part['func']}: only .docx files are compared")
    env.judge("docx.compare", path=path, reference=reference, compare=["references"],
              reference_indicator=escape(opts["reference_indicator"]) if "reference_indicator" in opts else None)


def _compare_docx_part(aspects: list[str]) -> Callable[[MetricEnv, Part], None]:
    def convert(env: MetricEnv, part: Part) -> None:
        needs_judge(part["func"], "docx.compare")
        path, reference = result_and_gold(env, part)
        env.judge("docx.compare", path=path, reference=reference, compare=aspects)

    return convert


def _docx_format(func: str, with_text: bool = False, **checks: Any) -> Callable[[MetricEnv, Part], None]:
    """A Writer metric that checks the result's own formatting (after comparing its text with the
    gold document's, for ``with_text``): docx.format with ``checks``."""

    def convert(env: MetricEnv, part: Part) -> None:
        needs_judge(func, "docx.format")
        if with_text:
            path, reference = result_and_gold(env, part)
            env.judge("docx.compare", path=path, reference=reference)
        else:
            path = result_file(env, part)
        env.judge("docx.format", path=path, **checks)

    return convert


def _check_tabstops(env: MetricEnv, part: Part) -> None:
    """At its full score (1 - the tab stops' summed distance): the same tab stops everywhere."""
    needs_judge(part["func"], "docx.compare")
    opts = known_options(part, {"word_number_split_by_tabstop", "index"}, {})
    path, reference = result_and_gold(env, part)
    env.judge("docx.compare", path=path, reference=reference, compare=["tab_stops"],
              words_before_tab=opts.get("word_number_split_by_tabstop"), tab_index=opts.get("index"))


def _compare_font_names(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "docx.format")
    env.judge("docx.format", path=result_file(env, part), font=escape(str(rule_value(part, "font_name"))))


def _contains_page_break(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "docx.format")
    if not (part.get("expected") or {}).get("type"):
        raise Untranslatable("func contains_page_break: OSWorld calls it without its rules argument here, so the"
                             " metric raises and the task never passes")
    count = rules_of(part).get("page_break_count")
    env.judge("docx.format", path=result_file(env, part), page_breaks=count, any_page_break=True)


def _pptx_format(func: str, rule_params: dict[str, str], **fixed: Any) -> Callable[[MetricEnv, Part], None]:
    """An Impress metric on the result alone: pptx.format with ``fixed`` params and those its rule
    gives (rule key -> judge param)."""

    def convert(env: MetricEnv, part: Part) -> None:
        needs_judge(func, "pptx.format")
        params = {param: escaped(rule_value(part, key)) for key, param in rule_params.items()}
        env.judge("pptx.format", path=result_file(env, part), **fixed, **params)

    return convert


def _pptx_background(env: MetricEnv, part: Part) -> None:
    """At its full score (1 - the mean distance to the colour): every slide's background is it."""
    needs_judge(part["func"], "pptx.format")
    rules = rules_of(part)
    env.judge("pptx.format", path=result_file(env, part), background_rgb=list(rule_value(part, "rgb")),
              not_background_rgb=rules.get("original_rgb"))


def _pptx_stretched(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "pptx.format")
    path, reference = result_and_gold(env, part)
    env.judge("pptx.format", path=path, stretched_picture_of=reference)


_LO_SETTINGS: dict[str, tuple[str, str, str | None, dict[str, Any]]] = {
    "check_presenter_console_disable": ("/org.openoffice.Office.Impress/Misc/Start", "EnablePresenterScreen", None,
                                        {"equals": "false", "ignore_case": True, "occurrence": "first"}),
    "check_auto_saving_time": ("/org.openoffice.Office.Common/Save/Document", "AutoSaveTimeIntervall", "minutes",
                               {"number": True}),
    "find_default_font": ("/org.openoffice.Office.Writer/DefaultFont", "Standard", "font_name", {}),
}
"""Metrics reading one setting of LibreOffice's registrymodifications.xcu: item path, prop, the
rule key giving the expected value (None: fixed in the params), judge params."""


def _libreoffice_setting(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "config.libreoffice")
    item, prop, key, params = _LO_SETTINGS[part["func"]]
    expected = {"equals": escape(str(rule_value(part, key)))} if key else {}
    env.judge("config.libreoffice", path=result_file(env, part), item=item, prop=prop, **params, **expected)


_PPTX_ASPECTS = ("number_of_slides", "shape", "text", "indent", "font_name", "font_size", "font_bold",
                 "font_italic", "color_rgb", "font_underline", "strike_through", "alignment", "bullets",
                 "background_color", "note")


_PPTX_EXTRAS = ("image_size", "modify_height", "title_bottom_position", "table_bottom_position",
                "right_position", "top_position", "shape_for_shift_size")


def _compare_pptx_files(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "pptx.compare")
    read = {f"examine_{a}" for a in _PPTX_ASPECTS + _PPTX_EXTRAS} | {"approximately_tolerance"}
    opts = known_options(part, read, {})
    unread = sorted(set(part.get("options") or {}) - read - {"enable_debug"})
    if unread:
        env.out.notes.append(f"compare_pptx_files ignores options {unread} (as OSWorld does: it never reads them)")
    path, reference = result_and_gold(env, part)
    ignore = [a for a in _PPTX_ASPECTS if opts.get(f"examine_{a}") is False]
    extra = [a for a in _PPTX_EXTRAS if opts.get(f"examine_{a}")]
    env.judge("pptx.compare", path=path, reference=reference, ignore=ignore or None, extra=extra or None,
              tolerance=opts.get("approximately_tolerance"))


def _check_highlighted_words(env: MetricEnv, part: Part) -> None:
    """compare_docx_files' defaults on two .odt files (odt.same_text), then no span in yellow
    (``#ffff00`` exactly, the one colour the metric looks for)."""
    needs_judge(part["func"], "odt.no_highlight")
    path, reference = result_and_gold(env, part)
    if not (path.endswith(".odt") and reference.endswith(".odt")):
        raise Untranslatable("func check_highlighted_words: translated for two .odt files (the metric reads the"
                             " result with odfpy)")
    env.judge("odt.same_text", path=path, reference=reference)
    env.judge("odt.no_highlight", path=path, colour="#ffff00")


def _evaluate_colored_words_in_tables(env: MetricEnv, part: Part) -> None:
    """compare_docx_files with its defaults, then each table word's colour by its first letter
    (CIEDE2000 within ``threshold``, 3.5 unless the options say)."""
    needs_judge(part["func"], "docx.table_word_colours")
    opts = known_options(part, {"threshold"}, {})
    _compare_docx_files(env, {**part, "func": "compare_docx_files", "options": {}})
    env.judge("docx.table_word_colours", path=result_file(env, part), **opts)


OFFICE: dict[str, Callable[[MetricEnv, Part], None]] = {
    "evaluate_colored_words_in_tables": _evaluate_colored_words_in_tables,
    "check_highlighted_words": _check_highlighted_words,
    "compare_docx_files": _compare_docx_files,
    "compare_docx_files_and_ignore_new_lines": _compare_docx_ignoring_new_lines,
    "compare_docx_tables": _compare_docx_part(["tables"]),
    "compare_line_spacing": _compare_docx_part(["text", "line_spacing"]),
    "compare_docx_lines": _compare_docx_part(["line_set"]),
    "compare_subscript_contains": _compare_docx_part(["subscript"]),
    "compare_contains_image": _compare_docx_part(["images"]),
    "compare_docx_images": _compare_docx_part(["pictures"]),
    "compare_references": _compare_references,
    "check_tabstops": _check_tabstops,
    "check_italic_font_size_14": _docx_format("check_italic_font_size_14", with_text=True, italic_size=14),
    "evaluate_strike_through_last_paragraph": _docx_format("evaluate_strike_through_last_paragraph", with_text=True,
                                                           last_paragraph_struck=True),
    "is_first_line_centered": _docx_format("is_first_line_centered", first_line_centered=True),
    "has_page_numbers_in_footers": _docx_format("has_page_numbers_in_footers", footer_page_numbers=True),
    "compare_font_names": _compare_font_names,
    "contains_page_break": _contains_page_break,
    "compare_pptx_files": _compare_pptx_files,
    "check_slide_orientation_Portrait": _pptx_format("check_slide_orientation_Portrait", {}, portrait=True),
    "check_transition": _pptx_format("check_transition", {"slide_idx": "transition_slide",
                                                          "transition_type": "transition"}),
    "check_page_number_colors": _pptx_format("check_page_number_colors", {"color": "number_color"}),
    "evaluate_presentation_fill_to_rgb_distance": _pptx_background,
    "check_image_stretch_and_center": _pptx_stretched,
    **dict.fromkeys(_LO_SETTINGS, _libreoffice_setting),
}
