package store_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// Many concurrent transactions, some failing: each successful one is kept
// whole, each failing one leaves nothing, and after-commit hooks run only
// for the kept ones. On SQLite they share group commits.
func TestConcurrentTransactionsAreKeptOrUndoneAlone(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var wg sync.WaitGroup
		var hooks atomic.Int32
		before := db.WriteStats()
		errs := make([]error, 64)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = db.InTx(ctx, func(tx *store.Tx) error {
					if _, err := tx.Exec(ctx, `INSERT INTO contact_messages (id, first_name, last_name, email, subject, message, created_at)
						VALUES (?, 'A', 'B', 'a@example.com', 'other', 'hello there', ?)`, fmt.Sprintf("m%d", i), store.Now()); err != nil {
						return err
					}
					if err := tx.EnqueueEmail(ctx, &store.OutboxEmail{To: fmt.Sprintf("to%d@example.com", i), Subject: "s", Body: "b"}); err != nil {
						return err
					}
					tx.AfterCommit(func() { hooks.Add(1) })
					if i%4 == 3 {
						return errors.New("refused")
					}
					return nil
				})
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if (i%4 == 3) != (err != nil) {
				t.Fatalf("transaction %d: %v", i, err)
			}
		}
		// Every transaction went through the group-commit writer, and the
		// histogram accounts for every commit.
		after := db.WriteStats()
		var groups int64
		for i := range after.Sizes {
			groups += after.Sizes[i] - before.Sizes[i]
		}
		if commits := after.Commits - before.Commits; after.Writes-before.Writes != 64 || commits < 1 || commits > 64 || groups != commits || after.Largest < 1 {
			t.Fatalf("write stats %+v after %+v: want 64 writes in 1 to 64 commits", after, before)
		}
		var messages, emails int
		db.QueryRow(ctx, `SELECT COUNT(*) FROM contact_messages`).Scan(&messages)
		db.QueryRow(ctx, `SELECT COUNT(*) FROM outbox_emails`).Scan(&emails)
		if messages != 48 || emails != 48 || hooks.Load() != 48 {
			t.Fatalf("kept %d messages, %d e-mails, %d hooks; want 48 each", messages, emails, hooks.Load())
		}
		// A unique violation undoes only its own transaction.
		err := db.InTx(ctx, func(tx *store.Tx) error {
			_, err := tx.Exec(ctx, `INSERT INTO contact_messages (id, first_name, last_name, email, subject, message, created_at)
				VALUES ('m0', 'A', 'B', 'a@example.com', 'other', 'hello there', ?)`, store.Now())
			return err
		})
		if !store.IsUniqueViolation(err) {
			t.Fatalf("duplicate id: %v", err)
		}
		// A request whose context is cancelled after its write was taken does
		// not abort the writes committed with it.
		cctx, cancel := context.WithCancel(ctx)
		err = db.InTx(cctx, func(tx *store.Tx) error {
			cancel()
			_, err := tx.Exec(cctx, `INSERT INTO contact_messages (id, first_name, last_name, email, subject, message, created_at)
				VALUES ('late', 'A', 'B', 'a@example.com', 'other', 'hello there', ?)`, store.Now())
			return err
		})
		if err != nil {
			t.Fatalf("write taken by the writer failed with its caller's context: %v", err)
		}
	})
}

// On SQLite a write that finds the writer idle is committed by its own
// caller; writes arriving meanwhile queue and then share commits, instead
// of each taking the lane (and a disk flush) alone.
func TestWritesQueuedBehindACallersCommitShareCommits(t *testing.T) {
	db := storetest.Open(t, store.SQLite)
	ctx := context.Background()
	insert := func(tx *store.Tx, id string) error {
		_, err := tx.Exec(ctx, `INSERT INTO contact_messages (id, first_name, last_name, email, subject, message, created_at)
			VALUES (?, 'A', 'B', 'a@example.com', 'other', 'hello there', ?)`, id, store.Now())
		return err
	}
	before := db.WriteStats()
	const queued = 16
	queueBehindAHeldWrite(t, db, func(tx *store.Tx) error { return insert(tx, "first") }, queued, func(i int) error {
		return db.InTx(ctx, func(tx *store.Tx) error { return insert(tx, fmt.Sprintf("queued-%d", i)) })
	})
	if n := storetest.Count(t, db, `SELECT COUNT(*) FROM contact_messages`); n != queued+1 {
		t.Fatalf("%d messages stored, want %d", n, queued+1)
	}
	after := db.WriteStats()
	if commits := after.Commits - before.Commits; commits > queued/2 {
		t.Fatalf("%d writes took %d commits; queued writes should share them", queued+1, commits)
	}
}

