"""config.libreoffice: one setting of LibreOffice's registrymodifications.xcu. Verdicts against
OSWorld's metrics on that file: tests/runtime/importers/osworld_conformance/test_conformance_settings.py."""

from __future__ import annotations

from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge

XCU = ('<?xml version="1.0" encoding="UTF-8"?><oor:items xmlns:oor="http://openoffice.org/2001/registry">'
       '<item oor:path="/org.openoffice.Office.Common/Save/Document"><prop oor:name="AutoSaveTimeIntervall">'
       '<value>10</value></prop></item></oor:items>')


def j(ctx: StepContext, **params: object) -> Verdict:
    v = run_judge("config.libreoffice", {"path": "r.xcu", "item": "/org.openoffice.Office.Common/Save/Document",
                                         "prop": "AutoSaveTimeIntervall", **params}, ctx)
    assert not v.error, v.feedback
    return v


def test_setting_value_and_default(ctx: StepContext) -> None:
    (ctx.workspace / "r.xcu").write_text(XCU)
    assert j(ctx, equals="10").passed and j(ctx, equals="010", number=True).passed
    v = j(ctx, equals="3")
    assert not v.passed and "Document/AutoSaveTimeIntervall is '10', not '3'" in v.feedback, v.feedback
    v = j(ctx, equals="3", prop="AutoSave")
    assert not v.passed and "is not set in r.xcu (still the default)" in v.feedback
    (ctx.workspace / "r.xcu").unlink()
    assert "does not exist" in j(ctx, equals="3").feedback


def test_config_rules_expect_and_unexpect(ctx: StepContext) -> None:
    (ctx.workspace / "c.json").write_text('{"a": {"b": "smart"}, "n": 3}')

    def rules(**params: object) -> Verdict:
        return run_judge("config.rules", {"path": "c.json", **params}, ctx)

    assert rules(expect=[{"key": ["a", "b"], "method": "re", "ref": "^sm"}],
                 unexpect=[{"key": ["a", "c"], "method": "eq", "ref": "x"}]).passed
    v = rules(expect=[{"key": ["a", "c"], "method": "eq", "ref": "x"}, {"key": ["n"], "method": "re", "ref": "3"}])
    assert not v.passed and "a.c is missing" in v.feedback and "n = 3 cannot be checked by re" in v.feedback, v.feedback
    v = rules(unexpect=[{"key": ["n"], "method": "gt", "ref": 2}])
    assert not v.passed and "n = 3 matches gt 2" in v.feedback, v.feedback
