// Package storetest gives tests a fresh, migrated database on each engine:
// SQLite in a temporary folder, and PostgreSQL in a new database created on
// the server at SALAULA_TEST_POSTGRES (default postgres://postgres@127.0.0.1:5432/postgres)
// and dropped afterwards. A PostgreSQL that cannot be reached fails the test
// loudly; PostgreSQL tests are skipped only under `go test -short`.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
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
// for PostgreSQL dropped) when the test ends.
func Open(t testing.TB, engine store.Dialect) *store.DB {
	t.Helper()
	ctx := context.Background()
	var dbURL, dataDir string
	if engine == store.Postgres {
		dbURL = NewPostgresDatabase(t)
	} else {
		dataDir = t.TempDir()
	}
	db, err := store.Open(ctx, dbURL, dataDir)
	if err != nil {
		t.Fatalf("open %s: %v", engine, err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatalf("migrate %s: %v", engine, err)
	}
	return db
}

// NewPostgresDatabase creates an empty database with a random name and
// returns its URL; it is dropped when the test ends. Under `go test -short`
// it skips the test instead.
func NewPostgresDatabase(t testing.TB) string {
	t.Helper()
	testproc.SkipShort(t, "PostgreSQL")
	adminURL := os.Getenv("SALAULA_TEST_POSTGRES")
	if adminURL == "" {
		adminURL = DefaultAdminURL
	}
	admin, err := sql.Open("pgx", adminURL)
	if err != nil {
		t.Fatalf("PostgreSQL for tests (%s): %v", adminURL, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := admin.PingContext(ctx); err != nil {
		admin.Close()
		t.Fatalf("PostgreSQL for tests is not reachable at %s (set SALAULA_TEST_POSTGRES): %v", adminURL, err)
	}
	raw := make([]byte, 6)
	rand.Read(raw)
	name := "salaula_test_" + hex.EncodeToString(raw)
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		admin.Close()
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		admin.Close()
	})
	u, err := url.Parse(adminURL)
	if err != nil {
		t.Fatalf("SALAULA_TEST_POSTGRES: %v", err)
	}
	u.Path = "/" + name
	return u.String()
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
