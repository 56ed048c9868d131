-- No two places of a program's line share an order of joining (line_seq)
-- any more (docs/decisions/0219-line-numbers-from-a-sequence.md). On
-- PostgreSQL writer lanes committing at once could hand out the same one;
-- those places are numbered apart here, each program's places keeping the
-- order (line_seq, id) the line gave them and their line_key moving with
-- their line_seq.
DROP INDEX waitlist_signups_line;
UPDATE waitlist_signups SET line_seq = line_seq + r.d, line_key = line_key + r.d
FROM (SELECT id, row_number() OVER (PARTITION BY program ORDER BY line_seq, id)
        - dense_rank() OVER (PARTITION BY program ORDER BY line_seq) AS d
    FROM waitlist_signups WHERE line_key IS NOT NULL) r
WHERE r.id = waitlist_signups.id AND r.d > 0;

-- The line's index is unique (docs/decisions/0220-unique-line-index.md):
-- line_key is line_seq - 10 * line_credits in every row the store writes,
-- so one (program, line_key, line_credits) is one (program, line_seq), and
-- the database refuses a second place with a program's number. A line's
-- ties (equal keys) go by more credits first, read from the same index.
CREATE UNIQUE INDEX waitlist_signups_line ON waitlist_signups (program, line_key, line_credits) WHERE line_key IS NOT NULL;

-- waitlist_line_numbers keeps, per program and writer lane, the numbers no
-- place holds any more (gone: places given up, and at a recount the holes
-- it finds below the last number) and, for SQLite, the last number handed
-- out (last_seq; PostgreSQL takes a program's numbers from its sequence
-- below). A new place is told its number less the numbers gone: the places
-- before it. It replaces waitlist_line_counts, whose count of places per
-- lane told sign-ups of lanes committing at once the same place.
CREATE TABLE waitlist_line_numbers (
    program TEXT NOT NULL,
    lane INTEGER NOT NULL DEFAULT 0,
    last_seq INTEGER NOT NULL DEFAULT 0,
    gone INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (program, lane)
);
INSERT INTO waitlist_line_numbers (program, lane, last_seq, gone)
SELECT program, 0, MAX(m), MAX(m) - SUM(held) FROM (
    SELECT program, last_seq AS m, 0 AS held FROM waitlist_line_counts
    UNION ALL
    SELECT CASE program WHEN 1 THEN 'Upcycling Initiative' WHEN 2 THEN 'Wardrobe Clearance Program' END, MAX(line_seq), COUNT(*)
    FROM waitlist_signups WHERE line_key IS NOT NULL GROUP BY program
) p GROUP BY program;
DROP TABLE waitlist_line_counts;

-- On PostgreSQL each program's numbers come from a sequence of its own
-- (waitlist_line_ and the program's code in store.programs): lanes
-- committing at once take different numbers without waiting on each
-- other, and a sequence never hands out a number twice, a crash included.
-- on postgres
CREATE SEQUENCE waitlist_line_1;
CREATE SEQUENCE waitlist_line_2;
SELECT setval(('waitlist_line_' || p.code)::regclass, COALESCE(n.last_seq, 0) + 1, false)
FROM (VALUES (1, 'Upcycling Initiative'), (2, 'Wardrobe Clearance Program')) p(code, name)
LEFT JOIN waitlist_line_numbers n ON n.program = p.name;
