-- Wrong passwords in a row per account (the e-mail signed in with,
-- lower-cased and trimmed, whether or not it has an account, so the answer
-- tells nothing), and until when no password is checked for it
-- (docs/decisions/0224-wrong-passwords-per-account.md). Kept in the
-- database on both engines, so every instance and a restart see the same
-- wait; a right password deletes the row, and rows whose last wrong
-- password is a day old are swept.
CREATE TABLE sign_in_failures (
    account TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    last_at TIMESTAMP NOT NULL,
    wait_until TIMESTAMP NOT NULL
);
