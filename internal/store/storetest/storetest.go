// Package storetest gives tests a fresh, migrated database on each engine:
// SQLite in a temporary folder, and PostgreSQL in a new database created on
// the server at SALAULA_TEST_POSTGRES (default postgres://postgres@127.0.0.1:5432/postgres)
// and dropped afterwards. A PostgreSQL that cannot be reached fails the test
// loudly; PostgreSQL tests are skipped only under `go test -short`.
//
// Migrating takes seconds on PostgreSQL (one transaction per migration), so
// in a package whose TestMain runs Main, each engine is migrated once, into
// a template, and every database Open returns is a copy of it: a
// PostgreSQL database created from the template database, a copy of the
// SQLite file (decision 0246). Main removes the templates when the tests
// end. Without Main, Open migrates every database afresh.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"salaula/internal/store"
	"salaula/internal/testproc"
)

// DefaultAdminURL is the PostgreSQL server tests create their databases on.
const DefaultAdminURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// Engines are the engines Each runs a test on.
var Engines = []store.Dialect{store.SQLite, store.Postgres}

// Each runs fn as a subtest once per engine, each with its own fresh database.
func Each(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	for _, engine := range Engines {
		t.Run(string(engine), func(t *testing.T) {
			fn(t, Open(t, engine))
		})
	}
}

// EachBench runs fn as a sub-benchmark once per engine.
func EachBench(b *testing.B, fn func(b *testing.B, engine store.Dialect)) {
	b.Helper()
	for _, engine := range Engines {
		b.Run(string(engine), func(b *testing.B) { fn(b, engine) })
	}
}

