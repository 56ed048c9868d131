-- The one-click unsubscribe address of an e-mail (RFC 8058), sent as its
-- List-Unsubscribe header with List-Unsubscribe-Post; empty for e-mails
-- that are not about a list (waitlist confirmations have one).
ALTER TABLE outbox_emails ADD COLUMN list_unsubscribe TEXT NOT NULL DEFAULT '';
