package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"sort"
	"strconv"
	"strings"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationLockID is the PostgreSQL advisory lock held while migrating, so
// instances started at the same moment migrate one after the other.
const migrationLockID = 0x5a1a01a // "salaula"

// Migration is one embedded migration file and the goose version it is
// recorded under.
type Migration struct {
	Name    string // file name, e.g. 0002_auth.sql
	Version int64  // NNNN*100 + its place among files sharing NNNN (0002_auth.sql: 200)
}

// Migrations lists the embedded migrations in the order they are applied
// (file-name order).
func Migrations() ([]Migration, error) {
	paths, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var out []Migration
	seen := map[int64]int{}
	for _, p := range paths {
		name := strings.TrimPrefix(p, "migrations/")
		prefix, _, ok := strings.Cut(name, "_")
		n, err := strconv.ParseInt(prefix, 10, 64)
		if !ok || err != nil || n <= 0 {
			return nil, fmt.Errorf("migration %s: the name must start with a number and '_'", name)
		}
		out = append(out, Migration{Name: name, Version: n*100 + int64(seen[n])})
		seen[n]++
	}
	return out, nil
}

// Migrate applies, in file-name order, every embedded migration not yet
// applied, each in its own transaction, with pressly/goose (versions kept in
// goose_db_version). On PostgreSQL it holds an advisory lock meanwhile, so
// several instances starting at once do not collide. A database migrated by
// the earlier runner (table schema_migrations) is upgraded in place: the
// migrations it recorded are marked applied without running again. It
// returns the names of the migrations it applied.
func (db *DB) Migrate(ctx context.Context) ([]string, error) {
	p, names, err := db.migrationProvider(ctx)
	if err != nil {
		return nil, err
	}
	results, err := p.Up(ctx)
	var applied []string
	for _, r := range results {
		if r.Error == nil {
			applied = append(applied, names[r.Source.Version])
		}
	}
	if err != nil && strings.Contains(err.Error(), "SQLSTATE 42501") {
		return applied, fmt.Errorf("migrate: %w: the database user may not create tables in the database's public schema "+
			"(PostgreSQL 15 and later give it to the database's owner only): create the database with `createdb -O USER NAME`, "+
			"or run `ALTER DATABASE NAME OWNER TO USER` as postgres", err)
	}
	if err != nil {
		return applied, fmt.Errorf("migrate: %w", err)
	}
	return applied, nil
}

// MigrationState is one embedded migration and whether it is applied.
type MigrationState struct {
	Migration
	Applied bool
}

// MigrationStatus lists every embedded migration and whether the database
// has it, for `salaula migrate --status`.
func (db *DB) MigrationStatus(ctx context.Context) ([]MigrationState, error) {
	p, names, err := db.migrationProvider(ctx)
	if err != nil {
		return nil, err
	}
	st, err := p.Status(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]MigrationState, 0, len(st))
	for _, s := range st {
		out = append(out, MigrationState{
			Migration: Migration{Name: names[s.Source.Version], Version: s.Source.Version},
			Applied:   s.State == goose.StateApplied,
		})
	}
	return out, nil
}

// migrationProvider builds the goose provider over the embedded files, each
// registered as a Go migration that runs the file's statements in a
// transaction (the files keep their plain SQL, without goose annotations).
func (db *DB) migrationProvider(ctx context.Context) (*goose.Provider, map[int64]string, error) {
	list, err := Migrations()
	if err != nil {
		return nil, nil, err
	}
	legacy, err := db.legacyMigrations(ctx)
	if err != nil {
		return nil, nil, err
	}
	names := map[int64]string{}
	var gos []*goose.Migration
	for _, m := range list {
		body, err := migrationFiles.ReadFile("migrations/" + m.Name)
		if err != nil {
			return nil, nil, err
		}
		stmts := splitStatements(forDialect(string(body), db.dialect))
		name := m.Name
		names[m.Version] = name
		up := &goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error {
			if legacy[name] {
				return nil // applied by the earlier runner
			}
			for _, stmt := range stmts {
				if _, err := tx.ExecContext(ctx, stmt); err != nil {
					return fmt.Errorf("migration %s: %w in: %s", name, err, stmt)
				}
			}
			if step := migrationSteps[name]; step != nil && db.dialect == SQLite {
				if err := step(ctx, tx); err != nil {
					return fmt.Errorf("migration %s: %w", name, err)
				}
			}
			return nil
		}}
		gos = append(gos, goose.NewGoMigration(m.Version, up, nil))
	}
	opts := []goose.ProviderOption{
		goose.WithDisableGlobalRegistry(true),
		goose.WithGoMigrations(gos...),
		goose.WithAllowOutofOrder(true), // files merged from parallel branches may land below the newest
		goose.WithSlog(slog.New(slog.NewTextHandler(io.Discard, nil))),
	}
	dialect := goose.DialectSQLite3
	if db.dialect == Postgres {
		dialect = goose.DialectPostgres
		locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(migrationLockID), lock.WithLockTimeout(1, 300))
		if err != nil {
			return nil, nil, err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(dialect, db.sql, nil, opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("migrations: %w", err)
	}
	return p, names, nil
}

