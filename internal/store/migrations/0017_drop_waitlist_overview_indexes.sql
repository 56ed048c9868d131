-- The console overview's counts by program, subscription and source read
-- the waitlist_counts roll-up (0014), not waitlist_signups, so the four
-- covering indexes made for those counts (0008) are read by no query any
-- more; each only cost every sign-up one more b-tree insert, page to write
-- and sub-journal copy. The list, search and paging queries keep theirs:
-- (created_at, id, program), (program, created_at, id) and the unique
-- (email, program); the unsubscribe link, its unique token index.

DROP INDEX waitlist_signups_program_unsub;
DROP INDEX waitlist_signups_utm;
DROP INDEX waitlist_signups_referrer;
DROP INDEX waitlist_signups_page_path;

-- (email, id) served only the console's sort by e-mail; that sort now
-- breaks ties by program (unique together with the e-mail), so it reads
-- the unique (email, program) index, and each sign-up writes one random
-- index page fewer.
DROP INDEX waitlist_signups_email_id;
