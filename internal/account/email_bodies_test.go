package account

import (
	"context"
	"testing"
	"time"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// SALAULA_EMAIL_BODY_RETENTION=0 clears a sent e-mail's body at the next
// sweep, however recent; the default keeps it for a week.
func TestSweepClearsSentBodiesAsTheSettingSays(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := store.Now()
		sent := now.Add(-time.Second)
		e := store.OutboxEmail{ID: store.NewOrderedID(), To: "mutale@example.com", Subject: "You're on the Salaula waitlist", Body: "Welcome",
			ListUnsubscribe: "https://salaula.example/u", Kind: "waitlist", Status: store.EmailSent, Via: "smtp", Attempts: 1, SentAt: &sent, CreatedAt: sent}
		if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.ImportEmails(ctx, []store.OutboxEmail{e}) }); err != nil {
			t.Fatal(err)
		}
		r := &Rules{DB: db, Now: func() time.Time { return now }}
		for _, tc := range []struct {
			setting time.Duration
			cleared int64
			body    string
		}{{DefaultEmailBodies, 0, "Welcome"}, {0, 1, ""}} {
			got, err := r.Sweep(ctx, Retention{EmailBodies: EmailBodiesFor(tc.setting)})
			if err != nil || got.EmailBodies != tc.cleared {
				t.Fatalf("setting %v: swept %+v, %v; want %d bodies cleared", tc.setting, got, err, tc.cleared)
			}
			emails, err := db.EmailsTo(ctx, "mutale@example.com", 10)
			if err != nil || len(emails) != 1 || emails[0].Body != tc.body || emails[0].Subject != e.Subject {
				t.Fatalf("setting %v: outbox %+v, %v; want body %q and the subject kept", tc.setting, emails, err, tc.body)
			}
		}
	})
}