// Open returns a fresh migrated database of the given engine, closed (and
// for PostgreSQL dropped) when the test ends: a copy of the engine's
// template when the package's TestMain runs Main, else migrated afresh.
func Open(t testing.TB, engine store.Dialect) *store.DB {
	t.Helper()
	var dbURL, dataDir string
	if engine == store.Postgres {
		dbURL = MigratedPostgresDatabase(t)
	} else {
		dataDir = migratedSQLiteFolder(t)
	}
	db, err := store.Open(context.Background(), dbURL, dataDir)
	if err != nil {
		t.Fatalf("open %s: %v", engine, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// migratedSQLiteFolder returns a new data folder holding a migrated SQLite
// database: a copy of the template when Main runs.
func migratedSQLiteFolder(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if tpl, ok := templateOf(t, store.SQLite); ok {
		if err := copyFile(tpl.ref, filepath.Join(dir, "salaula.db")); err != nil {
			t.Fatalf("copy the SQLite template: %v", err)
		}
	} else if err := migrate("", dir); err != nil {
		t.Fatalf("migrate sqlite: %v", err)
	}
	return dir
}

// migrate opens the database at dbURL or in dataDir, applies the
// migrations and closes it.
func migrate(dbURL, dataDir string) error {
	ctx := context.Background()
	db, err := store.Open(ctx, dbURL, dataDir)
	if err != nil {
		return err
	}
	_, err = db.Migrate(ctx)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return err
}

// Main runs a package's tests with a migrated template per engine, made at
// the first Open of that engine, and removes the templates afterwards. Run
// it from the package's TestMain: os.Exit(storetest.Main(m)).
func Main(m *testing.M) int {
	templates.mu.Lock()
	templates.on = true
	templates.mu.Unlock()
	code := m.Run()
	templates.mu.Lock()
	defer templates.mu.Unlock()
	for _, tpl := range templates.made {
		if err := tpl.close(); err != nil {
			fmt.Fprintf(os.Stderr, "storetest: remove the %s template: %v\n", tpl.engine, err)
			if code == 0 {
				code = 1
			}
		}
	}
	return code
}

// template is one engine's migrated template: a PostgreSQL database's name,
// or a SQLite file's path.
type template struct {
	engine store.Dialect
	ref    string
	err    error
	remove func() error
	// PostgreSQL: the next copies, made while tests run, as copying takes
	// a quarter of a second: spareCopies are always made or being made.
	next chan copied
}

// spareCopies is how many copies of the PostgreSQL template are made ahead.
const spareCopies = 3

// copied is a copy of the PostgreSQL template, or why it failed.
type copied struct {
	url  string
	drop func() error
	err  error
}

// take returns a copy of the PostgreSQL template and starts the next one.
func (tpl *template) take() copied {
	c := <-tpl.next
	go tpl.copy()
	return c
}

// copy makes a copy of the PostgreSQL template for the next take.
func (tpl *template) copy() {
	url, drop, err := newDatabase(randomName("salaula_test_"), tpl.ref)
	tpl.next <- copied{url, drop, err}
}

// close drops the copies nobody took and the template.
func (tpl *template) close() error {
	var err error
	for range cap(tpl.next) {
		if c := <-tpl.next; c.err == nil {
			err = errors.Join(err, c.drop())
		}
	}
	if tpl.remove != nil {
		err = errors.Join(err, tpl.remove())
	}
	return err
}

// templates are the templates made so far in this test process.
var templates struct {
	mu   sync.Mutex
	on   bool // Main runs
	made map[store.Dialect]*template
}

// templateOf returns the engine's template, making it on the first call;
// ok is false when Main does not run.
func templateOf(t testing.TB, engine store.Dialect) (tpl *template, ok bool) {
	t.Helper()
	templates.mu.Lock()
	defer templates.mu.Unlock()
	if !templates.on {
		return nil, false
	}
	tpl = templates.made[engine]
	if tpl == nil {
		tpl = &template{engine: engine}
		tpl.ref, tpl.remove, tpl.err = makeTemplate(engine)
		if tpl.err == nil && engine == store.Postgres {
			tpl.next = make(chan copied, spareCopies)
			for range spareCopies {
				go tpl.copy()
			}
		}
		if templates.made == nil {
			templates.made = map[store.Dialect]*template{}
		}
		templates.made[engine] = tpl
	}
	if tpl.err != nil {
		t.Fatalf("migrated %s template: %v", engine, tpl.err)
	}
	return tpl, true
}

// makeTemplate migrates a new database of the engine and closes it, so that
// it can be copied: a PostgreSQL database may be a template only while
// nobody is connected to it.
func makeTemplate(engine store.Dialect) (ref string, remove func() error, err error) {
	var dbURL, dataDir string
	if engine == store.Postgres {
		ref = randomName("salaula_template_")
		if dbURL, remove, err = newDatabase(ref, ""); err != nil {
			return "", nil, err
		}
	} else {
		if dataDir, err = os.MkdirTemp("", "salaula-template-"); err != nil {
			return "", nil, err
		}
		ref = filepath.Join(dataDir, "salaula.db")
		remove = func() error { return os.RemoveAll(dataDir) }
	}
	err = migrate(dbURL, dataDir)
	if err == nil && engine == store.SQLite {
		// Closed, SQLite has moved its write-ahead log into the file: the
		// file alone is the database.
		if _, serr := os.Stat(ref + "-wal"); serr == nil {
			err = fmt.Errorf("%s-wal is left after closing", ref)
		}
	}
	return ref, remove, err
}

// copyFile copies the file at from to a new file at to, readable by its owner only.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// NewPostgresDatabase creates an empty database with a random name and
// returns its URL; it is dropped when the test ends. Under `go test -short`
// it skips the test instead.
func NewPostgresDatabase(t testing.TB) string {
	t.Helper()
	testproc.SkipShort(t, "PostgreSQL")
	return createDatabase(t)
}

// MigratedPostgresDatabase is NewPostgresDatabase with the migrations
// applied: a copy of the template when the package's TestMain runs Main.
func MigratedPostgresDatabase(t testing.TB) string {
	t.Helper()
	testproc.SkipShort(t, "PostgreSQL")
	if tpl, ok := templateOf(t, store.Postgres); ok {
		c := tpl.take()
		if c.err != nil {
			t.Fatal(c.err)
		}
		t.Cleanup(func() { c.drop() })
		return c.url
	}
	url := createDatabase(t)
	if err := migrate(url, ""); err != nil {
		t.Fatalf("migrate postgres: %v", err)
	}
	return url
}

// createDatabase creates an empty database with a random name and returns
// its URL; it is dropped when the test ends.
func createDatabase(t testing.TB) string {
	t.Helper()
	url, drop, err := newDatabase(randomName("salaula_test_"), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { drop() })
	return url
}

// newDatabase creates the database name on the tests' PostgreSQL server, a
// copy of the database template when that is not empty, and returns its
// URL and the function that drops it.
func newDatabase(name, template string) (dbURL string, drop func() error, err error) {
	adminURL := os.Getenv("SALAULA_TEST_POSTGRES")
	if adminURL == "" {
		adminURL = DefaultAdminURL
	}
	u, err := url.Parse(adminURL)
	if err != nil {
		return "", nil, fmt.Errorf("SALAULA_TEST_POSTGRES: %w", err)
	}
	admin, err := sql.Open("pgx", adminURL)
	if err != nil {
		return "", nil, fmt.Errorf("PostgreSQL for tests (%s): %w", adminURL, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := admin.PingContext(ctx); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("PostgreSQL for tests is not reachable at %s (set SALAULA_TEST_POSTGRES): %w", adminURL, err)
	}
	create := "CREATE DATABASE " + name
	if template != "" {
		create += " TEMPLATE " + template
	}
	if _, err := admin.ExecContext(ctx, create); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("create test database: %w", err)
	}
	drop = func() error {
		defer admin.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		_, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		return err
	}
	u.Path = "/" + name
	return u.String(), drop, nil
}

// randomName is prefix and 12 random hexadecimal digits.
func randomName(prefix string) string {
	raw := make([]byte, 6)
	rand.Read(raw)
	return prefix + hex.EncodeToString(raw)
}

// Count runs a one-number query (SELECT COUNT(*) ...) and returns it.
func Count(t testing.TB, db *store.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
