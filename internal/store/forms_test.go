package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
	"salaula/internal/validate"
)

func TestContactMessagesRoundTrip(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for _, first := range []string{"Chanda", "Mutale"} {
			m := &store.ContactMessage{FirstName: first, LastName: "Phiri", Email: "p@example.com", Subject: "careers", Message: "Are you hiring in Lusaka?"}
			if err := db.CreateContactMessage(ctx, m, nil); err != nil {
				t.Fatal(err)
			}
		}
		var got []string
		if err := db.EachContactMessage(ctx, func(m *store.ContactMessage) error {
			if m.ID == "" || m.CreatedAt.IsZero() || m.CreatedAt.Location().String() != "UTC" || m.Message != "Are you hiring in Lusaka?" {
				t.Fatalf("read back %+v", m)
			}
			got = append(got, m.FirstName)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0] != "Chanda" || got[1] != "Mutale" {
			t.Fatalf("messages in order: %v", got)
		}
	})
}

func TestWaitlistJoinsOncePerProgramAndUnsubscribes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := &store.WaitlistSignup{Email: "mwila@example.com", Program: "Upcycling Initiative", PagePath: "/impact", UTMSource: "whatsapp", UnsubscribeTokenHash: "h1"}
		if joined, err := db.JoinWaitlist(ctx, s, store.WaitlistJoin{}); err != nil || !joined {
			t.Fatalf("first join: %v, %v", joined, err)
		}
		again := &store.WaitlistSignup{Email: "mwila@example.com", Program: "Upcycling Initiative", PagePath: "/other", UnsubscribeTokenHash: "h2"}
		if joined, err := db.JoinWaitlist(ctx, again, store.WaitlistJoin{}); err != nil || joined {
			t.Fatalf("repeat join: %v, %v", joined, err)
		}
		other := &store.WaitlistSignup{Email: "mwila@example.com", Program: "Wardrobe Clearance Program", UnsubscribeTokenHash: "h3"}
		if joined, err := db.JoinWaitlist(ctx, other, store.WaitlistJoin{}); err != nil || !joined {
			t.Fatalf("other program: %v, %v", joined, err)
		}
		got, err := db.WaitlistSignupByEmail(ctx, "mwila@example.com", "Upcycling Initiative")
		if err != nil || got.PagePath != "/impact" || got.UTMSource != "whatsapp" || got.UnsubscribeTokenHash != "h1" || !got.CreatedAt.Equal(s.CreatedAt) {
			t.Fatalf("stored %+v, %v", got, err)
		}
		// A link names the sign-up's ID and must match its token hash; a
		// link without an ID (made before 0019) is found by the hash alone.
		for _, bad := range [][2]string{{"", "nope"}, {s.ID, "nope"}, {s.ID, "h3"}, {other.ID, "h1"}, {store.NewOrderedID(), "h1"}} {
			if _, err := db.UnsubscribeWaitlist(ctx, bad[0], bad[1]); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("unsubscribe %q with %q: %v, want not found", bad[0], bad[1], err)
			}
		}
		if got, _ := db.WaitlistSignupByEmail(ctx, "mwila@example.com", "Upcycling Initiative"); got.UnsubscribedAt != nil {
			t.Fatal("a wrong link unsubscribed")
		}
		u, err := db.UnsubscribeWaitlist(ctx, s.ID, "h1")
		if err != nil || u.UnsubscribedAt == nil || u.Email != "mwila@example.com" || u.ID != s.ID {
			t.Fatalf("unsubscribe: %+v, %v", u, err)
		}
		u2, _ := db.UnsubscribeWaitlist(ctx, "", "h1")
		if u2 == nil || !u2.UnsubscribedAt.Equal(*u.UnsubscribedAt) {
			t.Fatalf("a second unsubscribe (an old link) moved the time: %+v", u2)
		}
		if o, err := db.WaitlistSignupByEmail(ctx, "mwila@example.com", "Wardrobe Clearance Program"); err != nil || o.UnsubscribedAt != nil {
			t.Fatalf("the other program's sign-up changed: %+v, %v", o, err)
		}
		var programs []string
		db.EachWaitlistSignup(ctx, "Wardrobe Clearance Program", func(s *store.WaitlistSignup) error {
			programs = append(programs, s.Program)
			return nil
		})
		if len(programs) != 1 {
			t.Fatalf("filtered export: %v", programs)
		}
		// Joining again after unsubscribing changes nothing (the confirm
		// link e-mailed to the address subscribes it again) and is not a
		// new sign-up.
		back := &store.WaitlistSignup{Email: "mwila@example.com", Program: "Upcycling Initiative", UnsubscribeTokenHash: "h4"}
		ran := false
		with := store.WaitlistJoin{Email: &store.OutboxEmail{To: back.Email, Subject: "s", Body: "b", Kind: "rejoin"},
			AfterCommit: func() { ran = true }}
		before := storetest.Count(t, db, `SELECT COALESCE(SUM(signups), 0) FROM waitlist_daily`)
		if joined, err := db.JoinWaitlist(ctx, back, with); err != nil || joined || ran {
			t.Fatalf("rejoin: joined %v, its after-commit hook ran %v, %v", joined, ran, err)
		}
		if storetest.Count(t, db, `SELECT COUNT(*) FROM outbox_emails WHERE kind = 'rejoin'`) != 0 ||
			storetest.Count(t, db, `SELECT COALESCE(SUM(signups), 0) FROM waitlist_daily`) != before {
			t.Fatal("a rejoin wrote what comes with a new sign-up")
		}
		got, _ = db.WaitlistSignupByEmail(ctx, "mwila@example.com", "Upcycling Initiative")
		if got.UnsubscribedAt == nil || got.UnsubscribeTokenHash != "h1" {
			t.Fatalf("after rejoin %+v", got)
		}
		n := 0
		db.EachWaitlistSignup(ctx, "", func(*store.WaitlistSignup) error { n++; return nil })
		if n != 2 {
			t.Fatalf("%d sign-ups in all", n)
		}
	})
}

// A sign-up keeps its program as a code (migration 0042): every program
// the form offers has one, and a name that is none is refused with nothing
// stored.
func TestWaitlistProgramsHaveCodes(t *testing.T) {
	for _, p := range validate.Programs {
		if !store.IsProgram(p) {
			t.Errorf("the form's program %q has no code", p)
		}
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		joined, err := db.JoinWaitlist(ctx, &store.WaitlistSignup{Email: "k@example.com", Program: "Knitting Circle", UnsubscribeTokenHash: "h"}, store.WaitlistJoin{})
		if joined || err == nil || !strings.Contains(err.Error(), `"Knitting Circle" is not a waitlist program`) {
			t.Fatalf("join of an unknown program: %v, %v", joined, err)
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM waitlist_signups`); n != 0 {
			t.Fatalf("%d sign-ups stored", n)
		}
		for _, p := range validate.Programs {
			s := &store.WaitlistSignup{Email: "k@example.com", Program: p, UnsubscribeTokenHash: "h-" + p}
			if joined, err := db.JoinWaitlist(ctx, s, store.WaitlistJoin{}); !joined || err != nil {
				t.Fatalf("join %s: %v, %v", p, joined, err)
			}
			got, err := db.WaitlistSignupByEmail(ctx, "k@example.com", p)
			if err != nil || got.Program != p || got.ID != s.ID {
				t.Fatalf("sign-up of %s read back: %+v, %v", p, got, err)
			}
		}
	})
}
