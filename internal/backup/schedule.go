package backup

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
)

// Scheduler takes a backup every Every into Dir, keeps the newest Keep,
// and copies each to OffSite when one is set. The first is taken at start
// when the newest archive in Dir is older than Every (a server restarted
// daily still takes its daily backup).
type Scheduler struct {
	Options Options
	Every   time.Duration
	Keep    int
	Dir     string
	OffSite *OffSite // nil: no copy elsewhere
	OnDone  func(path string, rep Report)
	OnErr   func(err error)

	lastSuccess atomic.Int64 // unix seconds of the newest archive written (or found at start)
	failures    atomic.Int64
}

// LastSuccess is when the newest backup was written (zero: none yet).
func (s *Scheduler) LastSuccess() time.Time {
	if v := s.lastSuccess.Load(); v != 0 {
		return time.Unix(v, 0)
	}
	return time.Time{}
}

// Failures counts the backups that failed since start.
func (s *Scheduler) Failures() int64 { return s.failures.Load() }

// Run takes the backups until ctx ends.
func (s *Scheduler) Run(ctx context.Context) {
	wait := time.Duration(0)
	if last := newest(s.Dir); !last.IsZero() {
		s.lastSuccess.Store(last.Unix())
		wait = max(0, s.Every-time.Since(last))
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			s.once(ctx, now)
			t.Reset(s.Every)
		}
	}
}

func (s *Scheduler) once(ctx context.Context, now time.Time) {
	path := filepath.Join(s.Dir, FileName(now))
	rep, err := WriteFile(ctx, s.Options, path)
	if err == nil {
		err = Prune(s.Dir, s.Keep)
	}
	if err == nil && s.OffSite != nil {
		err = s.OffSite.Upload(ctx, path)
	}
	if err != nil {
		if ctx.Err() != nil {
			return // stopping: not a failure of the backup
		}
		s.failures.Add(1)
		s.OnErr(err)
		return
	}
	s.lastSuccess.Store(now.Unix())
	s.OnDone(path, rep)
}

// newest is the time of the newest scheduled archive in dir (by its name).
func newest(dir string) time.Time {
	names, _ := filepath.Glob(filepath.Join(dir, "salaula-*.tar.gz"))
	var last time.Time
	for _, n := range names {
		stamp := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(n), "salaula-"), ".tar.gz")
		if t, err := time.Parse("20060102T150405.000Z", stamp); err == nil && t.After(last) {
			last = t
		}
	}
	return last
}
