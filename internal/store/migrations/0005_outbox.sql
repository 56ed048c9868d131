-- The e-mail outbox becomes a queue: a row is written in the same
-- transaction as the change that causes the e-mail, and a background sender
-- delivers it with retries. status: queued (not tried yet), failing (tried,
-- will be tried again at next_attempt_at), sent, failed (given up).
-- Rows from before this migration were delivered (or logged) when written.

ALTER TABLE outbox_emails ADD COLUMN status TEXT NOT NULL DEFAULT 'sent';
ALTER TABLE outbox_emails ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox_emails ADD COLUMN next_attempt_at TIMESTAMP NULL;
ALTER TABLE outbox_emails ADD COLUMN sent_at TIMESTAMP NULL;
ALTER TABLE outbox_emails ADD COLUMN last_error TEXT NOT NULL DEFAULT '';
UPDATE outbox_emails SET sent_at = created_at;
CREATE INDEX outbox_emails_due ON outbox_emails (status, next_attempt_at);
CREATE INDEX outbox_emails_to_address ON outbox_emails (to_address, created_at);
