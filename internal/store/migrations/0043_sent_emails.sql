-- The outbox holds the e-mails still to send (queued, failing) and those
-- given up (failed); a sent e-mail's record moves to sent_emails
-- (docs/decisions/0216-sent-emails.md): what `salaula admin mail` and the
-- counts show of it (recipient, subject, kind, how and when it went, its
-- body while kept), without the outbox's id, key index, state, schedule,
-- attempts and error. Rows are only appended, cleared of their body and deleted
-- (retention, erasure): no key. Times first: on PostgreSQL they need no
-- padding there.
CREATE TABLE sent_emails (
    created_at TIMESTAMP NOT NULL,
    sent_at TIMESTAMP NOT NULL,
    to_address TEXT NOT NULL,
    subject TEXT NOT NULL,
    kind TEXT NOT NULL,
    sent_via TEXT NOT NULL,
    body TEXT NOT NULL,
    list_unsubscribe TEXT NOT NULL
);
INSERT INTO sent_emails (created_at, sent_at, to_address, subject, kind, sent_via, body, list_unsubscribe)
SELECT created_at, COALESCE(sent_at, created_at), to_address, subject, kind, sent_via, body, list_unsubscribe
FROM outbox_emails WHERE status = 'sent' ORDER BY created_at, id;
DELETE FROM outbox_emails WHERE status = 'sent';
