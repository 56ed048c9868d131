package store

import (
	"context"
	"time"
)

// CountHit records one hit for key in its fixed window of length window and
// returns the hits counted in the current window (this one included) and
// when that window started. A window older than window is restarted at now.
// It is one statement, so instances counting the same key at once never lose
// a hit.
func (db *DB) CountHit(ctx context.Context, key string, now time.Time, window time.Duration) (int, time.Time, error) {
	now = now.UTC().Truncate(time.Microsecond)
	expired := now.Add(-window)
	var hits int
	var start time.Time
	err := db.QueryRow(ctx, `INSERT INTO rate_limits (limit_key, window_start, hits) VALUES (?, ?, 1)
		ON CONFLICT (limit_key) DO UPDATE SET
			hits = CASE WHEN rate_limits.window_start <= ? THEN 1 ELSE rate_limits.hits + 1 END,
			window_start = CASE WHEN rate_limits.window_start <= ? THEN ? ELSE rate_limits.window_start END
		RETURNING hits, window_start`, key, now, expired, expired, now).Scan(&hits, &start)
	return hits, start.UTC(), err
}

// DeleteRateLimitsBefore removes the counters whose key starts with prefix
// (one limiter's, which ends in "|") and whose window started before t;
// other limiters' counters, with windows of their own, stay.
func (db *DB) DeleteRateLimitsBefore(ctx context.Context, prefix string, t time.Time) error {
	// The keys from prefix up to the same text with its last byte one higher: a range of the primary key.
	end := prefix[:len(prefix)-1] + string(prefix[len(prefix)-1]+1)
	_, err := db.Exec(ctx, `DELETE FROM rate_limits WHERE limit_key >= ? AND limit_key < ? AND window_start < ?`, prefix, end, t.UTC())
	return err
}

// SharedByInstances reports whether several server instances may use this
// database at once (PostgreSQL), so counts that must hold across them
// belong in it rather than in one process's memory.
func (db *DB) SharedByInstances() bool { return db.dialect == Postgres }
