-- The shop: one customer's session (one cart), products, orders.
CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    sku TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    category TEXT NOT NULL,
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
    stock INTEGER NOT NULL DEFAULT 0,
    rating REAL NOT NULL DEFAULT 0,
    description TEXT NOT NULL DEFAULT ''
);
CREATE TABLE cart_items (
    product_id INTEGER PRIMARY KEY REFERENCES products(id),
    qty INTEGER NOT NULL CHECK (qty > 0)
);
CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    created_at TEXT NOT NULL,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    address TEXT NOT NULL,
    shipping TEXT NOT NULL CHECK (shipping IN ('standard', 'express', 'pickup')),
    coupon TEXT,
    total_cents INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'placed' CHECK (status IN ('placed', 'shipped', 'cancelled'))
);
CREATE TABLE order_items (
    order_id INTEGER NOT NULL REFERENCES orders(id),
    product_id INTEGER NOT NULL REFERENCES products(id),
    qty INTEGER NOT NULL CHECK (qty > 0),
    price_cents INTEGER NOT NULL,
    PRIMARY KEY (order_id, product_id)
);
CREATE TABLE coupons (
    code TEXT PRIMARY KEY,
    percent_off INTEGER NOT NULL CHECK (percent_off BETWEEN 1 AND 100),
    active INTEGER NOT NULL DEFAULT 1
);
