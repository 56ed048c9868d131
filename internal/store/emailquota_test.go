package store_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

func TestAllowEmailOneAMinuteAndFiveAnHour(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
		allow := func(addr string, at time.Time) bool {
			t.Helper()
			ok, err := db.AllowEmail(ctx, addr, at, store.DefaultEmailQuota)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		if !allow("mwila@example.com", t0) {
			t.Fatal("the first e-mail was refused")
		}
		if allow("Mwila@Example.com", t0.Add(59*time.Second)) {
			t.Fatal("a second e-mail within the minute was allowed")
		}
		if !allow("chanda@example.com", t0.Add(10*time.Second)) {
			t.Fatal("another address shares the first one's limit")
		}
		// One a minute: four more fit in the hour, the sixth does not.
		for i := 1; i <= 4; i++ {
			if !allow("mwila@example.com", t0.Add(time.Duration(i)*time.Minute)) {
				t.Fatalf("e-mail %d of the hour was refused", i+1)
			}
		}
		if allow("mwila@example.com", t0.Add(30*time.Minute)) {
			t.Fatal("a sixth e-mail within the hour was allowed")
		}
		// The hour slides: once the first send is an hour old, one more fits.
		if !allow("mwila@example.com", t0.Add(time.Hour)) {
			t.Fatal("refused after the first send left the hour")
		}
		if allow("mwila@example.com", t0.Add(time.Hour+30*time.Second)) {
			t.Fatal("a second e-mail within the minute was allowed")
		}
	})
}

func TestAllowEmailConcurrentCallsTakeOneAllowance(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		now := time.Now()
		var allowed atomic.Int32
		var wg sync.WaitGroup
		for range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := db.AllowEmail(context.Background(), "race@example.com", now, store.DefaultEmailQuota)
				if err != nil {
					t.Error(err)
				}
				if ok {
					allowed.Add(1)
				}
			}()
		}
		wg.Wait()
		if n := allowed.Load(); n != 1 {
			t.Fatalf("%d of 20 concurrent calls were allowed, want 1", n)
		}
	})
}
