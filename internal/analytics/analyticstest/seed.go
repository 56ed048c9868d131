// Package analyticstest seeds analytics data for tests and benchmarks.
package analyticstest

import (
	"context"
	"fmt"
	"strings"
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
// the raw events of the last 30 days (rolled up by the real roll-up, except
// today's), and the roll-ups of the 335 days before them.
func SeedYear(tb testing.TB, db *store.DB, now time.Time, y Year) {
	tb.Helper()
	ctx := context.Background()
	today := now.UTC().Truncate(24 * time.Hour)
	// Raw events: the retention period's days.
	var rows []string
	var args []any
	flush := func(tx *store.Tx) error {
		if len(rows) == 0 {
			return nil
		}
		_, err := tx.Exec(ctx, `INSERT INTO analytics_events (day, name, visitor, path, referrer_host, utm_source, utm_medium, utm_campaign) VALUES `+
			strings.Join(rows, ", "), args...)
		rows, args = rows[:0], args[:0]
		return err
	}
	for d := 29; d >= 0; d-- {
		day := analytics.Day(today.AddDate(0, 0, -d))
		err := db.InTx(ctx, func(tx *store.Tx) error {
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
				rows = append(rows, "(?, ?, ?, ?, ?, ?, ?, ?)")
				args = append(args, day, analytics.PageView, fmt.Sprintf("%016x", v), fmt.Sprintf("/page%d", i%y.Pages), ref, src, "", camp)
				if len(rows) == 100 {
					if err := flush(tx); err != nil {
						return err
					}
				}
			}
			for i := range y.Visitors / 20 {
				for _, m := range []string{analytics.WaitlistJoined, analytics.AccountCreated, analytics.OnboardingFinished} {
					if m != analytics.WaitlistJoined && i%2 == 1 {
						continue
					}
					rows = append(rows, "(?, ?, ?, ?, ?, ?, ?, ?)")
					args = append(args, day, m, "", "", "", "", "", "")
				}
			}
			return flush(tx)
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	// The real roll-up rolls up every finished day (today stays raw).
	c := analytics.New(db, func() time.Time { return today.Add(12 * time.Hour) })
	if _, err := c.Rollup(ctx); err != nil {
		tb.Fatal(err)
	}
	// The older days: roll-ups only (their raw events are long deleted).
	for d := 365; d >= 30; d-- {
		day := analytics.Day(today.AddDate(0, 0, -d))
		err := db.InTx(ctx, func(tx *store.Tx) error {
			if _, err := tx.Exec(ctx, `INSERT INTO analytics_daily (day, visitors, pageviews, waitlist_joined, account_created, role_chosen, onboarding_finished)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, day, y.Visitors, y.PageViews, y.Visitors/20, y.Visitors/40, y.Visitors/30, y.Visitors/40); err != nil {
				return err
			}
			for dim, n := range map[string]int{"page": y.Pages, "referrer": y.Referrers, "utm_source": y.Sources, "utm_campaign": y.Campaigns} {
				for i := range n {
					rows = append(rows, "(?, ?, ?, ?, ?)")
					args = append(args, day, dim, fmt.Sprintf("%s%d", dim, i), y.Visitors/n+i, y.PageViews/n+i)
				}
			}
			_, err := tx.Exec(ctx, `INSERT INTO analytics_daily_dims (day, dim, value, visitors, pageviews) VALUES `+strings.Join(rows, ", "), args...)
			rows, args = rows[:0], args[:0]
			return err
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	// The monthly roll-up of all those days (the roll-up keeps it day by day).
	err := db.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM analytics_monthly_dims`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO analytics_monthly_dims (month, dim, value, visitors, pageviews)
			SELECT substr(day, 1, 7), dim, value, SUM(visitors), SUM(pageviews) FROM analytics_daily_dims
			GROUP BY substr(day, 1, 7), dim, value`)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
}
