package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// Many concurrent transactions, some failing: each successful one is kept
// whole, each failing one leaves nothing, and after-commit hooks run only
// for the kept ones.
func TestConcurrentTransactionsAreKeptOrUndoneAlone(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var wg sync.WaitGroup
		var hooks atomic.Int32
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

// Writes made while the database closes each get an answer, none hangs:
// a write is either committed (and stored) or refused.
func TestWritesDuringCloseAreCommittedOrRefused(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			ctx := context.Background()
			db, url, dir := openToReopen(t, engine)
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
			db, err := store.Open(ctx, url, dir)
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

// Sign-ups and contact messages sent at once are kept or undone one by one
// whatever else their group holds: a sign-up whose ID is taken fails
// alone, repeats are not joined again, and every kept write's e-mail and
// milestone are stored once.
func TestSignUpsAndMessagesAtOnceAreKeptOrUndoneAlone(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		old := &store.WaitlistSignup{Email: "old@example.com", Program: "Upcycling Initiative", UnsubscribeTokenHash: "h-old"}
		if _, err := db.JoinWaitlist(ctx, old, store.WaitlistJoin{}); err != nil {
			t.Fatal(err)
		}
		const n = 48
		var wg sync.WaitGroup
		holdWriter(t, db, &wg) // so that they queue and go in groups
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
				joined[i], errs[i] = db.JoinWaitlist(ctx, s, store.WaitlistJoin{
					Email: &store.OutboxEmail{To: s.Email, Subject: "You're on the list", Body: "b", Kind: "waitlist"}})
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
		if got := storetest.Count(t, db, `SELECT COALESCE(SUM(signups), 0) FROM waitlist_daily`); got != wantJoined+1 {
			t.Fatalf("daily roll-up counts %d sign-ups, want %d", got, wantJoined+1)
		}
	})
}

