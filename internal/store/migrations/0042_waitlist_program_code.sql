-- A sign-up keeps its program as a small code instead of its name
-- (docs/decisions/0215-waitlist-program-code.md): 1 for Upcycling
-- Initiative, 2 for Wardrobe Clearance Program (store.programCodes). The
-- name, 20 to 26 characters, was in the row, the unique (email, program)
-- index and the line index, some 65 bytes a sign-up. A program name that
-- is neither stops the migration (the column is NOT NULL): nothing changes.
-- on sqlite
CREATE TABLE waitlist_signups_coded (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    program INTEGER NOT NULL,
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
    line_code TEXT NULL,
    line_seq INTEGER NULL,
    line_credits INTEGER NOT NULL DEFAULT 0,
    line_key INTEGER NULL,
    ip_hash TEXT NOT NULL DEFAULT '',
    UNIQUE (email, program)
);
INSERT INTO waitlist_signups_coded (id, email, program, page_path, referrer, utm_source, utm_medium, utm_campaign,
    utm_term, utm_content, unsubscribe_token_hash, unsubscribed_at, created_at, line_code, line_seq, line_credits,
    line_key, ip_hash)
SELECT id, email, CASE program WHEN 'Upcycling Initiative' THEN 1 WHEN 'Wardrobe Clearance Program' THEN 2 END,
    page_path, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content, unsubscribe_token_hash,
    unsubscribed_at, created_at, line_code, line_seq, line_credits, line_key, ip_hash
FROM waitlist_signups ORDER BY rowid;
DROP TABLE waitlist_signups;
ALTER TABLE waitlist_signups_coded RENAME TO waitlist_signups;
CREATE INDEX waitlist_signups_domain ON waitlist_signups (substr(email, instr(email, '@') + 1));
CREATE INDEX waitlist_signups_created ON waitlist_signups (created_at);
CREATE UNIQUE INDEX waitlist_signups_line_code ON waitlist_signups (line_code) WHERE line_code IS NOT NULL;
CREATE INDEX waitlist_signups_line ON waitlist_signups (program, line_key, line_seq) WHERE line_key IS NOT NULL;
-- on postgres
ALTER TABLE waitlist_signups ALTER COLUMN program TYPE smallint
    USING CASE program WHEN 'Upcycling Initiative' THEN 1 WHEN 'Wardrobe Clearance Program' THEN 2 END;
