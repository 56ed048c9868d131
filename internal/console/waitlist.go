package console

import (
	"context"
	"database/sql"
	"time"

	"salaula/internal/store"
	"salaula/internal/validate"
)

// Waitlist sign-up statuses a list can be filtered by.
const (
	StatusSubscribed   = "subscribed"
	StatusUnsubscribed = "unsubscribed"
)

// WaitlistFilter narrows the waitlist: Program one of validate.Programs,
// Status subscribed or unsubscribed, Q a text searched in the e-mail.
type WaitlistFilter struct {
	Program, Status, Q string
}

// WaitlistFilters are the query parameters the waitlist list takes.
var WaitlistFilters = []string{"program", "status", "q"}

// ParseWaitlistFilter checks raw filter values (from Params) and makes them
// canonical (letter case of the spec's program names).
func ParseWaitlistFilter(raw map[string]string) (WaitlistFilter, error) {
	var f WaitlistFilter
	var err error
	if f.Program, err = oneOf("program", raw["program"], validate.Programs...); err != nil {
		return f, err
	}
	if f.Status, err = oneOf("status", raw["status"], StatusSubscribed, StatusUnsubscribed); err != nil {
		return f, err
	}
	f.Q = raw["q"]
	return f, nil
}

// WaitlistItem is one sign-up as the console shows it.
type WaitlistItem struct {
	ID             string     `json:"id"`
	Email          string     `json:"email"`
	Program        string     `json:"program"`
	PagePath       string     `json:"pagePath"`
	Referrer       string     `json:"referrer"`
	UTMSource      string     `json:"utmSource"`
	UTMMedium      string     `json:"utmMedium"`
	UTMCampaign    string     `json:"utmCampaign"`
	UTMTerm        string     `json:"utmTerm"`
	UTMContent     string     `json:"utmContent"`
	UnsubscribedAt *time.Time `json:"unsubscribedAt"`
	CreatedAt      time.Time  `json:"createdAt"`
}

func waitlistQuery(f WaitlistFilter) query {
	q := query{
		columns: `id, email, program, page_path, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content, unsubscribed_at, created_at`,
		from:    `waitlist_signups`,
		keys:    map[string]string{"created_at": "created_at", "email": "email"},
		id:      "id",
		// (email, program) is unique: the e-mail sort reads its index.
		emailTie: "program",
	}
	if f.Program != "" {
		q.add(`program = ?`, f.Program)
	}
	switch f.Status {
	case StatusSubscribed:
		q.add(`unsubscribed_at IS NULL`)
	case StatusUnsubscribed:
		q.add(`unsubscribed_at IS NOT NULL`)
	}
	q.searchAny(f.Q, "email")
	return q
}

func scanWaitlistItem(rows *sql.Rows) (WaitlistItem, error) {
	var s WaitlistItem
	var unsub sql.NullTime
	err := rows.Scan(&s.ID, &s.Email, &s.Program, &s.PagePath, &s.Referrer, &s.UTMSource, &s.UTMMedium, &s.UTMCampaign,
		&s.UTMTerm, &s.UTMContent, &unsub, &s.CreatedAt)
	s.UnsubscribedAt, s.CreatedAt = nullTime(unsub), s.CreatedAt.UTC()
	return s, err
}

func waitlistKey(s WaitlistItem) (time.Time, string, string, string) {
	return s.CreatedAt, s.Email, s.Program, s.ID
}

// ListWaitlist answers one page of the waitlist.
func ListWaitlist(ctx context.Context, db *store.DB, f WaitlistFilter, p Paging) (*Page[WaitlistItem], error) {
	return list(ctx, db, waitlistQuery(f), p, scanWaitlistItem, waitlistKey)
}

// EachWaitlist calls fn for every sign-up matching f in the order of sort
// (oldest first when empty), one row in memory at a time.
func EachWaitlist(ctx context.Context, db *store.DB, f WaitlistFilter, sort string, fn func(WaitlistItem) error) error {
	return each(ctx, db, waitlistQuery(f), sort, scanWaitlistItem, fn)
}
