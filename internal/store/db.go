// Package store keeps Salaula's data in SQLite (the default, a file under the
// data folder) or PostgreSQL (when DATABASE_URL is set). Both engines are used
// through database/sql with the same SQL: queries are written with '?'
// placeholders and rewritten to '$n' for PostgreSQL, and the schema comes from
// one set of embedded migrations that both engines accept.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver
)

// Dialect names the SQL engine behind a DB.
type Dialect string

// The engines Salaula runs on.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// ErrNotFound is returned when a looked-up row does not exist.
var ErrNotFound = errors.New("not found")

// DB is an open database with its dialect.
type DB struct {
	sql      *sql.DB
	dialect  Dialect
	writer   *groupWriter // SQLite only: every write goes through it
	url      string       // PostgreSQL: the DATABASE_URL, for the change listener
	feedOnce sync.Once    // makes changes
	changes  *changeFeed  // change events for realtime (changes.go)
}

// Open connects to PostgreSQL when databaseURL is set, else opens (creating
// if needed) the SQLite file salaula.db in dataDir. It does not migrate.
func Open(ctx context.Context, databaseURL, dataDir string) (*DB, error) {
	if databaseURL != "" {
		return openPostgres(ctx, databaseURL)
	}
	return openSQLite(ctx, dataDir)
}

func openSQLite(ctx context.Context, dataDir string) (*DB, error) {
	if err := os.MkdirAll(dataDir, 0o750); err != nil {
		return nil, fmt.Errorf("create data folder: %w", err)
	}
	path := filepath.Join(dataDir, "salaula.db")
	if err := createPrivate(path); err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	// Two pools on the one file, as PocketBase opens its database: readers
	// share a pool (WAL lets them read while a write is under way), and
	// every write of this process goes through one connection (the writer).
	readDSN, err := sqliteDSN(path, false)
	if err != nil {
		return nil, err
	}
	writeDSN, _ := sqliteDSN(path, true)
	sqlDB, err := sql.Open("sqlite", readDSN)
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	sqlDB.SetMaxOpenConns(sqliteReaders)
	sqlDB.SetMaxIdleConns(sqliteReaders)
	sqlDB.SetConnMaxIdleTime(3 * time.Minute)
	writeDB, err := sql.Open("sqlite", writeDSN)
	if err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	writeDB.SetMaxOpenConns(1)
	writeDB.SetMaxIdleConns(1)
	writeDB.SetConnMaxIdleTime(3 * time.Minute)
	db := &DB{sql: sqlDB, dialect: SQLite}
	db.writer = newGroupWriter(db, writeDB)
	if err := db.Ping(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	return db, nil
}

// sqliteDSN is the data source name that opens the SQLite file at path with
// PocketBase's settings, but synchronous=FULL: a commit returns only once
// it is on the disk, so an acknowledged write survives a power cut, not
// only a crash. busy_timeout comes first, so that a connection waits for
// another one setting WAL mode. SQLite copies the WAL back into the
// database file itself once it holds 1,000 pages (its autocheckpoint, on
// the connection that commits). The path is escaped: it is a file: URI, in
// which '?' and '#' (in a folder's name, say) would end the path. The
// writer's transactions take the write lock when they begin
// (BEGIN IMMEDIATE), never halfway through.
func sqliteDSN(path string, immediate bool) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("open sqlite %s: %w", path, err)
	}
	q := url.Values{"_pragma": {"busy_timeout(10000)", "journal_mode(WAL)", "journal_size_limit(200000000)",
		"synchronous(FULL)", "foreign_keys(ON)", "temp_store(MEMORY)", "cache_size(-32000)"}}
	if immediate {
		q.Set("_txlock", "immediate")
	}
	return "file:" + (&url.URL{Path: filepath.ToSlash(abs)}).EscapedPath() + "?" + q.Encode(), nil
}

// createPrivate creates the database file readable and writable by its
// owner only (0600, whatever the umask), when it does not exist yet, so
// that SQLite opens it instead of creating it 0644: it holds password
// hashes and sessions. SQLite gives the -wal and -shm files it creates the
// database file's mode. An existing file keeps the mode it has.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Pool sizes. SQLite: readers beside the one writer connection (a read
// runs in this process, on a CPU: a few connections a core are plenty).
// PostgreSQL: every connection stays open while idle, so a burst reuses
// sessions instead of opening and closing hundreds of them.
// PostgreSQL's writes go through postgresWriters connections (lanes of the
// group-commit writer).
const (
	sqliteReaders   = 4
	postgresConns   = 16
	postgresWriters = 2
)

