package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// maxBatch is the most writes one group commit takes.
const maxBatch = 256

// errClosed answers writes that arrive after Close.
var errClosed = errors.New("store: database is closed")

// groupWriter commits SQLite writes for the whole process through one
// connection. It takes every write waiting at that moment, runs each in its
// own savepoint of one transaction (so a failing write is undone alone),
// commits once (one synchronous=FULL flush shared by all of them) and only
// then answers each caller. Under load the batch grows by itself: the writes
// that arrive during one flush make up the next batch; a lone write goes out
// at once, with no timer to wait for.
type groupWriter struct {
	db      *DB
	reqs    chan *writeReq // unbuffered: a send succeeds only when a lane takes it
	quit    chan struct{}
	stopped sync.WaitGroup
	once    sync.Once
	stats   groupStats
	lanes   []*writerLane
	// queued counts the writes waiting for a lane's goroutine to take
	// them, and lastGroup is how many writes the last commit carried (see
	// commitIfIdle).
	queued, lastGroup atomic.Int64
	// maxHold, when not 0, is how long a lane keeps one connection before
	// it hands it back to its pool (where ConnMaxLifetime closes it) and
	// takes a fresh one, as the pool alone did when every transaction
	// borrowed the connection.
	maxHold time.Duration
}

// writerLane is one connection of the writer with the goroutine that
// commits groups on it. SQLite has one (one writer at a time is all it
// allows); PostgreSQL several, so that one group's statements and commit
// overlap with the next group's instead of waiting for its round trips.
type writerLane struct {
	w    *groupWriter
	pool *sql.DB // a pool of one connection
	// conn is the pool's connection, held by the lane while it is good.
	// Transactions are opened on it with BEGIN and ended with COMMIT or
	// ROLLBACK, not through database/sql's Tx, which starts a goroutine
	// for every transaction and every query in it (to watch a context the
	// writer never cancels): two thread wake-ups per transaction and one
	// per query, a sign-in's largest cost after the hash and the SQL.
	conn     *sql.Conn
	heldFrom time.Time // when the lane took conn from its pool
	// Statements prepared once on conn, by query text, and the queries
	// seen in the last batch that are to be prepared once the connection
	// is free again. Only the lane's goroutine uses them.
	stmts  map[string]*sql.Stmt
	wanted map[string]bool
	// pend is the pending work of the group under way (see pending).
	pend pending
	// busy is held by whoever commits on the lane: its goroutine, or a
	// caller that found the lane idle and commits its own write (see do).
	busy sync.Mutex
}

// maxStmts bounds the writer's prepared statements; queries seen after the
// cache is full are parsed each time, as before.
const maxStmts = 256

// stmt returns query prepared on the lane's connection, or nil when it is
// not prepared yet (it will be after this batch).
func (l *writerLane) stmt(query string) *sql.Stmt {
	if st, ok := l.stmts[query]; ok {
		return st
	}
	if l.w.db.dialect == SQLite && len(l.stmts)+len(l.wanted) < maxStmts {
		l.wanted[query] = true
	}
	return nil
}

// prepareWanted prepares the queries the last batch ran unprepared; the
// connection is free between batches, so this never waits for a write.
func (l *writerLane) prepareWanted() {
	for q := range l.wanted {
		if l.conn != nil {
			if st, err := l.conn.PrepareContext(context.Background(), q); err == nil {
				l.stmts[q] = st
			}
		}
		delete(l.wanted, q)
	}
}

