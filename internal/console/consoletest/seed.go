// Package consoletest fills a database with many records quickly, for the
// console's tests and benchmarks (paging, CSV streaming, query plans).
package consoletest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"salaula/internal/store"
	"salaula/internal/validate"
)

// SeedStart is the time of the first seeded record; record i is i seconds
// later, every third one sharing its predecessor's time so that paging must
// break ties by id.
var SeedStart = store.Now().Add(-80 * 24 * time.Hour).Truncate(time.Second)

// SeedWaitlist inserts n waitlist sign-ups (seed{i}@example.com, programs
// alternating, every tenth unsubscribed, sources from a few campaigns and
// referrers) in batches inside one transaction, and recounts the overview's
// waitlist roll-up.
func SeedWaitlist(tb testing.TB, db *store.DB, n int) {
	tb.Helper()
	ctx := context.Background()
	signups := make([]store.WaitlistSignup, n)
	for i := range signups {
		at := SeedStart.Add(time.Duration(i-i%3/2) * time.Second)
		var unsub *time.Time
		if i%10 == 9 {
			u := at.Add(time.Hour)
			unsub = &u
		}
		signups[i] = store.WaitlistSignup{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), Email: fmt.Sprintf("seed%06d@example.com", i),
			Program: validate.Programs[i%2], PagePath: []string{"/wardrobeclearance", "/impact"}[i%2],
			Referrer:  []string{"https://l.facebook.com/", "", "https://www.google.com/search?q=salaula", "https://wa.me/"}[i%4],
			UTMSource: []string{"facebook", "whatsapp", "", "instagram"}[i%4], UTMMedium: "social",
			UTMCampaign: []string{"launch", "radio"}[i%2], UnsubscribeTokenHash: fmt.Sprintf("seedhash%d", i),
			UnsubscribedAt: unsub, CreatedAt: at}
	}
	err := db.InTx(ctx, func(tx *store.Tx) error {
		if err := tx.ImportWaitlist(ctx, signups); err != nil {
			return err
		}
		return store.RecountWaitlist(ctx, tx)
	})
	if err != nil {
		tb.Fatalf("seed %d waitlist sign-ups: %v", n, err)
	}
	// Fresh statistics, as autovacuum (PostgreSQL) or a long-running
	// database would have, so the planner sees the table's real size.
	if err := db.Analyze(ctx); err != nil {
		tb.Fatal(err)
	}
}