// Writes made while the database closes each get an answer, none hangs:
// a write is either committed (and stored) or refused, whether the lane's
// goroutine or a caller that found the lane idle was committing it.
func TestWritesDuringCloseAreCommittedOrRefused(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			ctx := context.Background()
			dir, url := t.TempDir(), ""
			if engine == store.Postgres {
				url = storetest.NewPostgresDatabase(t)
			}
			db, err := store.Open(ctx, url, dir)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			var committed sync.Map
			for w := range 16 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; ; i++ {
						id := fmt.Sprintf("w%d-%d", w, i)
						err := db.InTx(ctx, func(tx *store.Tx) error {
							_, err := tx.Exec(ctx, `INSERT INTO contact_messages (id, first_name, last_name, email, subject, message, created_at)
								VALUES (?, 'A', 'B', 'a@example.com', 'other', 'hello there', ?)`, id, store.Now())
							return err
						})
						if err != nil {
							return // refused: the database is closing
						}
						committed.Store(id, true)
					}
				}()
			}
			time.Sleep(100 * time.Millisecond)
			closed := make(chan error)
			go func() { closed <- db.Close() }()
			done := make(chan struct{})
			go func() { wg.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("writes made while closing never returned")
			}
			if err := <-closed; err != nil {
				t.Fatalf("Close: %v", err)
			}
			db, err = store.Open(ctx, url, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			n := 0
			committed.Range(func(k, _ any) bool {
				n++
				if storetest.Count(t, db, `SELECT COUNT(*) FROM contact_messages WHERE id = ?`, k) != 1 {
					t.Errorf("write %s was answered as committed but is not stored", k)
				}
				return true
			})
			if n == 0 {
				t.Fatal("no write was committed before the close")
			}
		})
	}
}

// A panic inside a transaction reaches its own caller; the writer goes on.
func TestPanicInTransactionReachesItsCaller(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		func() {
			defer func() {
				if v := recover(); v != "boom" {
					t.Fatalf("recovered %v, want boom", v)
				}
			}()
			db.InTx(ctx, func(tx *store.Tx) error { panic("boom") })
		}()
		if _, err := db.Exec(ctx, `INSERT INTO contact_messages (id, first_name, last_name, email, subject, message, created_at)
			VALUES ('after', 'A', 'B', 'a@example.com', 'other', 'hello there', ?)`, store.Now()); err != nil {
			t.Fatalf("write after a panic: %v", err)
		}
	})
}

// Claiming due e-mails from several senders at once hands each e-mail to
// exactly one of them (PostgreSQL: SKIP LOCKED; SQLite: one writer).
func TestClaimEmailsGivesEachEmailToOneSender(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for i := 0; i < 300; i++ {
			if err := db.InTx(ctx, func(tx *store.Tx) error {
				return tx.EnqueueEmail(ctx, &store.OutboxEmail{To: fmt.Sprintf("p%d@example.com", i), Subject: "s", Body: "b", Kind: "waitlist"})
			}); err != nil {
				t.Fatal(err)
			}
		}
		now := store.Now().Add(time.Second)
		var mu sync.Mutex
		seen := map[string]int{}
		var wg sync.WaitGroup
		for s := 0; s < 6; s++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					got, err := db.ClaimEmails(ctx, now, time.Minute, 25)
					if err != nil {
						t.Error(err)
						return
					}
					if len(got) == 0 {
						return
					}
					mu.Lock()
					for _, e := range got {
						seen[e.ID]++
						if e.Attempts != 1 {
							t.Errorf("claimed %s with %d attempts", e.ID, e.Attempts)
						}
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if len(seen) != 300 {
			t.Fatalf("%d e-mails claimed, want 300", len(seen))
		}
		for id, n := range seen {
			if n != 1 {
				t.Fatalf("%s claimed %d times", id, n)
			}
		}
		// Claimed e-mails are not due again until their lease ends.
		if again, _ := db.ClaimEmails(ctx, now.Add(30*time.Second), time.Minute, 25); len(again) != 0 {
			t.Fatalf("%d e-mails claimed again within the lease", len(again))
		}
		if again, _ := db.ClaimEmails(ctx, now.Add(2*time.Minute), time.Minute, 500); len(again) != 300 || again[0].Attempts != 2 {
			t.Fatalf("after the lease: %d claimed", len(again))
		}
	})
}

