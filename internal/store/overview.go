package store

import (
	"context"
	"time"
)

// The figures of the console's overview. The waitlist's come from its
// roll-ups (waitlistcounts.go), never from counting every sign-up; the
// other tables are small or read through their created_at index.

// dayOf is the SQL expression of the UTC date (YYYY-MM-DD) of a timestamp
// column (SQLite keeps it as microseconds since 1970).
func (db *DB) dayOf(col string) string {
	if db.dialect == SQLite {
		return "date(" + col + " / 1000000, 'unixepoch')"
	}
	return "to_char(" + col + ", 'YYYY-MM-DD')"
}

// CreatedPerDay counts, per UTC day (YYYY-MM-DD) from since on, the
// accounts, completed profiles and contact messages created that day.
func (db *DB) CreatedPerDay(ctx context.Context, since time.Time) (accounts, profiles, messages map[string]int, err error) {
	out := [3]map[string]int{}
	for i, table := range []string{"users", "profiles", "contact_messages"} {
		day := db.dayOf("created_at")
		if out[i], err = db.countBy(ctx, `SELECT `+day+`, COUNT(*) FROM `+table+` WHERE created_at >= ? GROUP BY `+day, since); err != nil {
			return nil, nil, nil, err
		}
	}
	return out[0], out[1], out[2], nil
}

// WaitlistPerDay counts the sign-ups per UTC day (from sinceDay,
// YYYY-MM-DD, on) and program, from the waitlist_daily roll-up.
func (db *DB) WaitlistPerDay(ctx context.Context, sinceDay string) (map[string]map[string]int, error) {
	rows, err := db.Query(ctx, `SELECT day, program, SUM(signups) FROM waitlist_daily WHERE day >= ? GROUP BY day, program`, sinceDay)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]map[string]int{}
	for rows.Next() {
		var date, program string
		var n int
		if err := rows.Scan(&date, &program, &n); err != nil {
			return nil, err
		}
		if out[date] == nil {
			out[date] = map[string]int{}
		}
		out[date][program] += n
	}
	return out, rows.Err()
}

// CountAccounts is how many accounts there are, and how many of them are operators.
func (db *DB) CountAccounts(ctx context.Context) (accounts, operators int, err error) {
	err = db.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN is_admin THEN 1 ELSE 0 END), 0) FROM users`).
		Scan(&accounts, &operators)
	return accounts, operators, err
}

// ProfilesByRole counts the completed profiles by role.
func (db *DB) ProfilesByRole(ctx context.Context) (map[string]int, error) {
	return db.countBy(ctx, `SELECT role, COUNT(*) FROM profiles WHERE role IS NOT NULL GROUP BY role`)
}

// WaitlistTally counts one program's sign-ups.
type WaitlistTally struct {
	Subscribed   int `json:"subscribed"`
	Unsubscribed int `json:"unsubscribed"`
}

// WaitlistByProgram counts the sign-ups of each program, from the
// waitlist_counts roll-up.
func (db *DB) WaitlistByProgram(ctx context.Context) (map[string]WaitlistTally, error) {
	rows, err := db.Query(ctx, `SELECT program, SUM(subscribed), SUM(unsubscribed) FROM waitlist_counts GROUP BY program`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]WaitlistTally{}
	for rows.Next() {
		var p string
		var t WaitlistTally
		if err := rows.Scan(&p, &t.Subscribed, &t.Unsubscribed); err != nil {
			return nil, err
		}
		out[p] = t
	}
	return out, rows.Err()
}

// MessagesByStatus counts the contact messages by status.
func (db *DB) MessagesByStatus(ctx context.Context) (map[string]int, error) {
	return db.countBy(ctx, `SELECT status, COUNT(*) FROM contact_messages GROUP BY status`)
}

// CampaignTally counts sign-ups of one UTM source and campaign.
type CampaignTally struct {
	Source   string `json:"source"`
	Campaign string `json:"campaign"`
	Count    int    `json:"count"`
}

// signups is a waitlist_counts row's sign-ups, subscribed or not.
const signups = `SUM(subscribed + unsubscribed)`

// TopCampaigns are the limit UTM source and campaign pairs with the most
// sign-ups, most first (ties by source and campaign).
func (db *DB) TopCampaigns(ctx context.Context, limit int) ([]CampaignTally, error) {
	rows, err := db.Query(ctx, `SELECT utm_source, utm_campaign, `+signups+` FROM waitlist_counts
		GROUP BY utm_source, utm_campaign HAVING `+signups+` > 0 ORDER BY `+signups+` DESC, utm_source, utm_campaign LIMIT ?`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []CampaignTally{}
	for rows.Next() {
		var c CampaignTally
		if err := rows.Scan(&c.Source, &c.Campaign, &c.Count); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// WaitlistByReferrer counts the sign-ups by referrer URL ("" for none).
func (db *DB) WaitlistByReferrer(ctx context.Context) (map[string]int, error) {
	return db.countBy(ctx, `SELECT referrer, `+signups+` FROM waitlist_counts GROUP BY referrer HAVING `+signups+` > 0`)
}

// WaitlistByPage counts the sign-ups by the page their form was on.
func (db *DB) WaitlistByPage(ctx context.Context) (map[string]int, error) {
	return db.countBy(ctx, `SELECT page_path, `+signups+` FROM waitlist_counts GROUP BY page_path HAVING `+signups+` > 0`)
}

// Activity is one recent happening: a waitlist sign-up (Title its e-mail,
// Detail its program), an account (its e-mail) or a contact message (the
// sender's name, Detail its subject).
type Activity struct {
	Kind   string    `json:"kind"` // "waitlist", "account", "message"
	ID     string    `json:"id"`
	Title  string    `json:"title"`
	Detail string    `json:"detail"`
	At     time.Time `json:"at"`
}

// NewestActivity returns the limit newest of each kind of Activity, kind by
// kind, each newest first.
func (db *DB) NewestActivity(ctx context.Context, limit int) ([]Activity, error) {
	var out []Activity
	for _, q := range []struct{ kind, sql string }{
		{"waitlist", `SELECT id, email, ` + programNameSQL("program") + `, created_at FROM waitlist_signups ORDER BY created_at DESC, id DESC LIMIT ?`},
		{"account", `SELECT id, email, '', created_at FROM users ORDER BY created_at DESC, id DESC LIMIT ?`},
		{"message", `SELECT id, first_name || ' ' || last_name, subject, created_at FROM contact_messages ORDER BY created_at DESC, id DESC LIMIT ?`},
	} {
		rows, err := db.Query(ctx, q.sql, limit)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			e := Activity{Kind: q.kind}
			if err := rows.Scan(&e.ID, &e.Title, &e.Detail, &e.At); err != nil {
				rows.Close()
				return nil, err
			}
			e.At = e.At.UTC()
			out = append(out, e)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// countBy runs a "SELECT name, COUNT(*) ... GROUP BY name" query.
func (db *DB) countBy(ctx context.Context, q string, args ...any) (map[string]int, error) {
	rows, err := db.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var name string
		var n int
		if err := rows.Scan(&name, &n); err != nil {
			return nil, err
		}
		out[name] += n
	}
	return out, rows.Err()
}
