-- The admin app: customers (a filterable table), support requests (a long form), settings.
CREATE TABLE customers (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE,
    company TEXT NOT NULL DEFAULT '',
    city TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL CHECK (status IN ('lead', 'active', 'inactive')),
    tier TEXT NOT NULL DEFAULT 'basic' CHECK (tier IN ('basic', 'pro', 'enterprise')),
    newsletter INTEGER NOT NULL DEFAULT 0,
    notes TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);
CREATE TABLE requests (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER REFERENCES customers(id),
    category TEXT NOT NULL CHECK (category IN ('billing', 'technical', 'account', 'other')),
    priority TEXT NOT NULL CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
    subject TEXT NOT NULL,
    message TEXT NOT NULL,
    contact_by TEXT NOT NULL CHECK (contact_by IN ('email', 'phone')),
    due_date TEXT,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    created_at TEXT NOT NULL
);
CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