func openPostgres(ctx context.Context, url string) (*DB, error) {
	sqlDB, err := sql.Open("pgx", url)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	sqlDB.SetMaxOpenConns(postgresConns)
	sqlDB.SetMaxIdleConns(postgresConns)
	sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	sqlDB.SetConnMaxLifetime(time.Hour)
	// Writes share commits here too: one flush of PostgreSQL's WAL for
	// every group instead of one per request, on a few lanes at once so
	// that one group's round trips and flush overlap with the next's.
	var lanes []*sql.DB
	for range postgresWriters {
		writeDB, err := sql.Open("pgx", url)
		if err != nil {
			sqlDB.Close()
			for _, l := range lanes {
				l.Close()
			}
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		writeDB.SetMaxOpenConns(1)
		writeDB.SetMaxIdleConns(1)
		writeDB.SetConnMaxIdleTime(0)
		writeDB.SetConnMaxLifetime(time.Hour)
		lanes = append(lanes, writeDB)
	}
	db := &DB{sql: sqlDB, dialect: Postgres, url: url}
	db.writer = newGroupWriter(db, lanes...)
	db.writer.maxHold = time.Hour // the lanes' ConnMaxLifetime
	if err := db.Ping(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to postgres: %w", err)
	}
	return db, nil
}

// Dialect reports which engine the DB runs on.
func (db *DB) Dialect() Dialect { return db.dialect }

// Ping checks that the database answers within ctx.
func (db *DB) Ping(ctx context.Context) error {
	var one int
	return db.sql.QueryRowContext(ctx, "SELECT 1").Scan(&one)
}

// Close waits for the writes under way, then closes the database.
func (db *DB) Close() error {
	var err error
	db.feed().closeOnce()
	if db.writer != nil {
		err = db.writer.close()
	}
	return errors.Join(err, db.sql.Close())
}

// rebind rewrites '?' placeholders to '$1', '$2'... for PostgreSQL.
func (db *DB) rebind(query string) string {
	if db.dialect != Postgres || !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Exec runs a statement written with '?' placeholders. On SQLite it is
// committed by the group-commit writer together with the other writes
// waiting at that moment.
func (db *DB) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if db.writer != nil {
		var res sql.Result
		err := db.writer.do(ctx, func(tx *Tx) error {
			var err error
			res, err = tx.Exec(ctx, query, args...)
			return err
		}, nil)
		return res, err
	}
	return db.sql.ExecContext(ctx, db.rebind(query), args...)
}

// Query runs a query written with '?' placeholders.
func (db *DB) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return db.sql.QueryContext(ctx, db.rebind(query), args...)
}

// QueryRow runs a one-row query written with '?' placeholders.
func (db *DB) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return db.sql.QueryRowContext(ctx, db.rebind(query), args...)
}

// Tx is a transaction with the same '?' placeholder helpers as DB.
type Tx struct {
	// tx runs the statements: a *sql.Tx, or the writer lane's connection
	// with a transaction open on it (see writerLane.begin).
	tx querier
	db *DB
	// ctx, when set, replaces the context callers pass: in a group commit
	// one caller's cancelled request must not abort the others' writes.
	ctx         context.Context
	afterCommit []func()
	// w, when set, is the writer lane running this transaction: on SQLite
	// its statements are prepared once and reused (no SQL parsing per write).
	w *writerLane
	// group, when set, is the pending work of the group commit this
	// transaction is part of; own is this transaction's, added to the
	// group's once its savepoint is released; flushed is the group's work
	// written inside this transaction's savepoint, given back to the group
	// when the savepoint is undone (see pending).
	group        *pending
	own, flushed pending
	// broken is the error of writing pending work, which fails the
	// transaction whatever fn returns.
	broken error
	// combined is set while a write's follow-up runs after its row went in
	// with the group's multi-row INSERT (see combineRows): it
	// has no savepoint of its own, so it may only leave work for the end
	// of the group (e-mails, roll-ups, InsertLater rows); any statement is
	// refused (errCombined) and the group is run again write by write.
	combined bool
}

// querier runs statements: what *sql.Tx and *sql.Conn have in common.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// errCombined refuses a statement of a write whose row went in with the
// group's multi-row INSERT; the group is then run again write by write.
var errCombined = errors.New("store: statement in a combined write")

// refuse reports whether t may send no statement now, marking the group
// for a second run (see combined).
func (t *Tx) refuse() bool {
	if t.combined {
		t.broken = errCombined
	}
	return t.combined
}

// needsPending reports whether query reads or changes a table that the
// group's pending work writes to, so that this work must be written first.
func (t *Tx) needsPending(query string) bool {
	if touchesPending(query) {
		return true
	}
	return t.group != nil && (t.group.touchesLater(query) || t.own.touchesLater(query))
}

