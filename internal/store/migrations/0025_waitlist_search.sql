-- The console's waitlist search finds the addresses that start with what
-- is typed and those whose domain (after the '@') does. Both are ranges of
-- an index, however many sign-ups there are: the address's is the unique
-- (email, program) index on SQLite, a byte-ordered one (COLLATE "C", so
-- that a prefix is one range whatever the database's collation) on
-- PostgreSQL; the domain's is this index on the expression the search
-- compares.
-- on sqlite
CREATE INDEX waitlist_signups_domain ON waitlist_signups (substr(email, instr(email, '@') + 1));
-- on postgres
CREATE INDEX waitlist_signups_email_bytes ON waitlist_signups ((email COLLATE "C"));
CREATE INDEX waitlist_signups_domain ON waitlist_signups ((split_part(email, '@', 2) COLLATE "C"));
