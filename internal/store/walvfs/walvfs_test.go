package walvfs

import (
	"bytes"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	_ "modernc.org/sqlite"
)

// open opens path through the VFS (vfs = Name) or SQLite's own (vfs =
// ""), in WAL mode with the given synchronous setting, on one connection.
func open(t *testing.T, path, vfsName, sync string, pragmas ...string) *sql.DB {
	t.Helper()
	if err := Register(); err != nil {
		t.Fatal(err)
	}
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=synchronous(" + sync + ")&_pragma=busy_timeout(10000)"
	if vfsName != "" {
		dsn += "&vfs=" + vfsName
	}
	for _, p := range pragmas {
		dsn += "&_pragma=" + p
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

func exec(t *testing.T, db *sql.DB, query string, args ...any) {
	t.Helper()
	if _, err := db.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

func count(t *testing.T, db *sql.DB) int {
	t.Helper()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM t").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// checkFile closes nothing but opens path again with SQLite's own VFS and
// checks the file is sound and holds want rows whose values are row(i).
func checkFile(t *testing.T, path string, want int, row func(i int) string) {
	t.Helper()
	db := open(t, path, "", "FULL")
	var ok string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("integrity_check: %q %v", ok, err)
	}
	rows, err := db.Query("SELECT id, v FROM t ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id int
		var v string
		if err := rows.Scan(&id, &v); err != nil {
			t.Fatal(err)
		}
		if id != n+1 || v != row(n) {
			t.Fatalf("row %d: id %d, %.40q; want id %d, %.40q", n, id, v, n+1, row(n))
		}
		n++
	}
	if n != want {
		t.Fatalf("%d rows, want %d", n, want)
	}
}

// commitRows inserts rows from+0 ... from+n-1 (values row(i)) in one
// transaction and returns from+n.
func commitRows(t *testing.T, db *sql.DB, from, n int, row func(int) string) int {
	t.Helper()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i := from; i < from+n; i++ {
		if _, err := tx.Exec("INSERT INTO t (v) VALUES (?)", row(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return from + n
}

func value(i int) string { return fmt.Sprintf("value %d %s", i, strings.Repeat("x", i%300)) }

func TestCommitsReachTheFileInOneWriteAndOtherConnectionsReadThem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	w := open(t, path, Name, "FULL")
	r := open(t, path, Name, "FULL")
	exec(t, w, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
	exec(t, w, "CREATE INDEX t_v ON t (v)")
	walWrites0, fileWrites0 := Stats()
	n := 0
	for range 200 {
		n = commitRows(t, w, n, 10, value)
		if got := count(t, r); got != n {
			t.Fatalf("the other connection reads %d rows after %d committed", got, n)
		}
	}
	walWrites, fileWrites := Stats()
	walWrites -= walWrites0
	fileWrites -= fileWrites0
	// Each commit writes a frame header and a page for each of several
	// pages; all of a commit's frames go to the file together.
	if walWrites < 4*200 || fileWrites > walWrites/4 {
		t.Errorf("SQLite wrote the WAL %d times, the file got %d writes; want far fewer file writes", walWrites, fileWrites)
	}
	w.Close()
	r.Close()
	checkFile(t, path, n, value)
}

func TestWithoutSyncsEveryPublishedCommitIsInTheFile(t *testing.T) {
	// synchronous=NORMAL commits without a sync: the buffer goes out at
	// the barrier that publishes the commit, so readers on other
	// connections (three at once here) never read a frame not yet written.
	path := filepath.Join(t.TempDir(), "t.db")
	w := open(t, path, Name, "NORMAL")
	exec(t, w, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	for range 3 {
		r := open(t, path, Name, "FULL")
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := 0
			for {
				select {
				case <-stop:
					return
				default:
				}
				var n int
				var v sql.NullString
				if err := r.QueryRow("SELECT count(*), max(v) FROM t").Scan(&n, &v); err != nil {
					errs <- err
					return
				}
				if n < last {
					errs <- fmt.Errorf("count went back from %d to %d", last, n)
					return
				}
				last = n
			}
		}()
	}
	n := 0
	for range 1000 {
		n = commitRows(t, w, n, 5, value)
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	w.Close()
	checkFile(t, path, n, value)
}

func TestLargeTransactionsSpillsAndWALRestarts(t *testing.T) {
	// A transaction larger than the buffer, a page cache small enough to
	// spill mid-transaction (SQLite then writes some frames twice, the
	// second time in place), and a WAL restarted many times by
	// checkpoints from another connection.
	path := filepath.Join(t.TempDir(), "t.db")
	w := open(t, path, Name, "FULL", "cache_size(10)", "wal_autocheckpoint(50)")
	c := open(t, path, Name, "FULL")
	exec(t, w, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
	exec(t, w, "CREATE INDEX t_v ON t (v)")
	big := func(i int) string {
		if i < 400 {
			return fmt.Sprintf("%d %s", i, bytes.Repeat([]byte{'a' + byte(i%26)}, 8000))
		}
		return value(i)
	}
	n := commitRows(t, w, 0, 400, big) // about 3.2 MB in one commit
	for round := range 300 {
		tx, err := w.Begin()
		if err != nil {
			t.Fatal(err)
		}
		for range 7 {
			if _, err := tx.Exec("INSERT INTO t (v) VALUES (?)", big(n)); err != nil {
				t.Fatal(err)
			}
			n++
		}
		// Every other round, change rows already written in this
		// transaction's pages again (frames rewritten in place).
		if round%2 == 0 {
			if _, err := tx.Exec("UPDATE t SET v = v WHERE id > ?", n-7); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if round%10 == 0 {
			exec(t, c, "PRAGMA wal_checkpoint(PASSIVE)")
		}
	}
	if got := count(t, c); got != n {
		t.Fatalf("%d rows, want %d", got, n)
	}
	w.Close()
	c.Close()
	checkFile(t, path, n, big)
}

func TestAFailedWriteFailsTheCommitAndLosesNothingCommitted(t *testing.T) {
	commitOnFailingDisk(t, failWrites.Store)
}

func TestEveryCommitIsFlushedAndAFailedFlushFailsTheCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	w := open(t, path, Name, "FULL")
	exec(t, w, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
	syncs0 := syncs.Load()
	n := 0
	for range 50 {
		n = commitRows(t, w, n, 1, value)
	}
	// synchronous=FULL: each commit flushes the WAL (with fdatasync here).
	if got := syncs.Load() - syncs0; got < 50 {
		t.Fatalf("%d flushes for 50 commits, want one per commit at least", got)
	}
	w.Close()
	commitOnFailingDisk(t, failSyncs.Store)
}

// commitOnFailingDisk commits 50 rows, one with fail(true) in force, then
// 10 more: the commit made while the disk failed reports a disk I/O error
// and stores nothing; every other row is stored, and the file is sound.
func commitOnFailingDisk(t *testing.T, fail func(bool)) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.db")
	w := open(t, path, Name, "FULL")
	exec(t, w, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
	for i := range 50 {
		exec(t, w, "INSERT INTO t (v) VALUES (?)", value(i))
	}
	fail(true)
	_, err := w.Exec("INSERT INTO t (v) VALUES (?)", "never stored")
	fail(false)
	if err == nil || !strings.Contains(err.Error(), "I/O error") {
		t.Fatalf("commit with a failing disk: %v, want a disk I/O error", err)
	}
	// The connection goes on; the failed row is not there, the others are.
	for i := 50; i < 60; i++ {
		exec(t, w, "INSERT INTO t (v) VALUES (?)", value(i))
	}
	if got := count(t, w); got != 60 {
		t.Fatalf("%d rows, want 60", got)
	}
	w.Close()
	checkFile(t, path, 60, value)
}
