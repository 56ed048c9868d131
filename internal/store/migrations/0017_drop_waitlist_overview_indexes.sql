-- The console overview's counts by program, subscription and source read
-- the waitlist_counts roll-up (0014), not waitlist_signups, so the four
-- covering indexes made for those counts (0008) are read by no query any
-- more; each only cost every sign-up one more b-tree insert, page to write
-- and sub-journal copy. The list, search and paging queries keep theirs:
-- (created_at, id, program), (program, created_at, id), (email, id), and
-- the unique (email, program) and unsubscribe token indexes.

DROP INDEX waitlist_signups_program_unsub;
DROP INDEX waitlist_signups_utm;
DROP INDEX waitlist_signups_referrer;
DROP INDEX waitlist_signups_page_path;
