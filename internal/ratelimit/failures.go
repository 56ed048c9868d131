package ratelimit

import (
	"context"
	"log/slog"
	"time"

	"salaula/internal/store"
)

// Failures counts failures in a row per key (wrong passwords per account)
// and, from the After-th on, makes the key wait before it may try again:
// First after the After-th, doubling with each further failure, at most
// Max. A key's failures are forgotten Forget after its last. The count
// lives in the database on both engines (store.CountSignInFailure), so
// every instance and a restart see the same wait.
type Failures struct {
	DB     *store.DB
	After  int
	First  time.Duration
	Max    time.Duration
	Forget time.Duration
	Logger *slog.Logger

	sweep sweeper
}

// Delay is how long a key waits after its n-th failure in a row.
func (f *Failures) Delay(n int) time.Duration {
	if n < f.After {
		return 0
	}
	d := f.First
	for i := f.After; i < n && d < f.Max; i++ {
		d *= 2
	}
	return min(d, f.Max)
}

// Of returns key's failures in a row at now and how long it must still
// wait (zero when it may try).
func (f *Failures) Of(ctx context.Context, key string, now time.Time) (int, time.Duration, error) {
	rec, err := f.DB.SignInFailuresOf(ctx, key, now.Add(-f.Forget))
	return rec.Count, max(rec.Until.Sub(now), 0), err
}

// Count counts one failure of key at now and reports true, unless key is
// waiting: then it counts nothing, reports false and how long key must
// still wait.
func (f *Failures) Count(ctx context.Context, key string, now time.Time) (bool, time.Duration, error) {
	rec, counted, err := f.DB.CountSignInFailure(ctx, key, now, now.Add(-f.Forget), f.Delay)
	if err != nil {
		return false, 0, err
	}
	f.sweepOld(ctx, now)
	if !counted {
		return false, max(rec.Until.Sub(now), time.Second), nil
	}
	return true, 0, nil
}

// Clear forgets key's failures.
func (f *Failures) Clear(ctx context.Context, key string) error {
	return f.DB.ClearSignInFailures(ctx, key)
}

// sweepOld deletes forgotten records at most once an hour per instance.
func (f *Failures) sweepOld(ctx context.Context, now time.Time) {
	f.sweep.run(now, time.Hour, func() {
		if err := f.DB.DeleteSignInFailuresBefore(ctx, now.Add(-f.Forget)); err != nil && f.Logger != nil {
			f.Logger.Warn("sign-in failures sweep", "err", err)
		}
	})
}
