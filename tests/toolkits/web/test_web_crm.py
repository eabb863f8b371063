"""The admin app: customers table with filters and paging, customer forms, requests, settings."""

from __future__ import annotations

HUGO = {"name": "Hugo Schmidt", "email": "hugo@schmidt.example", "company": "Schmidt GmbH", "city": "Berlin",
        "status": "active", "tier": "basic"}


def test_filters_search_sort_and_paging(client) -> None:
    c, db = client("crm")
    page = c.get("/customers").get_data(as_text=True)
    assert "16 customer(s), page 1 of 2" in page and page.count("<tr>") == 11
    assert "page 2 of 2" in c.get("/customers?page=2").get_data(as_text=True)
    berlin = c.get("/customers?status=active&city=berlin").get_data(as_text=True)
    assert "1 customer(s)" in berlin and "Hugo Schmidt" in berlin and "Maya Cohen" not in berlin
    found = c.get("/customers?q=bakery").get_data(as_text=True)
    assert "Ada Moreno" in found and "1 customer(s)" in found
    for sort, first in (("newest", "Pablo Garcia"), ("oldest", "Ines Duarte"), ("name", "Ada Moreno")):
        rows = c.get(f"/customers?sort={sort}").get_data(as_text=True).split('<a href="/customers/')[2:]
        assert rows[0].split(">", 1)[1].startswith(first), sort
    db.reset(rows={"settings": [{"key": "page_size", "value": "5"}]})
    assert "page 1 of 4" in c.get("/customers").get_data(as_text=True)


def test_new_customer_validation_and_duplicate_email(client) -> None:
    c, db = client("crm")
    bad = c.post("/customers/new", data={"name": "", "email": "x", "status": "vip", "tier": "pro"})
    text = bad.get_data(as_text=True)
    assert bad.status_code == 400 and "Name is required." in text and "status must be one of" in text
    dup = c.post("/customers/new", data={**HUGO, "email": "HUGO@schmidt.example"})
    assert dup.status_code == 400 and "exists" in dup.get_data(as_text=True)
    ok = c.post("/customers/new", data={**HUGO, "name": "Q", "email": "q@q.example", "newsletter": "1"})
    assert ok.status_code == 302
    assert db.query("SELECT name, newsletter FROM customers WHERE email = 'q@q.example'") == [("Q", 1)]


def test_edit_form_shows_and_saves_every_field(client) -> None:
    c, db = client("crm")
    form = c.get("/customers/1").get_data(as_text=True)
    assert 'value="ada@moreno.example"' in form and 'id="tier-pro" name="tier" value="pro" checked' in form
    assert 'id="newsletter" name="newsletter" value="1" checked' in form
    c.post("/customers/8", data={**HUGO, "status": "inactive", "notes": "a\r\nb"})
    assert db.query("SELECT status, newsletter, notes FROM customers WHERE id = 8") == [("inactive", 0, "a\nb")]


def test_delete_is_refused_for_customers_with_requests(client) -> None:
    c, db = client("crm")
    said = c.post("/customers/2/delete", follow_redirects=True).get_data(as_text=True)
    assert "cannot be deleted" in said and db.query("SELECT COUNT(*) FROM customers WHERE id = 2") == [(1,)]
    c.post("/customers/6/delete")
    assert db.query("SELECT COUNT(*) FROM customers") == [(15,)]


def test_request_form_needs_confirmation_and_valid_choices(client) -> None:
    c, db = client("crm")
    data = {"customer_id": "7", "category": "technical", "priority": "urgent", "subject": "S", "message": "M",
            "contact_by": "phone", "due_date": "2026-12-15"}
    refused = c.post("/requests/new", data=data)
    assert refused.status_code == 400 and "Tick the box" in refused.get_data(as_text=True)
    assert 'value="S"' in refused.get_data(as_text=True)  # typed values kept
    assert c.post("/requests/new", data={**data, "confirm": "1", "priority": "asap"}).status_code == 400
    assert c.post("/requests/new", data={**data, "confirm": "1"}).status_code == 302
    assert db.query("SELECT customer_id, priority, due_date, status FROM requests WHERE id = 3") == [
        (7, "urgent", "2026-12-15", "open")]
    c.post("/requests/3/close")
    assert db.query("SELECT status FROM requests WHERE id = 3") == [("closed",)]
    assert "Dashboard" not in c.get("/requests").get_data(as_text=True)


def test_settings_are_validated_then_saved(client) -> None:
    c, db = client("crm")
    before = db.query("SELECT key, value FROM settings ORDER BY key")
    good = {"company_name": "N", "support_email": "s@n.example", "currency": "USD", "timezone": "UTC",
            "page_size": "25", "theme": "dark", "weekly_report": "1"}
    bad = c.post("/settings", data={**good, "page_size": "500", "currency": "XYZ"})
    assert bad.status_code == 400 and "Rows per page" in bad.get_data(as_text=True)
    assert db.query("SELECT key, value FROM settings ORDER BY key") == before
    c.post("/settings", data=good)
    saved = dict(db.query("SELECT key, value FROM settings"))
    assert saved["currency"] == "USD" and saved["weekly_report"] == "1" and saved["notify_new_requests"] == "0"
    page = c.get("/settings").get_data(as_text=True)
    assert 'id="theme-dark" name="theme" value="dark" checked' in page
