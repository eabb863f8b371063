"""The wiki (http://wiki.test/): pages, search, edit with a summary, history, revert, comments.

Every save appends a row to ``revisions`` and updates the page's row, so a
judge can ask both "what does the page say now" and "was it edited, by whom,
with which summary". The reader is ``visitor`` unless the form names an author.
"""

from __future__ import annotations

import re

from flask import Flask, abort, flash, redirect, render_template, request, url_for

from .common import SiteApp, db, now

CATEGORIES = ["General", "HR", "Facilities", "Engineering"]


def slugify(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def _page(slug: str):
    row = db().execute("SELECT * FROM pages WHERE slug = ?", (slug,)).fetchone()
    if row is None:
        abort(404)
    return row


def _save(page_id: int, title: str, body: str, summary: str, author: str) -> None:
    stamp = now()
    db().execute("UPDATE pages SET title = ?, body = ?, updated_at = ? WHERE id = ?", (title, body, stamp, page_id))
    db().execute("INSERT INTO revisions (page_id, title, body, summary, author, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                 (page_id, title, body, summary, author, stamp))


def _body(text: str) -> str:
    """Browsers send textarea lines as CRLF; the wiki stores LF."""
    return text.replace("\r\n", "\n").strip()


def register(app: Flask) -> None:
    app.secret_key = "deskact-wiki"

    @app.get("/")
    def home():
        pages = db().execute("SELECT * FROM pages ORDER BY title").fetchall()
        recent = db().execute("SELECT r.*, p.slug FROM revisions r JOIN pages p ON p.id = r.page_id "
                              "ORDER BY r.created_at DESC, r.id DESC LIMIT 8").fetchall()
        return render_template("wiki/home.html", pages=pages, recent=recent)

    @app.get("/search")
    def search():
        q = request.args.get("q", "").strip()
        rows = db().execute("SELECT * FROM pages WHERE title LIKE ?1 OR body LIKE ?1 ORDER BY title",
                            (f"%{q}%",)).fetchall() if q else []
        return render_template("wiki/search.html", q=q, pages=rows)

    @app.get("/wiki/<slug>")
    def page(slug: str):
        p = _page(slug)
        comments = db().execute("SELECT * FROM comments WHERE page_id = ? ORDER BY id", (p["id"],)).fetchall()
        return render_template("wiki/page.html", p=p, comments=comments)

    @app.route("/wiki/<slug>/edit", methods=["GET", "POST"])
    def edit(slug: str):
        p = _page(slug)
        if request.method == "GET":
            return render_template("wiki/edit.html", p=p, form={}, errors=[])
        title = request.form.get("title", "").strip()
        body = _body(request.form.get("body", ""))
        errors = [e for e, bad in (("Title is required.", not title), ("The page cannot be empty.", not body)) if bad]
        if errors:
            return render_template("wiki/edit.html", p=p, form=request.form, errors=errors), 400
        if (title, body) != (p["title"], p["body"]):
            _save(p["id"], title, body, request.form.get("summary", "").strip(),
                  request.form.get("author", "").strip() or "visitor")
            db().commit()
            flash("Saved.", "ok")
        else:
            flash("Nothing changed.", "ok")
        return redirect(url_for("page", slug=slug))

    @app.get("/wiki/<slug>/history")
    def history(slug: str):
        p = _page(slug)
        revs = db().execute("SELECT * FROM revisions WHERE page_id = ? ORDER BY created_at DESC, id DESC",
                            (p["id"],)).fetchall()
        return render_template("wiki/history.html", p=p, revs=revs)

    @app.get("/wiki/<slug>/revision/<int:rid>")
    def revision(slug: str, rid: int):
        p = _page(slug)
        r = db().execute("SELECT * FROM revisions WHERE id = ? AND page_id = ?", (rid, p["id"])).fetchone()
        if r is None:
            abort(404)
        return render_template("wiki/revision.html", p=p, r=r)

    @app.post("/wiki/<slug>/revert/<int:rid>")
    def revert(slug: str, rid: int):
        p = _page(slug)
        r = db().execute("SELECT * FROM revisions WHERE id = ? AND page_id = ?", (rid, p["id"])).fetchone()
        if r is None:
            abort(404)
        _save(p["id"], r["title"], r["body"], f"revert to revision {rid}", "visitor")
        db().commit()
        flash(f"Reverted to revision {rid}.", "ok")
        return redirect(url_for("page", slug=slug))

    @app.post("/wiki/<slug>/comment")
    def comment(slug: str):
        p = _page(slug)
        body = _body(request.form.get("body", ""))
        if body:
            db().execute("INSERT INTO comments (page_id, author, body, created_at) VALUES (?, ?, ?, ?)",
                         (p["id"], request.form.get("author", "").strip() or "visitor", body, now()))
            db().commit()
        return redirect(url_for("page", slug=slug))

    @app.route("/new", methods=["GET", "POST"])
    def new():
        if request.method == "GET":
            return render_template("wiki/new.html", form={}, errors=[], categories=CATEGORIES)
        title = request.form.get("title", "").strip()
        body = _body(request.form.get("body", ""))
        category = request.form.get("category", "General")
        slug = slugify(title)
        errors = [e for e, bad in (
            ("Title is required.", not slug), ("The page cannot be empty.", not body),
            (f"Unknown category {category!r}.", category not in CATEGORIES),
            ("A page with that title exists.",
             bool(slug) and db().execute("SELECT 1 FROM pages WHERE slug = ?", (slug,)).fetchone() is not None),
        ) if bad]
        if errors:
            return render_template("wiki/new.html", form=request.form, errors=errors, categories=CATEGORIES), 400
        cur = db().execute("INSERT INTO pages (slug, title, body, category, updated_at) VALUES (?, ?, ?, ?, ?)",
                           (slug, title, body, category, now()))
        assert cur.lastrowid is not None  # an INSERT sets it
        _save(cur.lastrowid, title, body, request.form.get("summary", "").strip() or "first version",
              request.form.get("author", "").strip() or "visitor")
        db().commit()
        return redirect(url_for("page", slug=slug))


APP = SiteApp(name="wiki", title="Team Wiki", register=register)