// begin opens a transaction on the lane's connection and returns it as
// the querier of the transaction's statements. The lane takes the
// connection from its pool when it holds none; when BEGIN fails (a broken
// connection, say, after PostgreSQL restarted) the connection is given up
// and BEGIN tried once more on a fresh one, as database/sql does for its
// own transactions. On SQLite the transaction takes the write lock at once
// (BEGIN IMMEDIATE), as _txlock=immediate does for database/sql's.
func (l *writerLane) begin() (querier, error) {
	ctx := context.Background()
	begin := "BEGIN"
	if l.w.db.dialect == SQLite {
		begin = "BEGIN IMMEDIATE"
	}
	if l.conn != nil && l.w.maxHold > 0 && time.Since(l.heldFrom) > l.w.maxHold {
		l.release(false)
	}
	var err error
	for range 2 {
		if l.conn == nil {
			c, err := l.pool.Conn(ctx)
			if err != nil {
				return nil, err
			}
			l.conn, l.heldFrom = c, time.Now()
		}
		if _, err = l.exec(begin); err == nil {
			return l.conn, nil
		}
		l.release(true)
	}
	return nil, err
}

// exec runs one of the lane's own statements (BEGIN, COMMIT, ROLLBACK) on
// its connection, prepared once like the transactions' statements: on
// SQLite, parsing BEGIN IMMEDIATE and COMMIT anew was a third of their cost.
func (l *writerLane) exec(query string) (sql.Result, error) {
	if st := l.stmt(query); st != nil {
		return st.ExecContext(context.Background())
	}
	return l.conn.ExecContext(context.Background(), query)
}

// commitTx commits the transaction open on the lane's connection. When
// the commit fails the transaction is rolled back (SQLite may keep a
// transaction open after a failed COMMIT).
func (l *writerLane) commitTx() error {
	_, err := l.exec("COMMIT")
	if err != nil {
		l.rollbackTx()
	}
	return err
}

// rollbackTx undoes the transaction open on the lane's connection. When
// that fails for another reason than there being no transaction (SQLite
// ends one itself after some errors), the connection's state is unknown:
// it is given up, and the next transaction starts on a fresh one.
func (l *writerLane) rollbackTx() {
	if _, err := l.exec("ROLLBACK"); err != nil && !strings.Contains(err.Error(), "no transaction is active") {
		l.release(true)
	}
}

// release hands the lane's connection back to its pool, with the
// statements prepared on it; when bad, it is marked broken so that the
// pool closes it. The lane takes a connection again when it next begins.
func (l *writerLane) release(bad bool) {
	if l.conn == nil {
		return
	}
	for q, st := range l.stmts {
		st.Close()
		delete(l.stmts, q)
	}
	if bad {
		l.conn.Raw(func(any) error { return driver.ErrBadConn })
	}
	l.conn.Close()
	l.conn = nil
}

// groupStats counts the commits and how many writes each one carried.
type groupStats struct {
	commits, writes, largest atomic.Int64
	// stmts counts the statements the writer sent, BEGIN and COMMIT
	// included: on PostgreSQL each is a round trip.
	stmts atomic.Int64
	sizes [len(GroupSizeBounds) + 1]atomic.Int64
}

// GroupSizeBounds are the upper bounds of the group-size histogram buckets
// in WriteStats.Sizes; the last bucket counts the larger groups.
var GroupSizeBounds = [...]int{1, 2, 4, 8, 16, 32, 64, 128}

// WriteStats tells how well the group commit shares disk flushes and round
// trips: the commits made, the writes they carried, the largest group, the
// statements sent (BEGIN and COMMIT included; on PostgreSQL each is a
// round trip) and a histogram of group sizes (Sizes[i] counts groups of at
// most GroupSizeBounds[i] writes and more than the bound before it; the
// last entry, larger ones).
type WriteStats struct {
	Commits, Writes, Largest, Statements int64
	Sizes                                [len(GroupSizeBounds) + 1]int64
}

func (s *groupStats) add(n int) {
	s.commits.Add(1)
	s.writes.Add(int64(n))
	for {
		l := s.largest.Load()
		if int64(n) <= l || s.largest.CompareAndSwap(l, int64(n)) {
			break
		}
	}
	i := 0
	for i < len(GroupSizeBounds) && n > GroupSizeBounds[i] {
		i++
	}
	s.sizes[i].Add(1)
}

