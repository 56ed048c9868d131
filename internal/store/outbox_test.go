package store_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

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
		if err := db.MarkEmailSent(ctx, ids["sent@example.com"], "smtp", at(0), false); err != nil {
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

// TableBytes counts what a table and its indexes take: the sent records grow by
// at least each e-mail's address and subject for 2,000 e-mails, and the
// other tables do not count.
func TestTableBytesCountsATableAndItsIndexes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		before, err := db.TableBytes(ctx, "sent_emails")
		if err != nil {
			t.Fatal(err)
		}
		users, err := db.TableBytes(ctx, "users")
		if err != nil {
			t.Fatal(err)
		}
		emails := make([]store.OutboxEmail, 2000)
		for i := range emails {
			emails[i] = store.OutboxEmail{ID: store.NewOrderedID(), To: fmt.Sprintf("reader%04d@example.com", i), Subject: "You're on the Salaula waitlist",
				Kind: "waitlist", Status: store.EmailSent, CreatedAt: store.Now()}
		}
		if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.ImportEmails(ctx, emails) }); err != nil {
			t.Fatal(err)
		}
		after, err := db.TableBytes(ctx, "sent_emails")
		if err != nil {
			t.Fatal(err)
		}
		if grown := after - before; grown < 2000*(21+30) {
			t.Errorf("the sent e-mails grew by %d bytes for 2,000 e-mails", grown)
		}
		if again, err := db.TableBytes(ctx, "users"); err != nil || again != users {
			t.Errorf("users: %d bytes, then %d (%v)", users, again, err)
		}
	})
}

// The claim finds the few due e-mails among 20,000 given up (they stay in
// the outbox, with their error, until the retention ends) through the due
// index, which holds only e-mails with a next attempt: no read of the
// whole outbox, and exactly the due ones come back.
func TestClaimFindsTheDueAmongManyGivenUpThroughTheDueIndex(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := store.Now()
		var emails []store.OutboxEmail
		for i := range 20_000 {
			at := now.Add(-time.Duration(i) * time.Second)
			emails = append(emails, store.OutboxEmail{ID: store.NewOrderedID(), To: fmt.Sprintf("s%d@example.com", i), Subject: "s",
				Kind: "waitlist", Status: store.EmailFailed, Attempts: 5, LastError: "550 no such user", CreatedAt: at})
		}
		due := now.Add(-time.Minute)
		for i := range 5 {
			emails = append(emails, store.OutboxEmail{ID: store.NewOrderedID(), To: fmt.Sprintf("q%d@example.com", i), Subject: "q",
				Kind: "waitlist", Status: store.EmailQueued, NextAttemptAt: &due, CreatedAt: due})
		}
		if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.ImportEmails(ctx, emails) }); err != nil {
			t.Fatal(err)
		}
		if err := db.Analyze(ctx); err != nil {
			t.Fatal(err)
		}
		for _, status := range []string{store.EmailQueued, store.EmailFailing} {
			plan := explain(t, db, store.DueEmailsSQL(status), now, 100)
			if !strings.Contains(plan, "outbox_emails_due") || fullScan(plan) {
				t.Errorf("%s: the plan does not read the due index alone:\n%s", status, plan)
			}
		}
		got, err := db.ClaimEmails(ctx, now, time.Minute, 100)
		if err != nil || len(got) != 5 {
			t.Fatalf("claimed %d, %v; want the 5 queued", len(got), err)
		}
		for _, e := range got {
			if e.Subject != "q" {
				t.Errorf("claimed %s (%s); only the queued are due", e.To, e.Status)
			}
		}
	})
}

// A sent e-mail leaves the outbox in the write that records it sent, for a
// record without an id or attempts (migration 0043), its body emptied or kept as
// asked; erasing an address and the retention take the records too.
func TestSentEmailsLeaveTheOutboxForTheirRecords(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		enqueue := func(to, subject string) {
			err := db.InTx(ctx, func(tx *store.Tx) error {
				return tx.EnqueueEmail(ctx, &store.OutboxEmail{To: to, Subject: subject, Body: subject + " body", Kind: "k", ListUnsubscribe: "https://salaula.example/u"})
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		enqueue("x@example.com", "cleared")
		enqueue("x@example.com", "kept")
		enqueue("y@example.com", "waiting")
		claimed, err := db.ClaimEmails(ctx, store.Now(), time.Minute, 2)
		if err != nil || len(claimed) != 2 {
			t.Fatalf("claimed %d, %v", len(claimed), err)
		}
		at := store.Now()
		for _, e := range claimed {
			if err := db.MarkEmailSent(ctx, e.ID, "smtp", at, e.Subject == "cleared"); err != nil {
				t.Fatal(err)
			}
		}
		if counts, err := db.OutboxCounts(ctx); err != nil || !maps.Equal(counts, map[string]int{"sent": 2, "queued": 1}) {
			t.Fatalf("counts %v, %v", counts, err)
		}
		sent, err := db.EmailsTo(ctx, "x@example.com", 10)
		if err != nil || len(sent) != 2 {
			t.Fatalf("records %+v, %v", sent, err)
		}
		for _, e := range sent {
			body := e.Body + e.ListUnsubscribe
			if e.ID != "" || e.Status != store.EmailSent || e.Via != "smtp" || e.SentAt == nil || !e.SentAt.Equal(at) ||
				(e.Subject == "cleared") != (body == "") {
				t.Errorf("record %+v", e)
			}
		}
		// The log's delivery takes and records in one step; the e-mails
		// come back whole, their records without the body.
		taken, err := db.TakeEmailsAsSent(ctx, store.Now(), "log", 10, true)
		if err != nil || len(taken) != 1 || taken[0].Body != "waiting body" || taken[0].Status != store.EmailSent || taken[0].Attempts != 1 { // as delivered now
			t.Fatalf("taken %+v, %v", taken, err)
		}
		if got, err := db.EmailsTo(ctx, "y@example.com", 10); err != nil || len(got) != 1 || got[0].Body != "" || got[0].Via != "log" {
			t.Fatalf("record of the logged e-mail %+v, %v", got, err)
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM outbox_emails`); n != 0 {
			t.Fatalf("%d e-mails left in the outbox", n)
		}
		if n, err := db.DeleteEmailsTo(ctx, "x@example.com"); err != nil || n != 2 {
			t.Fatalf("erased %d, %v", n, err)
		}
		if got, err := db.EmailsTo(ctx, "x@example.com", 10); err != nil || len(got) != 0 {
			t.Fatalf("after erasing: %+v, %v", got, err)
		}
		if n, err := db.DeleteEmailsBefore(ctx, store.Now().Add(time.Hour)); err != nil || n != 1 {
			t.Fatalf("retention took %d, %v", n, err)
		}
		if counts, err := db.OutboxCounts(ctx); err != nil || !maps.Equal(counts, map[string]int{"sent": 0}) {
			t.Fatalf("counts at the end %v, %v", counts, err)
		}
	})
}
