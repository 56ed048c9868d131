package store_test

import (
	"context"
	"sync"
	"testing"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// openEmpty opens a fresh, unmigrated database of the engine.
func openEmpty(t *testing.T, engine store.Dialect) (*store.DB, string, string) {
	t.Helper()
	var url, dir string
	if engine == store.Postgres {
		url = storetest.NewPostgresDatabase(t)
	} else {
		dir = t.TempDir()
	}
	db, err := store.Open(context.Background(), url, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, url, dir
}

func TestMigrationsAreListedInFileOrder(t *testing.T) {
	list, err := store.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) < 4 || list[0].Name != "0001_accounts.sql" || list[0].Version != 100 || list[1].Name != "0002_auth.sql" || list[1].Version != 200 {
		t.Fatalf("migrations = %+v", list)
	}
	for i := 1; i < len(list); i++ {
		if list[i].Name <= list[i-1].Name || list[i].Version <= list[i-1].Version {
			t.Fatalf("out of order: %+v then %+v", list[i-1], list[i])
		}
	}
}

// Instances starting at once on one PostgreSQL migrate one after the other.
func TestConcurrentMigrationsDoNotCollide(t *testing.T) {
	ctx := context.Background()
	url := storetest.NewPostgresDatabase(t)
	const n = 4
	var wg sync.WaitGroup
	errs := make([]error, n)
	applied := make([][]string, n)
	for i := range n {
		db, err := store.Open(ctx, url, "")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			applied[i], errs[i] = db.Migrate(ctx)
		}()
	}
	wg.Wait()
	list, _ := store.Migrations()
	total := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("instance %d: %v", i, errs[i])
		}
		total += len(applied[i])
	}
	if total != len(list) {
		t.Fatalf("%d migrations applied in all, want each of %d once", total, len(list))
	}
}
