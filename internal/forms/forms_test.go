package forms

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"salaula/internal/apierr"
	"salaula/internal/mail"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
	"salaula/internal/validate"
)

func newService(t *testing.T, db *store.DB) (*Service, *bytes.Buffer) {
	t.Helper()
	logs := &bytes.Buffer{}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	m, err := mail.New(db, "Salaula <hello@salaula.example>", "", logger)
	if err != nil {
		t.Fatal(err)
	}
	return &Service{DB: db, Mailer: m, SupportEmail: "support@salaula.example",
		PublicURL: "https://salaula.example", Logger: logger}, logs
}

// The forms' rules answer typed errors, never HTTP statuses, and store
// exactly what they accept.
func TestFormsServiceScenarios(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, logs := newService(t, db)
		ctx := context.Background()
		good := validate.Contact{FirstName: "Chanda", LastName: "Mwale", Email: " Chanda@Example.com ",
			Subject: "Unsolved issue", Message: "My order has not arrived."}
		trapped := good
		trapped.Website = "http://spam.example"
		bad := good
		bad.Email = "not an address"
		for _, c := range []struct {
			name      string
			in        validate.Contact
			kind      apierr.Kind // 0 with field "" for success
			field     string
			wantStore int
		}{
			{"a valid message", good, 0, "", 1},
			{"the bot trap", trapped, 0, "", 0},
			{"a bad address", bad, apierr.Invalid, "email", 0},
		} {
			before := storetest.Count(t, db, `SELECT COUNT(*) FROM contact_messages`)
			sent, err := s.Contact(ctx, c.in, "", "192.0.2.1")
			if c.field == "" {
				if err != nil || !sent.Success || sent.Message == "" {
					t.Fatalf("%s: %+v, %v", c.name, sent, err)
				}
			} else if e := apierr.As(err); e == nil || e.Kind != c.kind || e.Message != MsgInvalid || e.Fields[c.field] == "" {
				t.Fatalf("%s: error %#v", c.name, err)
			}
			if n := storetest.Count(t, db, `SELECT COUNT(*) FROM contact_messages`) - before; n != c.wantStore {
				t.Fatalf("%s: %d messages stored, want %d", c.name, n, c.wantStore)
			}
		}
		if !strings.Contains(logs.String(), "bot trap: submission dropped") {
			t.Fatalf("the dropped submission is not logged: %s", logs)
		}

		// A sign-up once, a repeat answers the same, and the link unsubscribes.
		in := Signup{Email: "Mwila@Example.com", ProgramName: "Upcycling Initiative", UTMSource: strings.Repeat("x", 400)}
		for range 2 {
			if sent, err := s.JoinWaitlist(ctx, in, "192.0.2.1"); err != nil || sent.Message != msgWaitlistJoined {
				t.Fatalf("JoinWaitlist: %+v, %v", sent, err)
			}
		}
		var source string
		if err := db.QueryRow(ctx, `SELECT utm_source FROM waitlist_signups WHERE email = ?`, "mwila@example.com").Scan(&source); err != nil || len(source) != maxUTM {
			t.Fatalf("utm_source %d characters, %v", len(source), err)
		}
		if _, err := s.Unsubscribe(ctx, "no-such-token", true); !errors.Is(err, ErrUnknownLink) {
			t.Fatalf("unknown token: %v", err)
		}
		if _, err := s.Unsubscribe(ctx, strings.Repeat("a", 201), false); !errors.Is(err, ErrUnknownLink) {
			t.Fatalf("overlong token: %v", err)
		}
	})
}
