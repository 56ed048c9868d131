-- The (created_at, id) order of the console's waitlist needs created_at
-- and id; program was in the index so that a page of one program could
-- skip the other's entries without reading their rows. With two programs
-- that is about a page's rows more to read, a few hundred microseconds,
-- while the program's name cost every sign-up some 23 bytes of the index.
DROP INDEX waitlist_signups_created_id;
CREATE INDEX waitlist_signups_created_id ON waitlist_signups (created_at, id);

-- On PostgreSQL the unique (email, program) constraint's index followed
-- the database's collation, so the address prefix search had an index of
-- its own on email COLLATE "C" (migration 0025), 42 bytes a sign-up. One
-- unique index on (email COLLATE "C", program) now does both: equal
-- addresses are equal bytes under any deterministic collation, so it
-- refuses the same duplicates, ON CONFLICT (email, program) finds it, and
-- the console's e-mail order compares bytes, as SQLite's does.
-- on postgres
CREATE UNIQUE INDEX waitlist_signups_email_program ON waitlist_signups (email COLLATE "C", program);
ALTER TABLE waitlist_signups DROP CONSTRAINT waitlist_signups_email_program_key;
DROP INDEX waitlist_signups_email_bytes;
