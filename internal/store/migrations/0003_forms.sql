-- Contact messages and waitlist sign-ups from the public forms.
-- A sign-up is unique per (e-mail, program); its unsubscribe link carries a
-- random token of which only the SHA-256 hash is kept.

CREATE TABLE contact_messages (
    id TEXT PRIMARY KEY,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone_number TEXT NOT NULL DEFAULT '',
    subject TEXT NOT NULL,
    message TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE INDEX contact_messages_created_at ON contact_messages (created_at);

CREATE TABLE waitlist_signups (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    program TEXT NOT NULL,
    page_path TEXT NOT NULL DEFAULT '',
    referrer TEXT NOT NULL DEFAULT '',
    utm_source TEXT NOT NULL DEFAULT '',
    utm_medium TEXT NOT NULL DEFAULT '',
    utm_campaign TEXT NOT NULL DEFAULT '',
    utm_term TEXT NOT NULL DEFAULT '',
    utm_content TEXT NOT NULL DEFAULT '',
    unsubscribe_token_hash TEXT NOT NULL UNIQUE,
    unsubscribed_at TIMESTAMP NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (email, program)
);

CREATE INDEX waitlist_signups_created_at ON waitlist_signups (created_at);
