package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"salaula/internal/config"
	"salaula/internal/store/storetest"
	"salaula/internal/validate/validatetest"
)

// Fuzz tests of the public endpoints' JSON decoding and validation, through
// the real handlers on SQLite: whatever the body, the answer is a clear 4xx
// or a success, never a 5xx or a panic, always a JSON body, and a request
// stores at most one row. Seeded with the spec's cases
// (testdata/validation-cases.json); `make fuzz` runs them longer. Inputs
// that once failed are kept in testdata/fuzz/<FuzzName>/.

// fuzzEnv is a server on a fresh SQLite database with the limits off.
func fuzzEnv(f *testing.F) *testEnv {
	return newTestEnv(f, storetest.Open(f, "sqlite"), func(c *config.Config) {
		c.FormRateLimit, c.AuthRateLimit = config.Rate{}, config.Rate{}
	})
}

// serve runs one request through the handler in memory.
func (e *testEnv) serve(method, path string, body []byte, headers map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	e.Server.Config.Handler.ServeHTTP(rec, req)
	return rec
}

// wantClearAnswer fails unless rec is one of the allowed statuses with a
// JSON object body that, for a failure, says what went wrong in field.
func wantClearAnswer(t *testing.T, rec *httptest.ResponseRecorder, field string, allowed ...int) {
	t.Helper()
	ok := false
	for _, s := range allowed {
		ok = ok || rec.Code == s
	}
	if !ok {
		t.Fatalf("status %d (allowed %v): %s", rec.Code, allowed, rec.Body)
	}
	var body map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("status %d: body is not a JSON object: %q", rec.Code, rec.Body)
	}
	if rec.Code >= 400 {
		if msg, _ := body[field].(string); strings.TrimSpace(msg) == "" {
			t.Fatalf("status %d without a message in %q: %s", rec.Code, field, rec.Body)
		}
	}
}

func seedCases(f *testing.F, form string, selector uint8) {
	for _, c := range validatetest.Load(f, form) {
		f.Add([]byte(c.Input), selector)
	}
	for _, raw := range []string{``, `{`, `[]`, `null`, `{"email": 42}`, `{} {}`, `{"email":"a@b.co","programName":"Upcycling Initiative","website":"x"}`,
		`{"email":"\u0000@b.co","programName":"Upcycling Initiative"}`, `{"firstName":"` + strings.Repeat("é", 200) + `"}`,
		`{"email":"a@b.co","programName":"Upcycling Initiative","utm_source":"x\u0000","pagePath":"/\u0001","referrer":"\u007f"}`,
		`{"firstName":"Ch\u0085","lastName":"M\nw","email":"a@b.co","subject":"other","message":"Hello,\n\tthere\r\n\u0000"}`} {
		f.Add([]byte(raw), selector)
	}
}

func FuzzPublicForms(f *testing.F) {
	seedCases(f, "contact", 0)
	seedCases(f, "waitlist", 1)
	env := fuzzEnv(f)
	paths := []string{"/functions/v1/contact-form-submit", "/functions/v1/waitlist-signup"}
	tables := []string{"contact_messages", "waitlist_signups"}
	f.Fuzz(func(t *testing.T, body []byte, form uint8) {
		i := int(form) % 2
		before := count(t, env.DB, tables[i])
		rec := env.serve("POST", paths[i], body, nil)
		wantClearAnswer(t, rec, "error", 200, 400, 413)
		if after := count(t, env.DB, tables[i]); after-before > 1 || (rec.Code != 200 && after != before) {
			t.Fatalf("status %d stored %d rows", rec.Code, after-before)
		}
	})
}

func FuzzAuthBodies(f *testing.F) {
	paths := []string{"/auth/v1/signup", "/auth/v1/token?grant_type=password", "/auth/v1/token?grant_type=refresh_token",
		"/auth/v1/recover", "/auth/v1/verify"}
	for i, raw := range []string{`{"email":"mwila@example.com","password":"chitenge-lusaka-42"}`, `{"email":"mwila@example.com","password":"password"}`,
		`{"refresh_token":"abc"}`, `{"email":"mwila@example.com"}`, `{"type":"recovery","token_hash":"abc"}`,
		`{"email":"","phone":"+260971234567","password":"x"}`, `{"email":"a@b.co","password":"` + strings.Repeat("x", 1100) + `"}`,
		`{"email":"a@b.co","password":"chitenge-lusaka-42","data":{"name":"Mwila"}}`, `{"type":"signup","token_hash":" "}`, `[]`, `{`} {
		f.Add([]byte(raw), uint8(i))
	}
	env := fuzzEnv(f)
	f.Fuzz(func(t *testing.T, body []byte, which uint8) {
		rec := env.serve("POST", paths[int(which)%len(paths)], body, map[string]string{"X-Supabase-Api-Version": "2024-01-01"})
		// 429: a second e-mail to one address within the minute (recover, resend).
		wantClearAnswer(t, rec, "msg", 200, 400, 403, 413, 422, 429)
	})
}

func FuzzOnboardingPayloads(f *testing.F) {
	for _, form := range []string{"onboarding_profile", "seller", "buyer_and_seller"} {
		for i, c := range validatetest.Load(f, form) {
			f.Add([]byte(c.Input), uint8(i))
		}
	}
	f.Add([]byte(`{"age":"24.0e1","phone_number":"+260 97 123 4567"}`), uint8(0))
	f.Add([]byte(`{"body_photo_urls":["http://x/storage/v1/object/public/user-media/../x.jpg"]}`), uint8(1))
	env := fuzzEnv(f)
	u := newUser(f, env, "fuzz@example.com")
	paths := []string{"/functions/v1/onboard-new-user", "/functions/v1/onboard-seller"}
	f.Fuzz(func(t *testing.T, body []byte, which uint8) {
		// The cases carry a fixed userId: make it the caller's, so the rules
		// behind the ownership check are reached too.
		body = bytes.ReplaceAll(body, []byte("0c9a7f3e-5d1b-4b8e-9f3a-2e6d7c8b9a01"), []byte(u.ID))
		rec := env.serve("POST", paths[int(which)%2], body, u.auth(env))
		wantClearAnswer(t, rec, "error", http.StatusOK, 400, 403, 413)
	})
}