// A claim takes the e-mails due soonest, queued and failing alike, up to its
// limit; those not due yet, given up or sent stay.
func TestClaimEmailsTakesTheEarliestDueOfEitherState(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t0 := store.Now().Add(-time.Hour)
		at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
		ids := map[string]string{} // address -> id
		enqueue := func(to string, due time.Time) {
			e := &store.OutboxEmail{To: to, Subject: "s", Body: "b", CreatedAt: due}
			if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.EnqueueEmail(ctx, e) }); err != nil {
				t.Fatal(err)
			}
			ids[to] = e.ID
		}
		for _, q := range []struct {
			to  string
			due int
		}{{"q1@example.com", 1}, {"q3@example.com", 3}, {"q5@example.com", 5}, {"f2@example.com", 0}, {"f4@example.com", 0},
			{"later@example.com", 0}, {"gaveup@example.com", 0}, {"sent@example.com", 0}} {
			enqueue(q.to, at(q.due))
		}
		fail := func(to string, next *time.Time) {
			if err := db.MarkEmailFailed(ctx, ids[to], "451 try later", next); err != nil {
				t.Fatal(err)
			}
		}
		f2, f4, later := at(2), at(4), store.Now().Add(time.Hour)
		fail("f2@example.com", &f2)
		fail("f4@example.com", &f4)
		fail("later@example.com", &later)
		fail("gaveup@example.com", nil)
		if err := db.MarkEmailSent(ctx, ids["sent@example.com"], "smtp", at(0)); err != nil {
			t.Fatal(err)
		}
		claim := func(limit int) []string {
			got, err := db.ClaimEmails(ctx, at(10), time.Minute, limit)
			if err != nil {
				t.Fatal(err)
			}
			var to []string
			for _, e := range got {
				to = append(to, e.To)
			}
			slices.Sort(to)
			return to
		}
		if got, want := claim(4), []string{"f2@example.com", "f4@example.com", "q1@example.com", "q3@example.com"}; !slices.Equal(got, want) {
			t.Fatalf("first claim took %v, want %v", got, want)
		}
		if got, want := claim(10), []string{"q5@example.com"}; !slices.Equal(got, want) {
			t.Fatalf("second claim took %v, want %v", got, want)
		}
	})
}

