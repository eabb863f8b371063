"""The shop (http://shop.test/): search, product pages, a cart, checkout with coupons, orders.

One shopper per world, so there is one cart (the ``cart_items`` table) and no
login. Prices are integer cents; shipping adds a fixed fee; a coupon takes a
percentage off the goods. Placing an order checks stock and decrements it.
"""

from __future__ import annotations

from flask import Flask, abort, flash, redirect, render_template, request, url_for

from .common import SiteApp, db, form_int, now

SHIPPING = {"standard": 499, "express": 1499, "pickup": 0}
SORTS = {"name": "name", "price": "price_cents", "price_desc": "price_cents DESC", "rating": "rating DESC"}


def _cart() -> tuple[list, int]:
    rows = db().execute(
        "SELECT p.*, c.qty, c.qty * p.price_cents AS line FROM cart_items c JOIN products p ON p.id = c.product_id "
        "ORDER BY p.name").fetchall()
    return rows, sum(r["line"] for r in rows)


def _coupon(code: str) -> int:
    """Percent off for an active coupon code (case-insensitive), else 0."""
    row = db().execute("SELECT percent_off FROM coupons WHERE code = ? COLLATE NOCASE AND active = 1",
                       (code.strip(),)).fetchone()
    return row["percent_off"] if row else 0


