package server

import (
	"net/http"
	"strings"
	"testing"

	"salaula/internal/config"
	"salaula/internal/mail/mailtest"
)

// The e-mails people get arrive at a real SMTP server (aiosmtpd) with the
// right headers, and the links in them work against the server.
func TestResetAndUnsubscribeLinksArriveBySMTPAndWork(t *testing.T) {
	smtpd := mailtest.Shared(t)
	eachEngine(t, func(c *config.Config) {
		c.PublicURL = "https://salaula.example"
		c.SMTPURL = smtpd.URL()
	}, func(t *testing.T, env *testEnv) {
		env.runMailer(t)
		to := "bwalya-" + string(env.DB.Dialect()) + "@example.com"
		env.signUp(t, to, goodPassword)
		wantStatus(t, env.authJSON(t, "POST", "/auth/v1/recover", map[string]any{"email": to}, ""), 200)
		got := smtpd.To(t, to, 1)
		h := got[0].Header
		if h.Get("Subject") != "Reset your Salaula password" || h.Get("From") != env.Config.MailFrom || h.Get("X-RcptTo") != to {
			t.Fatalf("reset e-mail headers: %v", h)
		}
		link := linkIn(t, got[0].Body, "https://salaula.example/reset_password?")
		res := env.authJSON(t, "POST", "/auth/v1/verify", map[string]any{"type": "recovery", "token_hash": link.Query().Get("token_hash")}, "")
		wantStatus(t, res, http.StatusOK)
		if s := decode(t, res); obj(s, "user")["email"] != to {
			t.Fatalf("the reset link signed in %v", s)
		}

		wantStatus(t, env.do(t, http.MethodPost, "/functions/v1/waitlist-signup", map[string]any{"email": to, "programName": "Upcycling Initiative"}, nil), http.StatusOK)
		got = smtpd.To(t, to, 2)
		unsub := linkIn(t, got[1].Body, "https://salaula.example/functions/v1/waitlist-unsubscribe?")
		// The mail program's Unsubscribe button (RFC 8058) POSTs to the same address.
		if h := got[1].Header; h.Get("List-Unsubscribe") != "<"+unsub.String()+">" || h.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
			t.Fatalf("waitlist e-mail headers: %v", h)
		}
		// Opening the link changes nothing; the one-click POST unsubscribes.
		res, body := env.get(t, unsub.RequestURI(), nil)
		wantStatus(t, res, http.StatusOK)
		if !strings.Contains(string(body), "<button") || countRows(t, env.DB, `SELECT COUNT(*) FROM waitlist_signups WHERE email = ? AND unsubscribed_at IS NULL`, to) != 1 {
			t.Fatalf("opening the link unsubscribed, or its page has no button: %s", body)
		}
		res = env.do(t, http.MethodPost, unsub.RequestURI(), "List-Unsubscribe=One-Click", map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
		wantStatus(t, res, http.StatusOK)
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM waitlist_signups WHERE email = ? AND unsubscribed_at IS NOT NULL`, to); n != 1 {
			t.Fatalf("%d unsubscribed sign-ups, want 1", n)
		}
	})
}
