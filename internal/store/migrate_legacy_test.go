package store_test

import (
	"context"
	"testing"
	"time"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// legacyMigrate is the earlier runner: it applied the first n files and
// recorded their names in schema_migrations.
func legacyMigrate(t *testing.T, db *store.DB, n int) []store.Migration {
	t.Helper()
	ctx := context.Background()
	list, err := store.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, `CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMP NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for _, m := range list[:n] {
		stmts, err := store.MigrationStatements(m.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, stmt := range stmts {
			if _, err := db.Exec(ctx, stmt); err != nil {
				t.Fatalf("%s: %v", m.Name, err)
			}
		}
		if _, err := db.Exec(ctx, `INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)`, m.Name, time.Now().UTC()); err != nil {
			t.Fatal(err)
		}
	}
	return list
}

// A database migrated by the earlier runner upgrades in place: the
// migrations it recorded are not run again (they would fail: CREATE TABLE of
// an existing table), the newer ones are, and its rows stay.
func TestMigrateUpgradesADatabaseOfTheEarlierRunner(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			ctx := context.Background()
			db, _, _ := openEmpty(t, engine)
			list := legacyMigrate(t, db, 2)
			// A row written in the old schema (CreateUser writes today's columns).
			u := &store.User{ID: store.NewID(), Email: "old@example.com"}
			if _, err := db.Exec(ctx, `INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES (?, ?, 'hash', ?, ?)`,
				u.ID, u.Email, store.Now(), store.Now()); err != nil {
				t.Fatal(err)
			}
			applied, err := db.Migrate(ctx)
			if err != nil {
				t.Fatalf("upgrade from schema_migrations: %v", err)
			}
			if len(applied) != len(list) {
				t.Fatalf("recorded %v, want all %d migrations recorded once", applied, len(list))
			}
			for _, table := range []string{"contact_messages", "media_objects"} { // from 0003 and 0004
				var n int
				if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
					t.Fatalf("%s after upgrade: %v", table, err)
				}
			}
			if got, err := db.UserByEmail(ctx, "old@example.com"); err != nil || got.ID != u.ID {
				t.Fatalf("row after upgrade: %+v, %v", got, err)
			}
			status, err := db.MigrationStatus(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(status) != len(list) {
				t.Fatalf("status lists %d migrations, want %d", len(status), len(list))
			}
			for _, s := range status {
				if !s.Applied {
					t.Fatalf("%s not applied after upgrade", s.Name)
				}
			}
			if again, err := db.Migrate(ctx); err != nil || len(again) != 0 {
				t.Fatalf("another Migrate = %v, %v", again, err)
			}
		})
	}
}