// Sign-ups and contact messages sent at once are kept or undone one by one
// whatever their group holds: a sign-up whose ID is taken fails alone (it
// breaks the group's multi-row INSERT, and the
// group runs again write by write, on both engines), one whose follow-up
// needs a statement of its own gets it, repeats are not joined again, and
// every kept write's e-mail and milestone are stored once.
func TestCombinedWritesAreKeptOrUndoneAlone(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		old := &store.WaitlistSignup{Email: "old@example.com", Program: "Upcycling Initiative", UnsubscribeTokenHash: "h-old"}
		if _, err := db.JoinWaitlist(ctx, old, nil); err != nil {
			t.Fatal(err)
		}
		const n = 48
		var wg sync.WaitGroup
		holdWriter(t, db, &wg) // so that on SQLite they make one group
		errs := make([]error, n)
		joined := make([]bool, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if i%3 == 2 {
					m := &store.ContactMessage{FirstName: "A", LastName: "B", Email: fmt.Sprintf("c%d@example.com", i), Subject: "other", Message: "hello there"}
					errs[i] = db.CreateContactMessage(ctx, m, func(tx *store.Tx) error {
						return tx.EnqueueEmail(ctx, &store.OutboxEmail{To: "support@example.com", Subject: "s", Body: "b", Kind: "contact"})
					})
					return
				}
				s := &store.WaitlistSignup{Email: fmt.Sprintf("w%d@example.com", i), Program: "Upcycling Initiative",
					UnsubscribeTokenHash: fmt.Sprintf("h%d", i)}
				switch i {
				case 0:
					s.ID = old.ID
				case 3:
					s.Email = "old@example.com"
				}
				joined[i], errs[i] = db.JoinWaitlist(ctx, s, func(tx *store.Tx) error {
					if i == 6 {
						// A statement of its own, read back in the same transaction.
						if _, err := tx.Exec(ctx, `INSERT INTO analytics_events (day, name) VALUES ('2026-01-01', 'own-statement')`); err != nil {
							return err
						}
					}
					if err := tx.InsertLater(ctx, "analytics_events", "day, name", "2026-01-02", "joined"); err != nil {
						return err
					}
					return tx.EnqueueEmail(ctx, &store.OutboxEmail{To: s.Email, Subject: "You're on the list", Body: "b", Kind: "waitlist"})
				})
			}()
		}
		wg.Wait()
		wantJoined := 0
		for i, err := range errs {
			if (i == 0) != (err != nil) {
				t.Fatalf("write %d: %v", i, err)
			}
			if i == 0 && !store.IsUniqueViolation(err) {
				t.Fatalf("sign-up with a taken ID: %v", err)
			}
			if want := i%3 != 2 && i != 0 && i != 3; joined[i] != want {
				t.Fatalf("sign-up %d joined %v, want %v", i, joined[i], want)
			}
			if joined[i] {
				wantJoined++
			}
		}
		if got := storetest.Count(t, db, `SELECT COUNT(*) FROM waitlist_signups`); got != wantJoined+1 {
			t.Fatalf("%d sign-ups stored, want %d", got, wantJoined+1)
		}
		if got := storetest.Count(t, db, `SELECT COUNT(*) FROM contact_messages`); got != n/3 {
			t.Fatalf("%d contact messages stored, want %d", got, n/3)
		}
		if got := storetest.Count(t, db, `SELECT COUNT(*) FROM outbox_emails WHERE kind = 'waitlist'`); got != wantJoined {
			t.Fatalf("%d confirmation e-mails, want %d", got, wantJoined)
		}
		if got := storetest.Count(t, db, `SELECT COUNT(*) FROM outbox_emails WHERE kind = 'contact'`); got != n/3 {
			t.Fatalf("%d contact e-mails, want %d", got, n/3)
		}
		if got := storetest.Count(t, db, `SELECT COUNT(*) FROM analytics_events WHERE name = 'joined'`); got != wantJoined {
			t.Fatalf("%d milestones, want %d", got, wantJoined)
		}
		if got := storetest.Count(t, db, `SELECT COUNT(*) FROM analytics_events WHERE name = 'own-statement'`); got != 1 {
			t.Fatalf("the follow-up's own statement stored %d rows, want 1", got)
		}
		if got := storetest.Count(t, db, `SELECT COALESCE(SUM(signups), 0) FROM waitlist_daily`); got != wantJoined+1 {
			t.Fatalf("daily roll-up counts %d sign-ups, want %d", got, wantJoined+1)
		}
	})
}

