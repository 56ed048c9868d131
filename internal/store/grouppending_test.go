package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// Sign-ups committed together in groups, mixed with transactions that read
// the roll-up and the outbox (so the group's pending counts and e-mails are
// written inside their savepoint) and then fail, and with unsubscribes:
// afterwards the roll-ups equal a recount of the sign-ups, and exactly the
// kept sign-ups have their confirmation e-mail queued.
func TestGroupedSignUpsKeepRollUpsAndEmailsExact(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		const n = 120
		var wg sync.WaitGroup
		joined := make([]bool, n)
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				switch i % 6 {
				case 5: // reads what is pending, then fails: nothing of it may stay
					errs[i] = db.InTx(ctx, func(tx *store.Tx) error {
						var c int
						if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM waitlist_counts`).Scan(&c); err != nil {
							return err
						}
						if _, err := tx.Exec(ctx, `DELETE FROM outbox_emails WHERE to_address = ?`, "nobody@example.com"); err != nil {
							return err
						}
						return errors.New("refused")
					})
				default:
					s := &store.WaitlistSignup{Email: fmt.Sprintf("g%d@example.com", i%40), Program: []string{"Upcycling Initiative", "Wardrobe Clearance Program"}[i%2],
						UTMSource: []string{"", "whatsapp", "facebook"}[i%3], UnsubscribeTokenHash: fmt.Sprintf("gh%d", i)}
					joined[i], errs[i] = db.JoinWaitlist(ctx, s, func(tx *store.Tx) error {
						return tx.EnqueueEmail(ctx, &store.OutboxEmail{To: s.Email, Subject: "You're on the list", Body: "b", Kind: "waitlist"})
					})
					if errs[i] == nil && i%4 == 1 {
						_, errs[i] = db.UnsubscribeWaitlist(ctx, s.ID, s.UnsubscribeTokenHash)
						if errors.Is(errs[i], store.ErrNotFound) { // a repeat: its token was never stored
							errs[i] = nil
						}
					}
				}
			}()
		}
		wg.Wait()
		kept := 0
		for i, err := range errs {
			if (i%6 == 5) != (err != nil) {
				t.Fatalf("transaction %d: %v", i, err)
			}
			if joined[i] {
				kept++
			}
		}
		var signups, emails int
		db.QueryRow(ctx, `SELECT COUNT(*) FROM waitlist_signups`).Scan(&signups)
		db.QueryRow(ctx, `SELECT COUNT(*) FROM outbox_emails WHERE kind = 'waitlist'`).Scan(&emails)
		if signups != kept || emails != kept || kept == 0 {
			t.Fatalf("%d sign-ups stored, %d e-mails queued, %d joins answered", signups, emails, kept)
		}
		var sub, unsub, daily int
		db.QueryRow(ctx, `SELECT COALESCE(SUM(subscribed), 0), COALESCE(SUM(unsubscribed), 0) FROM waitlist_counts`).Scan(&sub, &unsub)
		db.QueryRow(ctx, `SELECT COALESCE(SUM(signups), 0) FROM waitlist_daily`).Scan(&daily)
		var wantSub, wantUnsub int
		db.QueryRow(ctx, `SELECT COUNT(*) FROM waitlist_signups WHERE unsubscribed_at IS NULL`).Scan(&wantSub)
		db.QueryRow(ctx, `SELECT COUNT(*) FROM waitlist_signups WHERE unsubscribed_at IS NOT NULL`).Scan(&wantUnsub)
		if sub != wantSub || unsub != wantUnsub || daily != signups {
			t.Fatalf("roll-up: %d subscribed, %d unsubscribed, %d by day; sign-ups: %d subscribed, %d unsubscribed", sub, unsub, daily, wantSub, wantUnsub)
		}
		// Per key as well, not only in total.
		var off int
		db.QueryRow(ctx, `SELECT COUNT(*) FROM waitlist_counts c WHERE subscribed <> (SELECT COUNT(*) FROM waitlist_signups s
			WHERE s.program = c.program AND s.utm_source = c.utm_source AND s.utm_campaign = c.utm_campaign AND s.referrer = c.referrer
			AND s.page_path = c.page_path AND s.unsubscribed_at IS NULL)`).Scan(&off)
		if off != 0 {
			t.Fatalf("%d roll-up rows differ from the sign-ups", off)
		}
	})
}
