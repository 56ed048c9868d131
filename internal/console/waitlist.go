package console

import (
	"context"
	"time"

	"salaula/internal/store"
	"salaula/internal/validate"
)

// Waitlist sign-up statuses a list can be filtered by.
const (
	StatusSubscribed   = store.WaitlistSubscribed
	StatusUnsubscribed = store.WaitlistUnsubscribed
)

// WaitlistFilter narrows the waitlist: Program one of validate.Programs,
// Status subscribed or unsubscribed, Q the start of the address or of its
// domain (after the @), any letter case.
type WaitlistFilter = store.WaitlistFilter

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
	f.Q, err = searchText(raw["q"])
	return f, err
}

// WaitlistItem is one sign-up as the console shows it.
type WaitlistItem = store.WaitlistItem

func waitlistCreated(s WaitlistItem) time.Time { return s.CreatedAt }
func waitlistEmail(s WaitlistItem) string      { return s.Email }

// ListWaitlist answers one page of the waitlist.
func ListWaitlist(ctx context.Context, db *store.DB, f WaitlistFilter, p Paging) (*Page[WaitlistItem], error) {
	return list(ctx, waitlistLister(db, f), func(ctx context.Context) (store.Total, error) { return db.CountWaitlist(ctx, f) },
		sortKeys, p, waitlistCreated, waitlistEmail, store.WaitlistTie)
}

// EachWaitlist calls fn for every sign-up matching f in the order of sort
// (oldest first when empty), one row in memory at a time.
func EachWaitlist(ctx context.Context, db *store.DB, f WaitlistFilter, sort string, fn func(WaitlistItem) error) error {
	return each(ctx, waitlistLister(db, f), sortKeys, sort, fn)
}

func waitlistLister(db *store.DB, f WaitlistFilter) lister[WaitlistItem] {
	return func(ctx context.Context, o store.ListOrder, fn func(WaitlistItem) error) error {
		return db.ListWaitlist(ctx, f, o, fn)
	}
}