// WriteStats reports the group commits made so far.
func (db *DB) WriteStats() WriteStats {
	var out WriteStats
	if db.writer == nil {
		return out
	}
	s := &db.writer.stats
	out.Commits, out.Writes, out.Largest = s.commits.Load(), s.writes.Load(), s.largest.Load()
	out.Statements = s.stmts.Load()
	for i := range s.sizes {
		out.Sizes[i] = s.sizes[i].Load()
	}
	return out
}

type writeReq struct {
	ctx  context.Context
	fn   func(*Tx) error
	ins  *rowInsert // when not nil, the write's combinable form
	done chan writeResult
}

type writeResult struct {
	err   error
	panic any
}

// newGroupWriter starts one lane on each of conns (each a pool of one
// connection).
func newGroupWriter(db *DB, conns ...*sql.DB) *groupWriter {
	w := &groupWriter{db: db, reqs: make(chan *writeReq), quit: make(chan struct{})}
	for _, c := range conns {
		l := &writerLane{w: w, pool: c, stmts: map[string]*sql.Stmt{}, wanted: map[string]bool{}}
		w.lanes = append(w.lanes, l)
		w.stopped.Add(1)
		go l.loop()
	}
	return w
}

// do runs fn in the next group commit and returns once its writes are
// committed (or undone). A request whose context ends while it waits for
// the writer is not written; once taken, it is committed even if the
// caller has gone, so nothing acknowledged elsewhere depends on the caller.
func (w *groupWriter) do(ctx context.Context, fn func(*Tx) error, ins *rowInsert) error {
	r := &writeReq{ctx: context.WithoutCancel(ctx), fn: fn, ins: ins, done: make(chan writeResult, 1)}
	if !w.commitIfIdle(r) {
		w.queued.Add(1)
		select {
		case w.reqs <- r:
			w.queued.Add(-1)
		case <-w.quit:
			w.queued.Add(-1)
			return errClosed
		case <-ctx.Done():
			w.queued.Add(-1)
			return ctx.Err()
		}
	}
	res := <-r.done
	if res.panic != nil {
		panic(res.panic)
	}
	return res.err
}

// commitIfIdle commits r on the caller's goroutine when the writer has one
// lane (SQLite), nothing is committing on it, no write waits for it and
// the last commit carried one write: a lone write then costs no hand-off
// to the lane's goroutine and back, each a thread woken on another CPU
// (tens of microseconds of CPU on a virtual machine). It reports whether
// it did; r is answered on r.done either way it was taken. Writes that
// find the lane busy, or others waiting, queue for its goroutine as
// before; and while commits carry several writes (a stream of them),
// every write queues, so that a write arriving just after a group's
// commit does not take a flush of its own while the next group forms.
func (w *groupWriter) commitIfIdle(r *writeReq) bool {
	if len(w.lanes) != 1 || w.queued.Load() != 0 || w.lastGroup.Load() > 1 {
		return false
	}
	l := w.lanes[0]
	if !l.busy.TryLock() {
		return false
	}
	defer l.busy.Unlock()
	select {
	case <-w.quit:
		r.done <- writeResult{err: errClosed}
		return true
	default:
	}
	l.commit([]*writeReq{r})
	l.prepareWanted()
	return true
}

func (l *writerLane) loop() {
	w := l.w
	defer w.stopped.Done()
	batch := make([]*writeReq, 0, maxBatch)
	for {
		select {
		case r := <-w.reqs:
			batch = append(batch[:0], r)
		case <-w.quit:
			return
		}
		// Wait for a caller committing on the lane, then take every
		// write that queued meanwhile too.
		l.busy.Lock()
	more:
		for len(batch) < maxBatch {
			select {
			case r := <-w.reqs:
				batch = append(batch, r)
			default:
				break more
			}
		}
		l.commit(batch)
		l.prepareWanted()
		l.busy.Unlock()
	}
}

