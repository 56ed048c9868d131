package server

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"salaula/internal/mail"
)

func TestContactMessageSentTwiceWithOneKeyIsStoredOnce(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		ctx := context.Background()
		key := map[string]string{"Idempotency-Key": "k-6f1c2a3b-offline_1"}
		for i := 0; i < 2; i++ {
			res := env.do(t, "POST", "/functions/v1/contact-form-submit", validContact(), key)
			wantStatus(t, res, http.StatusOK)
			if body := decode(t, res); body["success"] != true || body["message"] != "Message sent successfully! We'll be in touch soon." {
				t.Fatalf("send %d: body %v", i+1, body)
			}
		}
		if n := count(t, env.DB, "contact_messages"); n != 1 {
			t.Fatalf("%d messages stored for one key, want 1", n)
		}
		if sent, err := mail.Recent(ctx, env.DB, env.Config.SupportEmail, 5); err != nil || len(sent) != 1 {
			t.Fatalf("mail to support: %d, %v; want 1", len(sent), err)
		}
		// Another key, or none, is another message.
		wantStatus(t, env.do(t, "POST", "/functions/v1/contact-form-submit", validContact(), map[string]string{"Idempotency-Key": "k-2"}), http.StatusOK)
		wantStatus(t, env.do(t, "POST", "/functions/v1/contact-form-submit", validContact(), nil), http.StatusOK)
		wantStatus(t, env.do(t, "POST", "/functions/v1/contact-form-submit", validContact(), nil), http.StatusOK)
		if n := count(t, env.DB, "contact_messages"); n != 4 {
			t.Fatalf("%d messages stored, want 4", n)
		}
	})
}

func TestContactMessageWithABadKeyIsRefused(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		for _, bad := range []string{strings.Repeat("k", 101), "a key", "k;drop", "é"} {
			res := env.do(t, "POST", "/functions/v1/contact-form-submit", validContact(), map[string]string{"Idempotency-Key": bad})
			wantStatus(t, res, http.StatusBadRequest)
			if body := decode(t, res); body["error"] != "The Idempotency-Key header must be at most 100 letters, digits, '-' or '_'." {
				t.Fatalf("key %q: body %v", bad, body)
			}
		}
		if n := count(t, env.DB, "contact_messages"); n != 0 {
			t.Fatalf("%d messages stored for bad keys", n)
		}
	})
}

func TestAppCodeAndImagesCarryShortHeaders(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		for _, path := range []string{"/assets/nothing-here.js", "/images/nothing.webp", "/icons/none.png"} {
			res := env.do(t, "GET", path, nil, nil)
			if csp := res.Header.Get("Content-Security-Policy"); csp != "default-src 'none'; frame-ancestors 'none'" {
				t.Fatalf("%s: CSP %q", path, csp)
			}
			if res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("X-Frame-Options") != "" || res.Header.Get("Permissions-Policy") != "" {
				t.Fatalf("%s: headers %v", path, res.Header)
			}
		}
		// Pages and the service worker keep the page policy.
		for _, path := range []string{"/", "/sw.js"} {
			if csp := env.do(t, "GET", path, nil, nil).Header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "default-src 'self'") {
				t.Fatalf("%s: CSP %q", path, csp)
			}
		}
	})
}
