"""site.state on right states and near-miss wrong ones, on the web service's real databases."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.tasks.steps import StepContext, load_plugins, run_judge, run_reset
from deskact.toolkits.base import ServiceContext
from deskact.toolkits.web.service import web_service


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    load_plugins()
    with web_service(ServiceContext(0, tmp_path_factory.mktemp("w") / "web", Config())) as handle:
        yield handle.host


@pytest.fixture
def sctx(ctx: StepContext, web: dict) -> StepContext:
    for running in web["sites"].values():
        running.db.reset()
    return replace(ctx, services={"web": web}, config=Config())


def _order(web: dict, items: list[tuple[int, int]], shipping: str = "standard", name: str = "Jordan Lee") -> None:
    db = web["sites"]["shop"].db
    db.reset(sql=[(f"INSERT INTO orders (id, created_at, name, email, address, shipping, total_cents) VALUES "
                  f"(3, 'now', '{name}', 'j@x.example', '4 Hill Road', '{shipping}', 100)"),
                  *(f"INSERT INTO order_items VALUES (3, {p}, {q}, 1)" for p, q in items)])


ITEMS = {"app": "shop", "query": "SELECT product_id, qty FROM order_items WHERE order_id > 2 ORDER BY product_id",
         "expect": [[2, 2]]}
ORDER = {"app": "shop", "table": "orders", "where": {"name": "Jordan Lee", "shipping": "standard",
                                                     "address": {"contains": "hill road"}}, "count": 1}


def test_order_with_these_items(sctx: StepContext, web: dict) -> None:
    _order(web, [(2, 2)])
    assert run_judge("site.state", ITEMS, sctx).passed
    assert run_judge("site.state", ORDER, sctx).passed


@pytest.mark.parametrize(("items", "shipping"), [([(2, 1)], "standard"), ([(2, 2), (7, 1)], "standard"),
                                                 ([(3, 2)], "standard"), ([(2, 2)], "express")])
def test_near_miss_orders_fail(sctx: StepContext, web: dict, items: list, shipping: str) -> None:
    _order(web, items, shipping)
    verdicts = [run_judge("site.state", ITEMS, sctx), run_judge("site.state", ORDER, sctx)]
    assert not all(v.passed for v in verdicts)


def test_failure_says_what_was_found(sctx: StepContext, web: dict) -> None:
    verdict = run_judge("site.state", ITEMS, sctx)  # no order placed
    assert not verdict.passed and "gave None, expected [[2, 2]]" in verdict.feedback
    _order(web, [(2, 2)], name="Jordan Leigh")
    verdict = run_judge("site.state", ORDER, sctx)
    assert not verdict.passed and "has 0 row(s)" in verdict.feedback and "expected exactly 1" in verdict.feedback
    assert "name='Jordan Leigh'" in verdict.feedback  # the latest rows, by the columns asked about


def test_a_post_was_edited(sctx: StepContext, web: dict) -> None:
    judge = {"app": "wiki", "table": "revisions", "where": {"page_id": 2, "summary": "new hours"}, "count": 1}
    body = {"app": "wiki", "query": "SELECT body LIKE '%closes at 18:30%' FROM pages WHERE slug = 'onboarding'",
            "expect": 1}
    assert not run_judge("site.state", judge, sctx).passed
    assert not run_judge("site.state", body, sctx).passed
    wiki = web["sites"]["wiki"].db
    wiki.reset(sql=["UPDATE pages SET body = replace(body, '19:00', '18:30') WHERE id = 2",
                    ("INSERT INTO revisions (page_id, title, body, summary, author, created_at) "
                    "VALUES (2, 'Onboarding', 'x', 'new hours', 'v', 'now')")])
    assert run_judge("site.state", judge, sctx).passed and run_judge("site.state", body, sctx).passed
    wiki.reset(sql=["UPDATE pages SET body = replace(body, '19:00', '18:00') WHERE id = 2"])  # the wrong time
    assert not run_judge("site.state", body, sctx).passed


def test_a_form_was_sent_with_these_values(sctx: StepContext, web: dict) -> None:
    where = {"customer_id": 7, "priority": "urgent", "due_date": "2026-12-15", "message": {"contains": "BLANK"}}
    judge = {"app": "crm", "table": "requests", "where": where, "count": 1}
    crm = web["sites"]["crm"].db
    sent = ("INSERT INTO requests (customer_id, category, priority, subject, message, contact_by, due_date, created_at) "
            "VALUES (7, 'technical', '{p}', 'S', 'A blank page', 'phone', '2026-12-15', 'now')")
    crm.reset(sql=[sent.format(p="high")])
    assert not run_judge("site.state", judge, sctx).passed
    crm.reset(sql=[sent.format(p="urgent")])
    assert run_judge("site.state", judge, sctx).passed
    crm.reset(sql=[sent.format(p="urgent")] * 2)  # sent twice
    assert not run_judge("site.state", judge, sctx).passed
    assert run_judge("site.state", {**judge, "count": None}, sctx).passed  # at least one


def test_where_operators(sctx: StepContext) -> None:
    def n(where: dict) -> bool:
        return run_judge("site.state", {"app": "shop", "table": "products", "where": where}, sctx).passed

    assert n({"price_cents": {"gt": 30000}}) and not n({"price_cents": {"gt": 40000}})
    assert n({"category": {"not": "Office"}, "stock": {"lt": 1}})
    assert n({"description": {"contains": "USB-C"}}) and not n({"description": {"contains": "USB-D"}})


@pytest.mark.parametrize(("params", "message"), [
    ({"app": "shop", "query": "DELETE FROM orders", "expect": 0}, "query must be a single SELECT"),
    ({"app": "shop", "query": "SELECT 1; DROP TABLE orders", "expect": 1}, "query must be a single SELECT"),
    ({"app": "shop", "table": "orders", "where": {"shiping": "x"}}, "shop table 'orders' has no column 'shiping'"),
    ({"app": "shop", "table": "order", "where": {}}, "shop has no table 'order'"),
    ({"app": "shop", "table": "orders", "where": {"name": {"like": "x"}}}, "use one of contains, not"),
])
def test_bad_params_are_errors_naming_the_value(sctx: StepContext, params: dict, message: str) -> None:
    verdict = run_judge("site.state", params, sctx)
    assert verdict.error and not verdict.passed and message in verdict.feedback


def test_params_checked_when_the_task_loads() -> None:
    from deskact.runtime.tasks.steps import lookup

    spec = lookup("judge", "site.state")
    with pytest.raises(ValueError, match="needs exactly one of query, table"):
        spec.validate({"app": "shop"})
    with pytest.raises(ValueError, match="app"):
        spec.validate({"app": "shopp", "table": "orders"})


def test_site_serve_resets_and_needs_a_world(sctx: StepContext, web: dict) -> None:
    shop = web["sites"]["shop"].db
    shop.reset(sql=["DELETE FROM order_items", "DELETE FROM orders"])
    with pytest.raises(Exception, match="needs the task's world"):
        run_reset("site.serve", {"app": "shop"}, sctx)
    assert shop.query("SELECT COUNT(*) FROM orders") == [(2,)]  # reset anyway
    with pytest.raises(Exception, match="shop table 'products' has no column 'prise'"):
        run_reset("site.serve", {"app": "shop", "rows": {"products": [{"id": 1, "prise": 1}]}}, sctx)
    with pytest.raises(Exception, match="add `toolkits: \\[web\\]`"):
        run_reset("site.serve", {"app": "shop"}, replace(sctx, services={}))
    assert isinstance(Path(shop.path), Path)
