package ratelimit_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"salaula/internal/ratelimit"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
	"salaula/internal/validate"
)

func TestEmailsOneAMinuteAndFiveAnHour(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		l := &ratelimit.Emails{DB: db, Quota: ratelimit.DefaultEmailQuota}
		t0 := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
		allow := func(addr string, at time.Time, wantWait time.Duration) bool {
			t.Helper()
			ok, wait, err := l.Allow(context.Background(), addr, at)
			if err != nil {
				t.Fatal(err)
			}
			if wait != wantWait {
				t.Fatalf("%s at %s: wait %s, want %s", addr, at.Sub(t0), wait, wantWait)
			}
			return ok
		}
		steps := []struct {
			name   string
			addr   string
			at     time.Duration
			wantOK bool
			wait   time.Duration
		}{
			{"the first e-mail", "mwila@example.com", 0, true, 0},
			{"a second within the minute, any case", "Mwila@Example.com", 59 * time.Second, false, time.Second},
			{"another address has its own limit", "chanda@example.com", 10 * time.Second, true, 0},
			{"second of the hour", "mwila@example.com", time.Minute, true, 0},
			{"third of the hour", "mwila@example.com", 2 * time.Minute, true, 0},
			{"fourth of the hour", "mwila@example.com", 3 * time.Minute, true, 0},
			{"fifth of the hour", "mwila@example.com", 4 * time.Minute, true, 0},
			{"a sixth within the hour waits for the first to leave it", "mwila@example.com", 30 * time.Minute, false, 30 * time.Minute},
			{"the hour slides", "mwila@example.com", time.Hour, true, 0},
			{"again one a minute", "mwila@example.com", time.Hour + 30*time.Second, false, 30 * time.Second},
		}
		for _, s := range steps {
			if got := allow(s.addr, t0.Add(s.at), s.wait); got != s.wantOK {
				t.Fatalf("%s: allowed %v, want %v", s.name, got, s.wantOK)
			}
		}
	})
}

func TestEmailsConcurrentCallsTakeOneAllowance(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		l := &ratelimit.Emails{DB: db, Quota: ratelimit.DefaultEmailQuota}
		now := time.Now()
		n := atOnce(20, func() bool {
			ok, _, err := l.Allow(context.Background(), "race@example.com", now)
			if err != nil {
				t.Error(err)
			}
			return ok
		})
		if n != 1 {
			t.Fatalf("%d of 20 concurrent calls were allowed, want 1", n)
		}
	})
}

// One Gmail inbox written three ways is one address for the limit: its
// "+tag", its dots, googlemail.com and a trailing dot change nothing.
func TestEmailsCountAMailboxOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		l := &ratelimit.Emails{DB: db, Quota: ratelimit.EmailQuota{Count: 5, Window: time.Hour}}
		t0 := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
		for i, addr := range []string{"a.b+x@gmail.com", "ab@googlemail.com", "AB@gmail.com.", "ab@gmail.com", "a.b@gmail.com", "ab+y@gmail.com"} {
			ok, _, err := l.Allow(context.Background(), validate.MailboxKey(addr), t0.Add(time.Duration(i)*time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			if want := i < 5; ok != want {
				t.Fatalf("e-mail %d, to %s: allowed %v, want %v", i+1, addr, ok, want)
			}
		}
		if ok, _, _ := l.Allow(context.Background(), validate.MailboxKey("ab@example.com"), t0.Add(10*time.Minute)); !ok {
			t.Fatal("another domain's mailbox shares the Gmail inbox's limit")
		}
	})
}

// atOnce runs fn n times at once and returns how many returned true.
func atOnce(n int, fn func() bool) int {
	var yes atomic.Int32
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if fn() {
				yes.Add(1)
			}
		}()
	}
	wg.Wait()
	return int(yes.Load())
}
