-- First-party analytics (issue 16; internal/analytics). No cookie, no IP,
-- no user agent is kept: a page view carries only a visitor hash made with
-- a salt that is replaced every UTC day and then deleted.

-- Raw events, kept 30 days: page views sent by the app (visitor set) and
-- the funnel's milestones counted by the server (visitor '').
CREATE TABLE analytics_events (
    day TEXT NOT NULL,
    name TEXT NOT NULL,
    visitor TEXT NOT NULL DEFAULT '',
    path TEXT NOT NULL DEFAULT '',
    referrer_host TEXT NOT NULL DEFAULT '',
    utm_source TEXT NOT NULL DEFAULT '',
    utm_medium TEXT NOT NULL DEFAULT '',
    utm_campaign TEXT NOT NULL DEFAULT ''
);
CREATE INDEX analytics_events_day ON analytics_events (day, name);

-- One row per UTC day rolled up from the raw events, kept for good; a day
-- with a row here is read from the roll-up, a day without one from the raw
-- events.
CREATE TABLE analytics_daily (
    day TEXT PRIMARY KEY,
    visitors INTEGER NOT NULL DEFAULT 0,
    pageviews INTEGER NOT NULL DEFAULT 0,
    waitlist_joined INTEGER NOT NULL DEFAULT 0,
    account_created INTEGER NOT NULL DEFAULT 0,
    role_chosen INTEGER NOT NULL DEFAULT 0,
    onboarding_finished INTEGER NOT NULL DEFAULT 0
);

-- The rolled-up day's visitors and page views by page, referrer host, UTM
-- source and UTM campaign (dim: page, referrer, utm_source, utm_campaign).
CREATE TABLE analytics_daily_dims (
    day TEXT NOT NULL,
    dim TEXT NOT NULL,
    value TEXT NOT NULL,
    visitors INTEGER NOT NULL DEFAULT 0,
    pageviews INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (day, dim, value)
);

-- Today's salt, shared by the instances on PostgreSQL (SQLite keeps it in
-- memory only); yesterday's is deleted when the day changes.
CREATE TABLE analytics_salts (
    day TEXT PRIMARY KEY,
    salt TEXT NOT NULL
);

-- The same counts added up per calendar month (month: YYYY-MM), kept by
-- the roll-up with each day, so that a year's report reads twelve months
-- instead of 366 days.
CREATE TABLE analytics_monthly_dims (
    month TEXT NOT NULL,
    dim TEXT NOT NULL,
    value TEXT NOT NULL,
    visitors INTEGER NOT NULL DEFAULT 0,
    pageviews INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (month, dim, value)
);
