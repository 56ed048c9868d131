package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5/pgconn"
)

// A Writer makes every write of the process, several at a time.
//
// A caller hands it a write: a function that makes its changes through a
// Tx (DB.InTx, DB.Exec). The Writer's goroutine takes all the writes
// waiting at that moment, begins one transaction, runs each write in a
// savepoint of its own, commits once and only then answers each caller.
// A write that fails (returns an error or panics) is undone alone, back to
// its savepoint; the others are kept. So one commit, and on SQLite one
// flush to disk, serves every write taken together. Under load the group
// grows by itself: the writes that arrive while one group commits make up
// the next one. A lone write goes at once; there is no timer.
//
// Once a group is committed, the after-commit hooks of its kept writes run
// (Tx.AfterCommit), and then their callers get their answers. A write
// whose caller's context has ended by the time its turn comes is not run.
// Once it runs, its statements ignore the caller's cancellation: a caller
// going away must not fail a transaction that other callers' writes share.
//
// SQLite allows one writer at a time, so its Writer has one connection and
// one goroutine. On PostgreSQL a Writer may have a few, each taking writes
// from the same queue; when PostgreSQL undoes a group for a deadlock or a
// serialization failure (two groups updating the same rows), the group is
// run again.
type Writer struct {
	db     *DB
	conns  *sql.DB     // the Writer's connections, one per goroutine
	writes chan *write // unbuffered: a send succeeds once a goroutine takes the write
	quit   chan struct{}
	done   sync.WaitGroup
	once   sync.Once
}

// maxGroup is the most writes one commit takes.
const maxGroup = 256

// maxAttempts bounds how many times a group is run when PostgreSQL undoes
// it for a deadlock or a serialization failure (see retryable).
const maxAttempts = 3

// errClosed answers writes that arrive after Close.
var errClosed = errors.New("store: database is closed")

// write is one caller's write and where its answer goes.
type write struct {
	ctx    context.Context
	fn     func(*Tx) error
	answer chan result // buffered: the Writer never waits for the caller
}

// result is what became of a write: its error, or the value it panicked
// with (raised again in the caller's goroutine).
type result struct {
	err   error
	panic any
}

// failed reports whether the write was undone.
func (r result) failed() bool { return r.err != nil || r.panic != nil }

// newWriter starts a Writer with n goroutines on conns, a pool of n
// connections.
func newWriter(db *DB, conns *sql.DB, n int) *Writer {
	w := &Writer{db: db, conns: conns, writes: make(chan *write), quit: make(chan struct{})}
	for range n {
		w.done.Add(1)
		go w.run()
	}
	return w
}

// do hands fn to the Writer and returns once it is committed or undone. A
// caller whose ctx ends before the Writer takes its write gets ctx's error
// and the write is not made.
func (w *Writer) do(ctx context.Context, fn func(*Tx) error) error {
	wr := &write{ctx: ctx, fn: fn, answer: make(chan result, 1)}
	select {
	case w.writes <- wr:
	case <-ctx.Done():
		return ctx.Err()
	case <-w.quit:
		return errClosed
	}
	res := <-wr.answer
	if res.panic != nil {
		panic(res.panic)
	}
	return res.err
}

// run takes the writes waiting, commits them together, and again, until
// the Writer is closed.
func (w *Writer) run() {
	defer w.done.Done()
	for {
		var group []*write
		select {
		case wr := <-w.writes:
			group = append(group, wr)
		case <-w.quit:
			return
		}
	more:
		for len(group) < maxGroup {
			select {
			case wr := <-w.writes:
				group = append(group, wr)
			default:
				break more
			}
		}
		w.commit(group)
	}
}

// commit runs group in one transaction and answers every write.
func (w *Writer) commit(group []*write) {
	var results []result
	var hooks [][]func()
	var err error
	for attempt := 1; ; attempt++ {
		results, hooks, err = w.runGroup(group, attempt < maxAttempts)
		if !errors.Is(err, errRunAgain) {
			break
		}
	}
	for i := range group {
		switch {
		case err != nil && !results[i].failed():
			results[i].err = fmt.Errorf("commit: %w", err)
		case err == nil:
			for _, h := range hooks[i] {
				h()
			}
		}
	}
	for i, wr := range group {
		wr.answer <- results[i]
	}
}

// errRunAgain tells commit that the group was undone and is to be run again.
var errRunAgain = errors.New("store: run the group again")

// runGroup runs group in one transaction, each write in its own savepoint,
// and commits it. It returns each write's result and after-commit hooks,
// and the error that undid the whole group (nil when it was committed).
// With again, a group in which PostgreSQL undid a statement for a deadlock
// or a serialization failure is undone and errRunAgain returned.
func (w *Writer) runGroup(group []*write, again bool) ([]result, [][]func(), error) {
	results := make([]result, len(group))
	hooks := make([][]func(), len(group))
	ctx := context.Background()
	tx, err := w.conns.BeginTx(ctx, nil)
	if err != nil {
		// A connection the server has ended (a restart, an administrator)
		// fails at its first statement and is dropped from the pool;
		// nothing was written, so BEGIN is tried once more on a fresh one.
		tx, err = w.conns.BeginTx(ctx, nil)
	}
	if err != nil {
		return results, hooks, err
	}
	// The savepoint of each write is opened in the same statement that
	// ends the one before: on PostgreSQL every statement is a round trip.
	open := false
	for i, wr := range group {
		if err := wr.ctx.Err(); err != nil {
			results[i].err = err // its caller has gone: not made
			continue
		}
		if !open {
			if _, err := tx.ExecContext(ctx, "SAVEPOINT w"); err != nil {
				tx.Rollback()
				return results, hooks, err
			}
		}
		t := &Tx{tx: tx, db: w.db}
		results[i] = call(wr.fn, t)
		end := "RELEASE w"
		if results[i].failed() {
			end = "ROLLBACK TO w; RELEASE w"
		} else {
			hooks[i] = t.afterCommit
		}
		if again && retryable(results[i].err) {
			tx.Rollback()
			return results, hooks, errRunAgain
		}
		if open = i < len(group)-1; open {
			end += "; SAVEPOINT w"
		}
		if _, err := tx.ExecContext(ctx, end); err != nil {
			tx.Rollback()
			return results, hooks, err
		}
	}
	err = tx.Commit()
	if again && retryable(err) {
		return results, hooks, errRunAgain
	}
	return results, hooks, err
}

// call runs fn, turning a panic into a result.
func call(fn func(*Tx) error, t *Tx) (res result) {
	defer func() {
		if v := recover(); v != nil {
			res.panic = v
		}
	}()
	res.err = fn(t)
	return res
}

// retryable reports whether err is PostgreSQL undoing a transaction that
// would succeed if run again: a deadlock or a serialization failure.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001")
}

// close stops the Writer once the groups under way are answered (later
// writes get errClosed) and closes its connections.
func (w *Writer) close() error {
	w.once.Do(func() { close(w.quit) })
	w.done.Wait()
	return w.conns.Close()
}
