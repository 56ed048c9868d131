package main

import (
	"log/slog"
	"math"
	"net/http"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"time"

	"salaula/internal/store"
)

// defaultProcs is how many goroutines Go runs at once by default here (the
// CPUs, or the container's CPU limit, or GOMAXPROCS when it is set), read
// before serve changes it.
var defaultProcs = runtime.GOMAXPROCS(0)

// processors sets how many goroutines run at once (GOMAXPROCS) from what
// the server is doing, while it serves:
//
//   - One while requests come one at a time. A processor with nothing to
//     do is not free: every goroutine made ready (a request's answer from
//     the database, a password hash giving way) wakes a thread on another
//     CPU to look for work on it, and on a virtual machine each such
//     wake-up costs tens of microseconds of CPU (docs/decisions.md). With
//     one processor the hand-offs stay on one thread.
//   - As many as CPUs while requests overlap (a second one arriving while
//     one is answered asks for them at once, not at the next poll) or
//     while goroutines queue for the one processor: on average at least
//     one waiting to run over a poll (requests that never wait for
//     anything do not overlap on one processor, but they queue).
//   - On SQLite, one more while writes queue for the group-commit writer:
//     it holds a processor for a group's statements and its answers wake
//     the requests' goroutines onto that processor's queue; with one
//     processor more than CPUs they run at once, the kernel sharing the
//     CPUs between the threads (c16 sign-ups +8 %).
//
// The count is raised at once and lowered only after quietPolls polls
// without its reason, so a change (which stops the world for a moment) is
// rare. A GOMAXPROCS set in the environment is kept, and a machine with
// one CPU has nothing to choose.
type processors struct {
	policy   *processorPolicy
	inFlight atomic.Int64 // requests being answered now
	peak     atomic.Int64 // the most at once since the last poll
	single   atomic.Bool  // running one processor: an overlap asks for more at once
	overlap  chan struct{}
	quit     chan struct{}
	done     chan struct{}
	prev     int
}

// processorsFor starts following what the server does for db and returns
// the processors, whose track counts the requests and whose stop ends it
// and puts the setting back.
func processorsFor(db *store.DB, getenv func(string) string, logger *slog.Logger) *processors {
	p := &processors{prev: runtime.GOMAXPROCS(0), overlap: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	if getenv("GOMAXPROCS") != "" || defaultProcs < 2 {
		close(p.done)
		return p
	}
	// A server starts with nothing to answer: one processor.
	p.policy = &processorPolicy{base: defaultProcs, procs: 1, writer: db.Dialect() == store.SQLite, last: db.WriteStats()}
	set := func(n int) {
		p.single.Store(n == 1)
		runtime.GOMAXPROCS(n)
		logger.Debug("processors", "gomaxprocs", n, "cpus", defaultProcs)
	}
	set(1)
	go func() {
		defer close(p.done)
		tick := time.NewTicker(processorPoll)
		defer tick.Stop()
		waits := newRunQueueWaits()
		last := time.Now()
		for {
			select {
			case <-p.quit:
				return
			case <-tick.C:
			case <-p.overlap:
			}
			now := time.Now()
			queue := waits.meanQueue(now.Sub(last))
			last = now
			peak := p.peak.Swap(p.inFlight.Load())
			if n, changed := p.policy.observe(db.WriteStats(), int(peak), queue); changed {
				set(n)
			}
		}
	}()
	return p
}

// realtimePath is the realtime socket's route: a socket stays open for
// hours and waits nearly all of it, so it is not a request being answered.
const realtimePath = "/realtime/v1/websocket"

// track counts the requests next is answering.
func (p *processors) track(next http.Handler) http.Handler {
	if p.policy == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == realtimePath {
			next.ServeHTTP(w, r)
			return
		}
		n := p.inFlight.Add(1)
		defer p.inFlight.Add(-1)
		for peak := p.peak.Load(); n > peak && !p.peak.CompareAndSwap(peak, n); peak = p.peak.Load() {
		}
		if n > 1 && p.single.Load() {
			select {
			case p.overlap <- struct{}{}:
			default:
			}
		}
		next.ServeHTTP(w, r)
	})
}

// stop ends following the server and puts the processor count back.
func (p *processors) stop() {
	if p.policy == nil {
		return
	}
	close(p.quit)
	<-p.done
	runtime.GOMAXPROCS(p.prev)
}

// How the processor count follows the server: it looks every
// processorPoll (and at once when a request overlaps another while one
// processor runs); goroutines queue when on average at least
// queuedGoroutines waited to run over a poll; writes queue for the writer
// when a poll saw at least queuedCommits commits carrying on average a
// quarter more writes than commits (groups, not lone writes); after
// quietPolls polls without the reason for the count, it goes down to what
// the last poll needed.
const (
	processorPoll    = 200 * time.Millisecond
	queuedGoroutines = 1.0
	queuedCommits    = 20
	quietPolls       = 10
)

// processorPolicy decides how many processors to run from the requests
// that overlapped, the goroutines that waited to run and, on SQLite
// (writer), the writer's counts: 1 while requests come one at a time,
// base (the CPUs) while they overlap or goroutines queue, base+1 while
// writes queue for the writer.
type processorPolicy struct {
	base, procs int
	writer      bool
	quiet       int              // polls since the count was last needed
	last        store.WriteStats // the writer's counts at the previous poll
}

// observe takes the writer's counts, the most requests answered at once
// since the last poll and the mean number of goroutines waiting to run
// over it, and returns how many processors to run and whether that is a
// change.
func (p *processorPolicy) observe(st store.WriteStats, peak int, queue float64) (procs int, changed bool) {
	commits, writes := st.Commits-p.last.Commits, st.Writes-p.last.Writes
	p.last = st
	need := 1
	switch {
	case p.writer && commits >= queuedCommits && 4*writes >= 5*commits:
		need = p.base + 1
	case peak > 1 || queue >= queuedGoroutines:
		need = p.base
	}
	want := p.procs
	switch {
	case need >= p.procs:
		p.quiet = 0
		want = need
	default:
		if p.quiet++; p.quiet >= quietPolls {
			p.quiet = 0
			want = need
		}
	}
	changed = want != p.procs
	p.procs = want
	return want, changed
}

// runQueueWaits reads from the runtime how long goroutines waited for a
// processor (the histogram /sched/latencies:seconds).
type runQueueWaits struct {
	sample []metrics.Sample
	prev   []uint64
}

func newRunQueueWaits() *runQueueWaits {
	w := &runQueueWaits{sample: []metrics.Sample{{Name: "/sched/latencies:seconds"}}}
	w.meanQueue(0)
	return w
}

// meanQueue is the mean number of goroutines waiting to run over the
// elapsed time since the last call: the time they waited (each wait taken
// at the middle of its histogram bucket) divided by elapsed.
func (w *runQueueWaits) meanQueue(elapsed time.Duration) float64 {
	metrics.Read(w.sample)
	h := w.sample[0].Value.Float64Histogram()
	var wait float64
	for i, c := range h.Counts {
		if i < len(w.prev) {
			c -= w.prev[i]
		}
		lo, hi := h.Buckets[i], h.Buckets[i+1]
		switch {
		case math.IsInf(lo, -1):
			continue
		case math.IsInf(hi, 1):
			wait += float64(c) * lo
		default:
			wait += float64(c) * (lo + hi) / 2
		}
	}
	w.prev = append(w.prev[:0], h.Counts...)
	if elapsed <= 0 {
		return 0
	}
	return wait / elapsed.Seconds()
}
