package store_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// credit credits every referral.
var credit = store.ReferralRule{Since: time.Hour, Judge: func(store.ReferralFacts) (bool, string) { return true, "" }}

func join(t *testing.T, db *store.DB, email, code, ref string) *store.LinePlace {
	t.Helper()
	ctx := context.Background()
	su := &store.WaitlistSignup{Email: email, Program: "Upcycling Initiative", UnsubscribeTokenHash: "h-" + email, Unconfirmed: true}
	_, p, err := db.JoinWaitlistInLine(ctx, su, store.WaitlistJoin{}, store.LineEntry{Code: code, RefCode: ref, IPHash: "ip-" + email, Mailbox: mailbox(email)}, credit)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// mailbox folds what the tests write two ways (validate.MailboxKey's job).
func mailbox(email string) string {
	return strings.TrimRight(strings.Replace(email, "@googlemail.com", "@gmail.com", 1), ".")
}

// confirm presses the confirm link's button of email's sign-up.
func confirm(t *testing.T, db *store.DB, email, code string) *store.LinePlace {
	t.Helper()
	ctx := context.Background()
	su, err := db.WaitlistSignupByEmail(ctx, email, "Upcycling Initiative")
	if err != nil {
		t.Fatal(err)
	}
	_, p, err := db.ConfirmWaitlist(ctx, su.ID, su.UnsubscribeTokenHash, store.LineEntry{Code: code, IPHash: "ip2-" + email})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Places follow the order of joining; each referral moves the referrer
// LineStep places ahead once the friend confirmed, one mailbox once;
// unsubscribing takes the place, the code and the credits away; coming
// back takes a confirmation.
func TestPlaceInLineMovesWithReferrals(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var last *store.LinePlace
		for i := range 15 {
			last = join(t, db, fmt.Sprintf("p%02d@example.com", i), fmt.Sprintf("code%06d", i), "")
			if last.Position != i+1 {
				t.Fatalf("sign-up %d: place %d", i, last.Position)
			}
		}
		// A repeated entry changes nothing and is no new place.
		if again := join(t, db, "p14@example.com", "othercode1", ""); again != nil {
			t.Fatalf("repeat: %+v", again)
		}
		placeOf := func(id string) *store.LinePlace {
			t.Helper()
			p, err := db.PlaceInLine(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		// p14 brings a friend: nothing moves until the friend confirms;
		// then key 15 - 10 = 5, ahead of p04 (key 5, no credits): place 5.
		friend := join(t, db, "x@googlemail.com", "code000099", "code000014")
		if friend.Position != 16 {
			t.Fatalf("friend's place %d, want 16", friend.Position)
		}
		if p := placeOf(last.SignupID); p.Position != 15 || p.Credits != 0 {
			t.Fatalf("referrer before the friend confirmed: %+v", p)
		}
		if p := confirm(t, db, "x@googlemail.com", "unused0001"); p.Position != 16 || p.Code != "code000099" {
			t.Fatalf("the friend confirmed: %+v", p)
		}
		if p := placeOf(last.SignupID); p.Position != 5 || p.Credits != 1 {
			t.Fatalf("referrer after one confirmed referral: %+v, want place 5 with 1 credit", p)
		}
		confirm(t, db, "x@googlemail.com", "unused0002") // again: nothing more
		// The same mailbox written another way is not a second friend.
		join(t, db, "x@gmail.com.", "code000096", "code000014")
		confirm(t, db, "x@gmail.com.", "unused0003")
		if p := placeOf(last.SignupID); p.Credits != 1 {
			t.Fatalf("referrer after the same mailbox twice: %+v", p)
		}
		// An unknown code or one of the same sign-up credits nobody.
		join(t, db, "nobody@example.com", "code000098", "zzzzzzzzzz")
		top, err := db.TopReferrers(ctx, "Upcycling Initiative", 10)
		if err != nil || len(top) != 1 || top[0].Email != "p14@example.com" || top[0].Referrals != 2 || top[0].Credited != 1 {
			t.Fatalf("top referrers %+v %v", top, err)
		}
		// The friend unsubscribes: the referrer's credit goes.
		fs, _ := db.WaitlistSignupByEmail(ctx, "x@googlemail.com", "Upcycling Initiative")
		if _, err := db.UnsubscribeWaitlist(ctx, fs.ID, fs.UnsubscribeTokenHash); err != nil {
			t.Fatal(err)
		}
		if p := placeOf(last.SignupID); p.Position != 15 || p.Credits != 0 {
			t.Fatalf("referrer after the friend left: %+v", p)
		}
		if _, err := db.PlaceInLine(ctx, fs.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("unsubscribed sign-up still has a place: %v", err)
		}
		// Joining again changes nothing; the confirm link brings the
		// friend back, at the end of the line, with the new link code.
		join(t, db, "x@googlemail.com", "code000095", "")
		if _, err := db.PlaceInLine(ctx, fs.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a repeated sign-up subscribed again without a confirmation: %v", err)
		}
		back := confirm(t, db, "x@googlemail.com", "code000097")
		if back.SignupID != fs.ID || back.Position != 18 || back.Code != "code000097" || back.Credits != 0 {
			t.Fatalf("friend back: %+v, want sign-up %s at place 18 with code000097", back, fs.ID)
		}
	})
}

// A sign-up and its place in line are kept together or not at all: a
// place that cannot be written (here its link code is taken) undoes the
// sign-up and its confirmation e-mail too.
func TestSignupAndPlaceAreOneWrite(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		join(t, db, "first@example.com", "samecode01", "")
		su := &store.WaitlistSignup{Email: "second@example.com", Program: "Upcycling Initiative", UnsubscribeTokenHash: "h-second"}
		mail := &store.OutboxEmail{To: su.Email, Subject: "You're on the list", Body: "Welcome", Kind: "waitlist"}
		joined, p, err := db.JoinWaitlistInLine(ctx, su, store.WaitlistJoin{Email: mail}, store.LineEntry{Code: "samecode01"}, credit)
		if err == nil || joined || p != nil {
			t.Fatalf("join with a taken code = %v, %+v, %v; want an error", joined, p, err)
		}
		if _, err := db.WaitlistSignupByEmail(ctx, su.Email, su.Program); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("the sign-up was kept without its place: %v", err)
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM outbox_emails WHERE to_address = 'second@example.com'`); n != 0 {
			t.Fatalf("%d e-mails queued for a sign-up that was undone", n)
		}
		// The same address joins with a free code: stored, second in line.
		joined, p, err = db.JoinWaitlistInLine(ctx, su, store.WaitlistJoin{Email: mail}, store.LineEntry{Code: "freecode01"}, credit)
		if err != nil || !joined || p.Position != 2 || p.Code != "freecode01" {
			t.Fatalf("join with a free code = %v, %+v, %v; want joined at place 2", joined, p, err)
		}
	})
}

// Sign-ups joining at once (on PostgreSQL through every writer lane) each
// get a place, and the line read afterwards holds every place from 1 to N
// once: the lanes' counters add up to the line's length, and two places
// handed the same order of joining by lanes committing together are told
// apart by their sign-ups' ids.
func TestConcurrentJoinsFillTheLineWithoutGapsOrRepeats(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		const n = 200
		ids := make(chan string, n)
		errs := make(chan error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				su := &store.WaitlistSignup{Email: fmt.Sprintf("c%03d@example.com", i), Program: "Upcycling Initiative", UnsubscribeTokenHash: fmt.Sprint(i)}
				_, p, err := db.JoinWaitlistInLine(ctx, su, store.WaitlistJoin{}, store.LineEntry{Code: fmt.Sprintf("conc%06d", i)}, credit)
				if err == nil && (p.Position < 1 || p.Position > n) {
					err = fmt.Errorf("%s: place %d out of 1..%d", su.Email, p.Position, n)
				}
				if err == nil {
					ids <- p.SignupID
				}
				errs <- err
			}()
		}
		wg.Wait()
		close(errs)
		close(ids)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		seen := map[int]string{}
		for id := range ids {
			p, err := db.PlaceInLine(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if other, ok := seen[p.Position]; ok {
				t.Fatalf("place %d held by %s and %s", p.Position, other, id)
			}
			seen[p.Position] = id
		}
		if len(seen) != n {
			t.Fatalf("%d places for %d sign-ups", len(seen), n)
		}
		if sum := storetest.Count(t, db, `SELECT SUM(n) FROM waitlist_line_counts WHERE program = 'Upcycling Initiative'`); sum != n {
			t.Fatalf("the counters add up to %d, want %d", sum, n)
		}
		// One more joins after them all: the end of the line.
		last := join(t, db, "late@example.com", "latecode01", "")
		if last.Position != n+1 {
			t.Fatalf("the late sign-up's place %d, want %d", last.Position, n+1)
		}
	})
}
