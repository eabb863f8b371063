"""A reset leaves the same state every time, whatever the app's last task did to it."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from deskact.toolkits.web.apps import APPS
from deskact.toolkits.web.db import SiteDB, SiteDBError

# What an agent might do in each app between two resets.
MESS = {
    "shop": [("post", "/cart/add", {"product_id": 2, "qty": 2}),
             ("post", "/checkout", {"name": "A", "email": "a@x.example", "address": "B", "shipping": "express"}),
             ("post", "/orders/2/cancel", {})],
    "wiki": [("post", "/wiki/parking/edit", {"title": "P", "body": "gone"}),
             ("post", "/new", {"title": "New", "category": "HR", "body": "x"}),
             ("post", "/wiki/welcome/comment", {"body": "hi"})],
    "crm": [("post", "/customers/6/delete", {}),
            ("post", "/settings", {"company_name": "X", "support_email": "a@b", "currency": "JPY", "timezone": "UTC",
                                   "page_size": "5", "theme": "dark"}),
            ("post", "/requests/1/close", {})],
}


@pytest.mark.parametrize("name", sorted(APPS))
def test_a_reset_restores_the_seed_every_time(client, name: str) -> None:
    c, db = client(name)
    seeded = db.dump()
    pages = db.path.read_bytes()
    for _ in range(3):
        for method, url, data in MESS[name]:
            assert getattr(c, method)(url, data=data).status_code in (200, 302)
        assert db.dump() != seeded
        db.reset()
        assert db.dump() == seeded
        # Same pages too, but for the header's change counter (bytes 24-27 and 92-99).
        now = db.path.read_bytes()
        assert len(now) == len(pages) and now[100:] == pages[100:]


def test_seeds_empty_schema_and_unknown(client) -> None:
    _, db = client("shop")
    db.reset("empty")
    assert db.query("SELECT COUNT(*) FROM products") == [(0,)]
    with pytest.raises(SiteDBError, match="shop has no seed 'nope'; seeds: empty, default"):
        db.reset("nope")


def test_rows_update_given_columns_or_insert(client) -> None:
    _, db = client("shop")
    db.reset(rows={"products": [{"id": 7, "rating": 4.9}],
                   "cart_items": [{"product_id": 8, "qty": 2}]},
             sql=["UPDATE coupons SET active = 1 WHERE code = 'SPRING25'"])
    assert db.query("SELECT name, rating FROM products WHERE id = 7") == [("Bluetooth Speaker", 4.9)]
    assert db.query("SELECT * FROM cart_items") == [(8, 2)]
    assert db.query("SELECT active FROM coupons WHERE code = 'SPRING25'") == [(1,)]
    db.reset()
    assert db.query("SELECT rating FROM products WHERE id = 7") == [(4.1,)]


@pytest.mark.parametrize(("rows", "message"), [
    ({"product": [{"id": 1}]}, "shop has no table 'product'; tables: cart_items, coupons, order_items"),
    ({"products": [{"id": 1, "prise": 3}]}, "shop table 'products' has no column 'prise'; columns: id, sku"),
])
def test_bad_rows_name_the_table_or_column(client, rows, message: str) -> None:
    _, db = client("shop")
    with pytest.raises(SiteDBError, match=message.replace("(", r"\(")):
        db.reset(rows=rows)


def test_a_bad_statement_names_the_app(client) -> None:
    _, db = client("wiki")
    with pytest.raises(SiteDBError, match="wiki: no such table: page"):
        db.reset(sql=["DELETE FROM page"])


def test_reset_waits_for_a_request_in_flight(tmp_path) -> None:
    """A write transaction open in the app holds the file; the reset copies after it, never into it."""
    db = SiteDB(APPS["crm"], tmp_path / "crm.db")
    db.reset()
    writer = sqlite3.connect(db.path, timeout=10)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("DELETE FROM customers WHERE id = 6")
    done = threading.Event()
    thread = threading.Thread(target=lambda: (db.reset(), done.set()))
    thread.start()
    assert not done.wait(0.3)
    writer.commit()
    writer.close()
    thread.join(30)
    assert done.is_set() and db.query("SELECT COUNT(*) FROM customers") == [(16,)]
    db.close()
