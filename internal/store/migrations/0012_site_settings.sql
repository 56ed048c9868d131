-- Site settings the founders set (contact details, social accounts, the
-- team on the About page): one row per key an operator has changed; a key
-- without a row has its built-in default (internal/settings).
CREATE TABLE site_settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_by TEXT NOT NULL DEFAULT '',
    updated_at TIMESTAMP NOT NULL
);
