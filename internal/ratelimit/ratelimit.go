// Package ratelimit is the one place that limits how often something may
// happen: events per key (a client IP, a person) in a fixed window, and the
// e-mails one address gets (Emails).
//
// Two counters stand behind one interface: Memory keeps counts in the
// process (the default, for one instance on SQLite), and Shared keeps them
// in PostgreSQL, so N instances behind a load balancer give a client the
// limit once, not N times.
package ratelimit

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"salaula/internal/store"
)

// Limiter decides whether one more event for key is within the limit, and
// if not, how long until the key may try again.
type Limiter interface {
	Allow(key string) (bool, time.Duration)
}

// For returns the limiter named name (its rows in the database start with
// "name|") for count events per window on db: counted in the database when
// several instances share it (PostgreSQL), else in memory.
func For(db *store.DB, name string, count int, window time.Duration, logger *slog.Logger) Limiter {
	if db != nil && db.SharedByInstances() {
		return NewShared(db, name, count, window, logger)
	}
	return New(count, window)
}

// Memory allows Count events per Window for each key, counted in this
// process. A zero Count allows everything.
type Memory struct {
	Count  int
	Window time.Duration
	now    func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
	sweep   time.Time
}

type bucket struct {
	start time.Time
	n     int
}

// New returns an in-memory limiter of count events per window.
func New(count int, window time.Duration) *Memory {
	return &Memory{Count: count, Window: window, now: time.Now, buckets: map[string]*bucket{}}
}

// Allow records one event for key and reports whether it is within the limit,
// and if not, how long until the key may try again.
func (l *Memory) Allow(key string) (bool, time.Duration) {
	return l.AllowN(key, 1)
}

// AllowN is Allow for something that counts as n events (n >= 1): it is
// within the limit when the window has room for all n. One that counts as
// more than Count is allowed alone, in a window where nothing else was
// counted yet, so that it is slowed, never shut out for good.
func (l *Memory) AllowN(key string, n int) (bool, time.Duration) {
	if l == nil || l.Count <= 0 {
		return true, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.sweep) > l.Window {
		for k, b := range l.buckets {
			if now.Sub(b.start) >= l.Window {
				delete(l.buckets, k)
			}
		}
		l.sweep = now
	}
	b := l.buckets[key]
	if b == nil || now.Sub(b.start) >= l.Window {
		b = &bucket{start: now}
		l.buckets[key] = b
	}
	n = max(n, 1)
	if b.n > 0 && b.n+n > l.Count {
		return false, b.start.Add(l.Window).Sub(now)
	}
	b.n += n
	return true, 0
}

// Shared allows Count events per Window for each key, counted in the
// rate_limits table with one upsert per event, so every instance on the
// database shares the count. Its rows are its name, "|" and the key: each
// limiter sweeps only its own, with its own window. A zero Count allows
// everything.
type Shared struct {
	Count  int
	Window time.Duration
	name   string
	db     *store.DB
	logger *slog.Logger
	now    func() time.Time
	sweep  sweeper
}

// NewShared returns the limiter named name of count events per window counted in db.
func NewShared(db *store.DB, name string, count int, window time.Duration, logger *slog.Logger) *Shared {
	return &Shared{Count: count, Window: window, name: name, db: db, logger: logger, now: time.Now}
}

// Allow records one event for key and reports whether it is within the
// limit. When the database cannot count (it is down), the event is allowed:
// the requests behind the limit need the database anyway and fail on their own.
func (l *Shared) Allow(key string) (bool, time.Duration) {
	if l == nil || l.Count <= 0 {
		return true, 0
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	now := l.now()
	hits, start, err := l.db.CountHit(ctx, l.name+"|"+key, now, l.Window)
	if err != nil {
		if l.logger != nil {
			l.logger.Warn("rate limit not counted", "key", key, "err", err)
		}
		return true, 0
	}
	l.sweepOld(ctx, now)
	if hits > l.Count {
		wait := start.Add(l.Window).Sub(now)
		if wait < 0 {
			wait = 0
		}
		return false, wait
	}
	return true, 0
}

// sweepOld deletes this limiter's expired counters at most once per window per instance.
func (l *Shared) sweepOld(ctx context.Context, now time.Time) {
	l.sweep.run(now, l.Window, func() {
		if err := l.db.DeleteRateLimitsBefore(ctx, l.name+"|", now.Add(-l.Window)); err != nil && l.logger != nil {
			l.logger.Warn("rate limit sweep", "err", err)
		}
	})
}

// sweeper runs a clean-up at most once per interval on this instance.
type sweeper struct {
	mu   sync.Mutex
	last time.Time
}

// run runs sweep when more than every has passed since the last run.
func (s *sweeper) run(now time.Time, every time.Duration, sweep func()) {
	s.mu.Lock()
	due := now.Sub(s.last) > every
	if due {
		s.last = now
	}
	s.mu.Unlock()
	if due {
		sweep()
	}
}
