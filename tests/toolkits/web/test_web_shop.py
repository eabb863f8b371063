"""The shop's pages and flows, through Flask's test client on a real SQLite file."""

from __future__ import annotations

CUSTOMER = {"name": "Jordan Lee", "email": "jordan@example.com", "address": "4 Hill Road", "shipping": "standard"}


def test_search_category_and_sort(client) -> None:
    c, _ = client("shop")
    page = c.get("/search?q=mouse").get_data(as_text=True)
    assert "Wireless Mouse" in page and "Kettle" not in page and "1 product(s)" in page
    page = c.get("/search?category=Kitchen&sort=price").get_data(as_text=True)
    assert "5 product(s)" in page and page.index("Ceramic Mug Set") < page.index("Electric Kettle")
    assert "Wireless Mouse" not in page
    assert c.get("/search?q=nothing-like-this").get_data(as_text=True).count("<tr>") == 1  # the header row


def test_product_page_and_missing_product(client) -> None:
    c, _ = client("shop")
    page = c.get("/product/3").get_data(as_text=True)
    assert "27-inch 4K Monitor" in page and "$329.00" in page and 'name="qty"' in page
    assert "Out of stock" in c.get("/product/5").get_data(as_text=True)
    assert c.get("/product/999").status_code == 404


def test_cart_add_update_remove_and_stock_limit(client) -> None:
    c, db = client("shop")
    assert c.post("/cart/add", data={"product_id": 2, "qty": 2}).status_code == 302
    c.post("/cart/add", data={"product_id": 2, "qty": 1})
    assert db.query("SELECT product_id, qty FROM cart_items") == [(2, 3)]
    refused = c.post("/cart/add", data={"product_id": 18, "qty": 4}, follow_redirects=True).get_data(as_text=True)
    assert "Only 3 of Ergonomic Office Chair in stock" in refused
    c.post("/cart/add", data={"product_id": 7, "qty": 1})
    assert "$120.96" in c.get("/cart").get_data(as_text=True)  # 3 x 24.99 + 45.99
    c.post("/cart/update", data={"qty_2": "1", "qty_7": "1", "remove": "7"})
    assert db.query("SELECT product_id, qty FROM cart_items") == [(2, 1)]
    c.post("/cart/update", data={"qty_2": "0"})
    assert db.query("SELECT COUNT(*) FROM cart_items") == [(0,)]


def test_checkout_places_an_order_and_takes_stock(client) -> None:
    c, db = client("shop")
    c.post("/cart/add", data={"product_id": 2, "qty": 2})
    resp = c.post("/checkout", data=CUSTOMER)
    assert resp.status_code == 302 and resp.headers["Location"].endswith("/orders/3")
    assert db.query("SELECT name, shipping, total_cents, status FROM orders WHERE id = 3") == [
        ("Jordan Lee", "standard", 2 * 2499 + 499, "placed")]
    assert db.query("SELECT product_id, qty, price_cents FROM order_items WHERE order_id = 3") == [(2, 2, 2499)]
    assert db.query("SELECT stock FROM products WHERE id = 2") == [(38,)]
    assert db.query("SELECT COUNT(*) FROM cart_items") == [(0,)]
    assert "Order #3" in c.get("/orders").get_data(as_text=True)


def test_checkout_errors_keep_the_cart(client) -> None:
    c, db = client("shop")
    c.post("/cart/add", data={"product_id": 7, "qty": 1})
    resp = c.post("/checkout", data={"name": "", "email": "no-at", "address": "x", "shipping": "drone",
                                     "coupon": "SPRING25"})
    text = resp.get_data(as_text=True)
    assert resp.status_code == 400
    for msg in ("Name is required.", "Email must contain @.", "Unknown shipping option", "Coupon SPRING25 is not valid."):
        assert msg in text
    assert db.query("SELECT COUNT(*) FROM orders") == [(2,)]
    assert db.query("SELECT qty FROM cart_items") == [(1,)]


def test_coupon_takes_its_percentage_off_the_goods(client) -> None:
    c, db = client("shop")
    c.post("/cart/add", data={"product_id": 7, "qty": 1})
    c.post("/checkout", data={**CUSTOMER, "shipping": "express", "coupon": "welcome10"})
    assert db.query("SELECT coupon, total_cents FROM orders WHERE id = 3") == [("WELCOME10", 4599 - 459 + 1499)]


def test_cancel_restores_stock_and_shipped_orders_stay(client) -> None:
    c, db = client("shop")
    c.post("/orders/2/cancel")
    assert db.query("SELECT status FROM orders WHERE id = 2") == [("cancelled",)]
    assert db.query("SELECT stock FROM products WHERE id = 3") == [(7,)]
    said = c.post("/orders/1/cancel", follow_redirects=True).get_data(as_text=True)
    assert "is shipped and can no longer be cancelled" in said
    assert db.query("SELECT status FROM orders WHERE id = 1") == [("shipped",)]
    assert c.post("/orders/99/cancel").status_code == 404