// commit runs one batch in one transaction and answers every request.
func (l *writerLane) commit(batch []*writeReq) {
	w := l.w
	w.stats.add(len(batch))
	w.lastGroup.Store(int64(len(batch)))
	// On SQLite a lone write gains nothing from combining (commitOne has
	// no savepoint either).
	for attempt := 1; ; attempt++ {
		// The last attempt answers whatever happens.
		retry := attempt < maxAttempts
		if (w.db.dialect == Postgres || len(batch) > 1) && combinable(batch) {
			switch l.commitGroup(batch, true, retry) {
			case groupAnswered:
				return
			case groupRetry:
				continue
			}
		}
		var out groupOutcome
		if len(batch) == 1 {
			out = l.commitOne(batch[0], retry)
		} else {
			out = l.commitGroup(batch, false, retry)
		}
		if out == groupAnswered {
			return
		}
	}
}

// maxAttempts bounds how many times the writer runs one batch when
// PostgreSQL undoes it for a deadlock with the other lane or a
// serialization failure (see retryable).
const maxAttempts = 4

// groupOutcome tells commit what became of a batch.
type groupOutcome int

const (
	groupAnswered    groupOutcome = iota // committed or undone; every request answered
	groupNotCombined                     // the rows could not go in together; nothing done, no one answered
	groupRetry                           // undone for a deadlock or serialization failure; no one answered, run it again
)

// retryable reports whether err is PostgreSQL undoing a transaction that
// would succeed if run again: a deadlock between the writer's lanes (both
// update the same roll-up rows) or a serialization failure. The writer runs
// the batch again instead of failing its writes.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001")
}

// commitGroup runs batch in one transaction, each write in its own
// savepoint, and answers every request. With combine, the
// combinable writes' rows go in first, together (see combineRows), and only
// the others get savepoints; when that cannot be done, commitGroup undoes
// the transaction, answers no one and reports groupNotCombined. With
// retry, a batch that PostgreSQL undid for a deadlock or a serialization
// failure is undone whole and answered by no one (groupRetry).
func (l *writerLane) commitGroup(batch []*writeReq, combine, retry bool) groupOutcome {
	w := l.w
	results := make([]writeResult, len(batch))
	answer := func() {
		for i, r := range batch {
			r.done <- results[i]
		}
	}
	ctx := context.Background()
	w.stats.stmts.Add(1)
	tx, err := l.begin()
	if err != nil {
		if combine {
			return groupNotCombined
		}
		for i := range results {
			results[i].err = err
		}
		answer()
		return groupAnswered
	}
	hooks := make([][]func(), len(batch))
	g := &l.pend
	g.reset()
	own := &Tx{tx: tx, db: w.db, w: l}
	done := make([]bool, len(batch))
	if combine && !l.combineRows(ctx, own, g, batch, done, hooks) {
		l.rollbackTx()
		g.reset()
		return groupNotCombined
	}
	last := len(batch) - 1
	for last >= 0 && done[last] {
		last--
	}
	// On PostgreSQL, where each statement is a round trip, releasing one
	// write's savepoint and opening the next one's go together; the last
	// write's savepoint is released by the commit.
	joinSavepoints := w.db.dialect == Postgres
	open := false // savepoint w is open for the write i
	for i, r := range batch {
		if done[i] {
			continue
		}
		if !open {
			if _, err := own.execDirect(ctx, "SAVEPOINT w"); err != nil {
				results[i].err = err
				continue
			}
			open = true
		}
		t := &Tx{tx: tx, db: w.db, ctx: r.ctx, w: l, group: g}
		results[i] = run(r.fn, t)
		if results[i].err == nil && t.broken != nil {
			results[i].err = t.broken
		}
		ok := results[i].err == nil && results[i].panic == nil
		if !ok {
			if _, err := own.execDirect(ctx, "ROLLBACK TO w"); err != nil {
				results[i].err = errors.Join(results[i].err, err)
			}
			// The group's work written inside the undone savepoint is
			// pending again.
			g.add(&t.flushed)
		}
		var err error
		switch {
		case i == last:
		case joinSavepoints:
			_, err = own.execDirect(ctx, "RELEASE w; SAVEPOINT w")
		default:
			_, err = own.execDirect(ctx, "RELEASE w")
			open = false
		}
		if err != nil {
			open = false
			if ok {
				results[i].err = err
			}
			continue
		}
		if ok {
			hooks[i] = t.afterCommit
			g.keep(&t.own)
		}
	}
	err = g.finish(ctx, own)
	if retry && (retryable(err) || anyRetryable(results)) {
		l.rollbackTx()
		g.reset()
		return groupRetry
	}
	if err != nil {
		l.rollbackTx()
		g.reset()
	} else {
		w.stats.stmts.Add(1)
		err = l.commitTx()
	}
	if err != nil {
		for i := range results {
			if results[i].err == nil && results[i].panic == nil {
				results[i].err = fmt.Errorf("commit: %w", err)
				hooks[i] = nil
			}
		}
	}
	for _, hs := range hooks {
		for _, h := range hs {
			h()
		}
	}
	answer()
	return groupAnswered
}

