-- The console overview's waitlist figures (sign-ups by program, subscribed
-- or not, and by source) read this roll-up instead of counting every
-- sign-up: one row per (program, source) combination, kept in step by each
-- write of waitlist_signups in the same transaction (store.JoinWaitlist,
-- store.UnsubscribeWaitlist, store.DeletePerson). Filled here from the
-- sign-ups already stored.

CREATE TABLE waitlist_counts (
    program TEXT NOT NULL,
    utm_source TEXT NOT NULL,
    utm_campaign TEXT NOT NULL,
    referrer TEXT NOT NULL,
    page_path TEXT NOT NULL,
    subscribed INTEGER NOT NULL DEFAULT 0,
    unsubscribed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (program, utm_source, utm_campaign, referrer, page_path)
);

INSERT INTO waitlist_counts (program, utm_source, utm_campaign, referrer, page_path, subscribed, unsubscribed)
SELECT program, utm_source, utm_campaign, referrer, page_path,
       SUM(CASE WHEN unsubscribed_at IS NULL THEN 1 ELSE 0 END),
       SUM(CASE WHEN unsubscribed_at IS NULL THEN 0 ELSE 1 END)
FROM waitlist_signups
GROUP BY program, utm_source, utm_campaign, referrer, page_path;

-- Sign-ups per UTC day and program, for the overview's daily series (a
-- sign-up's day never changes; unsubscribing does not take it off).
CREATE TABLE waitlist_daily (
    day TEXT NOT NULL,
    program TEXT NOT NULL,
    signups INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (day, program)
);

INSERT INTO waitlist_daily (day, program, signups)
SELECT substr(CAST(created_at AS TEXT), 1, 10), program, COUNT(*)
FROM waitlist_signups
GROUP BY substr(CAST(created_at AS TEXT), 1, 10), program;
