package ratelimit_test

import (
	"context"
	"testing"
	"time"

	"salaula/internal/ratelimit"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

func newFailures(db *store.DB) *ratelimit.Failures {
	return &ratelimit.Failures{DB: db, After: 3, First: time.Minute, Max: 4 * time.Minute, Forget: 24 * time.Hour}
}

// From the third failure in a row a key waits 1, 2, 4, 4 minutes; while it
// waits nothing is counted; a day later, or once cleared, it starts again.
func TestFailuresGrowingWaits(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFailures(db)
		t0 := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
		at := t0
		fail := func(wantCounted bool, wantWait time.Duration) {
			t.Helper()
			counted, wait, err := f.Count(ctx, "a@example.com", at)
			if err != nil {
				t.Fatal(err)
			}
			if counted != wantCounted || !counted && wait != wantWait {
				t.Fatalf("at %s: counted %v (wait %s), want %v", at.Sub(t0), counted, wait, wantCounted)
			}
			n, w, err := f.Of(ctx, "a@example.com", at)
			if err != nil || w != wantWait {
				t.Fatalf("at %s: %d failures, wait %s (%v), want wait %s", at.Sub(t0), n, w, err, wantWait)
			}
		}
		fail(true, 0)
		fail(true, 0)
		fail(true, time.Minute)
		at = at.Add(30 * time.Second)
		fail(false, 30*time.Second) // waiting: not counted
		at = at.Add(30 * time.Second)
		fail(true, 2*time.Minute)
		at = at.Add(2 * time.Minute)
		fail(true, 4*time.Minute)
		at = at.Add(4 * time.Minute)
		fail(true, 4*time.Minute) // at most Max
		if n, _, _ := f.Of(ctx, "b@example.com", at); n != 0 {
			t.Fatalf("another key has %d failures", n)
		}
		at = at.Add(25 * time.Hour)
		fail(true, 0) // forgotten: the first again
		fail(true, 0)
		if err := f.Clear(ctx, "a@example.com"); err != nil {
			t.Fatal(err)
		}
		fail(true, 0)
		fail(true, 0)
		fail(true, time.Minute)
	})
}

// Twenty failures counted at once for one key: three are counted, the
// third starts the wait and the rest are refused.
func TestFailuresCountedAtOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := newFailures(db)
		now := time.Now()
		n := atOnce(20, func() bool {
			ok, wait, err := f.Count(context.Background(), "race@example.com", now)
			if err != nil {
				t.Error(err)
			}
			if !ok && wait <= 0 {
				t.Error("refused without a wait")
			}
			return ok
		})
		if n != 3 {
			t.Fatalf("%d of 20 failures at once were counted, want 3", n)
		}
	})
}
