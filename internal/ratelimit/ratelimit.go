// Package ratelimit counts events per key (a client IP and an action) in a
// fixed window and says when a key has used up its allowance.
//
// Counts are kept in memory, per server instance: behind a load balancer of
// N instances a client gets at most N times the limit, which is still a
// limit (see docs/decisions.md).
package ratelimit

import (
	"sync"
	"time"
)

// Limiter allows Count events per Window for each key. A zero Count allows everything.
type Limiter struct {
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

// New returns a limiter of count events per window.
func New(count int, window time.Duration) *Limiter {
	return &Limiter{Count: count, Window: window, now: time.Now, buckets: map[string]*bucket{}}
}

// Allow records one event for key and reports whether it is within the limit,
// and if not, how long until the key may try again.
func (l *Limiter) Allow(key string) (bool, time.Duration) {
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
	if b.n >= l.Count {
		return false, b.start.Add(l.Window).Sub(now)
	}
	b.n++
	return true, 0
}