// anyRetryable reports whether a write of the group failed for a reason
// that running the group again would cure (see retryable).
func anyRetryable(results []writeResult) bool {
	for _, r := range results {
		if retryable(r.err) {
			return true
		}
	}
	return false
}

// commitOne runs a lone write in a transaction of its own: no savepoint is
// needed, since undoing the transaction undoes only this write.
// With retry, a write PostgreSQL undid for a deadlock or a serialization
// failure is not answered (groupRetry).
func (l *writerLane) commitOne(r *writeReq, retry bool) (out groupOutcome) {
	w := l.w
	var res writeResult
	defer func() {
		if retry && retryable(res.err) {
			out = groupRetry
			return
		}
		r.done <- res
	}()
	w.stats.stmts.Add(2) // BEGIN, then COMMIT or ROLLBACK
	tx, err := l.begin()
	if err != nil {
		res.err = err
		return groupAnswered
	}
	g := &l.pend
	g.reset()
	t := &Tx{tx: tx, db: w.db, ctx: r.ctx, w: l, group: g}
	if res = run(r.fn, t); res.err == nil && t.broken != nil {
		res.err = t.broken
	}
	if res.err == nil && res.panic == nil {
		g.keep(&t.own)
		res.err = g.finish(context.Background(), t)
	}
	if res.err != nil || res.panic != nil {
		l.rollbackTx()
		return groupAnswered
	}
	if err := l.commitTx(); err != nil {
		res.err = fmt.Errorf("commit: %w", err)
		return groupAnswered
	}
	for _, h := range t.afterCommit {
		h()
	}
	return groupAnswered
}

// run calls fn, turning a panic into a result that do re-raises in the
// caller's goroutine.
func run(fn func(*Tx) error, t *Tx) (res writeResult) {
	defer func() {
		if v := recover(); v != nil {
			res.panic = v
		}
	}()
	res.err = fn(t)
	return res
}

// close stops the writer after the batches under way and closes its connections.
func (w *groupWriter) close() error {
	w.once.Do(func() { close(w.quit) })
	w.stopped.Wait()
	var errs []error
	for _, l := range w.lanes {
		// A caller may be committing on the lane (commitIfIdle); later
		// ones see quit and are refused.
		l.busy.Lock()
		defer l.busy.Unlock()
		for _, st := range l.stmts {
			st.Close()
		}
		if l.conn != nil {
			errs = append(errs, l.conn.Close())
		}
		errs = append(errs, l.pool.Close())
	}
	return errors.Join(errs...)
}
