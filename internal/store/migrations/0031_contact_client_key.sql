-- A contact message may carry the key its form made when it was first sent
-- (the Idempotency-Key header): a form kept offline and sent again after a
-- reload, by the page and by the service worker, is stored once. Messages
-- without a key have NULL, which a unique index never counts as equal.
-- Waitlist sign-ups need no key: they are unique per (e-mail, program).

ALTER TABLE contact_messages ADD COLUMN client_key TEXT NULL;
CREATE UNIQUE INDEX contact_messages_client_key ON contact_messages (client_key);
