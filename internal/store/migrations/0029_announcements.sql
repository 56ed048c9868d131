-- Announcements to a program's waitlist (internal/announce). An
-- announcement is a draft until sent; while sending, the pacer queues its
-- e-mails into the outbox in batches at its rate, each recipient once:
-- announcement_deliveries has one row per (announcement, sign-up), written
-- in the same transaction as the e-mail and the announcement's cursor (the
-- last sign-up id queued), so a restart neither skips nor doubles anyone.
-- queued..failed are the last progress counted, for the console. Each
-- delivery's e-mail carries an unsubscribe link of its own, of which only
-- the SHA-256 is kept.

CREATE TABLE announcements (
    id TEXT PRIMARY KEY,
    program TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    status TEXT NOT NULL,
    rate_per_second INTEGER NOT NULL,
    cursor TEXT NOT NULL DEFAULT '',
    all_queued INTEGER NOT NULL DEFAULT 0,
    recipients INTEGER NOT NULL DEFAULT 0,
    skipped INTEGER NOT NULL DEFAULT 0,
    queued INTEGER NOT NULL DEFAULT 0,
    sent INTEGER NOT NULL DEFAULT 0,
    failing INTEGER NOT NULL DEFAULT 0,
    bounced INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    created_by TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    started_at TIMESTAMP NULL,
    finished_at TIMESTAMP NULL
);
CREATE INDEX announcements_status ON announcements (status);

CREATE TABLE announcement_deliveries (
    announcement_id TEXT NOT NULL,
    signup_id TEXT NOT NULL,
    email_id TEXT NOT NULL,
    unsubscribe_token_hash TEXT NOT NULL,
    PRIMARY KEY (announcement_id, signup_id)
);