def register(app: Flask) -> None:
    app.secret_key = "deskact-shop"  # flash messages only; there are no accounts

    @app.get("/")
    def home():
        q = request.args.get("q", "").strip()
        category = request.args.get("category", "")
        sort = request.args.get("sort", "name")
        sql, args = "SELECT * FROM products WHERE 1 = 1", []
        if q:
            sql += " AND (name LIKE ? OR description LIKE ? OR sku LIKE ?)"
            args += [f"%{q}%"] * 3
        if category:
            sql += " AND category = ?"
            args.append(category)
        products = db().execute(f"{sql} ORDER BY {SORTS.get(sort, 'name')}, id", args).fetchall()
        categories = [r[0] for r in db().execute("SELECT DISTINCT category FROM products ORDER BY 1")]
        return render_template("shop/home.html", products=products, categories=categories, q=q,
                               category=category, sort=sort, sorts=list(SORTS))

    app.add_url_rule("/search", "search", home)

    @app.get("/product/<int:pid>")
    def product(pid: int):
        row = db().execute("SELECT * FROM products WHERE id = ?", (pid,)).fetchone()
        if row is None:
            abort(404)
        return render_template("shop/product.html", p=row)

    @app.post("/cart/add")
    def cart_add():
        pid = form_int(request.form.get("product_id"), 0, 0, 10**9)
        qty = form_int(request.form.get("qty"), 1, 1, 99)
        p = db().execute("SELECT * FROM products WHERE id = ?", (pid,)).fetchone()
        if p is None:
            abort(404)
        have = db().execute("SELECT qty FROM cart_items WHERE product_id = ?", (pid,)).fetchone()
        total = qty + (have["qty"] if have else 0)
        if total > p["stock"]:
            flash(f"Only {p['stock']} of {p['name']} in stock.", "error")
            return redirect(url_for("product", pid=pid))
        db().execute("INSERT INTO cart_items (product_id, qty) VALUES (?, ?) "
                     "ON CONFLICT(product_id) DO UPDATE SET qty = excluded.qty", (pid, total))
        db().commit()
        flash(f"Added {qty} x {p['name']} to the cart.", "ok")
        return redirect(url_for("cart"))

    @app.get("/cart")
    def cart():
        items, subtotal = _cart()
        return render_template("shop/cart.html", items=items, subtotal=subtotal)

    @app.post("/cart/update")
    def cart_update():
        """One form for the whole cart: ``qty_<id>`` fields (0 removes) or a ``remove`` button."""
        remove = request.form.get("remove")
        for item in db().execute("SELECT c.product_id, p.stock FROM cart_items c JOIN products p "
                                 "ON p.id = c.product_id").fetchall():
            pid = item["product_id"]
            qty = form_int(request.form.get(f"qty_{pid}"), -1, -1, 99)
            if remove == str(pid) or qty == 0:
                db().execute("DELETE FROM cart_items WHERE product_id = ?", (pid,))
            elif qty > 0:
                db().execute("UPDATE cart_items SET qty = ? WHERE product_id = ?", (min(qty, item["stock"]), pid))
        db().commit()
        return redirect(url_for("cart"))

    @app.route("/checkout", methods=["GET", "POST"])
    def checkout():
        items, subtotal = _cart()
        form = request.form
        if request.method == "GET" or not items:
            if request.method == "POST":
                flash("The cart is empty.", "error")
            return render_template("shop/checkout.html", items=items, subtotal=subtotal, form=form,
                                   shipping=SHIPPING, errors=[])
        errors = [f"{label} is required." for field, label in
                  (("name", "Name"), ("email", "Email"), ("address", "Address")) if not form.get(field, "").strip()]
        if form.get("email") and "@" not in form["email"]:
            errors.append("Email must contain @.")
        ship = form.get("shipping", "standard")
        if ship not in SHIPPING:
            errors.append(f"Unknown shipping option {ship!r}.")
        code = form.get("coupon", "").strip()
        percent = _coupon(code) if code else 0
        if code and not percent:
            errors.append(f"Coupon {code} is not valid.")
        short = [i["name"] for i in items if i["qty"] > i["stock"]]
        errors += [f"Not enough stock for {name}." for name in short]
        if errors:
            return render_template("shop/checkout.html", items=items, subtotal=subtotal, form=form,
                                   shipping=SHIPPING, errors=errors), 400
        total = subtotal - subtotal * percent // 100 + SHIPPING[ship]
        cur = db().execute(
            "INSERT INTO orders (created_at, name, email, address, shipping, coupon, total_cents) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (now(), form["name"].strip(), form["email"].strip(), form["address"].strip(), ship,
             code.upper() or None, total))
        for i in items:
            db().execute("INSERT INTO order_items VALUES (?, ?, ?, ?)", (cur.lastrowid, i["id"], i["qty"], i["price_cents"]))
            db().execute("UPDATE products SET stock = stock - ? WHERE id = ?", (i["qty"], i["id"]))
        db().execute("DELETE FROM cart_items")
        db().commit()
        flash(f"Order #{cur.lastrowid} placed.", "ok")
        return redirect(url_for("order", oid=cur.lastrowid))

    @app.get("/orders")
    def orders():
        rows = db().execute("SELECT o.*, (SELECT SUM(qty) FROM order_items WHERE order_id = o.id) AS items "
                            "FROM orders o ORDER BY o.id DESC").fetchall()
        return render_template("shop/orders.html", orders=rows)

    @app.get("/orders/<int:oid>")
    def order(oid: int):
        o = db().execute("SELECT * FROM orders WHERE id = ?", (oid,)).fetchone()
        if o is None:
            abort(404)
        items = db().execute("SELECT p.name, p.sku, i.qty, i.price_cents FROM order_items i "
                             "JOIN products p ON p.id = i.product_id WHERE i.order_id = ? ORDER BY p.name",
                             (oid,)).fetchall()
        return render_template("shop/order.html", o=o, items=items)

    @app.post("/orders/<int:oid>/cancel")
    def cancel(oid: int):
        o = db().execute("SELECT status FROM orders WHERE id = ?", (oid,)).fetchone()
        if o is None:
            abort(404)
        if o["status"] != "placed":
            flash(f"Order #{oid} is {o['status']} and can no longer be cancelled.", "error")
        else:
            db().execute("UPDATE orders SET status = 'cancelled' WHERE id = ?", (oid,))
            db().execute("UPDATE products SET stock = stock + (SELECT qty FROM order_items WHERE order_id = ? "
                         "AND product_id = products.id) WHERE id IN (SELECT product_id FROM order_items "
                         "WHERE order_id = ?)", (oid, oid))
            db().commit()
            flash(f"Order #{oid} cancelled.", "ok")
        return redirect(url_for("order", oid=oid))


APP = SiteApp(name="shop", title="Deskact Shop", register=register)
