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

// Each program numbers its own line: sign-ups of the two programs, joined
// in turn with their confirmation e-mail as the form writes them, are
// told 1, 1, 2, 2, 3, 3.
func TestEachProgramNumbersItsOwnLine(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for i := range 6 {
			program := []string{"Upcycling Initiative", "Wardrobe Clearance Program"}[i%2]
			email := fmt.Sprintf("turn%d@example.com", i)
			su := &store.WaitlistSignup{Email: email, Program: program, UnsubscribeTokenHash: "h-" + email, Unconfirmed: true}
			join := store.WaitlistJoin{Email: &store.OutboxEmail{To: email, Subject: "You're on the list", Body: "Muli shani!", Kind: "waitlist"}}
			if i%4 == 3 {
				join.Email.Status, join.Email.Via = store.EmailSent, "log"
			}
			joined, p, err := db.JoinWaitlistInLine(ctx, su, join, store.LineEntry{Code: fmt.Sprintf("turn%06d", i)}, credit)
			if err != nil || !joined {
				t.Fatalf("%s: joined %v, %v", email, joined, err)
			}
			if p.Position != i/2+1 || p.Program != program {
				t.Fatalf("%s in %s told place %d of %s, want %d", email, program, p.Position, p.Program, i/2+1)
			}
		}
	})
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
		// On PostgreSQL the number the undone sign-up took from the line's
		// sequence is lost: this one is told one place too many, and sees
		// its place when it looks again.
		told := 2
		if db.Dialect() == store.Postgres {
			told = 3
		}
		joined, p, err = db.JoinWaitlistInLine(ctx, su, store.WaitlistJoin{Email: mail}, store.LineEntry{Code: "freecode01"}, credit)
		if err != nil || !joined || p.Position != told || p.Code != "freecode01" {
			t.Fatalf("join with a free code = %v, %+v, %v; want joined and told place %d", joined, p, err, told)
		}
		if p, err := db.PlaceInLine(ctx, p.SignupID); err != nil || p.Position != 2 {
			t.Fatalf("place in line %+v, %v; want 2", p, err)
		}
	})
}

// Sign-ups joining 32 at a time (on PostgreSQL through every writer lane)
// are each told a place no other is told, the place the line gives them
// once all are in; so are those joining after the database is dumped and
// loaded into either engine, behind the places it holds (a few of them
// given up before the dump).
func TestConcurrentJoinsAreToldPlacesOfTheirOwn(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		joinAtOnce(t, db, "first", 600, 1)
		for i := range 5 {
			s, err := db.WaitlistSignupByEmail(ctx, fmt.Sprintf("first%03d@example.com", i*100), "Upcycling Initiative")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.UnsubscribeWaitlist(ctx, s.ID, s.UnsubscribeTokenHash); err != nil {
				t.Fatal(err)
			}
		}
		d := dump(t, db)
		for _, engine := range storetest.Engines {
			t.Run("restored into "+string(engine), func(t *testing.T) {
				restored := storetest.Open(t, engine)
				if _, err := restored.Load(ctx, d, d.counts()); err != nil {
					t.Fatal(err)
				}
				d.t = 0
				joinAtOnce(t, restored, "then", 600, 596)
			})
		}
		joinAtOnce(t, db, "after", 100, 596)
	})
}

// joinAtOnce signs up n addresses of program Upcycling Initiative, 32 at
// a time, among writes that fail, and checks that they are told the places first to first+n-1,
// each to one of them, and that each is told the place the line gives it
// once all are in.
func joinAtOnce(t *testing.T, db *store.DB, prefix string, n, first int) {
	t.Helper()
	ctx := context.Background()
	told := make([]*store.LinePlace, n)
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				email := fmt.Sprintf("%s%03d@example.com", prefix, i)
				su := &store.WaitlistSignup{Email: email, Program: "Upcycling Initiative", UnsubscribeTokenHash: "h-" + email}
				code := fmt.Sprintf("%.4s%06d", prefix, i)
				_, told[i], errs[i] = db.JoinWaitlistInLine(ctx, su, store.WaitlistJoin{}, store.LineEntry{Code: code}, credit)
				if i%10 == 0 { // a write that fails: its group is undone and run again
					db.InTx(ctx, func(*store.Tx) error { return errors.New("undone") })
				}
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	byPlace := map[int]string{}
	for i, p := range told {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if other, ok := byPlace[p.Position]; ok {
			t.Fatalf("place %d told to %s and %s", p.Position, other, p.SignupID)
		}
		if p.Position < first || p.Position >= first+n {
			t.Fatalf("%s told place %d, outside %d..%d", p.SignupID, p.Position, first, first+n-1)
		}
		byPlace[p.Position] = p.SignupID
	}
	for _, p := range told {
		now, err := db.PlaceInLine(ctx, p.SignupID)
		if err != nil {
			t.Fatal(err)
		}
		if now.Position != p.Position {
			t.Fatalf("%s was told place %d and holds place %d", p.SignupID, p.Position, now.Position)
		}
	}
}
