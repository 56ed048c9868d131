-- The line counters get one row per writer lane, as the waitlist's roll-ups
-- did (migration 0024): on PostgreSQL every new place took its program's
-- one counter row lock until its commit, so sign-ups of a program
-- committed one lane at a time. Each lane now counts its own places (n,
-- which unsubscribing lowers in the lane that does it; the line's length
-- is the sum over the lanes) and keeps the last order of joining it handed
-- out (last_seq). A new place takes one more than the highest last_seq of
-- its program's lanes: two lanes committing at once may hand out the same
-- seq, and PlaceInLine breaks that tie by the sign-up's id, which grows
-- with time. SQLite has one lane (0).

CREATE TABLE waitlist_line_counts_lanes (
    program TEXT NOT NULL,
    lane INTEGER NOT NULL DEFAULT 0,
    n INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    PRIMARY KEY (program, lane)
);
INSERT INTO waitlist_line_counts_lanes (program, lane, n, last_seq) SELECT program, 0, n, last_seq FROM waitlist_line_counts;
DROP TABLE waitlist_line_counts;
ALTER TABLE waitlist_line_counts_lanes RENAME TO waitlist_line_counts;
