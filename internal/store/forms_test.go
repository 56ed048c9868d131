package store_test

import (
	"context"
	"errors"
	"testing"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
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
		if joined, err := db.JoinWaitlist(ctx, s, nil); err != nil || !joined {
			t.Fatalf("first join: %v, %v", joined, err)
		}
		again := &store.WaitlistSignup{Email: "mwila@example.com", Program: "Upcycling Initiative", PagePath: "/other", UnsubscribeTokenHash: "h2"}
		if joined, err := db.JoinWaitlist(ctx, again, nil); err != nil || joined {
			t.Fatalf("repeat join: %v, %v", joined, err)
		}
		other := &store.WaitlistSignup{Email: "mwila@example.com", Program: "Wardrobe Clearance Program", UnsubscribeTokenHash: "h3"}
		if joined, err := db.JoinWaitlist(ctx, other, nil); err != nil || !joined {
			t.Fatalf("other program: %v, %v", joined, err)
		}
		got, err := db.WaitlistSignupByEmail(ctx, "mwila@example.com", "Upcycling Initiative")
		if err != nil || got.PagePath != "/impact" || got.UTMSource != "whatsapp" || got.UnsubscribeTokenHash != "h1" || !got.CreatedAt.Equal(s.CreatedAt) {
			t.Fatalf("stored %+v, %v", got, err)
		}
		if _, err := db.UnsubscribeWaitlist(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("unknown token: %v", err)
		}
		u, err := db.UnsubscribeWaitlist(ctx, "h1")
		if err != nil || u.UnsubscribedAt == nil || u.Email != "mwila@example.com" {
			t.Fatalf("unsubscribe: %+v, %v", u, err)
		}
		u2, _ := db.UnsubscribeWaitlist(ctx, "h1")
		if !u2.UnsubscribedAt.Equal(*u.UnsubscribedAt) {
			t.Fatal("a second unsubscribe moved the time")
		}
		var programs []string
		db.EachWaitlistSignup(ctx, "Wardrobe Clearance Program", func(s *store.WaitlistSignup) error {
			programs = append(programs, s.Program)
			return nil
		})
		if len(programs) != 1 {
			t.Fatalf("filtered export: %v", programs)
		}
		// Rejoining after unsubscribing subscribes again, keeping the first
		// token (its link works again), and is not a new sign-up.
		back := &store.WaitlistSignup{Email: "mwila@example.com", Program: "Upcycling Initiative", UnsubscribeTokenHash: "h4"}
		ran := false
		if joined, err := db.JoinWaitlist(ctx, back, func(*store.Tx) error { ran = true; return nil }); err != nil || joined || ran {
			t.Fatalf("rejoin: joined %v, onJoin ran %v, %v", joined, ran, err)
		}
		got, _ = db.WaitlistSignupByEmail(ctx, "mwila@example.com", "Upcycling Initiative")
		if got.UnsubscribedAt != nil || got.UnsubscribeTokenHash != "h1" {
			t.Fatalf("after rejoin %+v", got)
		}
		n := 0
		db.EachWaitlistSignup(ctx, "", func(*store.WaitlistSignup) error { n++; return nil })
		if n != 2 {
			t.Fatalf("%d sign-ups in all", n)
		}
	})
}
