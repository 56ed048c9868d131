-- Rate-limit counters shared by every instance on PostgreSQL: one row per
-- limit and client (e.g. 'auth|203.0.113.7'), counting hits in a fixed window.
-- On SQLite (one instance) the counters stay in memory and this table is unused.

CREATE TABLE rate_limits (
    limit_key TEXT PRIMARY KEY,
    window_start TIMESTAMP NOT NULL,
    hits INTEGER NOT NULL
);

CREATE INDEX rate_limits_window_start ON rate_limits (window_start);
