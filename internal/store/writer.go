package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// A Writer makes every write of the process, several at a time.
//
// A caller hands it a write: a function that makes its changes through a
// Tx (DB.InTx, DB.Exec). The Writer's goroutine takes all the writes
// waiting at that moment, begins one transaction, runs them, commits once
// and only then answers each caller. A write that fails (returns an error
// or panics) is undone alone; the others are kept: when one fails, the
// group is undone and run again with each write in a savepoint of its own,
// rolled back to for the failing ones. (Writes rarely fail, and a savepoint
// costs every write a round trip on PostgreSQL, so a group first runs
// without them.) So one commit, and on SQLite one flush to disk, serves
// every write taken together. Under load the group grows by itself: the
// writes that arrive while one group commits make up the next one. A lone
// write goes at once; there is no timer.
//
// Once a group is committed, the after-commit hooks of its kept writes run
// (Tx.AfterCommit), and then their callers get their answers. A write
// whose caller's context has ended by the time its turn comes is not run.
// Once it runs, its statements ignore the caller's cancellation: a caller
// going away must not fail a transaction that other callers' writes share.
//
// SQLite allows one writer at a time, so its Writer has one connection and
// one goroutine (a lane). On PostgreSQL it has a few, each taking writes
// from the same queue and committing on its own connection, so that one
// group's round trips overlap with another's. A group made only of writes
// of one statement (a waitlist sign-up: DB.inStatement) is sent to
// PostgreSQL at once and committed as one transaction in a single round
// trip (lane.pipeline). Counters keep a row per lane
// (Tx.Lane), so lanes do not wait on each other's counter rows; when
// PostgreSQL still undoes a group for a deadlock or a serialization
// failure, the group is run again.
type Writer struct {
	db     *DB
	conns  *sql.DB     // the Writer's connections, one per goroutine
	writes chan *write // unbuffered: a send succeeds once a goroutine takes the write
	quit   chan struct{}
	lanes  []*lane
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
	stmt   statement   // set when the write is one statement (DB.inStatement); fn then runs it
	answer chan result // buffered: the Writer never waits for the caller
}

// A statement is a write of one statement that answers one row: its text,
// its values and what reads the row, built on the Tx that runs it (whose
// Lane picks the counter rows it adds to). The Writer can send the
// statements of a group together (lane.pipeline).
type statement func(t *Tx) (query string, args []any, scan func(row) error)

// row is one row of a statement's answer, from database/sql or from pgx.
type row interface{ Scan(...any) error }

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
	for i := range n {
		w.done.Add(1)
		l := &lane{w: w, n: i, stmts: map[string]*sql.Stmt{}}
		w.lanes = append(w.lanes, l)
		go l.run()
	}
	return w
}

// newWrite is fn as the write of a caller whose context is ctx.
func newWrite(ctx context.Context, fn func(*Tx) error) *write {
	return &write{ctx: ctx, fn: fn, answer: make(chan result, 1)}
}

// statementWrite is st as the write of a caller whose context is ctx: its
// fn runs st on a Tx like any write's, one statement after another's.
func statementWrite(ctx context.Context, st statement) *write {
	wr := newWrite(ctx, func(t *Tx) error {
		q, args, scan := st(t)
		return scan(t.QueryRow(ctx, q, args...))
	})
	wr.stmt = st
	return wr
}

// do hands wr to the Writer and returns once it is committed or undone. A
// caller whose context ends before the Writer takes the write gets the
// context's error and the write is not made.
func (w *Writer) do(wr *write) error {
	select {
	case w.writes <- wr:
	case <-wr.ctx.Done():
		return wr.ctx.Err()
	case <-w.quit:
		return errClosed
	}
	res := <-wr.answer
	if res.panic != nil {
		panic(res.panic)
	}
	return res.err
}

// lane is one goroutine of the Writer with the connection it holds
// between groups. On SQLite it keeps its statements prepared: SQLite
// parses and plans a statement every time it is not, and parsing was most
// of a sign-up's cost in the writer. (PostgreSQL's driver keeps its own
// prepared statements per connection.)
type lane struct {
	w     *Writer
	n     int       // the lane's number, from 0: Tx.Lane
	conn  *sql.Conn // nil until the first group, and after a broken one
	stmts map[string]*sql.Stmt
	busy  sync.Mutex // held while a group commits (tests commit groups of their own)
}

