package store_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

func TestMigrateIsIdempotent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		applied, err := db.Migrate(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(applied) != 0 {
			t.Fatalf("second Migrate applied %v, want nothing", applied)
		}
	})
}

func TestUsersAndSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := &store.User{Email: "thandi@example.com", PasswordHash: "hash"}
		if err := db.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		if err := db.CreateUser(ctx, &store.User{Email: "thandi@example.com", PasswordHash: "x"}); !errors.Is(err, store.ErrEmailTaken) {
			t.Fatalf("duplicate e-mail: err = %v, want ErrEmailTaken", err)
		}
		got, err := db.UserByEmail(ctx, "thandi@example.com")
		if err != nil || got.ID != u.ID || !got.CreatedAt.Equal(u.CreatedAt) {
			t.Fatalf("UserByEmail = %+v, %v; want id %s created %v", got, err, u.ID, u.CreatedAt)
		}
		if _, err := db.UserByID(ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("UserByID(missing) err = %v", err)
		}
		s := &store.Session{UserID: u.ID}
		if err := db.CreateSession(ctx, s); err != nil {
			t.Fatal(err)
		}
		if ok, err := db.SessionActive(ctx, s.ID, u.ID); err != nil || !ok {
			t.Fatalf("SessionActive = %v, %v", ok, err)
		}
		if ok, _ := db.SessionActive(ctx, s.ID, "someone-else"); ok {
			t.Fatal("session active for another user")
		}
	})
}

func TestProfileUpsertReplacesAndKeepsCreatedAt(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := &store.User{Email: "seller@example.com", PasswordHash: "hash"}
		if err := db.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ProfileByUser(ctx, u.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("no profile yet: err = %v", err)
		}
		role, age := "seller", 31
		p := &store.Profile{UserID: u.ID, Role: &role, FullName: "Mwila Banda", Age: &age, LogoURLs: []string{"a", "b"}}
		if err := db.UpsertProfile(ctx, p); err != nil {
			t.Fatal(err)
		}
		created := p.CreatedAt
		time.Sleep(2 * time.Millisecond)
		p2 := &store.Profile{UserID: u.ID, Role: &role, FullName: "Mwila B.", ClothingAesthetics: []string{"DENIM WEAR"}}
		if err := db.UpsertProfile(ctx, p2); err != nil {
			t.Fatal(err)
		}
		got, err := db.ProfileByUser(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.FullName != "Mwila B." || got.Age != nil || len(got.LogoURLs) != 0 || got.ClothingAesthetics[0] != "DENIM WEAR" || *got.Role != "seller" {
			t.Fatalf("profile = %+v", got)
		}
		if !got.CreatedAt.Equal(created) {
			t.Fatalf("created_at changed: %v -> %v", created, got.CreatedAt)
		}
	})
}

// DeleteEmailsTo deletes every outbox e-mail to one address, in chunks when
// there are many, and no other; an address with none deletes nothing.
func TestDeleteEmailsToDeletesOnlyThatAddress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		queue := func(to string, n int) {
			if err := db.InTx(ctx, func(tx *store.Tx) error {
				for range n {
					if err := tx.EnqueueEmail(ctx, &store.OutboxEmail{To: to, Subject: "You're on the list", Body: "Hello", Kind: "waitlist"}); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
		queue("chanda@example.com", 1203)
		queue("mwila@example.com", 2)
		n, err := db.DeleteEmailsTo(ctx, "chanda@example.com")
		if err != nil || n != 1203 {
			t.Fatalf("deleted %d (%v), want 1203", n, err)
		}
		if left, err := db.EmailsTo(ctx, "chanda@example.com", 10); err != nil || len(left) != 0 {
			t.Fatalf("left for chanda: %d (%v)", len(left), err)
		}
		if kept, err := db.EmailsTo(ctx, "mwila@example.com", 10); err != nil || len(kept) != 2 {
			t.Fatalf("kept for mwila: %d (%v), want 2", len(kept), err)
		}
		for _, to := range []string{"nobody@example.com", "", "'; DROP TABLE outbox_emails; --"} {
			if n, err := db.DeleteEmailsTo(ctx, to); err != nil || n != 0 {
				t.Fatalf("%q: deleted %d (%v), want 0", to, n, err)
			}
		}
	})
}

// A read after Close fails with an error; it does not panic or hang.
func TestReadAfterCloseFails(t *testing.T) {
	for _, engine := range storetest.Engines {
		db := storetest.Open(t, engine)
		ctx := context.Background()
		var one int
		if err := db.QueryRow(ctx, `SELECT 1 WHERE ? = 1`, 1).Scan(&one); err != nil || one != 1 {
			t.Fatalf("before Close: %d, %v", one, err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow(ctx, `SELECT 1 WHERE ? = 1`, 1).Scan(&one); err == nil {
			t.Fatal("a read after Close answered")
		}
	}
}

// BenchmarkUserByEmail is a sign-in's account lookup.
func BenchmarkUserByEmail(b *testing.B) {
	storetest.EachBench(b, func(b *testing.B, engine store.Dialect) {
		db := storetest.Open(b, engine)
		ctx := context.Background()
		if err := db.CreateUser(ctx, &store.User{Email: "mwila@example.com", PasswordHash: "hash"}); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := db.UserByEmail(ctx, "mwila@example.com"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// The SQLite database holds password hashes and sessions: only the server's
// own account may read it, even in a data folder made beforehand with the
// usual umask.
func TestSQLiteFilesAreOwnerOnly(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateUser(ctx, &store.User{Email: "owner-only@example.com", PasswordHash: "hash"}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"salaula.db", "salaula.db-wal", "salaula.db-shm"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want -rw-------", name, fi.Mode().Perm())
		}
	}
}

// A data folder whose name holds characters that mean something in a URI
// ('#', '?', '%') keeps its database in that folder, not in a file named
// after the part of the path before them.
func TestSQLiteInAFolderWithURICharacters(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "a#b?c%41")
	ctx := context.Background()
	for round := range 2 {
		db, err := store.Open(ctx, "", dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		if round == 0 {
			if err := db.CreateUser(ctx, &store.User{Email: "hash@example.com", PasswordHash: "hash"}); err != nil {
				t.Fatal(err)
			}
		} else if _, err := db.UserByEmail(ctx, "hash@example.com"); err != nil {
			t.Fatalf("the account stored before reopening: %v", err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "a#b?c%41" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("the data folder's parent holds %v, want only a#b?c%%41", names)
	}
	if fi, err := os.Stat(filepath.Join(dir, "salaula.db")); err != nil || fi.Size() == 0 {
		t.Fatalf("salaula.db in the data folder: %v", err)
	}
}
