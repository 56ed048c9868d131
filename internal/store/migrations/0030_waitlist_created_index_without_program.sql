-- The (created_at, id) order of the console's waitlist needs created_at
-- and id; program was in the index so that a page of one program could
-- skip the other's entries without reading their rows. With two programs
-- that is about a page's rows more to read, a few hundred microseconds,
-- while the program's name cost every sign-up some 23 bytes of the index.
DROP INDEX waitlist_signups_created_id;
CREATE INDEX waitlist_signups_created_id ON waitlist_signups (created_at, id);
