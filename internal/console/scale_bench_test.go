package console_test

import (
	"context"
	"os"
	"strconv"
	"testing"

	"salaula/internal/console"
	"salaula/internal/console/consoletest"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// BenchmarkWaitlistAtScale seeds SALAULA_BENCH_SIGNUPS waitlist sign-ups
// (20,000 when unset; make bench uses 1,000,000), each with its sent
// confirmation e-mail whose body the retention sweep has cleared, and
// times the console's waitlist list on each engine: the first page, a page
// by cursor from the middle, and searches matching no address, a hundred
// and a tenth of them. It reports the database's bytes per sign-up.
//
//	SALAULA_BENCH_SIGNUPS=1000000 go test -run '^$' -bench WaitlistAtScale -benchtime 200x -timeout 2h ./internal/console/
func BenchmarkWaitlistAtScale(b *testing.B) {
	n := benchRows(b)
	storetest.EachBench(b, func(b *testing.B, engine store.Dialect) {
		ctx := context.Background()
		db := storetest.Open(b, engine)
		empty, err := db.Size(ctx)
		if err != nil {
			b.Fatal(err)
		}
		consoletest.SeedScale(b, db, n)
		full, err := db.Size(ctx)
		if err != nil {
			b.Fatal(err)
		}
		perSignup := float64(full-empty) / float64(n)
		b.Logf("%s: %d sign-ups, %.0f bytes per sign-up (e-mail included)", engine, n, perSignup)
		middle := console.Paging{Limit: console.DefaultLimit}
		for range 3 { // a few pages in: a cursor page like any other
			p, err := console.ListWaitlist(ctx, db, console.WaitlistFilter{}, middle)
			if err != nil || p.NextCursor == nil {
				b.Fatalf("page: %v", err)
			}
			middle.Cursor = *p.NextCursor
		}
		cases := []struct {
			name  string
			f     console.WaitlistFilter
			p     console.Paging
			least int // items the page must hold
		}{
			{"first page", console.WaitlistFilter{}, console.Paging{}, console.DefaultLimit},
			{"cursor page", console.WaitlistFilter{}, middle, console.DefaultLimit},
			{"search 0", console.WaitlistFilter{Q: consoletest.AbsentDomain}, console.Paging{}, 0},
			{"search 100", console.WaitlistFilter{Q: consoletest.HundredDomain}, console.Paging{}, console.DefaultLimit},
			{"search a tenth", console.WaitlistFilter{Q: consoletest.TenthDomain}, console.Paging{}, console.DefaultLimit},
		}
		for _, c := range cases {
			b.Run(c.name, func(b *testing.B) {
				for b.Loop() {
					p, err := console.ListWaitlist(ctx, db, c.f, c.p)
					if err != nil || len(p.Items) < c.least {
						b.Fatalf("%s: %v, %d items", c.name, err, len(p.Items))
					}
				}
				b.ReportMetric(perSignup, "bytes/signup")
			})
		}
	})
}

// benchRows is SALAULA_BENCH_SIGNUPS, 20,000 when unset.
func benchRows(b *testing.B) int {
	b.Helper()
	n := 20_000
	if v := os.Getenv("SALAULA_BENCH_SIGNUPS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1000 {
			b.Fatalf("SALAULA_BENCH_SIGNUPS=%q: want a whole number of 1000 or more", v)
		}
	}
	return n
}

// BenchmarkMessagesAndPeopleAtScale seeds SALAULA_BENCH_SIGNUPS contact
// messages and as many people (accounts, nine in ten with a profile) at
// the addresses BenchmarkWaitlistAtScale's sign-ups have, and times the
// console's messages and people lists on each engine: the first page and
// searches matching no record, a hundred and a tenth of them.
//
//	SALAULA_BENCH_SIGNUPS=1000000 go test -run '^$' -bench MessagesAndPeopleAtScale -benchtime 200x -timeout 2h ./internal/console/
func BenchmarkMessagesAndPeopleAtScale(b *testing.B) {
	n := benchRows(b)
	storetest.EachBench(b, func(b *testing.B, engine store.Dialect) {
		ctx := context.Background()
		db := storetest.Open(b, engine)
		if err := consoletest.ScaleMessages(ctx, db, n); err != nil {
			b.Fatal(err)
		}
		if err := consoletest.ScalePeople(ctx, db, n); err != nil {
			b.Fatal(err)
		}
		cases := []struct {
			name  string
			q     string
			least int // items the page must hold
		}{
			{"first page", "", console.DefaultLimit},
			{"search 0", consoletest.AbsentDomain, 0},
			{"search 100", consoletest.HundredDomain, console.DefaultLimit},
			{"search a tenth", consoletest.TenthDomain, console.DefaultLimit},
		}
		for _, c := range cases {
			b.Run("messages "+c.name, func(b *testing.B) {
				for b.Loop() {
					p, err := console.ListMessages(ctx, db, console.MessageFilter{Q: c.q}, console.Paging{})
					if err != nil || len(p.Items) < c.least {
						b.Fatalf("%s: %v, %d items", c.name, err, len(p.Items))
					}
				}
			})
			b.Run("people "+c.name, func(b *testing.B) {
				for b.Loop() {
					p, err := console.ListPeople(ctx, db, console.PeopleFilter{Q: c.q}, console.Paging{})
					if err != nil || len(p.Items) < c.least {
						b.Fatalf("%s: %v, %d items", c.name, err, len(p.Items))
					}
				}
			})
		}
	})
}
