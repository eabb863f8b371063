"""thunderbird.prefs and thunderbird.filters on profile files as Thunderbird writes them."""

from deskact.judges.thunderbird import read_filters
from deskact.runtime.tasks.steps import StepContext, run_judge


def test_prefs(ctx: StepContext) -> None:
    (ctx.workspace / "prefs.js").write_text('// Mozilla User Preferences\nuser_pref("a.b", false);\n'
                                            'user_pref("sig", "Anonym\\nXYZ Lab");\nuser_pref("c", 3);\n')
    ok = {"a.b": {"method": "eq", "ref": False}, "sig": {"method": "re.S", "ref": "Anonym.+Lab"}}
    v = run_judge("thunderbird.prefs", {"path": "prefs.js", "expect": ok, "unexpect": {"c": {"method": "gt", "ref": 3}}}, ctx)
    assert v.passed and not v.error, v.feedback
    v = run_judge("thunderbird.prefs", {"path": "prefs.js", "expect": {"a.b": {"method": "eq", "ref": True},
                                                                        "d": {"method": "eq", "ref": 1}}}, ctx)
    assert not v.passed and "a.b is False (wanted eq True)" in v.feedback and "d is not set" in v.feedback
    v = run_judge("thunderbird.prefs", {"path": "prefs.js", "unexpect": {"c": {"method": "ge", "ref": 3}}}, ctx)
    assert not v.passed and "c = 3 should not be" in v.feedback
    assert not run_judge("thunderbird.prefs", {"path": "none.js", "expect": ok}, ctx).passed


def test_filters(ctx: StepContext) -> None:
    text = ('version="9"\nlogging="no"\nname="fwd"\nenabled="yes"\ntype="17"\naction="Forward"\n'
            'actionValue="a@b.org"\ncondition="ALL"\nname="promo"\nenabled="no"\ntype="17"\naction="Move to folder"\n'
            'actionValue="mailbox://x"\ncondition="AND (subject,contains,discount) OR (from,is,\\"shop\\")"\n')
    assert [f["condition"] for f in read_filters(text)] == [
        ["ALL"], ["AND (subject,contains,discount)", 'OR (from,is,"shop")']]
    (ctx.workspace / "msgFilterRules.dat").write_text(text)
    v = run_judge("thunderbird.filters", {"path": "msgFilterRules.dat", "expect": [
        {"action": "Forward", "actionValue": "a@b.org", "condition": ["ALL"]}]}, ctx)
    assert v.passed, v.feedback
    v = run_judge("thunderbird.filters", {"path": "msgFilterRules.dat", "expect": [{"name": "promo", "enabled": "yes"}],
                                          "unexpect": [{"action": "Forward"}]}, ctx)
    assert not v.passed and "no filter matches" in v.feedback and "filter 'fwd' should not be there" in v.feedback
    (ctx.workspace / "bad.dat").write_text('enabled="yes"\n')
    assert "before any name=" in run_judge("thunderbird.filters", {"path": "bad.dat", "expect": [{}]}, ctx).feedback


def test_unknown_method_is_an_error(ctx: StepContext) -> None:
    (ctx.workspace / "prefs.js").write_text('user_pref("a", 1);\n')
    v = run_judge("thunderbird.prefs", {"path": "prefs.js", "expect": {"a": {"method": "like", "ref": 1}}}, ctx)
    assert v.error and "known method" in v.feedback
