package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// Relay carries a realtime hub's message to every instance on a
// PostgreSQL database as a change of store.TableRealtime, and refuses one
// too large for a NOTIFY.
func TestRelayReachesEveryInstanceOnPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("needs PostgreSQL: run without -short")
	}
	ctx := context.Background()
	url := storetest.MigratedPostgresDatabase(t)
	open := func() *store.DB {
		db, err := store.Open(ctx, url, "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	a, b := open(), open()
	if _, err := a.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	atB := follow(t, b)
	msg := `{"o":"a","k":"b","t":"realtime:room","e":"wave","p":"eyJuIjoxfQ==","j":true}`
	if err := a.Relay(ctx, msg); err != nil {
		t.Fatal(err)
	}
	got := atB.wait(t, "the relayed message at B", func(c store.Change) bool { return c.Table == store.TableRealtime })
	if got.Record["m"] != msg || got.Type != "MESSAGE" {
		t.Fatalf("B received %+v", got)
	}
	if err := a.Relay(ctx, strings.Repeat("x", store.MaxRelayBytes+1)); !errors.Is(err, store.ErrRelayTooLarge) {
		t.Fatalf("a message too large: %v", err)
	}
}

// On SQLite one process holds the database: Relay has no one to tell.
func TestRelayOnSQLiteIsANoOp(t *testing.T) {
	db := storetest.Open(t, store.SQLite)
	if err := db.Relay(context.Background(), "anything"); err != nil {
		t.Fatal(err)
	}
}
