package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migrate applies, in file-name order, every embedded migration not yet
// applied, each in its own transaction, and records it in schema_migrations.
// It returns the names of the migrations it applied.
func (db *DB) Migrate(ctx context.Context) ([]string, error) {
	if _, err := db.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		name TEXT PRIMARY KEY,
		applied_at TIMESTAMP NOT NULL)`); err != nil {
		return nil, fmt.Errorf("create schema_migrations: %w", err)
	}
	names, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var applied []string
	for _, path := range names {
		name := strings.TrimPrefix(path, "migrations/")
		var seen int
		if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE name = ?`, name).Scan(&seen); err != nil {
			return applied, fmt.Errorf("read schema_migrations: %w", err)
		}
		if seen > 0 {
			continue
		}
		body, err := migrationFiles.ReadFile(path)
		if err != nil {
			return applied, err
		}
		err = db.InTx(ctx, func(tx *Tx) error {
			for _, stmt := range splitStatements(string(body)) {
				if _, err := tx.Exec(ctx, stmt); err != nil {
					return fmt.Errorf("%w in: %s", err, stmt)
				}
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)`, name, time.Now().UTC())
			return err
		})
		if err != nil {
			return applied, fmt.Errorf("migration %s: %w", name, err)
		}
		applied = append(applied, name)
	}
	return applied, nil
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
