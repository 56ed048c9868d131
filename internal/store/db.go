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
	sql      *sql.DB // SQLite: the readers; PostgreSQL: the reads' pool
	dialect  Dialect
	writer   *Writer     // every write goes through it
	url      string      // PostgreSQL: the DATABASE_URL, for the change listener
	feedOnce sync.Once   // makes changes
	changes  *changeFeed // change events for realtime (changes.go)
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
	db.writer = newWriter(db, writeDB, 1)
	if err := db.Ping(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	return db, nil
}

// sqliteDSN is the data source name that opens the SQLite file at path with
// PocketBase's settings, but synchronous=FULL: a commit returns only once
// it is on the disk, so an acknowledged write survives a power cut, not
// only a crash. A reader (not immediate) keeps 8 MB of pages, not 32 like
// the writer: SQLite's caches are outside the Go memory limit (decision
// 0256). busy_timeout comes first, so that a connection waits for
// another one setting WAL mode. SQLite copies the WAL back into the
// database file itself once it holds 1,000 pages (its autocheckpoint, on
// the connection that commits). The path is escaped: it is a file: URI, in
// which '?' and '#' (in a folder's name, say) would end the path. The
// writer's transactions take the write lock when they begin
// (BEGIN IMMEDIATE), never halfway through. A time is written as the
// microseconds since 1970 in UTC (8 bytes, not 36 characters of text;
// migration 0037) and read back as a time.Time from any column declared
// TIMESTAMP.
func sqliteDSN(path string, immediate bool) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("open sqlite %s: %w", path, err)
	}
	cache := "cache_size(-8000)" // a reader: 8 MB of pages
	if immediate {
		cache = "cache_size(-32000)" // the writer: 32 MB
	}
	q := url.Values{"_pragma": {"busy_timeout(10000)", "journal_mode(WAL)", "journal_size_limit(200000000)",
		"synchronous(FULL)", "foreign_keys(ON)", "temp_store(MEMORY)", cache}}
	if immediate {
		q.Set("_txlock", "immediate")
	}
	q.Set("_time_integer_format", "unix_micro")
	q.Set("_inttotime", "1")
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
// PostgreSQL's writes go through postgresWriters connections of the Writer:
// two lanes overlap one group's round trips with another's, and each group
// grows with the load (four lanes made groups smaller and sign-ups 6-10 %
// slower on two cores, decision 0250).
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
	// every group instead of one per request.
	writeDB, err := sql.Open("pgx", url)
	if err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	writeDB.SetMaxOpenConns(postgresWriters)
	writeDB.SetMaxIdleConns(postgresWriters)
	writeDB.SetConnMaxIdleTime(5 * time.Minute)
	writeDB.SetConnMaxLifetime(time.Hour)
	db := &DB{sql: sqlDB, dialect: Postgres, url: url}
	db.writer = newWriter(db, writeDB, postgresWriters)
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
	db.feed().closeOnce()
	return errors.Join(db.writer.close(), db.sql.Close())
}

// rebind rewrites '?' placeholders to '$1', '$2'... for PostgreSQL. It
// copies the text between placeholders whole ('?' is one byte in UTF-8
// and no byte of another character).
func (db *DB) rebind(query string) string {
	if db.dialect != Postgres || !strings.Contains(query, "?") {
		return query
	}
	b := make([]byte, 0, len(query)+len(query)/8)
	n := 0
	for {
		i := strings.IndexByte(query, '?')
		if i < 0 {
			return string(append(b, query...))
		}
		n++
		b = append(append(append(b, query[:i]...), '$'), strconv.Itoa(n)...)
		query = query[i+1:]
	}
}

// Exec runs a statement written with '?' placeholders, as a write of its
// own (see InTx).
func (db *DB) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	var res sql.Result
	err := db.InTx(ctx, func(tx *Tx) error {
		var err error
		res, err = tx.Exec(ctx, query, args...)
		return err
	})
	return res, err
}

// Query runs a query written with '?' placeholders.
func (db *DB) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return db.sql.QueryContext(ctx, db.rebind(query), args...)
}

// QueryRow runs a one-row query written with '?' placeholders.
func (db *DB) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return db.sql.QueryRowContext(ctx, db.rebind(query), args...)
}

// Tx is one write's part of the Writer's transaction, with the same '?'
// placeholder helpers as DB. Its statements run without the cancellation
// of the context they are given (see Writer).
type Tx struct {
	tx          querier // the Writer's connection, a transaction open on it
	db          *DB
	lane        *lane // the Writer's goroutine running this transaction
	afterCommit []func()
}