// Two writes that lock the same two rows in opposite orders, each made by
// another instance on the same PostgreSQL database, deadlock; PostgreSQL
// undoes one of them, and its writer runs it again instead of failing it:
// both writes succeed and each is applied exactly once.
func TestDeadlockBetweenInstancesIsRunAgain(t *testing.T) {
	ctx := context.Background()
	url := storetest.MigratedPostgresDatabase(t)
	var instances [2]*store.DB
	for i := range instances {
		db, err := store.Open(ctx, url, "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		instances[i] = db
	}
	db := instances[0]
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	for _, day := range []string{"2026-01-01", "2026-01-02"} {
		if _, err := db.Exec(ctx, `INSERT INTO waitlist_daily (day, program, signups) VALUES (?, 'p', 0)`, day); err != nil {
			t.Fatal(err)
		}
	}
	// Each write adds one to its first row, waits until the other has
	// locked its own first row, then adds one to the other row: a deadlock
	// on the first run; a run again goes straight through.
	aLocked, bLocked := make(chan struct{}), make(chan struct{})
	var aOnce, bOnce sync.Once
	var runs atomic.Int32
	write := func(db *store.DB, first, second string, mine *sync.Once, mineCh, other chan struct{}) error {
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
	go func() { errs <- write(instances[0], "2026-01-01", "2026-01-02", &aOnce, aLocked, bLocked) }()
	go func() { errs <- write(instances[1], "2026-01-02", "2026-01-01", &bOnce, bLocked, aLocked) }()
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
				if _, err := db.JoinWaitlist(ctx, s, store.WaitlistJoin{}); err != nil {
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
// administrator), the next writes open fresh ones and succeed, whether
// they run statement by statement or are sent at once (a waitlist
// sign-up).
func TestWriterReconnectsAfterPostgreSQLEndsItsConnections(t *testing.T) {
	for _, kind := range []string{"transaction", "statement"} {
		t.Run(kind, func(t *testing.T) { testReconnect(t, kind) })
	}
}

func testReconnect(t *testing.T, kind string) {
	db := storetest.Open(t, store.Postgres)
	ctx := context.Background()
	insert := func(id string) error {
		if kind == "statement" {
			_, err := db.JoinWaitlist(ctx, &store.WaitlistSignup{Email: id + "@example.com", Program: "Upcycling Initiative"}, store.WaitlistJoin{})
			return err
		}
		return insertMessage(ctx, db, id)
	}
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
	table := map[string]string{"transaction": "contact_messages", "statement": "waitlist_signups"}[kind]
	if n := storetest.Count(t, db, `SELECT COUNT(*) FROM `+table); n != 16 {
		t.Fatalf("%d rows in %s, want 16", n, table)
	}
}

// insertMessage stores a contact message with this ID in a transaction.
func insertMessage(ctx context.Context, db *store.DB, id string) error {
	return db.InTx(ctx, func(tx *store.Tx) error { return insertMessageTx(ctx, tx, id) })
}

// insertMessageTx stores a contact message with this ID inside tx.
func insertMessageTx(ctx context.Context, tx *store.Tx, id string) error {
	_, err := tx.Exec(ctx, `INSERT INTO contact_messages (id, first_name, last_name, email, subject, message, created_at)
		VALUES (?, 'A', 'B', 'a@example.com', 'other', 'hello there', ?)`, id, store.Now())
	return err
}

// The writes of one group are committed together and each answered only
// after the commit, the kept ones' after-commit hooks first; one that
// fails and one that panics are undone alone, the others kept; one whose
// caller has gone by its turn is not run; and the Writer goes on.
func TestAGroupIsCommittedTogetherAndEachWriteAnsweredAfter(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		insert := func(tx *store.Tx, id string) error {
			_, err := tx.Exec(ctx, `INSERT INTO contact_messages (id, first_name, last_name, email, subject, message, created_at)
				VALUES (?, 'A', 'B', 'a@example.com', 'other', 'hello there', ?)`, id, store.Now())
			return err
		}
		stored := func(id string) bool {
			t.Helper()
			return storetest.Count(t, db, `SELECT COUNT(*) FROM contact_messages WHERE id = ?`, id) == 1
		}
		gone, cancel := context.WithCancel(ctx)
		cancel()
		g := &store.Group{}
		var hooks []string
		g.Add(ctx, func(tx *store.Tx) error {
			tx.AfterCommit(func() {
				if g.Answered(0) {
					t.Error("a write was answered before its after-commit hook ran")
				}
				hooks = append(hooks, "kept")
			})
			return insert(tx, "kept")
		})
		g.Add(ctx, func(tx *store.Tx) error {
			tx.AfterCommit(func() { hooks = append(hooks, "failed") })
			if err := insert(tx, "failed"); err != nil {
				return err
			}
			return errors.New("refused")
		})
		g.Add(ctx, func(tx *store.Tx) error {
			tx.AfterCommit(func() { hooks = append(hooks, "panicked") })
			if err := insert(tx, "panicked"); err != nil {
				return err
			}
			panic("boom")
		})
		ran := false
		g.Add(gone, func(tx *store.Tx) error { ran = true; return insert(tx, "gone") })
		g.Add(ctx, func(tx *store.Tx) error {
			// Inside the group's transaction: the earlier writes are
			// neither answered nor seen by readers yet.
			for i := range 4 {
				if g.Answered(i) {
					t.Errorf("write %d was answered before the commit", i)
				}
			}
			if stored("kept") {
				t.Error("a reader saw a write before the commit")
			}
			return insert(tx, "last")
		})
		db.CommitGroup(g)

		for i := range 5 {
			if !g.Answered(i) {
				t.Fatalf("write %d was not answered", i)
			}
		}
		for _, i := range []int{0, 4} {
			if p, err := g.Answer(i); err != nil || p != nil {
				t.Fatalf("kept write %d answered %v, %v", i, err, p)
			}
		}
		if _, err := g.Answer(1); err == nil || err.Error() != "refused" {
			t.Fatalf("the failing write was answered %v", err)
		}
		if p, _ := g.Answer(2); p != "boom" {
			t.Fatalf("the panicking write was answered with the panic %v", p)
		}
		if _, err := g.Answer(3); !errors.Is(err, context.Canceled) || ran {
			t.Fatalf("the write whose caller had gone was answered %v (run: %v)", err, ran)
		}
		for id, want := range map[string]bool{"kept": true, "last": true, "failed": false, "panicked": false, "gone": false} {
			if stored(id) != want {
				t.Errorf("%s stored: %v, want %v", id, !want, want)
			}
		}
		if len(hooks) != 1 || hooks[0] != "kept" {
			t.Errorf("after-commit hooks ran for %v, want [kept]", hooks)
		}
		if err := db.InTx(ctx, func(tx *store.Tx) error { return insert(tx, "after") }); err != nil || !stored("after") {
			t.Fatalf("a write after the group: %v", err)
		}
	})
}

// A group made only of one-statement writes (on PostgreSQL sent at once,
// one round trip) is one transaction: each write is answered with its
// row, one that fails is undone alone and the others kept, one whose
// caller has gone is not run, and a write alone that fails gets
// PostgreSQL's refusal.
func TestAGroupOfStatementsIsOneTransactionAndAFailingOneIsUndoneAlone(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		const insert = `INSERT INTO contact_messages (id, first_name, last_name, email, subject, message, created_at)
			VALUES (?, 'A', 'B', 'a@example.com', 'other', 'hello there', ?) RETURNING id`
		gone, cancel := context.WithCancel(ctx)
		cancel()
		read := make([]string, 5)
		g := &store.Group{}
		g.AddStatement(ctx, &read[0], insert, "s1", store.Now())
		g.AddStatement(ctx, &read[1], insert, "s2", store.Now())
		g.AddStatement(ctx, &read[2], insert, "s1", store.Now()) // the same key: refused
		g.AddStatement(gone, &read[3], insert, "gone", store.Now())
		g.AddStatement(ctx, &read[4], insert, "s4", store.Now())
		db.CommitGroup(g)
		for _, i := range []int{0, 1, 4} {
			if p, err := g.Answer(i); err != nil || p != nil {
				t.Fatalf("kept write %d answered %v, %v", i, err, p)
			}
		}
		if _, err := g.Answer(2); !store.IsUniqueViolation(err) {
			t.Fatalf("the repeated key was answered %v, want a unique violation", err)
		}
		if _, err := g.Answer(3); !errors.Is(err, context.Canceled) {
			t.Fatalf("the write whose caller had gone was answered %v", err)
		}
		if read[0] != "s1" || read[1] != "s2" || read[4] != "s4" {
			t.Fatalf("rows read %q, want s1, s2 and s4", read)
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM contact_messages`); n != 3 {
			t.Fatalf("%d messages stored, want 3 (s1, s2, s4)", n)
		}

		alone := &store.Group{}
		alone.AddStatement(ctx, new(string), insert, "s2", store.Now())
		db.CommitGroup(alone)
		if _, err := alone.Answer(0); !store.IsUniqueViolation(err) {
			t.Fatalf("a repeated key alone was answered %v, want a unique violation", err)
		}

		if db.Dialect() != store.Postgres {
			return
		}
		xids := make([]string, 3)
		together := &store.Group{}
		for i := range xids {
			together.AddStatement(ctx, &xids[i], `SELECT CAST(pg_current_xact_id() AS text)
				FROM (SELECT COUNT(*) FROM contact_messages) c`)
		}
		db.CommitGroup(together)
		for i := range xids {
			if _, err := together.Answer(i); err != nil {
				t.Fatal(err)
			}
		}
		if xids[0] == "" || xids[1] != xids[0] || xids[2] != xids[0] {
			t.Fatalf("the group's statements ran in transactions %q, want one", xids)
		}
	})
}

// A write whose caller gives up while it waits for the Writer is not made:
// its caller gets the context's error, and its function never runs.
func TestACancelledWriteNotYetTakenIsNotRun(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		release := holdWrite(t, db, "held") // the Writer is busy with it
		cctx, cancel := context.WithCancel(ctx)
		var ran atomic.Bool
		cancelled := make(chan error, 1)
		go func() {
			cancelled <- db.InTx(cctx, func(tx *store.Tx) error {
				ran.Store(true)
				return insertMessageTx(ctx, tx, "cancelled")
			})
		}()
		cancel()
		if err := <-cancelled; !errors.Is(err, context.Canceled) {
			t.Fatalf("the cancelled write returned %v, want context.Canceled", err)
		}
		if err := release(); err != nil {
			t.Fatal(err)
		}
		if err := insertMessage(ctx, db, "after"); err != nil {
			t.Fatal(err)
		}
		if ran.Load() || storetest.Count(t, db, `SELECT COUNT(*) FROM contact_messages WHERE id = 'cancelled'`) != 0 {
			t.Fatal("the write whose caller had gone was made")
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM contact_messages`); n != 2 {
			t.Fatalf("%d messages stored, want 2 (held, after)", n)
		}
	})
}