// writePending writes the group's pending work and this transaction's own,
// before a statement that reads or changes the tables it goes to.
func (t *Tx) writePending(ctx context.Context) error {
	if t.group == nil {
		return nil
	}
	if !t.group.empty() {
		t.flushed.add(t.group)
		if err := t.group.write(ctx, t); err != nil {
			t.broken = err
			return err
		}
	}
	if !t.own.empty() {
		if err := t.own.write(ctx, t); err != nil {
			t.broken = err
			return err
		}
	}
	return nil
}

func (t *Tx) context(ctx context.Context) context.Context {
	if t.ctx != nil {
		return t.ctx
	}
	return ctx
}

// Dialect reports which engine the transaction runs on.
func (t *Tx) Dialect() Dialect { return t.db.dialect }

// Exec runs a statement inside the transaction.
func (t *Tx) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	ctx = t.context(ctx)
	if t.refuse() {
		return nil, errCombined
	}
	if t.needsPending(query) {
		if err := t.writePending(ctx); err != nil {
			return nil, err
		}
	}
	return t.execDirect(ctx, query, args...)
}

// execDirect runs a statement without writing pending work first.
func (t *Tx) execDirect(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if t.w != nil {
		t.w.w.stats.stmts.Add(1)
		if st := t.w.stmt(query); st != nil {
			return st.ExecContext(ctx, args...)
		}
	}
	return t.tx.ExecContext(ctx, t.db.rebind(query), args...)
}

// Query runs a query inside the transaction.
func (t *Tx) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	ctx = t.context(ctx)
	if t.refuse() {
		return nil, errCombined
	}
	if t.needsPending(query) {
		if err := t.writePending(ctx); err != nil {
			return nil, err
		}
	}
	if t.w != nil {
		t.w.w.stats.stmts.Add(1)
		if st := t.w.stmt(query); st != nil {
			return st.QueryContext(ctx, args...)
		}
	}
	return t.tx.QueryContext(ctx, t.db.rebind(query), args...)
}

// QueryRow runs a one-row query inside the transaction.
func (t *Tx) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	ctx = t.context(ctx)
	if t.refuse() {
		// A Row carrying an error is made by a query that is never sent.
		done, cancel := context.WithCancel(ctx)
		cancel()
		return t.tx.QueryRowContext(done, query, args...)
	}
	if t.needsPending(query) {
		// A failure here fails the whole transaction (see broken).
		t.writePending(ctx)
	}
	if t.w != nil {
		t.w.w.stats.stmts.Add(1)
		if st := t.w.stmt(query); st != nil {
			return st.QueryRowContext(ctx, args...)
		}
	}
	return t.tx.QueryRowContext(ctx, t.db.rebind(query), args...)
}

// AfterCommit runs fn once the transaction's writes are durably committed
// (never when they are rolled back), e.g. to wake the e-mail sender.
func (t *Tx) AfterCommit(fn func()) { t.afterCommit = append(t.afterCommit, fn) }

// InTx runs fn in a transaction, committing when fn returns nil and rolling
// back otherwise. On SQLite the transaction is part of a group commit: fn
// runs inside a savepoint of the writer's transaction, so its writes are
// kept or undone alone, and InTx returns once they are on disk. fn must do
// its writes through tx (never db.Exec or db.InTx, which would wait for the
// writer that runs fn). fn may run more than once (after PostgreSQL undoes
// its group for a deadlock, or when a combined group is run again write by
// write): only what it does through tx and AfterCommit counts.
func (db *DB) InTx(ctx context.Context, fn func(*Tx) error) error {
	if db.writer != nil {
		return db.writer.do(ctx, fn, nil)
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	t := &Tx{tx: tx, db: db}
	if err := fn(t); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	for _, f := range t.afterCommit {
		f()
	}
	return nil
}

// IsUniqueViolation reports whether err is a unique-constraint violation on
// either engine.
func IsUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "SQLSTATE 23505")
}

// Stats reports the connection pool's state.
func (db *DB) Stats() sql.DBStats { return db.sql.Stats() }

// SnapshotSQLite writes a consistent copy of the SQLite database to path
// (VACUUM INTO: one read transaction, so writers carry on meanwhile).
func (db *DB) SnapshotSQLite(ctx context.Context, path string) error {
	if db.dialect != SQLite {
		return errors.New("snapshot: only for SQLite (use pg_dump for PostgreSQL)")
	}
	_, err := db.sql.ExecContext(ctx, `VACUUM INTO ?`, path)
	return err
}
