package store

import (
	"context"
)

// The analytics tables: raw events (one row a page view or milestone,
// kept a few weeks), the daily roll-up with its counts by dimension, the
// monthly sums of those, and the day's salt of the visitor hash.

// AnalyticsEvent is one raw event: a page view (with its visitor hash and
// dimensions) or a funnel milestone (name and day only). N is how many
// occurrences the row stands for (read only; milestones stored together
// with a write count one each).
type AnalyticsEvent struct {
	Day, Name, Visitor, Path, ReferrerHost, UTMSource, UTMMedium, UTMCampaign string
	N                                                                         int
}

// AddAnalyticsEvent stores one raw event as a write of its own.
func (db *DB) AddAnalyticsEvent(ctx context.Context, e AnalyticsEvent) error {
	return db.InTx(ctx, func(tx *Tx) error { return tx.AddAnalyticsEvents(ctx, []AnalyticsEvent{e}) })
}

// AddAnalyticsEvents stores raw events inside tx, a hundred to a statement.
func (t *Tx) AddAnalyticsEvents(ctx context.Context, events []AnalyticsEvent) error {
	for len(events) > 0 {
		n := min(len(events), 100)
		q := `INSERT INTO analytics_events (day, name, visitor, path, referrer_host, utm_source, utm_medium, utm_campaign) VALUES `
		args := make([]any, 0, n*8)
		for i, e := range events[:n] {
			if i > 0 {
				q += ", "
			}
			q += "(?, ?, ?, ?, ?, ?, ?, ?)"
			args = append(args, e.Day, e.Name, e.Visitor, e.Path, e.ReferrerHost, e.UTMSource, e.UTMMedium, e.UTMCampaign)
		}
		if _, err := t.Exec(ctx, q, args...); err != nil {
			return err
		}
		events = events[n:]
	}
	return nil
}

// EachAnalyticsEvent calls fn with each raw event of the days lo to hi
// (YYYY-MM-DD), read in one index range scan. Visitor through UTMCampaign
// are "" for a milestone; UTMMedium is not read.
func (db *DB) EachAnalyticsEvent(ctx context.Context, lo, hi string, fn func(*AnalyticsEvent) error) error {
	rows, err := db.Query(ctx, `SELECT day, name, n, visitor, path, referrer_host, utm_source, utm_campaign
		FROM analytics_events WHERE day >= ? AND day <= ?`, lo, hi)
	if err != nil {
		return err
	}
	defer rows.Close()
	var e AnalyticsEvent
	for rows.Next() {
		if err := rows.Scan(&e.Day, &e.Name, &e.N, &e.Visitor, &e.Path, &e.ReferrerHost, &e.UTMSource, &e.UTMCampaign); err != nil {
			return err
		}
		if err := fn(&e); err != nil {
			return err
		}
	}
	return rows.Err()
}

// AnalyticsDay is one rolled-up day's figures.
type AnalyticsDay struct {
	Visitors, PageViews, Waitlist, Accounts, Roles, Onboarded int
}

// AnalyticsDimCount is the visitors and page views of one value of one
// dimension ("page", "referrer", "utm_source", "utm_campaign").
type AnalyticsDimCount struct {
	Dim, Value          string
	Visitors, PageViews int
}

// AnalyticsDays returns the rolled-up days from lo to hi (YYYY-MM-DD).
func (db *DB) AnalyticsDays(ctx context.Context, lo, hi string) (map[string]AnalyticsDay, error) {
	rows, err := db.Query(ctx, `SELECT day, visitors, pageviews, waitlist_joined, account_created, role_chosen, onboarding_finished
		FROM analytics_daily WHERE day >= ? AND day <= ?`, lo, hi)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]AnalyticsDay{}
	for rows.Next() {
		var day string
		var c AnalyticsDay
		if err := rows.Scan(&day, &c.Visitors, &c.PageViews, &c.Waitlist, &c.Accounts, &c.Roles, &c.Onboarded); err != nil {
			return nil, err
		}
		out[day] = c
	}
	return out, rows.Err()
}

// AnalyticsMonthDims sums the counts by dimension of the calendar months
// from to to (YYYY-MM), from the monthly roll-up.
func (db *DB) AnalyticsMonthDims(ctx context.Context, from, to string) ([]AnalyticsDimCount, error) {
	return db.dimCounts(ctx, `SELECT dim, value, SUM(visitors), SUM(pageviews) FROM analytics_monthly_dims
		WHERE month >= ? AND month <= ? GROUP BY dim, value`, from, to)
}

