package store_test

import (
	"context"
	"testing"
	"time"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// TestClearSentBodies empties the body of the e-mails sent before the
// cut-off and keeps the rest of them, and the body of newer and unsent ones.
func TestClearSentBodies(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := store.Now()
		old, recent := now.Add(-8*24*time.Hour), now.Add(-time.Hour)
		emails := []store.OutboxEmail{
			{ID: store.NewOrderedID(), To: "a@example.com", Subject: "Old", Body: "old body", ListUnsubscribe: "https://salaula.example/u", Kind: "waitlist", Status: store.EmailSent, Via: "smtp", Attempts: 1, SentAt: &old, CreatedAt: old},
			{ID: store.NewOrderedID(), To: "a@example.com", Subject: "New", Body: "new body", Kind: "waitlist", Status: store.EmailSent, Via: "smtp", Attempts: 1, SentAt: &recent, CreatedAt: recent},
			{ID: store.NewOrderedID(), To: "a@example.com", Subject: "Queued", Body: "queued body", Kind: "waitlist", Status: store.EmailQueued, NextAttemptAt: &old, CreatedAt: old},
		}
		if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.ImportEmails(ctx, emails) }); err != nil {
			t.Fatal(err)
		}
		for _, want := range []int64{1, 0} { // the second sweep finds nothing left to clear
			n, err := db.ClearSentBodies(ctx, now.Add(-7*24*time.Hour))
			if err != nil || n != want {
				t.Fatalf("cleared %d, %v; want %d", n, err, want)
			}
		}
		got, err := db.EmailsTo(ctx, "a@example.com", 10)
		if err != nil {
			t.Fatal(err)
		}
		bodies := map[string]string{}
		for _, e := range got {
			bodies[e.Subject] = e.Body + e.ListUnsubscribe
		}
		if bodies["Old"] != "" || bodies["New"] != "new body" || bodies["Queued"] != "queued body" || len(bodies) != 3 {
			t.Fatalf("bodies after clearing: %q", bodies)
		}
	})
}