// stmt returns query prepared on the lane's connection (SQLite), or nil.
func (l *lane) stmt(query string) *sql.Stmt {
	if l.w.db.dialect != SQLite {
		return nil
	}
	if st, ok := l.stmts[query]; ok {
		return st
	}
	st, err := l.conn.PrepareContext(context.Background(), query)
	if err != nil {
		return nil // run unprepared: the error shows there
	}
	l.stmts[query] = st
	return st
}

// exec runs one of the Writer's own statements (BEGIN, SAVEPOINT...).
func (l *lane) exec(query string) error {
	if st := l.stmt(query); st != nil {
		_, err := st.ExecContext(context.Background())
		return err
	}
	_, err := l.conn.ExecContext(context.Background(), query)
	return err
}

// begin opens a transaction on the lane's connection, taking one from the
// pool when it holds none. A connection the server has ended (a restart,
// an administrator) fails at its first statement: it is given up and BEGIN
// tried once more on a fresh one.
func (l *lane) begin() error {
	begin := "BEGIN"
	if l.w.db.dialect == SQLite {
		begin = "BEGIN IMMEDIATE" // the write lock at once, never halfway
	}
	var err error
	for range 2 {
		if l.conn == nil {
			if l.conn, err = l.w.conns.Conn(context.Background()); err != nil {
				return err
			}
		}
		if err = l.exec(begin); err == nil {
			return nil
		}
		l.release(true)
	}
	return err
}

// rollback undoes the transaction open on the lane's connection; when
// even that fails, the connection is given up.
func (l *lane) rollback() {
	if err := l.exec("ROLLBACK"); err != nil {
		l.release(true)
	}
}

// release hands the connection back to the pool (closed there when bad).
func (l *lane) release(bad bool) {
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

// run takes the writes waiting, commits them together, and again, until
// the Writer is closed.
func (l *lane) run() {
	w := l.w
	defer w.done.Done()
	defer l.release(false)
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
		l.busy.Lock()
		l.commit(group)
		l.busy.Unlock()
	}
}

