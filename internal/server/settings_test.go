package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestSiteSettingsDefaultsOperatorChangesAuditedAndBadValuesRefused(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		// Before any change, the app gets the shipped defaults.
		res := env.do(t, "GET", "/settings.json", nil, nil)
		wantStatus(t, res, http.StatusOK)
		if cc := res.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Fatalf("Cache-Control %q", cc)
		}
		pub := decode(t, res)
		phone := pub["phone"].(map[string]any)
		// A number never set is not shown: empty, no placeholder.
		if phone["display"] != "" || phone["link"] != "" || pub["whatsapp"].(map[string]any)["link"] != "" {
			t.Fatalf("default phone %v, whatsapp %v", phone, pub["whatsapp"])
		}
		if pub["address"] != "New Kasama, Lusaka Zambia" || len(pub["team"].([]any)) != 2 {
			t.Fatalf("defaults %v", pub)
		}

		op := env.newOperator(t, "founder@example.com")
		user := str(env.signUp(t, "shopper@example.com", goodPassword), "access_token")
		set := func(key, value, bearer string) *http.Response {
			return env.admin(t, "PUT", "/admin/v1/settings/"+key, map[string]any{"value": value}, bearer)
		}
		// Only operators.
		wantAdminError(t, env.admin(t, "GET", "/admin/v1/settings", nil, ""), http.StatusUnauthorized, "sign in")
		wantAdminError(t, set("phone", "0971234567", ""), http.StatusUnauthorized, "sign in")
		wantAdminError(t, set("phone", "0971234567", env.anonKey(t)), http.StatusUnauthorized, "not the anon key")
		wantAdminError(t, set("phone", "0971234567", user), http.StatusForbidden, "This page is for the Salaula team")
		wantAdminError(t, env.admin(t, "GET", "/admin/v1/settings", nil, user), http.StatusForbidden, "This page is for the Salaula team")

		// Bad values: 400 with a message, nothing stored or audited.
		for _, c := range []struct{ key, value, want string }{
			{"phone", "+1 555 123 4567", "Enter a Zambian phone number"},
			{"whatsapp", "12345", "Enter a Zambian phone number"},
			{"support_email", "not-an-address", "must be an e-mail address"},
			{"social.facebook", "http://facebook.com/x", "https://"},
			{"social.x", "javascript:alert(1)", "https://"},
			{"team.1.name", "   ", "cannot be empty"},
			{"team.2.text", strings.Repeat("a", 601), "at most 600 characters"},
			{"team.1.portrait", "data:image/png;base64,AAAA", "uploaded image"},
			{"colour", "green", `Unknown setting "colour"`},
		} {
			wantAdminError(t, set(c.key, c.value, op), http.StatusBadRequest, c.want)
		}
		wantAdminError(t, env.admin(t, "PUT", "/admin/v1/settings/phone", map[string]any{}, op), http.StatusBadRequest, `{"value"`)
		wantAdminError(t, env.admin(t, "PUT", "/admin/v1/settings/phone", "{not json", op), http.StatusBadRequest, "not valid JSON")
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM site_settings`) + countRows(t, env.DB, `SELECT COUNT(*) FROM audit_log`); n != 0 {
			t.Fatalf("%d rows stored by refused calls", n)
		}

		// A good change: canonical form stored, audited, shown to the public in the local format.
		res = set("phone", "0977 123 456", op)
		wantStatus(t, res, http.StatusOK)
		if v := decode(t, res)["values"].(map[string]any)["phone"]; v != "+260977123456" {
			t.Fatalf("stored phone %v", v)
		}
		wantStatus(t, set("whatsapp", "+260 96 555 0101", op), http.StatusOK)
		wantStatus(t, set("social.youtube", "hidden", op), http.StatusOK)
		wantStatus(t, set("phone", "+260977123456", op), http.StatusOK) // the same again: no second audit row
		pub = decode(t, env.do(t, "GET", "/settings.json", nil, nil))
		phone, wa := pub["phone"].(map[string]any), pub["whatsapp"].(map[string]any)
		if phone["display"] != "097 712 3456" || phone["link"] != "tel:+260977123456" ||
			wa["display"] != "096 555 0101" || wa["link"] != "https://wa.me/260965550101" {
			t.Fatalf("public numbers %v %v", phone, wa)
		}
		for _, s := range pub["social"].([]any) {
			if s.(map[string]any)["network"] == "youtube" {
				t.Fatalf("hidden network still shown: %v", pub["social"])
			}
		}
		log := env.adminGet(t, "/admin/v1/audit", op)
		if log["total"] != float64(3) {
			t.Fatalf("audit %v", log)
		}
		var phoneEntry map[string]any
		for _, e := range items(log) {
			if e["targetId"] == "phone" {
				phoneEntry = e
			}
		}
		if phoneEntry == nil || phoneEntry["action"] != "settings.update" || phoneEntry["actorEmail"] != "founder@example.com" ||
			phoneEntry["detail"].(map[string]any)["from"] != "" || phoneEntry["detail"].(map[string]any)["to"] != "+260977123456" {
			t.Fatalf("audit entry %v", phoneEntry)
		}
	})
}

// The app reads /settings.json on every visit: a phone that has it already
// gets a 304 without a body, and a new copy comes compressed like the app's
// other files; a change of a setting gives a new ETag.
func TestSettingsJSONHasAStrongETagAndComesCompressed(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		get := func(headers map[string]string) (*http.Response, string) {
			res := env.do(t, "GET", "/settings.json", nil, headers)
			body, err := io.ReadAll(res.Body)
			if err != nil {
				t.Fatal(err)
			}
			return res, decoded(t, res, body)
		}
		plain, identity := get(map[string]string{"Accept-Encoding": "identity"})
		wantStatus(t, plain, http.StatusOK)
		etag := plain.Header.Get("ETag")
		if !strings.HasPrefix(etag, `"`) || len(etag) < 10 {
			t.Fatalf("ETag %q: want a strong one", etag)
		}
		if plain.Header.Get("Content-Encoding") != "" || !strings.Contains(plain.Header.Get("Content-Type"), "application/json") ||
			!strings.Contains(identity, `"address":"New Kasama, Lusaka Zambia"`) {
			t.Fatalf("identity answer: %v %s", plain.Header, identity)
		}
		for _, enc := range []string{"br", "gzip"} {
			res, body := get(map[string]string{"Accept-Encoding": enc})
			wantStatus(t, res, http.StatusOK)
			if res.Header.Get("Content-Encoding") != enc || res.Header.Get("ETag") != etag || body != identity ||
				!strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") || res.Header.Get("Cache-Control") != "no-cache" {
				t.Fatalf("%s: %v, same body %v", enc, res.Header, body == identity)
			}
		}
		same, body := get(map[string]string{"If-None-Match": etag, "Accept-Encoding": "br, gzip"})
		wantStatus(t, same, http.StatusNotModified)
		if body != "" {
			t.Fatalf("304 with a body: %q", body)
		}

		op := env.newOperator(t, "etag-founder@example.com")
		wantStatus(t, env.admin(t, "PUT", "/admin/v1/settings/phone", map[string]any{"value": "0977123456"}, op), http.StatusOK)
		changed, body := get(map[string]string{"If-None-Match": etag, "Accept-Encoding": "gzip"})
		wantStatus(t, changed, http.StatusOK)
		if changed.Header.Get("ETag") == etag || !strings.Contains(body, "097 712 3456") {
			t.Fatalf("after a change: ETag %q (was %q), body %s", changed.Header.Get("ETag"), etag, body)
		}
	})
}