// A row inserted with InsertLater is seen by the same transaction's later
// statements, and is kept exactly when the transaction is.
func TestInsertLaterIsSeenAndUndoneWithItsWrite(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for _, fail := range []bool{true, false} {
			var seen int
			err := db.InTx(ctx, func(tx *store.Tx) error {
				if err := tx.InsertLater(ctx, "analytics_events", "day, name", "2026-01-03", "later"); err != nil {
					return err
				}
				if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM analytics_events WHERE name = 'later'`).Scan(&seen); err != nil {
					return err
				}
				if fail {
					return errors.New("refused")
				}
				return nil
			})
			if (err != nil) != fail || seen != 1 {
				t.Fatalf("fail %v: err %v, the transaction saw %d rows, want 1", fail, err, seen)
			}
		}
		if got := storetest.Count(t, db, `SELECT COUNT(*) FROM analytics_events WHERE name = 'later'`); got != 1 {
			t.Fatalf("%d rows kept, want 1", got)
		}
	})
}

// Two writes that lock the same two rows in opposite orders, each on its
// own PostgreSQL writer lane, deadlock; PostgreSQL undoes one of them, and
// the writer runs it again instead of failing it: both writes succeed and
// each is applied exactly once.
func TestDeadlockBetweenLanesIsRunAgain(t *testing.T) {
	db := storetest.Open(t, store.Postgres)
	ctx := context.Background()
	for _, day := range []string{"2026-01-01", "2026-01-02"} {
		if err := db.InTx(ctx, func(tx *store.Tx) error {
			_, err := tx.Exec(ctx, `INSERT INTO waitlist_daily (day, program, signups) VALUES (?, 'p', 0)`, day)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	// Each write adds one to its first row, waits until the other has
	// locked its own first row, then adds one to the other row: a deadlock
	// on the first run; a run again goes straight through.
	aLocked, bLocked := make(chan struct{}), make(chan struct{})
	var aOnce, bOnce sync.Once
	var runs atomic.Int32
	write := func(first, second string, mine *sync.Once, mineCh, other chan struct{}) error {
		return db.InTx(ctx, func(tx *store.Tx) error {
			runs.Add(1)
			if _, err := tx.Exec(ctx, `UPDATE waitlist_daily SET signups = signups + 1 WHERE day = ? AND program = 'p'`, first); err != nil {
				return err
			}
			mine.Do(func() { close(mineCh) })
			select {
			case <-other:
			case <-time.After(5 * time.Second):
			}
			_, err := tx.Exec(ctx, `UPDATE waitlist_daily SET signups = signups + 1 WHERE day = ? AND program = 'p'`, second)
			return err
		})
	}
	errs := make(chan error, 2)
	go func() { errs <- write("2026-01-01", "2026-01-02", &aOnce, aLocked, bLocked) }()
	<-aLocked // a holds its lane; b goes to the other lane
	go func() { errs <- write("2026-01-02", "2026-01-01", &bOnce, bLocked, aLocked) }()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("a write failed instead of being run again: %v", err)
		}
	}
	if n := runs.Load(); n < 3 {
		t.Fatalf("%d runs: the two writes did not deadlock, so the test proves nothing", n)
	}
	for _, day := range []string{"2026-01-01", "2026-01-02"} {
		if n := storetest.Count(t, db, `SELECT signups FROM waitlist_daily WHERE day = ? AND program = 'p'`, day); n != 2 {
			t.Fatalf("%s: signups %d, want 2 (each write applied once)", day, n)
		}
	}
}

// Under sustained writes the SQLite WAL is started from its beginning
// again instead of growing without end: 16 writers make 4,000 sign-ups
// back to back, and the WAL file never grows past a few times the length
// at which SQLite checkpoints (1,000 pages, 4 MB). Every sign-up is stored.
func TestSQLiteWALStaysBoundedUnderSustainedWrites(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	wal := filepath.Join(dir, "salaula.db-wal")
	var largest atomic.Int64
	stop := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for {
			if st, err := os.Stat(wal); err == nil && st.Size() > largest.Load() {
				largest.Store(st.Size())
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	const writers, each = 16, 250
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range each {
				s := &store.WaitlistSignup{Email: fmt.Sprintf("wal-%d-%d@example.com", w, n), Program: "Upcycling Initiative",
					PagePath: "/upcycling", UnsubscribeTokenHash: fmt.Sprintf("%064d", w*each+n)}
				if _, err := db.JoinWaitlist(ctx, s, nil); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-watched
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM waitlist_signups`).Scan(&n); err != nil || n != writers*each {
		t.Fatalf("stored %d sign-ups (%v), want %d", n, err, writers*each)
	}
	if max := int64(32 << 20); largest.Load() > max {
		t.Errorf("the WAL grew to %d MB under sustained writes, want at most %d MB", largest.Load()>>20, max>>20)
	}
	t.Logf("largest WAL: %.1f MB", float64(largest.Load())/(1<<20))
}

// When PostgreSQL ends the writer's connections (a restart, an
// administrator), the next writes open fresh ones and succeed.
func TestWriterReconnectsAfterPostgreSQLEndsItsConnections(t *testing.T) {
	db := storetest.Open(t, store.Postgres)
	ctx := context.Background()
	insert := func(id string) error { return insertMessage(ctx, db, id) }
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = insert(fmt.Sprintf("first%d", i)) }()
	}
	wg.Wait()
	var ended int
	if err := db.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid()`).Scan(&ended); err != nil {
		t.Fatal(err)
	}
	if ended == 0 {
		t.Fatal("no connection of the writer was ended")
	}
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = errors.Join(errs[i], insert(fmt.Sprintf("after%d", i))) }()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	if n := storetest.Count(t, db, `SELECT COUNT(*) FROM contact_messages`); n != 16 {
		t.Fatalf("%d messages, want 16", n)
	}
}

// insertMessage stores a contact message with this ID in a transaction.
func insertMessage(ctx context.Context, db *store.DB, id string) error {
	return db.InTx(ctx, func(tx *store.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO contact_messages (id, first_name, last_name, email, subject, message, created_at)
			VALUES (?, 'A', 'B', 'a@example.com', 'other', 'hello there', ?)`, id, store.Now())
		return err
	})
}

