"""The admin app (http://crm.test/): a filterable, sortable, paged customers table with
edit forms, a long support-request form, and a settings form.

Form fields use every common control (text, email, select, radio, checkbox,
date, number, textarea) so tasks can exercise each one by mouse or keyboard.
Validation errors re-render the form with the typed values and a 400.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import Flask, abort, flash, redirect, render_template, request, url_for

from .common import SiteApp, db, form_int, now

STATUSES = ["lead", "active", "inactive"]
TIERS = ["basic", "pro", "enterprise"]
CATEGORIES = ["billing", "technical", "account", "other"]
PRIORITIES = ["low", "normal", "high", "urgent"]
CURRENCIES = ["EUR", "USD", "GBP", "JPY"]
TIMEZONES = ["UTC", "Europe/Lisbon", "Europe/Berlin", "America/New_York", "Asia/Tokyo"]
THEMES = ["light", "dark"]
SORTS = {"name": "name", "city": "city, name", "newest": "created_at DESC", "oldest": "created_at"}
CHECKBOXES = ["notify_new_requests", "weekly_report"]


def settings() -> dict[str, str]:
    return {r["key"]: r["value"] for r in db().execute("SELECT key, value FROM settings")}


def _customer_errors(form: Mapping[str, str]) -> list[str]:
    errors = [f"{label} is required." for field, label in (("name", "Name"), ("email", "Email"))
              if not form.get(field, "").strip()]
    if form.get("email") and "@" not in form["email"]:
        errors.append("Email must contain @.")
    errors += [f"{field} must be one of {', '.join(allowed)}." for field, allowed in
               (("status", STATUSES), ("tier", TIERS)) if form.get(field) not in allowed]
    return errors


def _customer_values(form: Mapping[str, str]) -> tuple[str, str, str, str, str, str, int, str]:
    return (form["name"].strip(), form["email"].strip().lower(), form.get("company", "").strip(),
            form.get("city", "").strip(), form["status"], form["tier"], 1 if form.get("newsletter") else 0,
            form.get("notes", "").replace("\r\n", "\n").strip())


def register(app: Flask) -> None:
    app.secret_key = "deskact-crm"
    app.jinja_env.globals.update(STATUSES=STATUSES, TIERS=TIERS, CATEGORIES=CATEGORIES, PRIORITIES=PRIORITIES,
                                 CURRENCIES=CURRENCIES, TIMEZONES=TIMEZONES, THEMES=THEMES)

    @app.get("/")
    def dashboard():
        counts = {r["status"]: r["n"] for r in db().execute("SELECT status, COUNT(*) AS n FROM customers GROUP BY status")}
        open_requests = db().execute("SELECT COUNT(*) FROM requests WHERE status = 'open'").fetchone()[0]
        return render_template("crm/dashboard.html", counts=counts, open_requests=open_requests, s=settings())

    @app.get("/customers")
    def customers():
        args = request.args
        sql, params = "FROM customers WHERE 1 = 1", []
        for field, allowed in (("status", STATUSES), ("tier", TIERS)):
            if args.get(field) in allowed:
                sql += f" AND {field} = ?"
                params.append(args[field])
        if args.get("city"):
            sql += " AND city = ? COLLATE NOCASE"
            params.append(args["city"].strip())
        if args.get("q"):
            sql += " AND (name LIKE ? OR email LIKE ? OR company LIKE ?)"
            params += [f"%{args['q'].strip()}%"] * 3
        total = db().execute(f"SELECT COUNT(*) {sql}", params).fetchone()[0]
        size = form_int(settings().get("page_size"), 10, 1, 100)
        pages = max(1, -(-total // size))
        page = form_int(args.get("page"), 1, 1, pages)
        sort = args.get("sort", "name")
        rows = db().execute(f"SELECT * {sql} ORDER BY {SORTS.get(sort, 'name')}, id LIMIT ? OFFSET ?",
                            [*params, size, (page - 1) * size]).fetchall()
        cities = [r[0] for r in db().execute("SELECT DISTINCT city FROM customers WHERE city != '' ORDER BY 1")]
        query = {k: v for k, v in args.items() if k != "page"}
        return render_template("crm/customers.html", rows=rows, total=total, page=page, pages=pages, args=args,
                               cities=cities, sorts=list(SORTS), sort=sort, query=query)

    @app.route("/customers/new", methods=["GET", "POST"])
    def customer_new():
        form = request.form
        if request.method == "POST":
            errors = _customer_errors(form)
            if not errors and db().execute("SELECT 1 FROM customers WHERE email = ?",
                                           (form["email"].strip().lower(),)).fetchone():
                errors.append(f"A customer with email {form['email'].strip()} exists.")
            if not errors:
                cur = db().execute("INSERT INTO customers (name, email, company, city, status, tier, newsletter, "
                                   "notes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                   (*_customer_values(form), now()))
                db().commit()
                flash(f"Customer {form['name'].strip()} created.", "ok")
                return redirect(url_for("customer", cid=cur.lastrowid))
            return render_template("crm/customer.html", c=None, form=form, errors=errors), 400
        return render_template("crm/customer.html", c=None, form={}, errors=[])

    @app.route("/customers/<int:cid>", methods=["GET", "POST"])
    def customer(cid: int):
        c = db().execute("SELECT * FROM customers WHERE id = ?", (cid,)).fetchone()
        if c is None:
            abort(404)
        if request.method == "POST":
            errors = _customer_errors(request.form)
            if not errors:
                db().execute("UPDATE customers SET name = ?, email = ?, company = ?, city = ?, status = ?, tier = ?, "
                             "newsletter = ?, notes = ? WHERE id = ?", (*_customer_values(request.form), cid))
                db().commit()
                flash("Customer saved.", "ok")
                return redirect(url_for("customer", cid=cid))
            return render_template("crm/customer.html", c=c, form=request.form, errors=errors), 400
        return render_template("crm/customer.html", c=c, form=c, errors=[])

    @app.post("/customers/<int:cid>/delete")
    def customer_delete(cid: int):
        if db().execute("SELECT 1 FROM requests WHERE customer_id = ?", (cid,)).fetchone():
            flash("This customer has support requests and cannot be deleted; set it inactive instead.", "error")
            return redirect(url_for("customer", cid=cid))
        db().execute("DELETE FROM customers WHERE id = ?", (cid,))
        db().commit()
        flash("Customer deleted.", "ok")
        return redirect(url_for("customers"))

    @app.get("/requests")
    def requests_list():
        status = request.args.get("status", "open")
        rows = db().execute("SELECT r.*, c.name AS customer FROM requests r LEFT JOIN customers c ON c.id = r.customer_id "
                            "WHERE ?1 = 'all' OR r.status = ?1 ORDER BY r.id DESC", (status,)).fetchall()
        return render_template("crm/requests.html", rows=rows, status=status)

    @app.route("/requests/new", methods=["GET", "POST"])
    def request_new():
        customers = db().execute("SELECT id, name FROM customers ORDER BY name").fetchall()
        if request.method == "GET":
            return render_template("crm/request.html", form={}, errors=[], customers=customers)
        form = request.form
        errors = [f"{label} is required." for field, label in (("subject", "Subject"), ("message", "Message"))
                  if not form.get(field, "").strip()]
        errors += [f"{field} must be one of {', '.join(allowed)}." for field, allowed in
                   (("category", CATEGORIES), ("priority", PRIORITIES), ("contact_by", ["email", "phone"]))
                   if form.get(field) not in allowed]
        cid = form_int(form.get("customer_id"), 0, 0, 10**9) or None
        if cid is not None and not any(c["id"] == cid for c in customers):
            errors.append(f"Unknown customer {cid}.")
        if not form.get("confirm"):
            errors.append("Tick the box to confirm the request is complete.")
        if errors:
            return render_template("crm/request.html", form=form, errors=errors, customers=customers), 400
        cur = db().execute("INSERT INTO requests (customer_id, category, priority, subject, message, contact_by, "
                           "due_date, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           (cid, form["category"], form["priority"], form["subject"].strip(),
                            form["message"].replace("\r\n", "\n").strip(), form["contact_by"],
                            form.get("due_date") or None, now()))
        db().commit()
        flash(f"Request #{cur.lastrowid} sent.", "ok")
        return redirect(url_for("requests_list"))

    @app.post("/requests/<int:rid>/close")
    def request_close(rid: int):
        db().execute("UPDATE requests SET status = 'closed' WHERE id = ?", (rid,))
        db().commit()
        return redirect(url_for("requests_list"))

    @app.route("/settings", methods=["GET", "POST"])
    def settings_page():
        if request.method == "GET":
            return render_template("crm/settings.html", s=settings(), errors=[])
        form = request.form
        values = {k: form.get(k, "").strip() for k in ("company_name", "support_email", "currency", "timezone",
                                                      "page_size", "theme")}
        errors = [e for e, bad in (
            ("Company name is required.", not values["company_name"]),
            ("Support email must contain @.", "@" not in values["support_email"]),
            (f"Currency must be one of {', '.join(CURRENCIES)}.", values["currency"] not in CURRENCIES),
            (f"Time zone must be one of {', '.join(TIMEZONES)}.", values["timezone"] not in TIMEZONES),
            ("Rows per page must be a number from 5 to 100.",
             not values["page_size"].isdigit() or not 5 <= int(values["page_size"]) <= 100),
            (f"Theme must be one of {', '.join(THEMES)}.", values["theme"] not in THEMES),
        ) if bad]
        values.update({k: "1" if form.get(k) else "0" for k in CHECKBOXES})
        if errors:
            return render_template("crm/settings.html", s=values, errors=errors), 400
        db().executemany("INSERT INTO settings (key, value) VALUES (?, ?) "
                         "ON CONFLICT(key) DO UPDATE SET value = excluded.value", values.items())
        db().commit()
        flash("Settings saved.", "ok")
        return redirect(url_for("settings_page"))


APP = SiteApp(name="crm", title="Northwind Admin", register=register)
