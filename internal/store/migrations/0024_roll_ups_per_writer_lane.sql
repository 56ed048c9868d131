-- The waitlist roll-ups get one row per writer lane (lane, from 0): on
-- PostgreSQL the Writer commits on a few connections at once, and each
-- adds its sign-ups to rows of its own, so that no two connections wait
-- on each other's counter rows or deadlock on them. Readers add the lanes
-- up. SQLite has one lane (0).

CREATE TABLE waitlist_counts_lanes (
    program TEXT NOT NULL,
    utm_source TEXT NOT NULL,
    utm_campaign TEXT NOT NULL,
    referrer TEXT NOT NULL,
    page_path TEXT NOT NULL,
    lane INTEGER NOT NULL DEFAULT 0,
    subscribed INTEGER NOT NULL DEFAULT 0,
    unsubscribed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (program, utm_source, utm_campaign, referrer, page_path, lane)
);
INSERT INTO waitlist_counts_lanes (program, utm_source, utm_campaign, referrer, page_path, lane, subscribed, unsubscribed)
SELECT program, utm_source, utm_campaign, referrer, page_path, 0, subscribed, unsubscribed FROM waitlist_counts;
DROP TABLE waitlist_counts;
ALTER TABLE waitlist_counts_lanes RENAME TO waitlist_counts;

CREATE TABLE waitlist_daily_lanes (
    day TEXT NOT NULL,
    program TEXT NOT NULL,
    lane INTEGER NOT NULL DEFAULT 0,
    signups INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (day, program, lane)
);
INSERT INTO waitlist_daily_lanes (day, program, lane, signups) SELECT day, program, 0, signups FROM waitlist_daily;
DROP TABLE waitlist_daily;
ALTER TABLE waitlist_daily_lanes RENAME TO waitlist_daily;
