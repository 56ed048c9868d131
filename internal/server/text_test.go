package server

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"salaula/internal/store"
)

// Text PostgreSQL cannot hold (a NUL byte), other control characters and
// bytes that are not UTF-8 are refused at the door on both stores, in any
// body, path segment or query parameter of every API family: 400 naming the
// field in the family's own shape, and nothing stored.
func TestTextThatIsNotPrintableIsRefusedEverywhere(t *testing.T) {
	eachEngine(t, noFormLimit, func(t *testing.T, env *testEnv) {
		op := env.newOperator(t, "founder@example.com")
		user := str(env.signUp(t, "mwila@example.com", goodPassword), "access_token")
		bearer := func(tok string) map[string]string { return map[string]string{"Authorization": "Bearer " + tok} }
		waitlist := func(field, value string) map[string]any {
			return map[string]any{"email": "nul@example.com", "programName": "Upcycling Initiative", field: value}
		}
		contact := func(field, value string) map[string]any {
			c := validContact()
			c[field] = value
			return c
		}
		for _, tc := range []struct {
			name, method, path string
			body               any
			headers            map[string]string
			field, table       string
		}{
			{"waitlist utm_source NUL", "POST", "/functions/v1/waitlist-signup", waitlist("utm_source", "radio\x00"), nil, "utm_source", "waitlist_signups"},
			{"waitlist pagePath U+0001", "POST", "/functions/v1/waitlist-signup", waitlist("pagePath", "/\x01join"), nil, "pagePath", "waitlist_signups"},
			{"waitlist referrer DEL", "POST", "/functions/v1/waitlist-signup", waitlist("referrer", "https://example.com/\x7f"), nil, "referrer", "waitlist_signups"},
			{"waitlist email C1", "POST", "/functions/v1/waitlist-signup", waitlist("email", "nul\u0085x@example.com"), nil, "email", "waitlist_signups"},
			{"contact firstName NUL", "POST", "/functions/v1/contact-form-submit", contact("firstName", "Chan\x00da"), nil, "firstName", "contact_messages"},
			{"contact lastName new line", "POST", "/functions/v1/contact-form-submit", contact("lastName", "Mw\nale"), nil, "lastName", "contact_messages"},
			{"contact message NUL", "POST", "/functions/v1/contact-form-submit", contact("message", "Where is my order?\x00"), nil, "message", "contact_messages"},
			{"analytics path NUL", "POST", "/analytics/v1/event", map[string]any{"name": "pageview", "path": "/a\x00"}, nil, "path", "analytics_events"},
			{"factor friendly_name NUL", "POST", "/auth/v1/factors", map[string]any{"factor_type": "totp", "friendly_name": "Phone\x00"}, bearer(user), "friendly_name", "mfa_factors"},
			{"factor id NUL", "POST", "/auth/v1/factors/a%00b/challenge", map[string]any{}, bearer(user), "id", "mfa_challenges"},
			{"factor id not UTF-8", "POST", "/auth/v1/factors/a%FFb/verify", map[string]any{"challenge_id": "x", "code": "123456"}, bearer(user), "id", "mfa_challenges"},
			{"sign-up metadata U+0001", "POST", "/auth/v1/signup", map[string]any{"email": "meta@example.com", "password": goodPassword, "data": map[string]any{"name": "\x01"}}, nil, "data.name", "users"},
			{"recover redirect_to NUL", "POST", "/auth/v1/recover?redirect_to=%00", map[string]any{"email": "mwila@example.com"}, nil, "redirect_to", "outbox_emails"},
			{"console program NUL", "GET", "/admin/v1/waitlist?program=%00", nil, bearer(op), "program", "audit_log"},
			{"console person id U+0001", "POST", "/admin/v1/people/%01/sign-out", nil, bearer(op), "id", "audit_log"},
			{"console message id NUL", "PATCH", "/admin/v1/messages/%00", map[string]any{"status": "handled"}, bearer(op), "id", "audit_log"},
			{"announcement subject NUL", "POST", "/admin/v1/announcements", map[string]any{"program": "Upcycling Initiative", "subject": "News\x00", "body": "Hello"}, bearer(op), "subject", "announcements"},
			{"setting value NUL", "PUT", "/admin/v1/settings/address", map[string]any{"value": "Plot 1\x00"}, bearer(op), "value", "site_settings"},
			{"storage list prefix NUL", "POST", "/storage/v1/object/list/user-media", map[string]any{"prefix": "a\x00"}, bearer(user), "prefix", "media_objects"},
			{"storage path not UTF-8", "POST", "/storage/v1/object/user-media/x/%FF.jpg", []byte("jpeg"), bearer(user), "path", "media_objects"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				before := count(t, env.DB, tc.table)
				res := env.do(t, tc.method, tc.path, tc.body, tc.headers)
				wantStatus(t, res, http.StatusBadRequest)
				body := decode(t, res)
				want := tc.field + " can hold only printable text"
				var msg string
				switch {
				case strings.HasPrefix(tc.path, "/auth/"):
					if body["error_code"] != "validation_failed" {
						t.Errorf("error_code %v, want validation_failed", body["error_code"])
					}
					msg, _ = body["msg"].(string)
				case strings.HasPrefix(tc.path, "/storage/"):
					msg, _ = body["message"].(string)
				default:
					msg, _ = body["error"].(string)
				}
				if !strings.HasPrefix(msg, want) {
					t.Errorf("message %q, want it to start with %q", msg, want)
				}
				if strings.HasPrefix(tc.path, "/functions/") && !strings.HasPrefix(fieldsOf(t, body)[tc.field], "Only printable text can go here") {
					t.Errorf("fields %v, want a message for %s", body["fields"], tc.field)
				}
				if after := count(t, env.DB, tc.table); after != before {
					t.Errorf("%s: %d rows, were %d", tc.table, after, before)
				}
			})
		}
	})
}

// A message keeps its new lines and tabs (also as Windows writes them); a
// one-line field may still come with spaces, tabs or a new line around it.
func TestMultiLineTextKeepsNewLinesAndTabs(t *testing.T) {
	eachEngine(t, noFormLimit, func(t *testing.T, env *testEnv) {
		c := validContact()
		c["firstName"] = "\tChanda\n"
		c["message"] = "Hello,\n\tmy order from Kamwala\r\nhas not arrived."
		wantStatus(t, env.do(t, "POST", "/functions/v1/contact-form-submit", c, nil), http.StatusOK)
		var got []store.ContactMessage
		env.DB.EachContactMessage(context.Background(), func(m *store.ContactMessage) error { got = append(got, *m); return nil })
		if len(got) != 1 || got[0].Message != "Hello,\n\tmy order from Kamwala\r\nhas not arrived." || got[0].FirstName != "Chanda" {
			t.Fatalf("stored %+v", got)
		}
	})
}
