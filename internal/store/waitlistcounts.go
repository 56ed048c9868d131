package store

import "context"

// The waitlist_counts roll-up (migration 0014) holds, per program and
// source (UTM source and campaign, referrer, page path), how many sign-ups
// are subscribed and unsubscribed, and waitlist_daily how many signed up
// per UTC day and program, so that the console's overview never counts
// every sign-up. Every write of waitlist_signups updates it in the
// same transaction through the functions below; a sign-up's program and
// source never change after it is stored. Each writer lane keeps rows of
// its own (migration 0024); readers add them up.

// waitlistKey is the roll-up's key, in the order of its primary key.
const waitlistKey = `program, utm_source, utm_campaign, referrer, page_path`

// signupKey is waitlistKey read from waitlist_signups: the program by name
// (the sign-up keeps its code; programs.go).
var signupKey = programNameSQL("program") + `, utm_source, utm_campaign, referrer, page_path`

// countWaitlistJoin counts s, just inserted (subscribed).
func countWaitlistJoin(ctx context.Context, tx *Tx, s *WaitlistSignup) error {
	return addWaitlistCounts(ctx, tx, s.CreatedAt.UTC().Format("2006-01-02"),
		[5]string{s.Program, s.UTMSource, s.UTMCampaign, s.Referrer, s.PagePath}, 1, 1, 0)
}

// addWaitlistCounts adds signups to the day's row of key's program, and
// subscribed and unsubscribed to key's row, both the rows of the
// transaction's writer lane.
func addWaitlistCounts(ctx context.Context, tx *Tx, day string, key [5]string, signups, subscribed, unsubscribed int) error {
	if signups != 0 {
		if _, err := tx.Exec(ctx, `INSERT INTO waitlist_daily (day, program, lane, signups) VALUES (?, ?, ?, ?)
			ON CONFLICT (day, program, lane) DO UPDATE SET signups = waitlist_daily.signups + excluded.signups`,
			day, key[0], tx.Lane(), signups); err != nil {
			return err
		}
	}
	_, err := tx.Exec(ctx, `INSERT INTO waitlist_counts (`+waitlistKey+`, lane, subscribed, unsubscribed) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (`+waitlistKey+`, lane) DO UPDATE SET subscribed = waitlist_counts.subscribed + excluded.subscribed,
			unsubscribed = waitlist_counts.unsubscribed + excluded.unsubscribed`,
		key[0], key[1], key[2], key[3], key[4], tx.Lane(), subscribed, unsubscribed)
	return err
}

// countWaitlistMove moves one sign-up, the one the condition (on
// waitlist_signups) selects, between subscribed (delta 1) and unsubscribed
// (delta -1). The caller has just changed that sign-up's unsubscribed_at.
func countWaitlistMove(ctx context.Context, tx *Tx, delta int, where string, args ...any) error {
	var key [5]string
	err := tx.QueryRow(ctx, `SELECT `+signupKey+` FROM waitlist_signups WHERE `+where, args...).
		Scan(&key[0], &key[1], &key[2], &key[3], &key[4])
	if err != nil {
		return err
	}
	return addWaitlistCounts(ctx, tx, "", key, 0, delta, -delta)
}

// deleteWaitlistCounted deletes the sign-ups of email and takes them off the
// roll-up, returning how many went.
func deleteWaitlistCounted(ctx context.Context, tx *Tx, email string) (int64, error) {
	if err := tx.forgetReferrals(ctx, `email = ?`, email); err != nil {
		return 0, err
	}
	if err := tx.Announce(ctx, TableWaitlist, "DELETE", `email = ?`, email); err != nil {
		return 0, err
	}
	rows, err := tx.Query(ctx, `DELETE FROM waitlist_signups WHERE email = ?
		RETURNING `+signupKey+`, CASE WHEN unsubscribed_at IS NULL THEN 1 ELSE 0 END, `+tx.db.dayOf("created_at"), email)
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
	for _, g := range all {
		if err := addWaitlistCounts(ctx, tx, g.day, g.key, -1, -g.subs, g.subs-1); err != nil {
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
	if _, err := tx.Exec(ctx, `INSERT INTO waitlist_counts (`+waitlistKey+`, lane, subscribed, unsubscribed)
		SELECT `+signupKey+`, 0, SUM(CASE WHEN unsubscribed_at IS NULL THEN 1 ELSE 0 END),
			SUM(CASE WHEN unsubscribed_at IS NULL THEN 0 ELSE 1 END)
		FROM waitlist_signups GROUP BY `+waitlistKey); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM waitlist_daily`); err != nil {
		return err
	}
	day := tx.db.dayOf("created_at")
	_, err := tx.Exec(ctx, `INSERT INTO waitlist_daily (day, program, lane, signups)
		SELECT `+day+`, `+programNameSQL("program")+`, 0, COUNT(*) FROM waitlist_signups GROUP BY `+day+`, program`)
	return err
}
