-- Unsubscribe links now carry the sign-up's ID beside their secret
-- ("<id>.<secret>"), so the link's sign-up is found by its primary key and
-- the stored token hash is only compared, never searched. Its unique index
-- cost every sign-up a b-tree probe and insert (one of the five b-trees a
-- sign-up wrote besides the table) and goes. SQLite cannot drop a UNIQUE
-- constraint in place, so the table is copied aside, made again and filled
-- back (on both engines, so the indexes keep their usual names). Links sent
-- before this (without the ID) still work: their sign-up is found by the
-- hash, reading the table on a reader.

CREATE TABLE waitlist_signups_copy AS SELECT id, email, program, page_path, referrer, utm_source, utm_medium, utm_campaign,
    utm_term, utm_content, unsubscribe_token_hash, unsubscribed_at, created_at FROM waitlist_signups;

DROP TABLE waitlist_signups;

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
    unsubscribe_token_hash TEXT NOT NULL,
    unsubscribed_at TIMESTAMP NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (email, program)
);

INSERT INTO waitlist_signups (id, email, program, page_path, referrer, utm_source, utm_medium, utm_campaign,
    utm_term, utm_content, unsubscribe_token_hash, unsubscribed_at, created_at)
SELECT id, email, program, page_path, referrer, utm_source, utm_medium, utm_campaign,
    utm_term, utm_content, unsubscribe_token_hash, unsubscribed_at, created_at
FROM waitlist_signups_copy ORDER BY id;

DROP TABLE waitlist_signups_copy;

CREATE INDEX waitlist_signups_created_id ON waitlist_signups (created_at, id, program);
CREATE INDEX waitlist_signups_program_created_id ON waitlist_signups (program, created_at, id);
