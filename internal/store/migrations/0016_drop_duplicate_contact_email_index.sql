-- contact_messages_email_id (email, id) already answers every lookup by
-- e-mail (deleting an account's messages, the console's filter); the
-- single-column index on email only cost each contact message one more
-- random index page to write.

DROP INDEX account_contact_messages_email;