// The writer's lanes hold their PostgreSQL connections for writes, yet no
// longer than the connections' lifetime: after it, writes go through new
// ones (new server processes), as they did when each borrowed one.
func TestWriterRenewsItsConnectionsAfterTheirLifetime(t *testing.T) {
	db := storetest.Open(t, store.Postgres)
	ctx := context.Background()
	backends := func() map[int]bool {
		var mu sync.Mutex
		pids := map[int]bool{}
		var wg sync.WaitGroup
		for range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var pid int
				if err := db.InTx(ctx, func(tx *store.Tx) error {
					return tx.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid)
				}); err != nil {
					t.Error(err)
				}
				mu.Lock()
				pids[pid] = true
				mu.Unlock()
			}()
		}
		wg.Wait()
		return pids
	}
	before := backends()
	if again := backends(); !maps.Equal(before, again) {
		t.Fatalf("writes went through server processes %v, then %v: want the same connections kept", before, again)
	}
	db.SetWriterConnLifetime(50 * time.Millisecond)
	time.Sleep(100 * time.Millisecond)
	for pid := range backends() {
		if before[pid] {
			t.Fatalf("a write after the lifetime went through server process %d, used before it", pid)
		}
	}
}

// A group of up to 16 sign-ups goes in with one INSERT for the sign-ups
// and one for their e-mails (a statement of exactly that many rows), not
// in chunks of fixed sizes: each statement is a round of the writer's work
// that every write in the group waits for.
func TestAGroupOfSignUpsIsOneInsertATable(t *testing.T) {
	db := storetest.Open(t, store.SQLite)
	ctx := context.Background()
	var before store.WriteStats
	const group = 13 // chunks of 4 and 1 made it 4 statements for each table
	queueBehindAHeldWrite(t, db, func(*store.Tx) error { before = db.WriteStats(); return nil }, group, func(i int) error {
		s := &store.WaitlistSignup{Email: fmt.Sprintf("group%d@example.com", i), Program: "Upcycling Initiative", UnsubscribeTokenHash: fmt.Sprintf("g%d", i)}
		_, err := db.JoinWaitlist(ctx, s, func(tx *store.Tx) error {
			return tx.EnqueueEmail(ctx, &store.OutboxEmail{To: s.Email, Subject: "You're on the list", Body: "b", Kind: "waitlist"})
		})
		return err
	})
	if n := storetest.Count(t, db, `SELECT COUNT(*) FROM waitlist_signups`); n != group {
		t.Fatalf("%d sign-ups stored, want %d", n, group)
	}
	if n := storetest.Count(t, db, `SELECT COUNT(*) FROM outbox_emails`); n != group {
		t.Fatalf("%d e-mails stored, want %d", n, group)
	}
	after := db.WriteStats()
	commits, stmts := after.Commits-before.Commits, after.Statements-before.Statements
	// The group (the held write was counted before it): BEGIN, the
	// sign-ups, the e-mails, the two roll-ups and COMMIT.
	if commits != 1 || stmts != 6 {
		t.Fatalf("%d sign-ups took %d commits and %d statements, want 1 commit and 6 statements", group, commits, stmts)
	}
}

// queueBehindAHeldWrite holds db's writer in a transaction that runs held
// while n writes (write(i)) queue behind it, then lets it commit and waits
// for every write, failing t on an error.
func queueBehindAHeldWrite(t *testing.T, db *store.DB, held func(*store.Tx) error, n int, write func(i int) error) {
	t.Helper()
	holding, release := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- db.InTx(context.Background(), func(tx *store.Tx) error {
			close(holding)
			<-release
			return held(tx)
		})
	}()
	<-holding
	errs := make(chan error, n)
	for i := range n {
		go func() { errs <- write(i) }()
	}
	time.Sleep(300 * time.Millisecond) // let them all queue behind the held write
	close(release)
	if err := <-first; err != nil {
		t.Fatalf("held write: %v", err)
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatalf("queued write: %v", err)
		}
	}
}
