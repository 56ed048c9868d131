package store

import (
	"context"
	"time"
)

// MigrationStatements returns the statements of one embedded migration file,
// so tests can replay what the earlier migration runner did.
func MigrationStatements(name string) ([]string, error) {
	body, err := migrationFiles.ReadFile("migrations/" + name)
	if err != nil {
		return nil, err
	}
	return splitStatements(string(body)), nil
}

// MigrateUpTo applies the embedded migrations up to and including version
// (Migration.Version), so tests can put data in an older schema and then
// migrate it.
func (db *DB) MigrateUpTo(ctx context.Context, version int64) error {
	p, _, err := db.migrationProvider(ctx)
	if err != nil {
		return err
	}
	_, err = p.UpTo(ctx, version)
	return err
}

// SetWriterConnLifetime makes the writer's lanes keep a connection for at
// most d (PostgreSQL's is an hour), so tests need not wait that long.
func (db *DB) SetWriterConnLifetime(d time.Duration) {
	db.writer.maxHold = d
	for _, l := range db.writer.lanes {
		l.pool.SetConnMaxLifetime(d)
	}
}