// Close waits for the write under way, which is committed, and refuses the
// writes that come after it.
func TestCloseWaitsForTheWriteUnderWayAndRefusesLaterOnes(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			ctx := context.Background()
			db, url, dir := openToReopen(t, engine)
			release := holdWrite(t, db, "under-way")
			// Every other lane of the Writer (PostgreSQL has a few) holds
			// a write that fails, so none of them is stored.
			var others []func() error
			for i := 1; i < store.WriterLanes(db); i++ {
				others = append(others, holdFailingWrite(t, db))
			}
			closed := make(chan error, 1)
			go func() { closed <- db.Close() }()
			// The Writer is busy, so this write can only be refused, once
			// Close has begun.
			if err := insertMessage(ctx, db, "later"); err == nil {
				t.Fatal("a write made while closing was accepted")
			}
			select {
			case err := <-closed:
				t.Fatalf("Close returned (%v) before the write under way was done", err)
			default:
			}
			if err := release(); err != nil {
				t.Fatalf("the write under way: %v", err)
			}
			for _, other := range others {
				other()
			}
			if err := <-closed; err != nil {
				t.Fatalf("Close: %v", err)
			}
			if err := insertMessage(ctx, db, "after"); err == nil {
				t.Fatal("a write after Close was accepted")
			}
			db, err := store.Open(ctx, url, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if n := storetest.Count(t, db, `SELECT COUNT(*) FROM contact_messages WHERE id = 'under-way'`); n != 1 {
				t.Fatal("the write under way while closing is not stored")
			}
			if n := storetest.Count(t, db, `SELECT COUNT(*) FROM contact_messages`); n != 1 {
				t.Fatalf("%d messages stored, want only the one under way", n)
			}
		})
	}
}

