-- Every e-mail queued wrote an entry into this index at a random place
-- (addresses come in no order), so each sign-up's commit rewrote one more
-- page of it: on SQLite about a fifth of the pages a group commit writes.
-- Only two rare reads used it: deleting an account's e-mails and
-- `salaula admin mail --to`. They now read the outbox through (from a
-- reader, off the writer; see store.DeleteEmailsTo).
DROP INDEX outbox_emails_to_address;
