package console

import (
	"context"
	"net/url"
	"sort"
	"strings"
	"time"

	"salaula/internal/store"
	"salaula/internal/validate"
)

// SeriesDays is how many days the overview's daily series cover, today included.
const SeriesDays = 90

// topSources is how many rows each sign-ups-by-source table keeps.
const topSources = 10

// Overview is what the console's first page shows.
type Overview struct {
	Totals  Totals    `json:"totals"`
	Daily   []Day     `json:"daily"` // oldest first, one per day, days without events included
	Sources Sources   `json:"sources"`
	Newest  []Event   `json:"newest"` // the newest sign-ups, accounts and messages, newest first
	AsOf    time.Time `json:"asOf"`
}

// Totals are the counts on the overview's cards.
type Totals struct {
	Accounts  int `json:"accounts"`
	Operators int `json:"operators"`
	// ProfilesByRole counts completed profiles by role (buyer, seller, buyer_and_seller).
	ProfilesByRole map[string]int `json:"profilesByRole"`
	// OnboardingUnfinished counts accounts (onboarding starts with the
	// account) that have no completed profile yet.
	OnboardingUnfinished int                      `json:"onboardingUnfinished"`
	Waitlist             map[string]WaitlistTotal `json:"waitlist"` // by program
	Messages             MessageTotals            `json:"messages"`
}

// WaitlistTotal counts one program's sign-ups.
type WaitlistTotal struct {
	Subscribed   int `json:"subscribed"`
	Unsubscribed int `json:"unsubscribed"`
}

// MessageTotals counts contact messages by status.
type MessageTotals struct {
	Open    int `json:"open"`
	Handled int `json:"handled"`
}

// Day is one day of the daily series (UTC).
type Day struct {
	Date              string         `json:"date"` // YYYY-MM-DD
	Accounts          int            `json:"accounts"`
	ProfilesCompleted int            `json:"profilesCompleted"`
	Waitlist          map[string]int `json:"waitlist"` // sign-ups by program
	Messages          int            `json:"messages"`
}

// Sources are where waitlist sign-ups came from, most first.
type Sources struct {
	Campaigns []CampaignCount `json:"campaigns"`
	Referrers []NameCount     `json:"referrers"` // by host; "" is a direct visit
	Pages     []NameCount     `json:"pages"`
}

// CampaignCount counts sign-ups of one UTM source and campaign.
type CampaignCount struct {
	Source   string `json:"source"`
	Campaign string `json:"campaign"`
	Count    int    `json:"count"`
}

// NameCount counts sign-ups with one value.
type NameCount struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// Event is one recent happening shown on the overview.
type Event struct {
	Kind   string    `json:"kind"` // "waitlist", "account", "message"
	ID     string    `json:"id"`
	Title  string    `json:"title"`
	Detail string    `json:"detail"`
	At     time.Time `json:"at"`
}

// dayExpr is the SQL expression of the UTC date (YYYY-MM-DD) of a timestamp
// column (stored in UTC; SQLite keeps it as text starting with the date).
func dayExpr(engine store.Dialect, col string) string {
	if engine == store.SQLite {
		return "substr(" + col + ", 1, 10)"
	}
	return "to_char(" + col + ", 'YYYY-MM-DD')"
}