// openToReopen opens a fresh migrated database of engine that the test
// may close and open again with store.Open(ctx, url, dir).
func openToReopen(t *testing.T, engine store.Dialect) (db *store.DB, url, dir string) {
	t.Helper()
	dir = t.TempDir()
	if engine == store.Postgres {
		url = storetest.MigratedPostgresDatabase(t)
	}
	db, err := store.Open(context.Background(), url, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db, url, dir
}

// holdWrite starts a write that stores the message id once released, and
// returns when the Writer is running it; release lets it finish and
// returns its error.
// holdFailingWrite is holdWrite for a write that stores nothing and fails.
func holdFailingWrite(t *testing.T, db *store.DB) (release func() error) {
	t.Helper()
	holding, released := make(chan struct{}), make(chan struct{})
	held := make(chan error, 1)
	go func() {
		held <- db.InTx(context.Background(), func(tx *store.Tx) error {
			close(holding)
			<-released
			return errors.New("held")
		})
	}()
	<-holding
	return func() error { close(released); return <-held }
}

func holdWrite(t *testing.T, db *store.DB, id string) (release func() error) {
	t.Helper()
	ctx := context.Background()
	holding, released := make(chan struct{}), make(chan struct{})
	held := make(chan error, 1)
	go func() {
		held <- db.InTx(ctx, func(tx *store.Tx) error {
			close(holding)
			<-released
			return insertMessageTx(ctx, tx, id)
		})
	}()
	<-holding
	return func() error { close(released); return <-held }
}
