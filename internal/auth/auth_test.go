package auth_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"salaula/internal/auth"
	"salaula/internal/config"
	"salaula/internal/mail"
	"salaula/internal/ratelimit"
	"salaula/internal/seal"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
	"salaula/internal/token"
)

// mailbox keeps the e-mails the service sends.
type mailbox struct {
	mu   sync.Mutex
	sent []mail.Message
}

func (m *mailbox) Send(_ context.Context, msg mail.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, msg)
	return nil
}

// token waits for the e-mail of kind to addr and returns its link's token.
func (m *mailbox) token(t *testing.T, addr, kind string) string {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		m.mu.Lock()
		for _, msg := range m.sent {
			if msg.To == addr && msg.Kind == kind {
				m.mu.Unlock()
				i := strings.Index(msg.Body, "token_hash=")
				rest := msg.Body[i+len("token_hash="):]
				return rest[:strings.IndexAny(rest, "&\n")]
			}
		}
		m.mu.Unlock()
	}
	t.Fatalf("no %s e-mail to %s", kind, addr)
	return ""
}

func newService(t *testing.T, db *store.DB) (*auth.Service, *mailbox) {
	t.Helper()
	kr, err := token.NewKeyring([]*token.Key{token.HS256Key([]byte("a-test-secret-a-test-secret-a-test-secret"))})
	if err != nil {
		t.Fatal(err)
	}
	box, _ := seal.New([]byte("a-test-secret-a-test-secret-a-test-secret"), "successors")
	mb := &mailbox{}
	return &auth.Service{
		DB: db, Mailer: mb,
		Config:     &config.Config{PublicURL: "https://salaula.example", AccessTokenTTL: time.Hour, RefreshReuseInterval: 10 * time.Second},
		Emails:     &ratelimit.Emails{DB: db, Quota: ratelimit.DefaultEmailQuota},
		CodeTries:  ratelimit.New(10, time.Minute),
		Sign:       func(_ context.Context, c token.Claims) (string, error) { return kr.Sign(c) },
		Issuer:     "https://salaula.example/auth/v1",
		Successors: box, Factors: box,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}, mb
}

func wantCode(t *testing.T, err error, want auth.ErrorCode) {
	t.Helper()
	var e *auth.Error
	if !errors.As(err, &e) || e.Code != want {
		t.Fatalf("error = %v, want %s", err, want)
	}
}

func TestSignUpRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s, _ := newService(t, db)
		cases := []struct {
			name string
			c    auth.Credentials
			want auth.ErrorCode
		}{
			{"nothing: anonymous", auth.Credentials{}, auth.CodeAnonymousDisabled},
			{"a phone", auth.Credentials{Phone: "+260971234567", Password: "x"}, auth.CodePhoneDisabled},
			{"no password", auth.Credentials{Email: "a@example.com"}, auth.CodeCredentialsRequired},
			{"not an address", auth.Credentials{Email: "a@b", Password: "chitenge-lusaka-42"}, auth.CodeEmailInvalid},
			{"a control character", auth.Credentials{Email: "a\x00b@example.com", Password: "chitenge-lusaka-42"}, auth.CodeEmailInvalid},
			{"too long an address", auth.Credentials{Email: strings.Repeat("a", 250) + "@example.com", Password: "chitenge-lusaka-42"}, auth.CodeEmailInvalid},
			{"a weak password", auth.Credentials{Email: "a@example.com", Password: "short"}, auth.CodeWeakPassword},
			{"too long a password", auth.Credentials{Email: "a@example.com", Password: strings.Repeat("p", 1025)}, auth.CodePasswordTooLong},
			{"half a PKCE pair", auth.Credentials{Email: "a@example.com", Password: "chitenge-lusaka-42", PKCE: auth.PKCE{Method: "s256"}}, auth.CodePKCEIncomplete},
			{"too much metadata", auth.Credentials{Email: "a@example.com", Password: "chitenge-lusaka-42", Data: map[string]any{"x": strings.Repeat("m", 5000)}}, auth.CodeMetadataLarge},
		}
		for _, c := range cases {
			_, err := s.SignUp(context.Background(), c.c, auth.Client{})
			wantCode(t, err, c.want)
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM users`); n != 0 {
			t.Fatalf("%d accounts made by refused sign-ups", n)
		}
	})
}

// A reset link works until the new password is set; asking again within
// the minute is refused with the wait, for any address.
func TestResetLinkIsSpentWhenThePasswordIsSet(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, mb := newService(t, db)
		res, err := s.SignUp(ctx, auth.Credentials{Email: "mwila@example.com", Password: "chitenge-lusaka-42"}, auth.Client{})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Recover(ctx, auth.LinkRequest{Email: "Mwila@Example.com"}); err != nil {
			t.Fatal(err)
		}
		var e *auth.Error
		if err := s.Recover(ctx, auth.LinkRequest{Email: "mwila@example.com"}); !errors.As(err, &e) || e.Code != auth.CodeEmailSendLimit || e.RetryAfter <= 0 || e.RetryAfter > time.Minute {
			t.Fatalf("second recover = %v", err)
		}
		if err := s.Recover(ctx, auth.LinkRequest{Email: "nobody@example.com"}); err != nil {
			t.Fatal(err)
		}
		wantCode(t, s.Recover(ctx, auth.LinkRequest{Email: "nobody@example.com"}), auth.CodeEmailSendLimit)

		tok := mb.token(t, "mwila@example.com", "recovery")
		first, err := s.Verify(ctx, "recovery", tok, auth.Client{})
		if err != nil {
			t.Fatal(err)
		}
		sess, err := s.Verify(ctx, "recovery", tok, auth.Client{})
		if err != nil {
			t.Fatalf("the link was spent by using it once: %v", err)
		}
		claims := &token.Claims{Subject: res.Session.User.ID, SessionID: "x"}
		if _, err := s.UpdateUser(ctx, claims, sess.User, auth.UserUpdate{Password: ptr("Kalingalinga-Rain-2026")}); err != nil {
			t.Fatal(err)
		}
		_, err = s.Verify(ctx, "recovery", tok, auth.Client{})
		wantCode(t, err, auth.CodeLinkInvalid)
		if first.User.Email != "mwila@example.com" {
			t.Fatalf("verify signed in %s", first.User.Email)
		}
		wantCode(t, func() error { _, err := s.Verify(ctx, "magiclink", tok, auth.Client{}); return err }(), auth.CodeTokenInvalid)
	})
}

func ptr[T any](v T) *T { return &v }
