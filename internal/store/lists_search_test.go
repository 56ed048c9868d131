package store_test

import (
	"context"
	"testing"

	"salaula/internal/console"
	"salaula/internal/console/consoletest"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// TestWaitlistSearch finds the addresses that start with a text, or whose
// domain does, on both engines: few matches (read through the indexes),
// many (read in the list's order), a '_' typed (matched as itself), none,
// and a deleted sign-up gone from the search.
func TestWaitlistSearch(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		consoletest.SeedWaitlist(t, db, 3000)
		ctx := context.Background()
		search := func(q string) *console.Page[console.WaitlistItem] {
			t.Helper()
			p, err := console.ListWaitlist(ctx, db, console.WaitlistFilter{Q: q}, console.Paging{Limit: 200})
			if err != nil {
				t.Fatalf("search %q: %v", q, err)
			}
			return p
		}
		if p := search("SEED0001"); p.Total != 100 || p.TotalAtLeast || len(p.Items) != 100 || p.Items[0].Email != "seed000199@example.com" {
			t.Errorf("seed0001: total %d (at least: %v), %d items", p.Total, p.TotalAtLeast, len(p.Items))
		}
		// Exact (3,000) or "more than 1,000" where the index found too many to count.
		if p := search("example.com"); (p.Total != 3000 || p.TotalAtLeast) && !(p.Total == 1000 && p.TotalAtLeast) || len(p.Items) != 200 || p.Items[0].Email != "seed002999@example.com" {
			t.Errorf("example.com: total %d (at least: %v), %d items", p.Total, p.TotalAtLeast, len(p.Items))
		}
		if p := search("d00001_"); p.Total != 0 || len(p.Items) != 0 {
			t.Errorf("d00001_: total %d, %d items, want none (no address holds a '_')", p.Total, len(p.Items))
		}
		for _, q := range []string{"nobody-here", "eed0001", "xample.com"} { // neither starts an address nor a domain
			if p := search(q); p.Total != 0 || len(p.Items) != 0 {
				t.Errorf("%s: total %d, %d items", q, p.Total, len(p.Items))
			}
		}
		if p := search("EXAMPLE.COM"); len(p.Items) != 200 {
			t.Errorf("EXAMPLE.COM: %d items", len(p.Items))
		}
		if _, err := db.Exec(ctx, `DELETE FROM waitlist_signups WHERE email = ?`, "seed000150@example.com"); err != nil {
			t.Fatal(err)
		}
		if p := search("seed00015"); p.Total != 9 || len(p.Items) != 9 {
			t.Errorf("seed00015 after a deletion: total %d, %d items, want 9", p.Total, len(p.Items))
		}
	})
}
