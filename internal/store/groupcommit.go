package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
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
	conn    *sql.DB
	reqs    chan *writeReq // unbuffered: a send succeeds only when the writer takes it
	quit    chan struct{}
	stopped chan struct{}
	once    sync.Once
}

type writeReq struct {
	ctx  context.Context
	fn   func(*Tx) error
	done chan writeResult
}

type writeResult struct {
	err   error
	panic any
}

func newGroupWriter(db *DB, conn *sql.DB) *groupWriter {
	w := &groupWriter{db: db, conn: conn, reqs: make(chan *writeReq), quit: make(chan struct{}), stopped: make(chan struct{})}
	go w.loop()
	return w
}

// do runs fn in the next group commit and returns once its writes are
// committed (or undone). A request whose context ends while it waits for
// the writer is not written; once taken, it is committed even if the
// caller has gone, so nothing acknowledged elsewhere depends on the caller.
func (w *groupWriter) do(ctx context.Context, fn func(*Tx) error) error {
	r := &writeReq{ctx: context.WithoutCancel(ctx), fn: fn, done: make(chan writeResult, 1)}
	select {
	case w.reqs <- r:
	case <-w.quit:
		return errClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	res := <-r.done
	if res.panic != nil {
		panic(res.panic)
	}
	return res.err
}

func (w *groupWriter) loop() {
	defer close(w.stopped)
	batch := make([]*writeReq, 0, maxBatch)
	for {
		select {
		case r := <-w.reqs:
			batch = append(batch[:0], r)
		case <-w.quit:
			return
		}
	more:
		for len(batch) < maxBatch {
			select {
			case r := <-w.reqs:
				batch = append(batch, r)
			default:
				break more
			}
		}
		w.commit(batch)
	}
}

// commit runs one batch in one transaction and answers every request.
func (w *groupWriter) commit(batch []*writeReq) {
	results := make([]writeResult, len(batch))
	answer := func() {
		for i, r := range batch {
			r.done <- results[i]
		}
	}
	ctx := context.Background()
	tx, err := w.conn.BeginTx(ctx, nil)
	if err != nil {
		for i := range results {
			results[i].err = err
		}
		answer()
		return
	}
	hooks := make([][]func(), len(batch))
	for i, r := range batch {
		if _, err := tx.ExecContext(ctx, "SAVEPOINT w"); err != nil {
			results[i].err = err
			continue
		}
		t := &Tx{tx: tx, db: w.db, ctx: r.ctx}
		results[i] = run(r.fn, t)
		if results[i].err != nil || results[i].panic != nil {
			if _, err := tx.ExecContext(ctx, "ROLLBACK TO w"); err != nil {
				results[i].err = errors.Join(results[i].err, err)
			}
		} else {
			hooks[i] = t.afterCommit
		}
		if _, err := tx.ExecContext(ctx, "RELEASE w"); err != nil && results[i].err == nil {
			results[i].err = err
			hooks[i] = nil
		}
	}
	if err := tx.Commit(); err != nil {
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

// close stops the writer after the batch under way and closes its connection.
func (w *groupWriter) close() error {
	w.once.Do(func() { close(w.quit) })
	<-w.stopped
	return w.conn.Close()
}
