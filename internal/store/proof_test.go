package store_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// A proof token proves only its own account's address, once, before it
// expires; looking at a token spends nothing.
func TestProveEmailWithToken(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := store.Now()
		holder, _ := newUserAndSession(t, db, "chipo@example.com", "r1")
		other, _ := newUserAndSession(t, db, "bupe@example.com", "r2")
		if err := db.AddOneTimeToken(ctx, holder.ID, store.TokenEmailProof, "p1", now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := db.AddOneTimeToken(ctx, holder.ID, store.TokenEmailProof, "old", now.Add(-time.Second)); err != nil {
			t.Fatal(err)
		}
		if err := db.AddOneTimeToken(ctx, holder.ID, store.TokenRecovery, "r", now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		proven := func(id string) bool {
			u, err := db.UserByID(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return u.EmailProvenAt != nil
		}
		for _, c := range []struct{ user, hash string }{
			{other.ID, "p1"},      // another account's token
			{holder.ID, "old"},    // expired
			{holder.ID, "r"},      // a token of another kind
			{holder.ID, "nope"},   // unknown
			{"missing", "p1"},     // no such account
			{holder.ID, "p1' --"}, // nothing but a hash
		} {
			if err := db.ProveEmailWithToken(ctx, c.user, c.hash, now); !errors.Is(err, store.ErrTokenInvalid) {
				t.Fatalf("%s with %q: err = %v, want ErrTokenInvalid", c.user, c.hash, err)
			}
		}
		if proven(holder.ID) || proven(other.ID) {
			t.Fatal("a refused token proved an address")
		}
		// Looking spends nothing: the token still proves afterwards.
		for range 2 {
			if id, err := db.OneTimeTokenUser(ctx, store.TokenEmailProof, "p1", now); err != nil || id != holder.ID {
				t.Fatalf("OneTimeTokenUser = %q, %v", id, err)
			}
		}
		if err := db.ProveEmailWithToken(ctx, holder.ID, "p1", now); err != nil {
			t.Fatal(err)
		}
		u, _ := db.UserByID(ctx, holder.ID)
		if u.EmailProvenAt == nil || !u.EmailProvenAt.Equal(now) || u.EmailConfirmedAt == nil {
			t.Fatalf("after proof: %+v", u)
		}
		if proven(other.ID) {
			t.Fatal("the other account was proven")
		}
		if err := db.ProveEmailWithToken(ctx, holder.ID, "p1", now); !errors.Is(err, store.ErrTokenInvalid) {
			t.Fatalf("second use: %v", err)
		}
		if _, err := db.OneTimeTokenUser(ctx, store.TokenEmailProof, "p1", now); !errors.Is(err, store.ErrTokenInvalid) {
			t.Fatalf("spent token looked up: %v", err)
		}
	})
}

// Deleting a person without their address's rows keeps the waitlist
// sign-ups and contact messages sent with it; with them, they go.
func TestDeletePersonKeepsTheAddressRowsUnlessAsked(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		for _, byAddress := range []bool{false, true} {
			u, _ := newUserAndSession(t, db, "mutale-"+strconv.FormatBool(byAddress)+"@example.com", "r-"+strconv.FormatBool(byAddress))
			if _, err := db.JoinWaitlist(ctx, &store.WaitlistSignup{Email: u.Email, Program: "Upcycling Initiative", UnsubscribeTokenHash: "h"}, store.WaitlistJoin{}); err != nil {
				t.Fatal(err)
			}
			if err := db.CreateContactMessage(ctx, &store.ContactMessage{FirstName: "Mutale", LastName: "Zulu", Email: u.Email,
				Subject: "other", Message: "Plot 12, Kabulonga"}, nil); err != nil {
				t.Fatal(err)
			}
			rows, err := db.DeletePerson(ctx, u.ID, byAddress)
			if err != nil {
				t.Fatal(err)
			}
			signups, _ := db.WaitlistSignupsOf(ctx, u.Email)
			messages, _ := db.ContactMessagesFrom(ctx, u.Email)
			if _, err := db.UserByID(ctx, u.ID); !errors.Is(err, store.ErrNotFound) || rows["users"] != 1 {
				t.Fatalf("byAddress %v: the account is still there (%v, %v)", byAddress, err, rows)
			}
			if byAddress && (len(signups) != 0 || len(messages) != 0 || rows["waitlist_signups"] != 1 || rows["contact_messages"] != 1) {
				t.Fatalf("byAddress: left %d sign-ups and %d messages, rows %v", len(signups), len(messages), rows)
			}
			if !byAddress {
				if len(signups) != 1 || len(messages) != 1 {
					t.Fatalf("without the address: left %d sign-ups and %d messages, want 1 and 1", len(signups), len(messages))
				}
				if _, ok := rows["waitlist_signups"]; ok {
					t.Fatalf("rows %v report the address's tables", rows)
				}
			}
		}
	})
}
