package account

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"salaula/internal/mail"
	"salaula/internal/media"
	"salaula/internal/password"
	"salaula/internal/ratelimit"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

const (
	victim   = "chanda@example.com"
	secret   = "Plot 12, Kabulonga: my home address"
	accountP = "Chitenge-Lusaka-42"
)

// addressRows puts what a visitor sends with their address: a contact
// message with their phone and home address, a waitlist sign-up and its
// confirmation e-mail.
func addressRows(t *testing.T, db *store.DB, email string) {
	t.Helper()
	ctx := context.Background()
	if err := db.CreateContactMessage(ctx, &store.ContactMessage{FirstName: "Chanda", LastName: "Phiri", Email: email,
		PhoneNumber: "+260971234567", Subject: "other", Message: secret}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := db.JoinWaitlist(ctx, &store.WaitlistSignup{Email: email, Program: "Upcycling Initiative", UnsubscribeTokenHash: "h-" + email}, store.WaitlistJoin{}); err != nil {
		t.Fatal(err)
	}
	if err := db.InTx(ctx, func(tx *store.Tx) error {
		return tx.EnqueueEmail(ctx, &store.OutboxEmail{To: email, Subject: "You're on the list", Body: "Muli shani", Kind: "waitlist"})
	}); err != nil {
		t.Fatal(err)
	}
}

// signedUp makes an account with email as sign-up does with confirmation
// off: confirmed at once for sign-in, the address not proven.
func signedUp(t *testing.T, db *store.DB, email string) *store.User {
	t.Helper()
	hash, err := password.Hash(accountP)
	if err != nil {
		t.Fatal(err)
	}
	now := store.Now()
	u := &store.User{Email: email, PasswordHash: hash, EmailConfirmedAt: &now}
	if err := db.CreateUser(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	return u
}

func rules(t *testing.T, db *store.DB) *Rules {
	t.Helper()
	m, err := media.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outbox, err := mail.New(db, "Salaula <hello@salaula.example>", "", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return &Rules{DB: db, Media: m, Mailer: outbox, SupportEmail: "support@salaula.example", PublicURL: "https://salaula.example",
		EmailQuota: ratelimit.DefaultEmailQuota}
}

// held counts what is stored under the address: contact messages,
// waitlist sign-ups and outbox e-mails.
func held(t *testing.T, db *store.DB, email string) (messages, signups, emails int) {
	t.Helper()
	ctx := context.Background()
	m, err := db.ContactMessagesFrom(ctx, email)
	if err != nil {
		t.Fatal(err)
	}
	s, err := db.WaitlistSignupsOf(ctx, email)
	if err != nil {
		t.Fatal(err)
	}
	e, err := db.EmailsTo(ctx, email, 100)
	if err != nil {
		t.Fatal(err)
	}
	return len(m), len(s), len(e)
}

// proofToken reads the token of the newest proof link e-mailed to email.
func proofToken(t *testing.T, db *store.DB, email string) string {
	t.Helper()
	sent, err := mail.Recent(context.Background(), db, email, 1)
	if err != nil || len(sent) != 1 || sent[0].Kind != "email_proof" {
		t.Fatalf("newest e-mail to %s: %+v, %v", email, sent, err)
	}
	link := regexp.MustCompile(`https://salaula\.example/account/prove_email\?\S+`).FindString(sent[0].Body)
	u, err := url.Parse(link)
	if err != nil || link == "" {
		t.Fatalf("no proof link in %q", sent[0].Body)
	}
	return u.Query().Get("token_hash")
}

// Someone who signs up with another person's address, without proving it,
// sees, exports and erases none of what that person sent with it.
func TestAnUnprovenAccountGetsNothingSentWithItsAddress(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		r := rules(t, db)
		addressRows(t, db, victim)
		intruder := signedUp(t, db, victim)

		a, err := r.AddressOf(ctx, intruder.ID)
		if err != nil {
			t.Fatal(err)
		}
		if a.Proven || a.ProvenAt != nil || len(a.ContactMessages) != 0 || len(a.WaitlistSignups) != 0 || a.Email != victim {
			t.Fatalf("address of an unproven account: %+v", a)
		}
		x, err := r.ExportOwn(ctx, Caller{UserID: intruder.ID}, "https://salaula.example")
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := json.Marshal(x)
		if strings.Contains(string(doc), secret) || strings.Contains(string(doc), "+260971234567") || len(x.ContactMessages) != 0 || len(x.WaitlistSignups) != 0 {
			t.Fatalf("the export gives away the visitor's message: %s", doc)
		}
		if x.Account.EmailProven || !strings.Contains(x.AddressNotProven, "has not proved that it holds that address") ||
			!strings.Contains(string(doc), `"address_not_proven":`) || !strings.Contains(string(doc), `"email_proven":false`) {
			t.Fatalf("the export does not say why the lists are empty: %s", doc)
		}

		d, err := r.DeleteOwn(ctx, Caller{UserID: intruder.ID}, accountP)
		if err != nil {
			t.Fatal(err)
		}
		if d.ByAddress {
			t.Fatalf("deleted %+v", d)
		}
		if _, err := db.UserByID(ctx, intruder.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("the account is still there: %v", err)
		}
		if m, s, e := held(t, db, victim); m != 1 || s != 1 || e < 1 {
			t.Fatalf("after deleting the unproven account: %d messages, %d sign-ups, %d e-mails left; want the visitor's kept", m, s, e)
		}
		sent, _ := mail.Recent(ctx, db, victim, 1)
		if len(sent) != 1 || sent[0].Kind != "account_deleted" || !strings.Contains(sent[0].Body, "were kept") {
			t.Fatalf("deletion e-mail %+v", sent)
		}
	})
}

// The holder of the address proves it with the link e-mailed to it; from
// then on the account sees, exports and erases what was sent with it.
func TestAProvenAccountGetsWhatWasSentWithItsAddress(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		r := rules(t, db)
		addressRows(t, db, victim)
		holder := signedUp(t, db, victim)
		other := signedUp(t, db, "bupe@example.com")

		if email, err := r.SendProof(ctx, Caller{UserID: holder.ID}); err != nil || email != victim {
			t.Fatalf("SendProof = %q, %v", email, err)
		}
		tok := proofToken(t, db, victim)
		// A second link within the minute is refused, and nothing is sent.
		if _, err := r.SendProof(ctx, Caller{UserID: holder.ID}); !errors.Is(err, ErrTooManyEmails) {
			t.Fatalf("second SendProof: %v", err)
		}
		if proofToken(t, db, victim) != tok {
			t.Fatal("a refused SendProof sent a link")
		}
		// Another account cannot use the link, nor can a bad token; they change nothing.
		for _, c := range []struct{ user, tok string }{{other.ID, tok}, {holder.ID, "x" + tok}, {holder.ID, strings.Repeat("a", 5000)}} {
			if err := r.ProveAddress(ctx, Caller{UserID: c.user}, c.tok); !errors.Is(err, ErrLinkInvalid) {
				t.Fatalf("ProveAddress(%s, %.20q) = %v, want ErrLinkInvalid", c.user, c.tok, err)
			}
		}
		if err := r.ProveAddress(ctx, Caller{UserID: holder.ID}, " "); !errors.Is(err, ErrLinkNeeded) {
			t.Fatalf("ProveAddress without a token = %v, want ErrLinkNeeded", err)
		}
		if a, _ := r.AddressOf(ctx, holder.ID); a.Proven {
			t.Fatal("proven by a refused link")
		}
		if err := r.ProveAddress(ctx, Caller{UserID: holder.ID}, tok); err != nil {
			t.Fatal(err)
		}
		if err := r.ProveAddress(ctx, Caller{UserID: holder.ID}, tok); !errors.Is(err, ErrLinkInvalid) {
			t.Fatalf("the link worked twice: %v", err)
		}
		if _, err := r.SendProof(ctx, Caller{UserID: holder.ID}); !errors.Is(err, ErrAlreadyProven) {
			t.Fatalf("SendProof when proven: %v", err)
		}

		a, err := r.AddressOf(ctx, holder.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !a.Proven || a.ProvenAt == nil || len(a.ContactMessages) != 1 || a.ContactMessages[0].Message != secret ||
			len(a.WaitlistSignups) != 1 || a.WaitlistSignups[0].Program != "Upcycling Initiative" {
			t.Fatalf("address of the proven account: %+v", a)
		}
		x, err := r.ExportOwn(ctx, Caller{UserID: holder.ID}, "https://salaula.example")
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := json.Marshal(x)
		if !x.Account.EmailProven || x.AddressNotProven != "" || strings.Contains(string(doc), "address_not_proven") ||
			len(x.ContactMessages) != 1 || x.ContactMessages[0].PhoneNumber != "+260971234567" || len(x.WaitlistSignups) != 1 {
			t.Fatalf("export of the proven account: %s", doc)
		}
		d, err := r.DeleteOwn(ctx, Caller{UserID: holder.ID}, accountP)
		if err != nil {
			t.Fatal(err)
		}
		if !d.ByAddress || d.Rows["contact_messages"] != 1 || d.Rows["waitlist_signups"] != 1 {
			t.Fatalf("deleted %+v", d)
		}
		if m, s, _ := held(t, db, victim); m != 0 || s != 0 {
			t.Fatalf("after deleting the proven account: %d messages, %d sign-ups left", m, s)
		}
		sent, _ := mail.Recent(ctx, db, victim, 5)
		if len(sent) != 1 || sent[0].Kind != "account_deleted" || !strings.Contains(sent[0].Body, "your waitlist sign-ups and the messages you sent us") {
			t.Fatalf("after deletion the outbox holds %+v; want only the confirmation", sent)
		}
	})
}