// querier runs statements: what *sql.Conn and *sql.Tx have in common.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Lane is the number of the Writer's connection running the transaction
// (0 on SQLite): counters keep a row per lane, so that the connections
// PostgreSQL writes on at once never wait on each other's counter rows.
func (t *Tx) Lane() int { return t.lane.n }

// Dialect reports which engine the transaction runs on.
func (t *Tx) Dialect() Dialect { return t.db.dialect }

// Exec runs a statement inside the transaction.
func (t *Tx) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := t.lane.stmt(query); st != nil {
		return st.ExecContext(context.WithoutCancel(ctx), args...)
	}
	return t.tx.ExecContext(context.WithoutCancel(ctx), t.db.rebind(query), args...)
}

// Query runs a query inside the transaction.
func (t *Tx) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := t.lane.stmt(query); st != nil {
		return st.QueryContext(context.WithoutCancel(ctx), args...)
	}
	return t.tx.QueryContext(context.WithoutCancel(ctx), t.db.rebind(query), args...)
}

// QueryRow runs a one-row query inside the transaction.
func (t *Tx) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	if st := t.lane.stmt(query); st != nil {
		return st.QueryRowContext(context.WithoutCancel(ctx), args...)
	}
	return t.tx.QueryRowContext(context.WithoutCancel(ctx), t.db.rebind(query), args...)
}

// AfterCommit runs fn once the transaction's writes are durably committed
// (never when they are undone), e.g. to wake the e-mail sender.
func (t *Tx) AfterCommit(fn func()) { t.afterCommit = append(t.afterCommit, fn) }

// importRows inserts n rows into into (a table and its columns), row(i)
// giving the width values of the i-th, up to 500 rows to a statement.
func (t *Tx) importRows(ctx context.Context, into string, width, n int, row func(i int) []any) error {
	const batch = 500
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", width), ", ") + ")"
	for start := 0; start < n; start += batch {
		end := min(start+batch, n)
		args := make([]any, 0, (end-start)*width)
		for i := start; i < end; i++ {
			args = append(args, row(i)...)
		}
		values := strings.TrimSuffix(strings.Repeat(one+",", end-start), ",")
		if _, err := t.Exec(ctx, `INSERT INTO `+into+` VALUES `+values, args...); err != nil {
			return err
		}
	}
	return nil
}

// InTx runs fn as one write of the Writer: inside a savepoint of the
// Writer's next transaction, kept when fn returns nil and undone alone
// otherwise. It returns once the write is committed (on disk) or undone;
// a panic in fn is raised again here. fn must make its writes through tx,
// never through db.Exec or db.InTx (which would wait for the Writer that
// runs fn). fn may run more than once (when PostgreSQL undoes its group
// for a deadlock): only what it does through tx and AfterCommit counts.
func (db *DB) InTx(ctx context.Context, fn func(*Tx) error) error {
	return db.writer.do(newWrite(ctx, fn))
}

// inStatement is InTx for a write of one statement (st builds it on the Tx
// that runs it). On PostgreSQL the Writer sends a group made only of such
// writes in one round trip (lane.pipeline).
func (db *DB) inStatement(ctx context.Context, st statement) error {
	return db.writer.do(statementWrite(ctx, st))
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

// CountRows is how many rows table holds in an open database/sql database
// of either engine, Salaula's or another's (the benchmark checks what a
// run stored, in Salaula's and PocketBase's files). table is a trusted name.
func CountRows(ctx context.Context, db *sql.DB, table string) (int64, error) {
	var n int64
	err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+table).Scan(&n)
	return n, err
}

// Size is how many bytes the database takes: SQLite's pages in use (free
// pages left out), PostgreSQL's database on disk.
func (db *DB) Size(ctx context.Context) (int64, error) {
	var n int64
	q := `SELECT (SELECT page_count FROM pragma_page_count()) - (SELECT freelist_count FROM pragma_freelist_count()),
		(SELECT page_size FROM pragma_page_size())`
	if db.dialect == Postgres {
		err := db.QueryRow(ctx, `SELECT pg_database_size(current_database())`).Scan(&n)
		return n, err
	}
	var size int64
	err := db.QueryRow(ctx, q).Scan(&n, &size)
	return n * size, err
}

// TableBytes returns the bytes that table and its indexes take: the pages
// SQLite gives them (dbstat), or PostgreSQL's pg_total_relation_size.
func (db *DB) TableBytes(ctx context.Context, table string) (int64, error) {
	q := `SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name IN (SELECT name FROM sqlite_schema WHERE tbl_name = ?)`
	if db.dialect == Postgres {
		q = `SELECT pg_total_relation_size(CAST(? AS regclass))`
	}
	var n int64
	err := db.QueryRow(ctx, q, table).Scan(&n)
	return n, err
}