// commit runs group in one transaction and answers every write.
func (l *lane) commit(group []*write) {
	var results []result
	var hooks [][]func()
	var err error
	isolate := false
	for attempt := 1; ; attempt++ {
		results, hooks, err = l.runGroup(group, isolate, attempt < maxAttempts)
		if errors.Is(err, errIsolate) {
			isolate = true
			continue
		}
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

// errIsolate tells commit that a write of the group failed while the
// group ran without savepoints: the group was undone and is to be run
// again, each write in a savepoint of its own.
var errIsolate = errors.New("store: run the group again, each write alone")

// errRunAgain tells commit that the group was undone and is to be run again.
var errRunAgain = errors.New("store: run the group again")

// runGroup runs group in one transaction and commits it. With isolate,
// each write runs in a savepoint of its own, rolled back to when the write
// fails; without, the first write that fails undoes the group and
// errIsolate is returned, unless it is the group's only write: then the
// transaction is undone and the write answered with its failure (a write
// alone never pays for savepoints: on PostgreSQL two round trips of a
// sign-up's six). It returns each write's result and after-commit
// hooks, and the error that undid the whole group (nil when it was
// committed). With again, a group in which PostgreSQL undid a statement
// for a deadlock or a serialization failure is undone and errRunAgain
// returned.
func (l *lane) runGroup(group []*write, isolate, again bool) ([]result, [][]func(), error) {
	hooks := make([][]func(), len(group))
	if !isolate && l.w.db.dialect == Postgres && statementsOnly(group) {
		results, undone, err := l.pipeline(group)
		if !undone {
			return results, hooks, err
		}
		// Undone as a whole: run again below, one statement at a time.
	}
	results := make([]result, len(group))
	if err := l.begin(); err != nil {
		return results, hooks, err
	}
	undo := func(err error) ([]result, [][]func(), error) {
		l.rollback()
		return results, hooks, err
	}
	for i, wr := range group {
		if err := wr.ctx.Err(); err != nil {
			results[i].err = err // its caller has gone: not made
			continue
		}
		if isolate {
			if err := l.exec("SAVEPOINT w"); err != nil {
				return undo(err)
			}
		}
		t := &Tx{tx: l.conn, db: l.w.db, lane: l}
		results[i] = call(wr.fn, t)
		switch {
		case again && retryable(results[i].err):
			return undo(errRunAgain)
		case results[i].failed() && len(group) == 1:
			// A write alone needs no savepoint: undoing the transaction undoes just it.
			l.rollback()
			return results, hooks, nil
		case results[i].failed() && !isolate:
			return undo(errIsolate)
		case results[i].failed():
			if err := l.exec("ROLLBACK TO w"); err != nil {
				return undo(err)
			}
		default:
			hooks[i] = t.afterCommit
		}
		if isolate {
			if err := l.exec("RELEASE w"); err != nil {
				return undo(err)
			}
		}
	}
	err := l.exec("COMMIT")
	if err != nil {
		l.rollback() // SQLite may keep a transaction open after a failed COMMIT
	}
	if again && retryable(err) {
		return results, hooks, errRunAgain
	}
	return results, hooks, err
}

// statementsOnly reports whether every write of group is one statement.
func statementsOnly(group []*write) bool {
	for _, wr := range group {
		if wr.stmt == nil {
			return false
		}
	}
	return true
}

// pipeline sends the statements of group to PostgreSQL all at once,
// followed by a single Sync, and then reads their answers. PostgreSQL runs
// statements sent that way as one transaction of its own and commits it
// before it answers the Sync, so the group takes one round trip however
// many writes it holds, instead of one each plus BEGIN and COMMIT. When
// PostgreSQL refuses a statement, it undoes all of them: a write alone is
// answered with the refusal; a group is reported undone, for runGroup to
// run again one statement at a time, which finds the write that fails
// (and a deadlock is run again the same way). The same when the connection
// had been ended before anything was sent (it is given up). Any other
// error leaves it unknown whether the group was committed, like a COMMIT
// whose answer is lost: it is returned, not run again.
func (l *lane) pipeline(group []*write) (results []result, undone bool, err error) {
	results = make([]result, len(group))
	if l.conn == nil {
		if l.conn, err = l.w.conns.Conn(context.Background()); err != nil {
			return results, false, err
		}
	}
	t := &Tx{db: l.w.db, lane: l}
	scans := make([]func(row) error, len(group))
	var batch pgx.Batch
	for i, wr := range group {
		if err := wr.ctx.Err(); err != nil {
			results[i].err = err // its caller has gone: not made
			continue
		}
		results[i] = call(func(t *Tx) error {
			q, args, scan := wr.stmt(t)
			batch.Queue(q, args...)
			scans[i] = scan
			return nil
		}, t)
	}
	if batch.Len() == 0 {
		return results, false, nil
	}
	var ended bool // PostgreSQL ended the connection: nothing was committed
	err = l.conn.Raw(func(dc any) error {
		conn := dc.(*stdlib.Conn).Conn()
		defer func() { ended = conn.IsClosed() }()
		answers := conn.SendBatch(context.Background(), &batch)
		for i, scan := range scans {
			if scan != nil {
				if results[i] = call(func(*Tx) error { return scan(answers.QueryRow()) }, t); results[i].failed() {
					answers.Close()
					if results[i].panic != nil {
						return errors.New("store: a statement's answer could not be read")
					}
					return results[i].err
				}
			}
		}
		return answers.Close()
	})
	var pe *pgconn.PgError
	refused := errors.As(err, &pe)
	switch {
	case err == nil:
		return results, false, nil
	case ended && (refused || pgconn.SafeToRetry(err) || errors.Is(err, driver.ErrBadConn)):
		// Ended before the statements ran, or by a refusal that undid them.
		l.release(true)
		return nil, true, nil
	case refused && batch.Len() == 1 && !retryable(err):
		// A write alone: PostgreSQL's refusal is its answer.
		for i := range scans {
			if scans[i] != nil {
				results[i].err = err
			}
		}
		return results, false, nil
	case refused:
		return nil, true, nil
	}
	l.release(true)
	return results, false, err
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
