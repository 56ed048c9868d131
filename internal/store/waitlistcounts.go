package store

import (
	"context"
	"sort"
	"strings"
)

// The waitlist_counts roll-up (migration 0014) holds, per program and
// source (UTM source and campaign, referrer, page path), how many sign-ups
// are subscribed and unsubscribed, and waitlist_daily how many signed up
// per UTC day and program, so that the console's overview never counts
// every sign-up. Every write of waitlist_signups updates it in the
// same transaction through the functions below; a sign-up's program and
// source never change after it is stored.

// waitlistKey is the roll-up's key, in the order of its primary key.
const waitlistKey = `program, utm_source, utm_campaign, referrer, page_path`

// waitlistDay is the SQL of a sign-up's UTC day (YYYY-MM-DD), the same on
// both engines (timestamps are stored in UTC).
const waitlistDay = `substr(CAST(created_at AS TEXT), 1, 10)`

// countWaitlistJoin counts s, just inserted (subscribed).
func countWaitlistJoin(ctx context.Context, tx *Tx, s *WaitlistSignup) error {
	if _, err := tx.Exec(ctx, `INSERT INTO waitlist_daily (day, program, signups) VALUES (?, ?, 1)
		ON CONFLICT (day, program) DO UPDATE SET signups = waitlist_daily.signups + 1`,
		s.CreatedAt.UTC().Format("2006-01-02"), s.Program); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `INSERT INTO waitlist_counts (`+waitlistKey+`, subscribed, unsubscribed) VALUES (?, ?, ?, ?, ?, 1, 0)
		ON CONFLICT (`+waitlistKey+`) DO UPDATE SET subscribed = waitlist_counts.subscribed + 1`,
		s.Program, s.UTMSource, s.UTMCampaign, s.Referrer, s.PagePath)
	return err
}

// countWaitlistMove moves one sign-up, the one the condition (on
// waitlist_signups) selects, between subscribed (delta 1) and unsubscribed
// (delta -1). The caller has just changed that sign-up's unsubscribed_at.
func countWaitlistMove(ctx context.Context, tx *Tx, delta int, where string, args ...any) error {
	_, err := tx.Exec(ctx, `UPDATE waitlist_counts SET subscribed = subscribed + ?, unsubscribed = unsubscribed - ?
		WHERE (`+waitlistKey+`) IN (SELECT `+waitlistKey+` FROM waitlist_signups WHERE `+where+`)`,
		append([]any{delta, delta}, args...)...)
	return err
}

// deleteWaitlistCounted deletes the sign-ups of email and takes them off the
// roll-up, returning how many went.
func deleteWaitlistCounted(ctx context.Context, tx *Tx, email string) (int64, error) {
	if err := tx.Announce(ctx, TableWaitlist, "DELETE", `email = ?`, email); err != nil {
		return 0, err
	}
	rows, err := tx.Query(ctx, `DELETE FROM waitlist_signups WHERE email = ?
		RETURNING `+waitlistKey+`, CASE WHEN unsubscribed_at IS NULL THEN 1 ELSE 0 END, `+waitlistDay, email)
	if err != nil {
		return 0, err
	}
	type gone struct {
		key  [5]string
		subs int
		day  string
	}
	var all []gone
	for rows.Next() {
		var g gone
		if err := rows.Scan(&g.key[0], &g.key[1], &g.key[2], &g.key[3], &g.key[4], &g.subs, &g.day); err != nil {
			rows.Close()
			return 0, err
		}
		all = append(all, g)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	// Rows are updated in the order JoinWaitlist takes them (every
	// waitlist_daily row, then every waitlist_counts row, each sorted), so
	// that concurrent writers on PostgreSQL never wait on each other in a
	// circle.
	sort.Slice(all, func(i, j int) bool { return all[i].day+"\x00"+all[i].key[0] < all[j].day+"\x00"+all[j].key[0] })
	for _, g := range all {
		if _, err := tx.Exec(ctx, `UPDATE waitlist_daily SET signups = signups - 1 WHERE day = ? AND program = ?`,
			g.day, g.key[0]); err != nil {
			return 0, err
		}
	}
	sort.Slice(all, func(i, j int) bool { return strings.Join(all[i].key[:], "\x00") < strings.Join(all[j].key[:], "\x00") })
	for _, g := range all {
		if _, err := tx.Exec(ctx, `UPDATE waitlist_counts SET subscribed = subscribed - ?, unsubscribed = unsubscribed - ?
			WHERE program = ? AND utm_source = ? AND utm_campaign = ? AND referrer = ? AND page_path = ?`,
			g.subs, 1-g.subs, g.key[0], g.key[1], g.key[2], g.key[3], g.key[4]); err != nil {
			return 0, err
		}
	}
	return int64(len(all)), nil
}

// RecountWaitlist rebuilds the waitlist_counts and waitlist_daily roll-ups
// from the sign-ups, for tools that insert sign-ups in bulk with their own
// SQL (test seeding).
func RecountWaitlist(ctx context.Context, tx *Tx) error {
	if _, err := tx.Exec(ctx, `DELETE FROM waitlist_counts`); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO waitlist_counts (`+waitlistKey+`, subscribed, unsubscribed)
		SELECT `+waitlistKey+`, SUM(CASE WHEN unsubscribed_at IS NULL THEN 1 ELSE 0 END),
			SUM(CASE WHEN unsubscribed_at IS NULL THEN 0 ELSE 1 END)
		FROM waitlist_signups GROUP BY `+waitlistKey); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM waitlist_daily`); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `INSERT INTO waitlist_daily (day, program, signups)
		SELECT `+waitlistDay+`, program, COUNT(*) FROM waitlist_signups GROUP BY `+waitlistDay+`, program`)
	return err
}