// An operator acts on a request they checked themselves: the command line's
// export and delete take every row under the address, proven or not.
func TestOperatorsExportAndDeleteEveryRowOfTheAddress(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		r := rules(t, db)
		addressRows(t, db, victim)
		signedUp(t, db, victim)
		x, err := r.ExportByEmail(ctx, "operator", victim, "https://salaula.example")
		if err != nil {
			t.Fatal(err)
		}
		if len(x.ContactMessages) != 1 || len(x.WaitlistSignups) != 1 || x.AddressNotProven != "" || x.Account.EmailProven {
			t.Fatalf("operator export %+v", x)
		}
		d, err := r.DeleteByEmail(ctx, "operator", victim)
		if err != nil {
			t.Fatal(err)
		}
		if !d.ByAddress {
			t.Fatalf("deleted %+v", d)
		}
		if m, s, _ := held(t, db, victim); m != 0 || s != 0 {
			t.Fatalf("after the operator's delete: %d messages, %d sign-ups left", m, s)
		}
	})
}

// The retention sweep of unconfirmed accounts keeps the rows sent with
// their addresses: such an account never proved the address.
func TestSweepKeepsTheAddressRowsOfUnconfirmedAccounts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		r := rules(t, db)
		now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
		r.Now = func() time.Time { return now }
		addressRows(t, db, victim)
		if _, err := db.Exec(ctx, `UPDATE contact_messages SET created_at = ?`, now.Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
		u := &store.User{Email: victim, PasswordHash: "x", CreatedAt: now.Add(-40 * 24 * time.Hour)}
		if err := db.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		got, err := r.Sweep(ctx, Retention{UnconfirmedAccounts: 30 * 24 * time.Hour})
		if err != nil || got.Accounts != 1 {
			t.Fatalf("swept %+v, %v", got, err)
		}
		if m, s, _ := held(t, db, victim); m != 1 || s != 1 {
			t.Fatalf("the sweep took %d messages and %d sign-ups with the account", 1-m, 1-s)
		}
	})
}