// migrationSteps are the SQLite migrations that SQL alone cannot write,
// run after the file's statements, in its transaction.
var migrationSteps = map[string]func(context.Context, *sql.Tx) error{
	"0037_sqlite_times_as_integers.sql": timesAsIntegers,
}

// timesAsIntegers rewrites every time stored as text in a TIMESTAMP column
// of SQLite (Go's time.Time.String, as the driver used to write it) into
// the microseconds since 1970 in UTC, as the driver writes times now.
func timesAsIntegers(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT t.name, c.name FROM sqlite_master t, pragma_table_info(t.name) c
		WHERE t.type = 'table' AND (c.type LIKE '%TIMESTAMP%' OR c.type LIKE '%DATE%') ORDER BY t.name, c.cid`)
	if err != nil {
		return err
	}
	var columns [][2]string
	for rows.Next() {
		var table, col string
		if err := rows.Scan(&table, &col); err != nil {
			rows.Close()
			return err
		}
		if !bookkeeping(table) {
			columns = append(columns, [2]string{table, col})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, c := range columns {
		table, col := quoteIdent(c[0]), quoteIdent(c[1])
		key, err := rowKey(ctx, tx, c[0])
		if err != nil {
			return fmt.Errorf("%s: %w", c[0], err)
		}
		var texts []storedTime
		rows, err := tx.QueryContext(ctx, `SELECT `+key+`, CAST(`+col+` AS TEXT) FROM `+table+` WHERE typeof(`+col+`) = 'text'`)
		if err != nil {
			return fmt.Errorf("%s.%s: %w", c[0], c[1], err)
		}
		for rows.Next() {
			var s storedTime
			if err := rows.Scan(&s.key, &s.text); err != nil {
				rows.Close()
				return err
			}
			texts = append(texts, s)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if err := setMicros(ctx, tx, table, col, key, texts); err != nil {
			return fmt.Errorf("%s.%s: %w", c[0], c[1], err)
		}
	}
	return nil
}

// rowKey is the column that names a row of table: its rowid, or for a
// table without one (the outbox since migration 0039) its primary key.
func rowKey(ctx context.Context, tx *sql.Tx, table string) (string, error) {
	var key string
	err := tx.QueryRowContext(ctx, `SELECT CASE WHEN t.sql LIKE '%WITHOUT ROWID%' THEN c.name ELSE 'rowid' END
		FROM sqlite_master t, pragma_table_info(t.name) c WHERE t.name = ? AND t.type = 'table' ORDER BY c.pk DESC LIMIT 1`, table).Scan(&key)
	return quoteIdent(key), err
}

// storedTime is a time SQLite holds as text, and its row's key.
type storedTime struct {
	key  any
	text string
}

// setMicros writes each of times back into its row's col of table (the
// row named by key) as microseconds since 1970.
func setMicros(ctx context.Context, tx *sql.Tx, table, col, key string, times []storedTime) error {
	if len(times) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, `UPDATE `+table+` SET `+col+` = ? WHERE `+key+` = ?`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, s := range times {
		t, err := parseTime(s.text)
		if err != nil {
			return fmt.Errorf("row %v: %w", s.key, err)
		}
		if _, err := stmt.ExecContext(ctx, t.UnixMicro(), s.key); err != nil {
			return err
		}
	}
	return nil
}

// legacyMigrations returns the names the earlier runner recorded in
// schema_migrations, or none when that table does not exist.
func (db *DB) legacyMigrations(ctx context.Context) (map[string]bool, error) {
	var n int
	q := `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`
	if db.dialect == Postgres {
		q = `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'schema_migrations'`
	}
	if err := db.QueryRow(ctx, q).Scan(&n); err != nil {
		return nil, fmt.Errorf("look for schema_migrations: %w", err)
	}
	out := map[string]bool{}
	if n == 0 {
		return out, nil
	}
	rows, err := db.Query(ctx, `SELECT name FROM schema_migrations`)
	if err != nil {
		return nil, fmt.Errorf("read schema_migrations: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		out[name] = true
	}
	return out, rows.Err()
}

// forDialect keeps the lines of a migration that the engine d runs: a line
// "-- on sqlite" or "-- on postgres" starts statements for that engine
// only (an index type, an extension, a virtual table the other lacks),
// "-- on both" ends them. A file without such lines runs on both.
func forDialect(body string, d Dialect) string {
	var out strings.Builder
	keep := true
	for _, line := range strings.Split(body, "\n") {
		switch strings.TrimSpace(line) {
		case "-- on sqlite":
			keep = d == SQLite
			continue
		case "-- on postgres":
			keep = d == Postgres
			continue
		case "-- on both":
			keep = true
			continue
		}
		if keep {
			out.WriteString(line)
			out.WriteByte('\n')
		}
	}
	return out.String()
}

// splitStatements splits a migration on semicolons that end a line, dropping
// '--' comment lines. Migrations keep to SQL both engines accept.
func splitStatements(body string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(body, "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "--") {
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
		if strings.HasSuffix(trimmed, ";") {
			out = append(out, strings.TrimSuffix(strings.TrimSpace(cur.String()), ";"))
			cur.Reset()
		}
	}
	if s := strings.TrimSpace(cur.String()); s != "" {
		out = append(out, s)
	}
	return out
}
