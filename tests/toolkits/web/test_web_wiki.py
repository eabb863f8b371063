"""The wiki's pages and flows: search, edit with history, revert, new pages, comments."""

from __future__ import annotations


def test_home_search_and_page(client) -> None:
    c, _ = client("wiki")
    home = c.get("/").get_data(as_text=True)
    assert "Release Process" in home and "Recent changes" in home
    found = c.get("/search?q=descale").get_data(as_text=True)
    assert "Coffee Machine" in found and "1 page(s) found" in found
    page = c.get("/wiki/coffee-machine").get_data(as_text=True)
    assert "extension 4410" in page and "Error E7 again" in page
    assert c.get("/wiki/nope").status_code == 404


def test_edit_appends_a_revision_and_history_shows_it(client) -> None:
    c, db = client("wiki")
    resp = c.post("/wiki/parking/edit", data={"title": "Parking", "body": "Lot B only.\r\nNo bikes.",
                                              "summary": "shorter", "author": "kim"})
    assert resp.status_code == 302
    assert db.query("SELECT body FROM pages WHERE slug = 'parking'") == [("Lot B only.\nNo bikes.",)]
    assert db.query("SELECT summary, author FROM revisions WHERE page_id = 5 ORDER BY id") == [
        ("first version", "kim"), ("shorter", "kim")]
    history = c.get("/wiki/parking/history").get_data(as_text=True)
    assert history.index("shorter") < history.index("first version")


def test_an_edit_that_changes_nothing_adds_no_revision(client) -> None:
    c, db = client("wiki")
    body = db.query("SELECT body FROM pages WHERE id = 6")[0][0]
    c.post("/wiki/holidays/edit", data={"title": "Holidays", "body": body})
    assert db.query("SELECT COUNT(*) FROM revisions WHERE page_id = 6") == [(1,)]


def test_empty_edit_is_refused(client) -> None:
    c, db = client("wiki")
    resp = c.post("/wiki/parking/edit", data={"title": "", "body": " "})
    assert resp.status_code == 400 and "Title is required." in resp.get_data(as_text=True)
    assert db.query("SELECT title FROM pages WHERE id = 5") == [("Parking",)]


def test_revert_restores_an_old_revision_as_a_new_one(client) -> None:
    c, db = client("wiki")
    first = db.query("SELECT id FROM revisions WHERE page_id = 3 ORDER BY id LIMIT 1")[0][0]
    assert "takes capsules" in c.get(f"/wiki/coffee-machine/revision/{first}").get_data(as_text=True)
    c.post(f"/wiki/coffee-machine/revert/{first}")
    assert db.query("SELECT body FROM pages WHERE id = 3") == [("The machine on floor 3 takes capsules.",)]
    assert db.query("SELECT summary FROM revisions WHERE page_id = 3 ORDER BY id DESC LIMIT 1") == [
        (f"revert to revision {first}",)]
    assert c.post("/wiki/parking/revert/1").status_code == 404  # a revision of another page


def test_new_page_and_its_conflicts(client) -> None:
    c, db = client("wiki")
    resp = c.post("/new", data={"title": "Fire Drill!", "category": "Facilities", "body": "Mondays."})
    assert resp.headers["Location"].endswith("/wiki/fire-drill")
    assert db.query("SELECT title, category FROM pages WHERE slug = 'fire-drill'") == [("Fire Drill!", "Facilities")]
    again = c.post("/new", data={"title": "Fire drill", "category": "Nope", "body": "x"})
    text = again.get_data(as_text=True)
    assert again.status_code == 400 and "A page with that title exists." in text and "Unknown category" in text


def test_comment(client) -> None:
    c, db = client("wiki")
    c.post("/wiki/welcome/comment", data={"author": "pat", "body": "Hello!"})
    c.post("/wiki/welcome/comment", data={"author": "pat", "body": "  "})  # empty: ignored
    assert db.query("SELECT author, body FROM comments WHERE page_id = 1") == [("pat", "Hello!")]
