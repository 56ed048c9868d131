package backup

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"salaula/internal/media"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// restoreTarget is the target `salaula admin restore` gives Restore: the
// data folder, and the database of dbURL (PostgreSQL) or of the folder
// (SQLite, dbURL ""), refused when it holds tables, migrated.
func restoreTarget(dataDir, dbURL string) Target {
	return Target{DataDir: dataDir, Postgres: dbURL != "",
		OpenDB:    func(ctx context.Context) (*store.DB, error) { return OpenEmpty(ctx, dbURL, dataDir) },
		OpenMedia: func() (media.Store, error) { return media.NewLocal(filepath.Join(dataDir, "media")) }}
}

// table is one table of a hand-made archive: its columns, then its rows as JSON.
type table struct {
	name string
	cols []string
	rows []string
}

// handArchive writes an archive as Write lays it out, with the secret and
// the tables given.
func handArchive(t *testing.T, tables ...table) *bytes.Buffer {
	t.Helper()
	man := Manifest{Format: Format, Database: "sqlite", TakenAt: time.Now().UTC()}
	for _, tb := range tables {
		man.Tables = append(man.Tables, TableCount{Name: tb.name, Rows: int64(len(tb.rows))})
	}
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	add := func(name, body string) {
		if err := addBytes(tw, name, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	raw, _ := json.Marshal(man)
	add(ManifestFile, string(raw))
	add(SecretFile, "0123456789abcdef0123456789abcdef\n")
	for _, tb := range tables {
		cols, _ := json.Marshal(tb.cols)
		add(TablesDir+"/"+tb.name+".jsonl", string(cols)+"\n"+strings.Join(tb.rows, "\n")+"\n")
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return &buf
}

// eachTarget runs fn with a new data folder (not made yet) and, on
// PostgreSQL, a new empty database.
func eachTarget(t *testing.T, fn func(t *testing.T, dataDir, dbURL string)) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			dbURL := ""
			if engine == store.Postgres {
				dbURL = storetest.NewPostgresDatabase(t)
			}
			fn(t, filepath.Join(t.TempDir(), "data"), dbURL)
		})
	}
}

const (
	id1 = "00000000-0000-4000-8000-000000000001"
	id2 = "00000000-0000-4000-8000-000000000002"
	id3 = "00000000-0000-4000-8000-000000000003"
)

var (
	usersTable = table{"users", []string{"id", "email", "password_hash", "created_at", "updated_at"}, []string{
		`["` + id1 + `","a@example.com","h","2026-11-27T08:00:00Z","2026-11-27T08:00:00Z"]`,
		`["` + id2 + `","b@example.com","h","2026-11-27T08:00:00Z","2026-11-27T08:00:00Z"]`}}
	messageCols = []string{"id", "first_name", "last_name", "email", "subject", "message", "created_at"}
	message     = func(id, first string) string {
		return `["` + id + `","` + first + `","Mwale","c@example.com","other","Hello there, Salaula","2026-11-27T08:00:00Z"]`
	}
)

// A restore that fails on its second table, at a row the database refuses,
// names the table, the row (its line in the archive) and its id, and leaves
// the target as it found it: no folder, no tables, so the next restore into
// it works.
func TestRestoreThatFailsLeavesTheTargetAsItWas(t *testing.T) {
	t.Parallel()
	eachTarget(t, func(t *testing.T, dataDir, dbURL string) {
		ctx := context.Background()
		bad := handArchive(t, usersTable, table{"contact_messages", messageCols,
			[]string{message(id1, "Chanda"), message(id2, "Bwalya"), message(id1, "Again")}})
		_, err := Restore(ctx, bad, restoreTarget(dataDir, dbURL))
		for _, want := range []string{"table contact_messages, row 3, id " + id1, "line 4 of database/contact_messages.jsonl",
			"nothing was restored: the target is as it was"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("restore of a duplicate row: %v, want it to say %q", err, want)
			}
		}
		if _, err := os.Stat(dataDir); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("the data folder the restore made is left: %v", err)
		}
		if dbURL != "" {
			db, err := store.Open(ctx, dbURL, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			has, err := db.HasTables(ctx)
			db.Close()
			if err != nil || has {
				t.Fatalf("tables left in the database: %v, %v", has, err)
			}
		}
		good := handArchive(t, usersTable, table{"contact_messages", messageCols, []string{message(id1, "Chanda"), message(id3, "Again")}})
		rep, err := Restore(ctx, good, restoreTarget(dataDir, dbURL))
		if err != nil {
			t.Fatalf("the second restore: %v", err)
		}
		if len(rep.Tables) != 2 || rep.Tables[1].Rows != 2 || len(rep.Cleaned) != 0 {
			t.Fatalf("report %+v", rep)
		}
	})
}

// A restore into a SQLite folder made (by the test) but empty leaves it
// there, empty.
func TestRestoreThatFailsKeepsAnEmptyFolder(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	bad := handArchive(t, table{"users", usersTable.cols, []string{`["` + id1 + `","a@example.com","h","yesterday","2026-11-27T08:00:00Z"]`}})
	_, err := Restore(context.Background(), bad, restoreTarget(dataDir, ""))
	if err == nil || !strings.Contains(err.Error(), "table users, row 1, id "+id1+": column created_at") {
		t.Fatalf("restore of a bad time: %v", err)
	}
	if entries, err := os.ReadDir(dataDir); err != nil || len(entries) != 0 {
		t.Fatalf("the folder holds %v, %v; want it as it was, empty", entries, err)
	}
}

// Rows an archive of SQLite holds with NUL bytes (stored before requests
// were checked) restore into PostgreSQL without them, counted in the report.
func TestRestoreIntoPostgresCleansNULBytes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := storetest.Open(t, store.SQLite)
	for _, email := range []string{"nul\x00la@example.com", "plain@example.com"} {
		if err := src.CreateUser(ctx, &store.User{Email: email, PasswordHash: "h"}); err != nil {
			t.Fatal(err)
		}
	}
	var archive bytes.Buffer
	if _, err := Write(ctx, Options{DB: src, DataDir: t.TempDir(), Media: nil}, &archive); err != nil {
		t.Fatal(err)
	}
	dataDir := t.TempDir()
	dbURL := storetest.NewPostgresDatabase(t)
	rep, err := Restore(ctx, &archive, restoreTarget(dataDir, dbURL))
	if err != nil {
		t.Fatalf("restore of an archive with a NUL into PostgreSQL: %v", err)
	}
	if len(rep.Cleaned) != 1 || rep.Cleaned[0] != (TableCount{Name: "users", Rows: 1}) {
		t.Fatalf("cleaned %+v, want users: 1", rep.Cleaned)
	}
	db, err := store.Open(ctx, dbURL, dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if u, err := db.UserByEmail(ctx, "nulla@example.com"); err != nil || u.Email != "nulla@example.com" {
		t.Fatalf("the cleaned user: %+v, %v", u, err)
	}
	if n := storetest.Count(t, db, `SELECT COUNT(*) FROM users`); n != 2 {
		t.Fatalf("%d users restored, want 2", n)
	}
}
