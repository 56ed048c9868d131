// Package consoletest fills a database with many records quickly, for the
// console's tests and benchmarks (paging, CSV streaming, query plans).
package consoletest

import (
	"context"
	"fmt"
	"strings"
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
	const batch = 500
	ctx := context.Background()
	err := db.InTx(ctx, func(tx *store.Tx) error {
		for start := 0; start < n; start += batch {
			end := min(start+batch, n)
			var sb strings.Builder
			args := make([]any, 0, (end-start)*13)
			sb.WriteString(`INSERT INTO waitlist_signups (id, email, program, page_path, referrer, utm_source, utm_medium,
				utm_campaign, utm_term, utm_content, unsubscribe_token_hash, unsubscribed_at, created_at) VALUES `)
			for i := start; i < end; i++ {
				if i > start {
					sb.WriteByte(',')
				}
				sb.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
				at := SeedStart.Add(time.Duration(i-i%3/2) * time.Second)
				var unsub any
				if i%10 == 9 {
					unsub = at.Add(time.Hour)
				}
				src := []string{"facebook", "whatsapp", "", "instagram"}[i%4]
				ref := []string{"https://l.facebook.com/", "", "https://www.google.com/search?q=salaula", "https://wa.me/"}[i%4]
				args = append(args, fmt.Sprintf("00000000-0000-4000-8000-%012d", i), fmt.Sprintf("seed%06d@example.com", i),
					validate.Programs[i%2], []string{"/wardrobeclearance", "/impact"}[i%2], ref, src, "social",
					[]string{"launch", "radio"}[i%2], "", "", fmt.Sprintf("seedhash%d", i), unsub, at)
			}
			if _, err := tx.Exec(ctx, sb.String(), args...); err != nil {
				return err
			}
		}
		return store.RecountWaitlist(ctx, tx)
	})
	if err != nil {
		tb.Fatalf("seed %d waitlist sign-ups: %v", n, err)
	}
	// Fresh statistics, as autovacuum (PostgreSQL) or a long-running
	// database would have, so the planner sees the table's real size.
	if _, err := db.Exec(ctx, `ANALYZE`); err != nil {
		tb.Fatal(err)
	}
}
