package store_test

import (
	"context"
	"errors"
	"fmt"
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