// GetOverview computes the overview as of now.
func GetOverview(ctx context.Context, db *store.DB, now time.Time) (*Overview, error) {
	now = now.UTC()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	since := today.AddDate(0, 0, -(SeriesDays - 1))
	o := &Overview{AsOf: now, Totals: Totals{ProfilesByRole: map[string]int{}, Waitlist: map[string]WaitlistTotal{}},
		Newest: []Event{}}
	for _, r := range validate.Roles {
		o.Totals.ProfilesByRole[r] = 0
	}
	days := map[string]*Day{}
	for d := since; !d.After(today); d = d.AddDate(0, 0, 1) {
		day := &Day{Date: d.Format("2006-01-02"), Waitlist: map[string]int{}}
		for _, p := range validate.Programs {
			day.Waitlist[p] = 0
		}
		o.Daily = append(o.Daily, *day)
		days[day.Date] = &o.Daily[len(o.Daily)-1]
	}
	for _, p := range validate.Programs {
		o.Totals.Waitlist[p] = WaitlistTotal{}
	}
	// The series of accounts, profiles and messages: one query per table,
	// reading only the last 90 days through its created_at index. (The
	// waitlist, the one table that grows by the 100,000, has a roll-up.)
	series := []struct {
		table string
		add   func(d *Day, n int)
	}{
		{"users", func(d *Day, n int) { d.Accounts += n }},
		{"profiles", func(d *Day, n int) { d.ProfilesCompleted += n }},
		{"contact_messages", func(d *Day, n int) { d.Messages += n }},
	}
	for _, s := range series {
		day := dayExpr(db.Dialect(), "created_at")
		rows, err := db.Query(ctx, `SELECT `+day+`, COUNT(*) FROM `+s.table+` WHERE created_at >= ? GROUP BY `+day, since)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var date string
			var n int
			if err := rows.Scan(&date, &n); err != nil {
				rows.Close()
				return nil, err
			}
			if d := days[date]; d != nil {
				s.add(d, n)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	// Waitlist sign-ups come from the waitlist_daily roll-up, kept by the
	// store's writes, never from counting every sign-up.
	rows, err := db.Query(ctx, `SELECT day, program, SUM(signups) FROM waitlist_daily WHERE day >= ? GROUP BY day, program`, since.Format("2006-01-02"))
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var date, program string
		var n int
		if err := rows.Scan(&date, &program, &n); err != nil {
			rows.Close()
			return nil, err
		}
		if d := days[date]; d != nil {
			d.Waitlist[program] += n
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Totals.
	if err := db.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN is_admin THEN 1 ELSE 0 END), 0) FROM users`).
		Scan(&o.Totals.Accounts, &o.Totals.Operators); err != nil {
		return nil, err
	}
	completed := 0
	if err := groupCount(ctx, db, `SELECT role, COUNT(*) FROM profiles WHERE role IS NOT NULL GROUP BY role`, func(role string, n int) {
		o.Totals.ProfilesByRole[role] = n
		completed += n
	}); err != nil {
		return nil, err
	}
	o.Totals.OnboardingUnfinished = max(o.Totals.Accounts-completed, 0)
	// The waitlist's totals and sources come from the waitlist_counts
	// roll-up (one row per program and source, kept by the store's writes),
	// never from counting every sign-up.
	rows, err = db.Query(ctx, `SELECT program, SUM(subscribed), SUM(unsubscribed) FROM waitlist_counts GROUP BY program`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var p string
		var t WaitlistTotal
		if err := rows.Scan(&p, &t.Subscribed, &t.Unsubscribed); err != nil {
			rows.Close()
			return nil, err
		}
		o.Totals.Waitlist[p] = t
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if err := groupCount(ctx, db, `SELECT status, COUNT(*) FROM contact_messages GROUP BY status`, func(s string, n int) {
		switch s {
		case MessageOpen:
			o.Totals.Messages.Open = n
		case MessageHandled:
			o.Totals.Messages.Handled = n
		}
	}); err != nil {
		return nil, err
	}
	// Sources.
	const n = `SUM(subscribed + unsubscribed)`
	rows, err = db.Query(ctx, `SELECT utm_source, utm_campaign, `+n+` FROM waitlist_counts
		GROUP BY utm_source, utm_campaign HAVING `+n+` > 0 ORDER BY `+n+` DESC, utm_source, utm_campaign LIMIT ?`, topSources)
	if err != nil {
		return nil, err
	}
	o.Sources.Campaigns = []CampaignCount{}
	for rows.Next() {
		var c CampaignCount
		if err := rows.Scan(&c.Source, &c.Campaign, &c.Count); err != nil {
			rows.Close()
			return nil, err
		}
		o.Sources.Campaigns = append(o.Sources.Campaigns, c)
	}
	rows.Close()
	hosts := map[string]int{}
	if err := groupCount(ctx, db, `SELECT referrer, `+n+` FROM waitlist_counts GROUP BY referrer HAVING `+n+` > 0`, func(ref string, n int) {
		hosts[referrerHost(ref)] += n
	}); err != nil {
		return nil, err
	}
	o.Sources.Referrers = top(hosts)
	pages := map[string]int{}
	if err := groupCount(ctx, db, `SELECT page_path, `+n+` FROM waitlist_counts GROUP BY page_path HAVING `+n+` > 0`, func(p string, n int) {
		pages[p] += n
	}); err != nil {
		return nil, err
	}
	o.Sources.Pages = top(pages)
	// Newest events.
	for _, q := range []struct{ kind, sql string }{
		{"waitlist", `SELECT id, email, program, created_at FROM waitlist_signups ORDER BY created_at DESC, id DESC LIMIT 10`},
		{"account", `SELECT id, email, '', created_at FROM users ORDER BY created_at DESC, id DESC LIMIT 10`},
		{"message", `SELECT id, first_name || ' ' || last_name, subject, created_at FROM contact_messages ORDER BY created_at DESC, id DESC LIMIT 10`},
	} {
		rows, err := db.Query(ctx, q.sql)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			e := Event{Kind: q.kind}
			if err := rows.Scan(&e.ID, &e.Title, &e.Detail, &e.At); err != nil {
				rows.Close()
				return nil, err
			}
			e.At = e.At.UTC()
			o.Newest = append(o.Newest, e)
		}
		rows.Close()
	}
	sort.SliceStable(o.Newest, func(i, j int) bool { return o.Newest[i].At.After(o.Newest[j].At) })
	if len(o.Newest) > 10 {
		o.Newest = o.Newest[:10]
	}
	return o, nil
}

// groupCount runs a "SELECT name, COUNT(*) ... GROUP BY name" query.
func groupCount(ctx context.Context, db *store.DB, q string, fn func(string, int), args ...any) error {
	rows, err := db.Query(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var n int
		if err := rows.Scan(&name, &n); err != nil {
			return err
		}
		fn(name, n)
	}
	return rows.Err()
}

// referrerHost is the host of a referrer URL without "www.", "" for none.
func referrerHost(ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return ""
	}
	u, err := url.Parse(ref)
	if err != nil || u.Hostname() == "" {
		return ref
	}
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

// top returns the topSources largest counts, most first (ties by name).
func top(m map[string]int) []NameCount {
	out := make([]NameCount, 0, len(m))
	for k, v := range m {
		out = append(out, NameCount{Name: k, Count: v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Name < out[j].Name
	})
	if len(out) > topSources {
		out = out[:topSources]
	}
	return out
}
