package store_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// BenchmarkPlaceInLine reads the place of the last of N places in one
// program's line (the longest count; N from SALAULA_BENCH_LINE, 10,000
// when unset), each place with a few credits so the keys interleave.
// At scale: SALAULA_BENCH_LINE=1000000 go test -run '^$' -bench PlaceInLine ./internal/store/
func BenchmarkPlaceInLine(b *testing.B) {
	n := 10_000
	if v := os.Getenv("SALAULA_BENCH_LINE"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	storetest.EachBench(b, func(b *testing.B, engine store.Dialect) {
		db := storetest.Open(b, engine)
		ctx := context.Background()
		// Ids as the store writes them (UUIDs; uuid on PostgreSQL):
		// 00000000-0000-4000-8000-00000000000i.
		id := `'00000000-0000-4000-8000-' || substr('000000000000' || i, length('000000000000' || i) - 11, 12)`
		if engine == store.Postgres {
			id = `CAST(` + id + ` AS uuid)`
		}
		if _, err := db.Exec(ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
			INSERT INTO waitlist_signups (id, email, program, unsubscribe_token_hash, created_at,
				line_code, line_seq, line_credits, line_key)
			SELECT `+id+`, 's' || i || '@example.com', ?, '', ?, 'c' || i, i, i % 3, i - 10 * (i % 3) FROM n`,
			n, store.ProgramCode("Upcycling Initiative"), store.Now()); err != nil {
			b.Fatal(err)
		}
		if engine == store.Postgres {
			// As autovacuum would: the index-only scans need the visibility map.
			rows, err := db.Query(ctx, `VACUUM ANALYZE waitlist_signups`)
			if err != nil {
				b.Fatal(err)
			}
			rows.Close()
		}
		last := fmt.Sprintf("00000000-0000-4000-8000-%012d", n)
		b.ResetTimer()
		for b.Loop() {
			p, err := db.PlaceInLine(ctx, last)
			if err != nil || p.Position < 1 {
				b.Fatalf("%+v %v", p, err)
			}
		}
		b.ReportMetric(float64(n), "places")
	})
}
