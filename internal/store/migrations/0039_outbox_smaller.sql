-- A sent e-mail's record is smaller (docs/decisions/0212-smaller-outbox-record.md).
-- On SQLite the outbox becomes a WITHOUT ROWID table: its rows are stored in
-- the order of their id, so the id needs no index of its own (some 50 bytes
-- an e-mail, a third of a sent one's record). The due index holds only the
-- e-mails still to be tried (a next attempt set): a sent or given-up
-- e-mail has none, and the claim's "next_attempt_at <= ?" implies it.
-- on sqlite
CREATE TABLE outbox_emails_rows (
    id TEXT PRIMARY KEY,
    to_address TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT '',
    sent_via TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    status TEXT NOT NULL DEFAULT 'sent',
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMP NULL,
    sent_at TIMESTAMP NULL,
    last_error TEXT NOT NULL DEFAULT '',
    list_unsubscribe TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
INSERT INTO outbox_emails_rows (id, to_address, subject, body, kind, sent_via, created_at, status, attempts,
    next_attempt_at, sent_at, last_error, list_unsubscribe)
SELECT id, to_address, subject, body, kind, sent_via, created_at, status, attempts,
    next_attempt_at, sent_at, last_error, list_unsubscribe FROM outbox_emails;
DROP TABLE outbox_emails;
ALTER TABLE outbox_emails_rows RENAME TO outbox_emails;
-- on postgres
DROP INDEX outbox_emails_due;
-- on both
CREATE INDEX outbox_emails_due ON outbox_emails (status, next_attempt_at) WHERE next_attempt_at IS NOT NULL;