// AnalyticsDayDims sums the counts by dimension of the days lo to hi
// (YYYY-MM-DD), from the daily roll-up.
func (db *DB) AnalyticsDayDims(ctx context.Context, lo, hi string) ([]AnalyticsDimCount, error) {
	return db.dimCounts(ctx, `SELECT dim, value, SUM(visitors), SUM(pageviews) FROM analytics_daily_dims
		WHERE day >= ? AND day <= ? GROUP BY dim, value`, lo, hi)
}

func (db *DB) dimCounts(ctx context.Context, q string, args ...any) ([]AnalyticsDimCount, error) {
	rows, err := db.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []AnalyticsDimCount
	for rows.Next() {
		var c AnalyticsDimCount
		if err := rows.Scan(&c.Dim, &c.Value, &c.Visitors, &c.PageViews); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// AnalyticsPendingDays are the days before open that have raw events or
// waitlist sign-ups (the funnel counts them, WaitlistPerDay) and
// no roll-up, oldest first.
func (db *DB) AnalyticsPendingDays(ctx context.Context, open string) ([]string, error) {
	rows, err := db.Query(ctx, `SELECT day FROM analytics_events WHERE day < ?
		UNION SELECT day FROM waitlist_daily WHERE day < ? AND signups <> 0
		EXCEPT SELECT day FROM analytics_daily WHERE day < ? ORDER BY day`, open, open, open)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var days []string
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			return nil, err
		}
		days = append(days, d)
	}
	return days, rows.Err()
}

// AddAnalyticsRollup stores day's roll-up, its counts by dimension, and
// adds those to the day's month, in one write; unless the day is rolled up
// already (another instance did it first): false then, and nothing is
// written.
func (db *DB) AddAnalyticsRollup(ctx context.Context, day string, d AnalyticsDay, dims []AnalyticsDimCount) (bool, error) {
	done := false
	err := db.InTx(ctx, func(tx *Tx) error {
		done = false
		res, err := tx.Exec(ctx, `INSERT INTO analytics_daily (day, visitors, pageviews, waitlist_joined, account_created, role_chosen, onboarding_finished)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (day) DO NOTHING`,
			day, d.Visitors, d.PageViews, d.Waitlist, d.Accounts, d.Roles, d.Onboarded)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		for _, c := range dims {
			if _, err := tx.Exec(ctx, `INSERT INTO analytics_daily_dims (day, dim, value, visitors, pageviews) VALUES (?, ?, ?, ?, ?)`,
				day, c.Dim, c.Value, c.Visitors, c.PageViews); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO analytics_monthly_dims (month, dim, value, visitors, pageviews) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (month, dim, value) DO UPDATE SET visitors = analytics_monthly_dims.visitors + excluded.visitors,
				pageviews = analytics_monthly_dims.pageviews + excluded.pageviews`,
				day[:7], c.Dim, c.Value, c.Visitors, c.PageViews); err != nil {
				return err
			}
		}
		done = true
		return nil
	})
	return done, err
}

// DeleteAnalyticsEventsBefore deletes the raw events of rolled-up days
// before cutoff (YYYY-MM-DD) and returns how many went.
func (db *DB) DeleteAnalyticsEventsBefore(ctx context.Context, cutoff string) (int64, error) {
	res, err := db.Exec(ctx, `DELETE FROM analytics_events WHERE day < ?
		AND day IN (SELECT day FROM analytics_daily WHERE day < ?)`, cutoff, cutoff)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// DaySalt returns the salt (hex) of the visitor hash for day. On
// PostgreSQL the salt is kept in the database, so that every instance
// hashes a visitor the same way: the first instance to need the day's salt
// stores fresh, the others read that one, and earlier days' salts are
// deleted. On SQLite (a single instance) it stays in memory: fresh is
// returned as it is and nothing is stored.
func (db *DB) DaySalt(ctx context.Context, day, fresh string) (string, error) {
	if db.dialect != Postgres {
		return fresh, nil
	}
	if _, err := db.Exec(ctx, `INSERT INTO analytics_salts (day, salt) VALUES (?, ?) ON CONFLICT (day) DO NOTHING`,
		day, fresh); err != nil {
		return "", err
	}
	var stored string
	if err := db.QueryRow(ctx, `SELECT salt FROM analytics_salts WHERE day = ?`, day).Scan(&stored); err != nil {
		return "", err
	}
	if err := db.DeleteSaltsBefore(ctx, day); err != nil {
		return "", err
	}
	return stored, nil
}

// DeleteSaltsBefore deletes the stored salts of days before day (none
// are stored on SQLite: see DaySalt).
func (db *DB) DeleteSaltsBefore(ctx context.Context, day string) error {
	if db.dialect != Postgres {
		return nil
	}
	_, err := db.Exec(ctx, `DELETE FROM analytics_salts WHERE day < ?`, day)
	return err
}
