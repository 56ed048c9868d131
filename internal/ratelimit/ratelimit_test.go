package ratelimit

import (
	"context"
	"fmt"
	"testing"
	"time"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

func TestLimiterAllowsCountPerWindowPerKey(t *testing.T) {
	t.Parallel()
	now := time.Unix(1000, 0)
	l := New(3, time.Minute)
	l.now = func() time.Time { return now }
	for i := 0; i < 3; i++ {
		if ok, _ := l.Allow("a"); !ok {
			t.Fatalf("event %d refused", i+1)
		}
	}
	ok, wait := l.Allow("a")
	if ok || wait != time.Minute {
		t.Fatalf("4th event: ok=%v wait=%v, want refused with 1m wait", ok, wait)
	}
	if ok, _ := l.Allow("b"); !ok {
		t.Fatal("another key was refused")
	}
	now = now.Add(time.Minute)
	if ok, _ := l.Allow("a"); !ok {
		t.Fatal("refused after the window passed")
	}
}

func TestLimiterCountsWeightedEventsAndLetsAHeavyOneAloneThrough(t *testing.T) {
	t.Parallel()
	now := time.Unix(1000, 0)
	l := New(10, time.Second)
	l.now = func() time.Time { return now }
	if ok, _ := l.AllowN("topic", 6); !ok {
		t.Fatal("6 of 10 refused")
	}
	if ok, wait := l.AllowN("topic", 5); ok || wait != time.Second {
		t.Fatalf("6+5 of 10: ok=%v wait=%v, want refused with 1s wait", ok, wait)
	}
	if ok, _ := l.AllowN("topic", 4); !ok {
		t.Fatal("6+4 of 10 refused")
	}
	// One worth more than the whole limit passes alone in a fresh window, then nothing else does.
	now = now.Add(time.Second)
	if ok, _ := l.AllowN("topic", 25); !ok {
		t.Fatal("a heavy event in an empty window was refused")
	}
	if ok, _ := l.Allow("topic"); ok {
		t.Fatal("an event after the heavy one passed in the same window")
	}
}

func TestZeroCountAllowsEverything(t *testing.T) {
	t.Parallel()
	l := New(0, time.Minute)
	for i := 0; i < 100; i++ {
		if ok, _ := l.Allow("a"); !ok {
			t.Fatal("refused with limit off")
		}
	}
}

// Two instances on one PostgreSQL share each client's count, and the window
// restarts for both when it has passed.
func TestSharedLimitIsCountedOnceAcrossInstances(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, store.Postgres)
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	a, b := NewShared(db, "auth", 3, time.Minute, nil), NewShared(db, "auth", 3, time.Minute, nil)
	a.now = func() time.Time { return now }
	b.now = a.now
	for i, l := range []*Shared{a, b, a} {
		if ok, _ := l.Allow("203.0.113.7"); !ok {
			t.Fatalf("event %d refused", i+1)
		}
	}
	now = now.Add(20 * time.Second)
	ok, wait := b.Allow("203.0.113.7")
	if ok || wait != 40*time.Second {
		t.Fatalf("4th event on the other instance: ok=%v wait=%v, want refused for 40s", ok, wait)
	}
	if ok, _ := a.Allow("198.51.100.1"); !ok {
		t.Fatal("another client was refused")
	}
	now = now.Add(41 * time.Second)
	if ok, _ := b.Allow("203.0.113.7"); !ok {
		t.Fatal("refused after the window passed")
	}
	// Counters of windows long past are swept away.
	now = now.Add(2 * time.Minute)
	a.Allow("192.0.2.1")
	var rows int
	if err := db.QueryRow(context.Background(), `SELECT COUNT(*) FROM rate_limits`).Scan(&rows); err != nil || rows != 1 {
		t.Fatalf("rate_limits holds %d rows (%v), want only the newest (expired ones swept)", rows, err)
	}
}

func TestASweepLeavesOtherLimitersCountsAlone(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, store.Postgres)
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	short, long := NewShared(db, "auth", 5, time.Minute, nil), NewShared(db, "forms", 3, 10*time.Minute, nil)
	short.now = func() time.Time { return now }
	long.now = short.now
	for i := range 3 {
		if ok, _ := long.Allow("203.0.113.7"); !ok {
			t.Fatalf("form %d refused", i+1)
		}
	}
	// Two minutes later the one-minute limiter sweeps its own expired counters...
	now = now.Add(2 * time.Minute)
	short.Allow("198.51.100.1")
	now = now.Add(2 * time.Minute)
	short.Allow("198.51.100.2")
	// ...and the ten-minute window of the forms is still counted: the 4th form is refused.
	if ok, wait := long.Allow("203.0.113.7"); ok || wait != 6*time.Minute {
		t.Fatalf("4th form within 10 minutes: ok=%v wait=%v, want refused for 6m", ok, wait)
	}
	var keys []string
	rows, err := db.Query(context.Background(), `SELECT limit_key FROM rate_limits ORDER BY limit_key`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		rows.Scan(&k)
		keys = append(keys, k)
	}
	if want := "[auth|198.51.100.2 forms|203.0.113.7]"; fmt.Sprint(keys) != want {
		t.Errorf("rate_limits keys %v, want %s (the expired auth counter swept, the forms one kept)", keys, want)
	}
}

func TestForChoosesTheDatabaseOnPostgreSQLOnly(t *testing.T) {
	t.Parallel()
	if _, ok := For(storetest.Open(t, store.Postgres), "auth", 1, time.Minute, nil).(*Shared); !ok {
		t.Error("PostgreSQL: limiter is not shared")
	}
	if _, ok := For(storetest.Open(t, store.SQLite), "auth", 1, time.Minute, nil).(*Memory); !ok {
		t.Error("SQLite: limiter is not in memory")
	}
}
