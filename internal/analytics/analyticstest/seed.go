// Package analyticstest seeds analytics data for tests and benchmarks.
package analyticstest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"salaula/internal/analytics"
	"salaula/internal/store"
)

// Year is the size of a busy launch year: per day Visitors visitors making
// PageViews page views over Pages pages, Referrers referrer hosts, Sources
// UTM sources and Campaigns campaigns.
type Year struct {
	Visitors, PageViews, Pages, Referrers, Sources, Campaigns int
}

// BusyYear is the year the report's benchmark reads.
var BusyYear = Year{Visitors: 500, PageViews: 2000, Pages: 60, Referrers: 30, Sources: 15, Campaigns: 15}

// SeedYear fills db with a year of analytics ending today (now's UTC day):
// the raw events and waitlist sign-ups of the last 30 days (rolled up by
// the real roll-up, except today's), and the roll-ups of the 335 days
// before them.
func SeedYear(tb testing.TB, db *store.DB, now time.Time, y Year) {
	tb.Helper()
	ctx := context.Background()
	today := now.UTC().Truncate(24 * time.Hour)
	// Raw events: the retention period's days.
	for d := 29; d >= 0; d-- {
		day := analytics.Day(today.AddDate(0, 0, -d))
		var events []store.AnalyticsEvent
		for i := range y.PageViews {
			v := i % y.Visitors
			ref, src, camp := "", "", ""
			if i < y.Visitors { // a visitor's first view carries the source
				ref = fmt.Sprintf("ref%d.example", v%y.Referrers)
				if v%3 == 0 {
					src, camp = fmt.Sprintf("source%d", v%y.Sources), fmt.Sprintf("campaign%d", v%y.Campaigns)
					ref = ""
				}
			}
			events = append(events, store.AnalyticsEvent{Day: day, Name: analytics.PageView, Visitor: fmt.Sprintf("%016x", v),
				Path: fmt.Sprintf("/page%d", i%y.Pages), ReferrerHost: ref, UTMSource: src, UTMCampaign: camp})
		}
		for range y.Visitors / 40 {
			for _, m := range []string{analytics.AccountCreated, analytics.OnboardingFinished} {
				events = append(events, store.AnalyticsEvent{Day: day, Name: m})
			}
		}
		if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.AddAnalyticsEvents(ctx, events) }); err != nil {
			tb.Fatal(err)
		}
		// The day's waitlist sign-ups, which the funnel counts from the
		// waitlist's own daily roll-up.
		at := today.AddDate(0, 0, -d).Add(9 * time.Hour)
		for i := range y.Visitors / 20 {
			email := fmt.Sprintf("seed-%s-%d@example.com", day, i)
			s := &store.WaitlistSignup{Email: email, Program: "Upcycling Initiative", UnsubscribeTokenHash: "h-" + email, CreatedAt: at}
			if _, err := db.JoinWaitlist(ctx, s, store.WaitlistJoin{}); err != nil {
				tb.Fatal(err)
			}
		}
	}
	// The real roll-up rolls up every finished day (today stays raw).
	c := analytics.New(db, func() time.Time { return today.Add(12 * time.Hour) })
	if _, err := c.Rollup(ctx); err != nil {
		tb.Fatal(err)
	}
	// The older days: roll-ups only (their raw events are long deleted),
	// each also added to its month's sums.
	for d := 365; d >= 30; d-- {
		day := analytics.Day(today.AddDate(0, 0, -d))
		var dims []store.AnalyticsDimCount
		for dim, n := range map[string]int{"page": y.Pages, "referrer": y.Referrers, "utm_source": y.Sources, "utm_campaign": y.Campaigns} {
			for i := range n {
				dims = append(dims, store.AnalyticsDimCount{Dim: dim, Value: fmt.Sprintf("%s%d", dim, i),
					Visitors: y.Visitors/n + i, PageViews: y.PageViews/n + i})
			}
		}
		counts := store.AnalyticsDay{Visitors: y.Visitors, PageViews: y.PageViews, Waitlist: y.Visitors / 20,
			Accounts: y.Visitors / 40, Roles: y.Visitors / 30, Onboarded: y.Visitors / 40}
		if _, err := db.AddAnalyticsRollup(ctx, day, counts, dims); err != nil {
			tb.Fatal(err)
		}
	}
}
