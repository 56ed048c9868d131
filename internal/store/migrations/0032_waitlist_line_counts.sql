-- How many sign-ups each program's line holds (n, kept as places are taken
-- and given up) and the last order of joining handed out (last_seq): a new
-- sign-up takes last_seq + 1, which no other place has, and its place is
-- the line's length (every earlier place sorts before it), read here
-- instead of counting the line.

CREATE TABLE waitlist_line_counts (
    program TEXT PRIMARY KEY,
    n INTEGER NOT NULL,
    last_seq INTEGER NOT NULL
);
INSERT INTO waitlist_line_counts (program, n, last_seq)
    SELECT program, COUNT(*), MAX(seq) FROM waitlist_line GROUP BY program;

-- On PostgreSQL the sign-ups' address compares as bytes, as its unique
-- (email COLLATE "C", program) index does (migration 0030), so that every
-- lookup by address (a repeated join, the place in line, unsubscribing,
-- a person's data) is served by that index instead of reading the table.
-- on postgres
ALTER TABLE waitlist_signups ALTER COLUMN email TYPE TEXT COLLATE "C";
