-- The (program, seq) index of the waitlist's line served the backfill of
-- the line counters (migration 0032) and nothing since: a place is read by
-- its sign-up, counted on (program, line_key, seq), and a new place takes
-- its order of joining from waitlist_line_counts. It cost every sign-up
-- some 36 bytes on SQLite.
DROP INDEX waitlist_line_seq;
