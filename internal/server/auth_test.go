package server

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"salaula/internal/config"
	"salaula/internal/mail"
	"salaula/internal/password"
	"salaula/internal/seal"
	"salaula/internal/store"
	"salaula/internal/token"
)

const goodPassword = "chitenge-lusaka-42"

// authJSON sends a JSON request to the auth API with optional bearer token.
func (e *testEnv) authJSON(t *testing.T, method, path string, body any, bearer string) *http.Response {
	t.Helper()
	h := map[string]string{"X-Supabase-Api-Version": "2024-01-01"}
	if bearer != "" {
		h["Authorization"] = "Bearer " + bearer
	}
	return e.do(t, method, path, body, h)
}

// signUp creates an account and returns the session answer.
func (e *testEnv) signUp(t *testing.T, email, pw string) map[string]any {
	t.Helper()
	res := e.authJSON(t, "POST", "/auth/v1/signup", map[string]any{"email": email, "password": pw}, "")
	wantStatus(t, res, 200)
	return decode(t, res)
}

// signIn signs in with a password and returns the session answer.
func (e *testEnv) signIn(t *testing.T, email, pw string) map[string]any {
	t.Helper()
	res := e.authJSON(t, "POST", "/auth/v1/token?grant_type=password", map[string]any{"email": email, "password": pw}, "")
	wantStatus(t, res, 200)
	return decode(t, res)
}

// refresh exchanges a refresh token.
func (e *testEnv) refresh(t *testing.T, rt string) *http.Response {
	t.Helper()
	return e.authJSON(t, "POST", "/auth/v1/token?grant_type=refresh_token", map[string]any{"refresh_token": rt}, "")
}

// wantAuthError checks an error answer: status, the API version header and
// the Supabase body (code and error_code equal, msg when given).
func wantAuthError(t *testing.T, res *http.Response, status int, code, msg string) map[string]any {
	t.Helper()
	wantStatus(t, res, status)
	if v := res.Header.Get("X-Supabase-Api-Version"); v != "2024-01-01" {
		t.Errorf("X-Supabase-Api-Version = %q", v)
	}
	body := decode(t, res)
	if body["code"] != code || body["error_code"] != code {
		t.Fatalf("code = %v, error_code = %v; want %s (body %v)", body["code"], body["error_code"], code, body)
	}
	if msg != "" && body["msg"] != msg {
		t.Fatalf("msg = %q, want %q", body["msg"], msg)
	}
	if m, _ := body["msg"].(string); m == "" {
		t.Fatalf("error without a message: %v", body)
	}
	return body
}

func str(m map[string]any, key string) string { s, _ := m[key].(string); return s }

func obj(m map[string]any, key string) map[string]any { o, _ := m[key].(map[string]any); return o }

func countRows(t *testing.T, db *store.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestAuthSettings(t *testing.T) {
	for _, confirm := range []bool{false, true} {
		eachEngine(t, func(c *config.Config) { c.ConfirmEmail = confirm }, func(t *testing.T, env *testEnv) {
			res := env.do(t, "GET", "/auth/v1/settings", nil, nil)
			wantStatus(t, res, 200)
			if res.Header.Get("X-Supabase-Api-Version") != "2024-01-01" {
				t.Error("no API version header")
			}
			body := decode(t, res)
			if obj(body, "external")["email"] != true || obj(body, "external")["phone"] != false {
				t.Errorf("external = %v", body["external"])
			}
			if body["disable_signup"] != false || body["mailer_autoconfirm"] != !confirm {
				t.Errorf("settings = %v (confirm %v)", body, confirm)
			}
		})
	}
}

func TestSignupAnswersASession(t *testing.T) {
	publishedPasswordCost(t) // the stored hash's parameters are checked
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		before := time.Now().Unix()
		body := env.signUp(t, "  Mwila.Banda@Example.COM ", goodPassword)
		for _, k := range []string{"access_token", "refresh_token"} {
			if str(body, k) == "" {
				t.Fatalf("no %s in %v", k, body)
			}
		}
		if body["token_type"] != "bearer" || body["expires_in"] != float64(3600) {
			t.Errorf("token_type %v expires_in %v", body["token_type"], body["expires_in"])
		}
		if exp := int64(body["expires_at"].(float64)); exp < before+3600 || exp > time.Now().Unix()+3600 {
			t.Errorf("expires_at = %d", exp)
		}
		u := obj(body, "user")
		if u["email"] != "mwila.banda@example.com" || u["aud"] != "authenticated" || u["role"] != "authenticated" || u["is_anonymous"] != false {
			t.Fatalf("user = %v", u)
		}
		for _, k := range []string{"id", "email_confirmed_at", "confirmed_at", "last_sign_in_at", "created_at", "updated_at"} {
			if str(u, k) == "" {
				t.Errorf("user has no %s", k)
			}
		}
		am := obj(u, "app_metadata")
		if am["provider"] != "email" || fmt.Sprint(am["providers"]) != "[email]" {
			t.Errorf("app_metadata = %v", am)
		}
		ids, _ := u["identities"].([]any)
		if len(ids) != 1 || ids[0].(map[string]any)["provider"] != "email" || ids[0].(map[string]any)["user_id"] != u["id"] {
			t.Errorf("identities = %v", u["identities"])
		}

		claims, err := env.claimsOf(t, str(body, "access_token"))
		if err != nil {
			t.Fatal(err)
		}
		if claims.Subject != u["id"] || claims.Audience != "authenticated" || claims.Role != "authenticated" ||
			claims.Email != "mwila.banda@example.com" || claims.SessionID == "" || claims.AAL != "aal1" ||
			len(claims.AMR) != 1 || claims.AMR[0].Method != "password" || claims.ExpiresAt-claims.IssuedAt != 3600 {
			t.Fatalf("claims = %+v", claims)
		}

		stored, err := env.DB.UserByEmail(context.Background(), "mwila.banda@example.com")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(stored.PasswordHash, "$argon2id$v=19$m=7168,t=5,p=1$") || strings.Contains(stored.PasswordHash, goodPassword) {
			t.Errorf("stored hash = %q", stored.PasswordHash)
		}
		rt := str(body, "refresh_token")
		if len(rt) < 22 {
			t.Errorf("refresh token %q is shorter than 128 bits", rt)
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM refresh_tokens WHERE token_hash = ?`, rt); n != 0 {
			t.Error("refresh token stored in plain text")
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM refresh_tokens WHERE token_hash = ?`, hashToken(rt)); n != 1 {
			t.Error("refresh token hash not stored")
		}
	})
}

func TestSignupRejectsBadInput(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		env.signUp(t, "taken@example.com", goodPassword)
		cases := []struct {
			name   string
			body   any
			ctype  string
			status int
			code   string
			msg    string
		}{
			{"missing password", map[string]any{"email": "a@example.com"}, "", 400, "validation_failed", msgCredentialsRequired},
			{"missing email", map[string]any{"password": goodPassword}, "", 400, "validation_failed", msgCredentialsRequired},
			{"blank email", map[string]any{"email": "   ", "password": goodPassword}, "", 400, "validation_failed", msgCredentialsRequired},
			{"empty object (an anonymous sign-in)", map[string]any{}, "", 422, "anonymous_provider_disabled", msgAnonymousDisabled},
			{"phone only", map[string]any{"phone": "+260971234567", "password": goodPassword}, "", 400, "phone_provider_disabled", ""},
			{"malformed e-mail", map[string]any{"email": "mwila@", "password": goodPassword}, "", 400, "email_address_invalid", msgEmailInvalid},
			{"e-mail with spaces", map[string]any{"email": "mwi la@example.com", "password": goodPassword}, "", 400, "email_address_invalid", ""},
			{"e-mail too long", map[string]any{"email": strings.Repeat("a", 250) + "@example.com", "password": goodPassword}, "", 400, "email_address_invalid", ""},
			{"common password", map[string]any{"email": "a@example.com", "password": "password"}, "", 422, "weak_password", ""},
			{"short password", map[string]any{"email": "a@example.com", "password": "Zq7!x"}, "", 422, "weak_password", "Password should be at least 8 characters."},
			{"password too long", map[string]any{"email": "a@example.com", "password": strings.Repeat("x", 1025)}, "", 422, "validation_failed", msgPasswordTooLong},
			{"duplicate e-mail in other case", map[string]any{"email": " TAKEN@example.com", "password": goodPassword}, "", 422, "user_already_exists", msgUserExists},
			{"e-mail not a string", `{"email": 42, "password": "chitenge-lusaka-42"}`, "", 400, "bad_json", ""},
			{"data not an object", `{"email": "a@example.com", "password": "chitenge-lusaka-42", "data": [1]}`, "", 400, "bad_json", ""},
			{"malformed JSON", `{"email": "a@example.com",`, "", 400, "bad_json", ""},
			{"array body", `[]`, "", 400, "bad_json", ""},
			{"empty body", ``, "", 400, "bad_json", ""},
			{"two objects", `{} {}`, "", 400, "bad_json", ""},
			{"form content type", `email=a@example.com&password=x`, "application/x-www-form-urlencoded", 415, "validation_failed", ""},
			{"huge body", `{"email": "a@example.com", "password": "` + strings.Repeat("x", 70<<10) + `"}`, "", 413, "validation_failed", ""},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				h := map[string]string{}
				if c.ctype != "" {
					h["Content-Type"] = c.ctype
				}
				res := env.do(t, "POST", "/auth/v1/signup", c.body, h)
				wantAuthError(t, res, c.status, c.code, c.msg)
			})
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM users`); n != 1 {
			t.Fatalf("%d users stored, want only the first", n)
		}
	})
}

func TestSignupWeakPasswordReasons(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		for pw, want := range map[string]string{"password": "[pwned]", "PassWord": "[pwned]", "qwerty": "[length pwned]", "Zq7!x": "[length]"} {
			res := env.authJSON(t, "POST", "/auth/v1/signup", map[string]any{"email": "a@example.com", "password": pw}, "")
			body := wantAuthError(t, res, 422, "weak_password", "")
			if got := fmt.Sprint(obj(body, "weak_password")["reasons"]); got != want {
				t.Errorf("%q: reasons %s, want %s", pw, got, want)
			}
		}
	})
}

func TestPasswordGrant(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		env.signUp(t, "mwila@example.com", goodPassword)
		body := env.signIn(t, " MWILA@example.com", goodPassword)
		if obj(body, "user")["email"] != "mwila@example.com" || str(body, "access_token") == "" || str(body, "refresh_token") == "" {
			t.Fatalf("sign-in answer = %v", body)
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM sessions`); n != 2 {
			t.Fatalf("%d sessions, want 2 (sign-up and sign-in)", n)
		}

		wrong := wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/token?grant_type=password",
			map[string]any{"email": "mwila@example.com", "password": "not-the-password"}, ""), 400, "invalid_credentials", msgInvalidCredentials)
		unknown := wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/token?grant_type=password",
			map[string]any{"email": "nobody@example.com", "password": goodPassword}, ""), 400, "invalid_credentials", msgInvalidCredentials)
		if fmt.Sprint(wrong) != fmt.Sprint(unknown) {
			t.Fatalf("wrong password %v and unknown e-mail %v answer differently", wrong, unknown)
		}
		// A malformed address is just an unknown one here.
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/token?grant_type=password",
			map[string]any{"email": "not-an-email", "password": goodPassword}, ""), 400, "invalid_credentials", msgInvalidCredentials)

		for name, c := range map[string]struct {
			path, body string
			status     int
			code       string
		}{
			"missing password":   {"/auth/v1/token?grant_type=password", `{"email": "mwila@example.com"}`, 400, "validation_failed"},
			"missing e-mail":     {"/auth/v1/token?grant_type=password", `{"password": "x"}`, 400, "validation_failed"},
			"malformed JSON":     {"/auth/v1/token?grant_type=password", `{"email"`, 400, "bad_json"},
			"password as number": {"/auth/v1/token?grant_type=password", `{"email": "mwila@example.com", "password": 12345678}`, 400, "bad_json"},
			"no grant_type":      {"/auth/v1/token", `{"email": "mwila@example.com", "password": "x"}`, 400, "validation_failed"},
			"bad grant_type":     {"/auth/v1/token?grant_type=client_credentials", `{}`, 400, "validation_failed"},
			"huge body":          {"/auth/v1/token?grant_type=password", `{"email": "` + strings.Repeat("a", 70<<10) + `"}`, 413, "validation_failed"},
		} {
			t.Run(name, func(t *testing.T) {
				wantAuthError(t, env.do(t, "POST", c.path, c.body, nil), c.status, c.code, "")
			})
		}
		res := env.do(t, "POST", "/auth/v1/token?grant_type=password", `{}`, map[string]string{"Content-Type": "text/plain"})
		wantAuthError(t, res, 415, "validation_failed", "")
	})
}

func TestSignInRecordsLastSignIn(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		env.signUp(t, "mwila@example.com", goodPassword)
		first, _ := env.DB.UserByEmail(context.Background(), "mwila@example.com")
		time.Sleep(5 * time.Millisecond)
		body := env.signIn(t, "mwila@example.com", goodPassword)
		again, _ := env.DB.UserByEmail(context.Background(), "mwila@example.com")
		if !again.LastSignInAt.After(*first.LastSignInAt) {
			t.Fatalf("last_sign_in_at %v not after %v", again.LastSignInAt, first.LastSignInAt)
		}
		if str(obj(body, "user"), "last_sign_in_at") != again.LastSignInAt.Format(time.RFC3339Nano) {
			t.Errorf("answer's last_sign_in_at %v, stored %v", obj(body, "user")["last_sign_in_at"], again.LastSignInAt)
		}
	})
}

func TestRefreshRotates(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		first := env.signUp(t, "mwila@example.com", goodPassword)
		rt0 := str(first, "refresh_token")
		res := env.refresh(t, rt0)
		wantStatus(t, res, 200)
		second := decode(t, res)
		rt1 := str(second, "refresh_token")
		if rt1 == "" || rt1 == rt0 {
			t.Fatalf("refresh token not rotated: %q -> %q", rt0, rt1)
		}
		c0, _ := env.claimsOf(t, str(first, "access_token"))
		c1, err := env.claimsOf(t, str(second, "access_token"))
		if err != nil || c1.SessionID != c0.SessionID || c1.Subject != c0.Subject || c1.AMR[0].Method != "password" {
			t.Fatalf("refreshed claims = %+v, %v", c1, err)
		}
		if obj(second, "user")["email"] != "mwila@example.com" {
			t.Errorf("user = %v", second["user"])
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM refresh_tokens WHERE successor_sealed = ? OR token_hash = ?`, rt1, rt1); n != 0 {
			t.Fatal("the successor refresh token is stored readable")
		}
		// Within the grace interval the spent token answers the same successor (tabs refreshing at once).
		res = env.refresh(t, rt0)
		wantStatus(t, res, 200)
		if got := str(decode(t, res), "refresh_token"); got != rt1 {
			t.Fatalf("reuse within grace answered %q, want the successor %q", got, rt1)
		}
		// The successor keeps rotating.
		res = env.refresh(t, rt1)
		wantStatus(t, res, 200)
		if str(decode(t, res), "refresh_token") == rt1 {
			t.Fatal("successor not rotated")
		}
	})
}

func TestRefreshReuseAfterGraceRevokesSession(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.RefreshReuseInterval = 0 }, func(t *testing.T, env *testEnv) {
		first := env.signUp(t, "mwila@example.com", goodPassword)
		other := env.signIn(t, "mwila@example.com", goodPassword) // another device
		res := env.refresh(t, str(first, "refresh_token"))
		wantStatus(t, res, 200)
		second := decode(t, res)
		wantAuthError(t, env.refresh(t, str(first, "refresh_token")), 400, "refresh_token_already_used", msgRefreshUsed)
		// The whole session is gone: its newest refresh token and its access tokens.
		wantAuthError(t, env.refresh(t, str(second, "refresh_token")), 400, "refresh_token_not_found", msgRefreshNotFound)
		wantAuthError(t, env.authJSON(t, "GET", "/auth/v1/user", nil, str(second, "access_token")), 403, "session_not_found", "")
		// Another device's session is untouched.
		wantStatus(t, env.authJSON(t, "GET", "/auth/v1/user", nil, str(other, "access_token")), 200)
	})
}

func TestRefreshRejectsBadInput(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		s := env.signUp(t, "mwila@example.com", goodPassword)
		const path = "/auth/v1/token?grant_type=refresh_token"
		runAuthScenarios(t, env, []authScenario{
			{"an unknown token", "POST", path, map[string]any{"refresh_token": "garbage"}, nil, "", 400, "refresh_token_not_found", msgRefreshNotFound, nil},
			{"no token", "POST", path, map[string]any{"refresh_token": ""}, nil, "", 400, "validation_failed", "Refresh token is required", nil},
			{"a number", "POST", path, `{"refresh_token": 5}`, nil, "", 400, "bad_json", "", nil},
			{"not JSON", "POST", path, `nope`, nil, "", 400, "bad_json", "", nil},
			{"an access token is not a refresh token", "POST", path, map[string]any{"refresh_token": str(s, "access_token")}, nil, "", 400, "refresh_token_not_found", msgRefreshNotFound, nil},
		})
	})
}

func TestRateLimitCoversSignInNotRefresh(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.AuthRateLimit = config.Rate{Count: 3, Window: time.Hour} }, func(t *testing.T, env *testEnv) {
		s := env.signUp(t, "mwila@example.com", goodPassword) // 1
		env.signIn(t, "mwila@example.com", goodPassword)      // 2
		env.signIn(t, "mwila@example.com", goodPassword)      // 3
		res := env.authJSON(t, "POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "mwila@example.com", "password": goodPassword}, "")
		wantAuthError(t, res, 429, "over_request_rate_limit", "")
		if res.Header.Get("Retry-After") == "" {
			t.Error("429 without Retry-After")
		}
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/signup", map[string]any{"email": "b@example.com", "password": goodPassword}, ""), 429, "over_request_rate_limit", "")
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/recover", map[string]any{"email": "b@example.com"}, ""), 429, "over_request_rate_limit", "")
		// Refreshing is never limited: phones behind one carrier IP stay signed in.
		rt := str(s, "refresh_token")
		for i := 0; i < 10; i++ {
			res := env.refresh(t, rt)
			wantStatus(t, res, 200)
			rt = str(decode(t, res), "refresh_token")
		}
	})
}

func TestGetUser(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		s := env.signUp(t, "mwila@example.com", goodPassword)
		access := str(s, "access_token")
		res := env.authJSON(t, "GET", "/auth/v1/user", nil, access)
		wantStatus(t, res, 200)
		if res.Header.Get("X-Supabase-Api-Version") != "2024-01-01" {
			t.Error("no API version header")
		}
		u := decode(t, res)
		if u["id"] != obj(s, "user")["id"] || u["email"] != "mwila@example.com" || u["aud"] != "authenticated" {
			t.Fatalf("GET /user = %v", u)
		}

		anon := env.anonKey(t)
		claims, _ := env.claimsOf(t, access)
		expired := *claims
		expired.IssuedAt, expired.ExpiresAt = time.Now().Add(-2*time.Hour).Unix(), time.Now().Add(-time.Hour).Unix()
		expiredTok := env.sign(t, expired)
		otherKey, _ := token.NewES256Key(time.Now())
		otherRing, _ := token.NewKeyring([]*token.Key{otherKey})
		otherSecret, _ := otherRing.Sign(*claims)
		gone := *claims
		gone.Subject = store.NewID()
		goneTok := env.sign(t, gone)

		wantAuthError(t, env.do(t, "GET", "/auth/v1/user", nil, nil), 401, "no_authorization", "")
		wantAuthError(t, env.do(t, "GET", "/auth/v1/user", nil, map[string]string{"Authorization": "Basic abc"}), 401, "no_authorization", "")
		for name, tok := range map[string]string{
			"garbage": "garbage", "three dots": "a.b.c", "anon key": anon, "expired": expiredTok, "other secret": otherSecret,
			"alg none": "eyJhbGciOiJub25lIn0." + strings.Split(access, ".")[1] + ".",
		} {
			t.Run(name, func(t *testing.T) {
				wantAuthError(t, env.authJSON(t, "GET", "/auth/v1/user", nil, tok), 403, "bad_jwt", "")
			})
		}
		// A token for a session of someone else is not a valid session.
		wantAuthError(t, env.authJSON(t, "GET", "/auth/v1/user", nil, goneTok), 403, "session_not_found", "")
	})
}

func TestUpdateUserPassword(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		here := env.signUp(t, "mwila@example.com", goodPassword)
		there := env.signIn(t, "mwila@example.com", goodPassword)
		access := str(here, "access_token")

		const path = "/auth/v1/user"
		reasons := func(want string) func(t *testing.T, body map[string]any) {
			return func(t *testing.T, body map[string]any) {
				if got := fmt.Sprint(obj(body, "weak_password")["reasons"]); got != want {
					t.Errorf("reasons = %s, want %s", got, want)
				}
			}
		}
		runAuthScenarios(t, env, []authScenario{
			{"the same password", "PUT", path, map[string]any{"password": goodPassword}, nil, access, 422, "same_password", msgSamePassword, nil},
			{"a weak password", "PUT", path, map[string]any{"password": "letmein"}, nil, access, 422, "weak_password", "", reasons("[length pwned]")},
			{"a wrong current password", "PUT", path, map[string]any{"password": "new-mutengo-pass-7", "current_password": "not-it-at-all"}, nil, access, 400, "invalid_credentials", "Your current password is not correct", nil},
			{"another e-mail address", "PUT", path, map[string]any{"email": "new@example.com"}, nil, access, 422, "validation_failed", "Changing the e-mail address is not supported yet", nil},
			{"a phone number", "PUT", path, map[string]any{"phone": "+260971234567"}, nil, access, 422, "phone_provider_disabled", "Phone logins are disabled", nil},
			{"too much metadata", "PUT", path, map[string]any{"data": map[string]any{"x": strings.Repeat("m", 5000)}}, nil, access, 422, "validation_failed", "User metadata is too large: at most 4 KiB (4096 bytes) of JSON", nil},
			{"malformed JSON", "PUT", path, `{"password": `, nil, access, 400, "bad_json", "", nil},
			{"no token", "PUT", path, map[string]any{"password": "new-mutengo-pass-7"}, nil, "", 401, "no_authorization", "", nil},
			{"a form", "PUT", path, `password=x`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, access, 415, "validation_failed", "", nil},
			{"too large", "PUT", path, `{"password": "` + strings.Repeat("x", 70<<10) + `"}`, nil, access, 413, "validation_failed", "", nil},
		})
		env.signIn(t, "mwila@example.com", goodPassword) // nothing was changed

		res := env.authJSON(t, "PUT", "/auth/v1/user", map[string]any{"password": "new-mutengo-pass-7", "email": " MWILA@example.com"}, access)
		wantStatus(t, res, 200)
		if u := decode(t, res); u["email"] != "mwila@example.com" {
			t.Fatalf("PUT /user = %v", u)
		}
		// The new password signs in, the old one no longer.
		env.signIn(t, "mwila@example.com", "new-mutengo-pass-7")
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "mwila@example.com", "password": goodPassword}, ""), 400, "invalid_credentials", "")
		// This session stays; the other device is signed out.
		wantStatus(t, env.authJSON(t, "GET", "/auth/v1/user", nil, access), 200)
		wantAuthError(t, env.authJSON(t, "GET", "/auth/v1/user", nil, str(there, "access_token")), 403, "session_not_found", "")
		wantAuthError(t, env.refresh(t, str(there, "refresh_token")), 400, "refresh_token_not_found", "")
	})
}

func TestUpdateUserMetadata(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		res := env.authJSON(t, "POST", "/auth/v1/signup", map[string]any{"email": "m@example.com", "password": goodPassword, "data": map[string]any{"name": "Mwila", "town": "Kitwe"}}, "")
		wantStatus(t, res, 200)
		s := decode(t, res)
		if fmt.Sprint(obj(s, "user")["user_metadata"]) != "map[name:Mwila town:Kitwe]" {
			t.Fatalf("user_metadata = %v", obj(s, "user")["user_metadata"])
		}
		res = env.authJSON(t, "PUT", "/auth/v1/user", map[string]any{"data": map[string]any{"town": nil, "stall": "Soweto 12"}}, str(s, "access_token"))
		wantStatus(t, res, 200)
		if got := fmt.Sprint(decode(t, res)["user_metadata"]); got != "map[name:Mwila stall:Soweto 12]" {
			t.Fatalf("merged user_metadata = %s", got)
		}
	})
}

func TestLogoutScopes(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		a := env.signUp(t, "mwila@example.com", goodPassword)
		b := env.signIn(t, "mwila@example.com", goodPassword)
		c := env.signIn(t, "mwila@example.com", goodPassword)
		stranger := env.signUp(t, "chanda@example.com", goodPassword)
		userStatus := func(s map[string]any) int {
			res := env.authJSON(t, "GET", "/auth/v1/user", nil, str(s, "access_token"))
			res.Body.Close()
			return res.StatusCode
		}

		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/logout?scope=everything", nil, str(a, "access_token")), 400, "validation_failed", "")
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/logout", nil, ""), 401, "no_authorization", "")
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/logout", nil, "garbage"), 403, "bad_jwt", "")

		res := env.authJSON(t, "POST", "/auth/v1/logout?scope=others", nil, str(a, "access_token"))
		wantStatus(t, res, 204)
		if res.Header.Get("X-Supabase-Api-Version") != "2024-01-01" {
			t.Error("204 without API version header")
		}
		if userStatus(a) != 200 || userStatus(b) != 403 || userStatus(c) != 403 {
			t.Fatal("scope=others: want only the caller's session left")
		}
		wantStatus(t, env.authJSON(t, "POST", "/auth/v1/logout?scope=local", nil, str(a, "access_token")), 204)
		if userStatus(a) != 403 {
			t.Fatal("scope=local: the session still works")
		}
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/logout", nil, str(a, "access_token")), 403, "session_not_found", "")
		wantAuthError(t, env.refresh(t, str(a, "refresh_token")), 400, "refresh_token_not_found", "")

		d := env.signIn(t, "mwila@example.com", goodPassword)
		e := env.signIn(t, "mwila@example.com", goodPassword)
		wantStatus(t, env.authJSON(t, "POST", "/auth/v1/logout", nil, str(d, "access_token")), 204) // global by default
		if userStatus(d) != 403 || userStatus(e) != 403 {
			t.Fatal("global: a session still works")
		}
		if userStatus(stranger) != 200 {
			t.Fatal("another user's session was ended")
		}
	})
}

// lastMail returns the newest e-mail sent to an address.
func lastMail(t *testing.T, env *testEnv, to string) mail.Sent {
	t.Helper()
	sent, err := mail.Recent(context.Background(), env.DB, to, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(sent) == 0 {
		t.Fatalf("no e-mail sent to %s", to)
	}
	return sent[0]
}

// waitMail waits (up to 10 s) for an e-mail of kind to reach an address
// (password-reset mail is sent after the answer).
// countMail counts the e-mails of kind (any kind when "") to an address,
// in the outbox or sent.
func countMail(t *testing.T, db *store.DB, to, kind string) int {
	t.Helper()
	sent, err := mail.Recent(context.Background(), db, to, 1000)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range sent {
		if kind == "" || m.Kind == kind {
			n++
		}
	}
	return n
}

func waitMail(t *testing.T, env *testEnv, to, kind string) mail.Sent {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		sent, err := mail.Recent(context.Background(), env.DB, to, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(sent) > 0 && sent[0].Kind == kind {
			return sent[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s e-mail reached %s", kind, to)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// linkIn finds the first URL starting with prefix in an e-mail body.
func linkIn(t *testing.T, body, prefix string) *url.URL {
	t.Helper()
	i := strings.Index(body, prefix)
	if i < 0 {
		t.Fatalf("no link %s... in %q", prefix, body)
	}
	raw := strings.Fields(body[i:])[0]
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// linkForm reads the form of the page an e-mailed link opens: its action
// and hidden fields; ok is false for a page without one.
func linkForm(page string) (action string, fields url.Values, ok bool) {
	m := regexp.MustCompile(`<form method="post" action="([^"]*)">`).FindStringSubmatch(page)
	if m == nil {
		return "", nil, false
	}
	fields = url.Values{}
	for _, f := range regexp.MustCompile(`<input type="hidden" name="([^"]*)" value="([^"]*)">`).FindAllStringSubmatch(page, -1) {
		fields.Set(html.UnescapeString(f[1]), html.UnescapeString(f[2]))
	}
	return html.UnescapeString(m[1]), fields, true
}

// openLink opens an e-mailed /auth/v1/verify link as a person does: GET
// (a page with a button; nothing is spent), then the button (its form
// POSTed back). It returns the button's answer.
func openLink(t *testing.T, env *testEnv, link *url.URL) *http.Response {
	t.Helper()
	res := env.do(t, "GET", link.RequestURI(), nil, nil)
	wantStatus(t, res, http.StatusOK)
	page, _ := io.ReadAll(res.Body)
	action, fields, ok := linkForm(string(page))
	if !ok || action != "/auth/v1/verify" {
		t.Fatalf("the link's page has no button that verifies: %s", page)
	}
	return env.do(t, "POST", action, fields.Encode(), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
}

func TestRecoverAndVerify(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.PublicURL = "https://salaula.example" }, func(t *testing.T, env *testEnv) {
		env.signUp(t, "mwila@example.com", goodPassword)
		other := env.signIn(t, "mwila@example.com", goodPassword)

		res := env.authJSON(t, "POST", "/auth/v1/recover", map[string]any{"email": " Mwila@Example.com"}, "")
		wantStatus(t, res, 200)
		known, _ := io.ReadAll(res.Body)
		res = env.authJSON(t, "POST", "/auth/v1/recover", map[string]any{"email": "nobody@example.com"}, "")
		wantStatus(t, res, 200)
		unknown, _ := io.ReadAll(res.Body)
		if strings.TrimSpace(string(known)) != "{}" || string(known) != string(unknown) {
			t.Fatalf("recover answers %q and %q; want the same {}", known, unknown)
		}
		m := waitMail(t, env, "mwila@example.com", "recovery")
		time.Sleep(50 * time.Millisecond)
		if sent, _ := mail.Recent(context.Background(), env.DB, "nobody@example.com", 1); len(sent) != 0 {
			t.Fatal("an e-mail went to an address without an account")
		}
		link := linkIn(t, m.Body, "https://salaula.example/reset_password?")
		tok := link.Query().Get("token_hash")
		if link.Query().Get("type") != "recovery" || len(tok) < 22 {
			t.Fatalf("link = %s", link)
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM one_time_tokens WHERE token_hash = ?`, tok); n != 0 {
			t.Fatal("reset token stored in plain text")
		}

		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/verify", map[string]any{"type": "signup", "token_hash": tok}, ""), 403, "otp_expired", msgLinkInvalid)
		res = env.authJSON(t, "POST", "/auth/v1/verify", map[string]any{"type": "recovery", "token_hash": tok}, "")
		wantStatus(t, res, 200)
		s := decode(t, res)
		claims, err := env.claimsOf(t, str(s, "access_token"))
		if err != nil || obj(s, "user")["email"] != "mwila@example.com" || claims.AMR[0].Method != "recovery" || str(s, "refresh_token") == "" {
			t.Fatalf("verify answer = %v (claims %+v, %v)", s, claims, err)
		}
		// Using the link spends nothing until a password is set: a person
		// who opened it and left (or whose password was refused) can use it
		// again.
		res = env.authJSON(t, "POST", "/auth/v1/verify", map[string]any{"type": "recovery", "token_hash": tok}, "")
		wantStatus(t, res, 200)
		s = decode(t, res)
		wantAuthError(t, env.authJSON(t, "PUT", "/auth/v1/user", map[string]any{"password": "short"}, str(s, "access_token")), 422, "weak_password", "")
		// The page then sets the new password with the recovery session,
		// which spends the link.
		wantStatus(t, env.authJSON(t, "PUT", "/auth/v1/user", map[string]any{"password": "reset-chilanga-88"}, str(s, "access_token")), 200)
		env.signIn(t, "mwila@example.com", "reset-chilanga-88")
		wantAuthError(t, env.authJSON(t, "GET", "/auth/v1/user", nil, str(other, "access_token")), 403, "session_not_found", "")
		// Spent once the password is set.
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/verify", map[string]any{"type": "recovery", "token_hash": tok}, ""), 403, "otp_expired", msgLinkInvalid)
	})
}

func TestVerifyRejectsBadInput(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		env.signUp(t, "mwila@example.com", goodPassword)
		u, _ := env.DB.UserByEmail(context.Background(), "mwila@example.com")
		if err := env.DB.AddOneTimeToken(context.Background(), u.ID, store.TokenRecovery, hashToken("expired-token"), store.Now().Add(-time.Minute)); err != nil {
			t.Fatal(err)
		}
		const path = "/auth/v1/verify"
		runAuthScenarios(t, env, []authScenario{
			{"an expired token", "POST", path, map[string]any{"type": "recovery", "token_hash": "expired-token"}, nil, "", 403, "otp_expired", msgLinkInvalid, nil},
			{"an unknown token", "POST", path, map[string]any{"type": "recovery", "token_hash": "garbage"}, nil, "", 403, "otp_expired", msgLinkInvalid, nil},
			{"no token_hash", "POST", path, map[string]any{"type": "recovery"}, nil, "", 400, "validation_failed", "Verify requires a token_hash", nil},
			{"no type", "POST", path, map[string]any{"token_hash": "x"}, nil, "", 400, "validation_failed", "Verify requires a verification type", nil},
			{"a type not offered, as the hosted service", "POST", path, map[string]any{"type": "magiclink", "token_hash": "x"}, nil, "", 403, "otp_expired", msgTokenInvalid, nil},
			{"a phone type not offered", "POST", path, map[string]any{"type": "sms", "token_hash": "x"}, nil, "", 403, "otp_expired", msgTokenInvalid, nil},
			{"a field of the wrong type", "POST", path, `{"type": 1}`, nil, "", 400, "bad_json", "", nil},
			{"not JSON", "POST", path, `x`, map[string]string{"Content-Type": "text/html"}, "", 415, "validation_failed", "", nil},
		})
	})
}

func TestRecoverRejectsBadInput(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		const path = "/auth/v1/recover"
		runAuthScenarios(t, env, []authScenario{
			{"no e-mail", "POST", path, map[string]any{}, nil, "", 400, "validation_failed", "Password recovery requires an email", nil},
			{"not an e-mail address", "POST", path, map[string]any{"email": "mwila@"}, nil, "", 400, "email_address_invalid", msgEmailInvalid, nil},
			{"a field of the wrong type", "POST", path, `{"email": ["a"]}`, nil, "", 400, "bad_json", "", nil},
			{"a form", "POST", path, `email=a@example.com`, map[string]string{"Content-Type": "multipart/form-data"}, "", 415, "validation_failed", "", nil},
			{"too large", "POST", path, `{"email": "` + strings.Repeat("a", 70<<10) + `"}`, nil, "", 413, "validation_failed", "", nil},
			{"a bad PKCE method", "POST", path, map[string]any{"email": "a@example.com", "code_challenge": strings.Repeat("c", 43), "code_challenge_method": "md5"}, nil, "", 400, "validation_failed", "code_challenge_method must be s256 or plain", nil},
		})
	})
}

func TestSignupWithEmailConfirmation(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.ConfirmEmail = true; c.PublicURL = "https://salaula.example" }, func(t *testing.T, env *testEnv) {
		res := env.authJSON(t, "POST", "/auth/v1/signup", map[string]any{"email": "mwila@example.com", "password": goodPassword}, "")
		wantStatus(t, res, 200)
		u := decode(t, res)
		if u["access_token"] != nil || u["id"] == nil || u["email"] != "mwila@example.com" || u["email_confirmed_at"] != nil || u["confirmation_sent_at"] == nil {
			t.Fatalf("sign-up answer = %v; want the unconfirmed user without a session", u)
		}
		// Words a person understands, with what to do; the code is the hosted service's.
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "mwila@example.com", "password": goodPassword}, ""), 400, "email_not_confirmed",
			"Your e-mail address is not confirmed yet. Open the link in the e-mail we sent you when you signed up, or ask for the confirmation e-mail again.")
		// A wrong password still says only invalid_credentials.
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "mwila@example.com", "password": "wrong-password-1"}, ""), 400, "invalid_credentials", "")

		m := lastMail(t, env, "mwila@example.com")
		if m.Kind != "confirmation" {
			t.Fatalf("kind = %q", m.Kind)
		}
		link := linkIn(t, m.Body, "https://salaula.example/auth/v1/verify?")
		path := link.Path + "?" + link.RawQuery

		// Opening the link (as a mail scanner does) spends nothing: a page
		// asks for a button press, and the account stays unconfirmed.
		for range 2 {
			res = env.do(t, "GET", path, nil, nil)
			wantStatus(t, res, http.StatusOK)
			page, _ := io.ReadAll(res.Body)
			if !strings.Contains(string(page), "Confirm your e-mail address") || !strings.Contains(string(page), `<button type="submit">Confirm and sign in</button>`) ||
				!strings.Contains(res.Header.Get("Content-Security-Policy"), "form-action 'self'") || res.Header.Get("Cache-Control") != "no-store" {
				t.Fatalf("link page (CSP %q): %s", res.Header.Get("Content-Security-Policy"), page)
			}
		}
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "mwila@example.com", "password": goodPassword}, ""), 400, "email_not_confirmed", msgEmailNotConfirmed)

		// The button spends the token and signs in.
		res = openLink(t, env, link)
		wantStatus(t, res, http.StatusSeeOther)
		loc, _ := url.Parse(res.Header.Get("Location"))
		frag, _ := url.ParseQuery(loc.Fragment)
		if loc.Path != "/sign_up" || frag.Get("access_token") == "" || frag.Get("refresh_token") == "" || frag.Get("type") != "signup" || frag.Get("token_type") != "bearer" {
			t.Fatalf("redirect = %s", loc)
		}
		wantStatus(t, env.authJSON(t, "GET", "/auth/v1/user", nil, frag.Get("access_token")), 200)
		env.signIn(t, "mwila@example.com", goodPassword)
		// The confirmation link proved the address too.
		res = env.do(t, "POST", "/functions/v1/account-address", nil, map[string]string{"Authorization": "Bearer " + frag.Get("access_token")})
		wantStatus(t, res, 200)
		if a := decode(t, res); a["proven"] != true {
			t.Fatalf("after the confirmation link: %v", a)
		}

		// The link works once: opening it again sends the browser off with
		// the error in the fragment, and so does pressing a stale button.
		for _, res := range []*http.Response{env.do(t, "GET", path, nil, nil), env.do(t, "POST", "/auth/v1/verify",
			url.Values{"type": {"signup"}, "token": {link.Query().Get("token")}}.Encode(), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})} {
			wantStatus(t, res, http.StatusSeeOther)
			loc, _ = url.Parse(res.Header.Get("Location"))
			frag, _ = url.ParseQuery(loc.Fragment)
			if frag.Get("error_code") != "otp_expired" || frag.Get("access_token") != "" {
				t.Fatalf("second visit redirect = %s", loc)
			}
		}
		// redirect_to may not leave the site.
		for _, res := range []*http.Response{
			env.do(t, "GET", "/auth/v1/verify?type=signup&token=x&redirect_to="+url.QueryEscape("https://evil.example/"), nil, nil),
			env.do(t, "POST", "/auth/v1/verify", "type=signup&token=x&redirect_to="+url.QueryEscape("https://evil.example/"), map[string]string{"Content-Type": "application/x-www-form-urlencoded"}),
		} {
			wantStatus(t, res, http.StatusSeeOther)
			if loc := res.Header.Get("Location"); !strings.HasPrefix(loc, "/sign_up#") {
				t.Fatalf("open redirect to %s", loc)
			}
		}
		// A link or a form without its token or type, or a malformed form, is refused plainly.
		for _, res := range []*http.Response{
			env.do(t, "GET", "/auth/v1/verify", nil, nil),
			env.do(t, "GET", "/auth/v1/verify?type=magiclink&token=x", nil, nil),
			env.do(t, "POST", "/auth/v1/verify", "type=signup", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}),
			env.do(t, "POST", "/auth/v1/verify", "token=%zz", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}),
			env.do(t, "POST", "/auth/v1/verify", "token="+strings.Repeat("x", 20<<10), map[string]string{"Content-Type": "application/x-www-form-urlencoded"}),
		} {
			wantStatus(t, res, http.StatusSeeOther)
			if !strings.Contains(res.Header.Get("Location"), "error_code=validation_failed") {
				t.Fatalf("no-token redirect = %s", res.Header.Get("Location"))
			}
		}
	})
}

func TestVerifyConfirmationByPost(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.ConfirmEmail = true }, func(t *testing.T, env *testEnv) {
		wantStatus(t, env.authJSON(t, "POST", "/auth/v1/signup", map[string]any{"email": "mwila@example.com", "password": goodPassword}, ""), 200)
		link := linkIn(t, lastMail(t, env, "mwila@example.com").Body, "http")
		res := env.authJSON(t, "POST", "/auth/v1/verify", map[string]any{"type": "signup", "token_hash": link.Query().Get("token")}, "")
		wantStatus(t, res, 200)
		if s := decode(t, res); str(s, "access_token") == "" || str(obj(s, "user"), "email_confirmed_at") == "" {
			t.Fatalf("verify answer = %v", s)
		}
	})
}

func TestSealRejectsTampering(t *testing.T) {
	t.Parallel()
	box, _ := seal.New(testSecret, "salaula refresh-token successor")
	sealed, err := box.Seal([]byte("refresh-token"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := box.Open(sealed); err != nil || string(got) != "refresh-token" {
		t.Fatalf("open = %q, %v", got, err)
	}
	otherBox, _ := seal.New([]byte("another-secret-another-secret-another"), "salaula refresh-token successor")
	cases := []struct {
		name   string
		box    *seal.Box
		sealed string
	}{
		{"other secret", otherBox, sealed},
		{"flipped", box, flipChar(sealed, 10)},
		{"short", box, "AAAA"},
		{"not base64", box, "!!!"},
	}
	for _, c := range cases {
		if got, err := c.box.Open(c.sealed); err == nil {
			t.Errorf("%s: opened %q", c.name, got)
		}
	}
}

// flipChar changes the character at i to another base64 character.
func flipChar(s string, i int) string {
	c := byte('A')
	if s[i] == 'A' {
		c = 'B'
	}
	return s[:i] + string(c) + s[i+1:]
}

func TestControlCharactersAndBadUTF8NeverFail(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		nul := `"mwi\u0000la@example.com"`
		refused := "email can hold only printable text: letters, digits, signs and spaces, not the control character U+0000"
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/signup", `{"email": `+nul+`, "password": "chitenge-lusaka-42"}`, ""), 400, "validation_failed", refused)
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/token?grant_type=password", `{"email": `+nul+`, "password": "chitenge-lusaka-42"}`, ""), 400, "validation_failed", refused)
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/recover", `{"email": `+nul+`}`, ""), 400, "validation_failed", refused)
		// Bytes that are not UTF-8 reach the rules as U+FFFD (the JSON decoder's replacement).
		wantAuthError(t, env.do(t, "POST", "/auth/v1/signup", "{\"email\": \"m\xffw@example.com\", \"password\": \"chitenge-lusaka-42\"}", nil), 400, "email_address_invalid", "")
		// Metadata is text too; a password, only hashed, may hold any character.
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/signup", `{"email": "mwila@example.com", "password": "chitenge-lusaka-42", "data": {"note": "a\u0000b"}}`, ""),
			400, "validation_failed", "data.note can hold only printable text: letters, digits, signs and spaces, not the control character U+0000")
		res := env.authJSON(t, "POST", "/auth/v1/signup", `{"email": "mwila@example.com", "password": "chitenge\u0000lusaka", "data": {"note": "a\nb"}}`, "")
		wantStatus(t, res, 200)
		// A User-Agent that is not UTF-8 is stored cleaned.
		res = env.do(t, "POST", "/auth/v1/token?grant_type=password", `{"email": "mwila@example.com", "password": "chitenge\u0000lusaka"}`,
			map[string]string{"User-Agent": "Tecno\xff\xfeSpark " + strings.Repeat("é", 400)})
		wantStatus(t, res, 200)
	})
}

func TestAuthErrorsAreSupabaseShaped(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		// Unknown auth routes answer JSON 404 with the version header too.
		for _, c := range [][2]string{{"GET", "/auth/v1/factors"}, {"DELETE", "/auth/v1/user"}, {"GET", "/auth/v1/token"}} {
			res := env.do(t, c[0], c[1], nil, nil)
			if res.StatusCode != 404 && res.StatusCode != 405 {
				t.Errorf("%s %s: status %d", c[0], c[1], res.StatusCode)
			}
			if res.Header.Get("X-Supabase-Api-Version") != "2024-01-01" {
				t.Errorf("%s %s: no API version header", c[0], c[1])
			}
		}
		// The body supabase-js reads for API version 2024-01-01: a string code and msg.
		res := env.authJSON(t, "POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "a@example.com", "password": "x"}, "")
		var raw map[string]json.RawMessage
		if err := json.NewDecoder(res.Body).Decode(&raw); err != nil {
			t.Fatal(err)
		}
		if string(raw["code"]) != `"invalid_credentials"` || string(raw["error_code"]) != `"invalid_credentials"` || string(raw["msg"]) != `"Invalid login credentials"` {
			t.Fatalf("error body = %s %s %s", raw["code"], raw["error_code"], raw["msg"])
		}
	})
}

// BenchmarkSignInWrongPassword and BenchmarkSignInUnknownEmail compare the
// time of the two invalid_credentials answers (they should be about equal).
func BenchmarkSignInWrongPassword(b *testing.B) { benchSignIn(b, "mwila@example.com") }

func BenchmarkSignInUnknownEmail(b *testing.B) { benchSignIn(b, "nobody@example.com") }

func benchSignIn(b *testing.B, email string) {
	ctx := context.Background()
	db, err := store.Open(ctx, "", b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
	cfg, err := config.Parse("serve", nil, func(string) string { return "" }, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	cfg.AuthRateLimit = config.Rate{}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	mailer, _ := mail.New(db, cfg.MailFrom, "", logger)
	h, err := New(Deps{Config: cfg, DB: db, Secret: testSecret, Mailer: mailer, Logger: logger, App: testApp})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	body := `{"email": "mwila@example.com", "password": "` + goodPassword + `"}`
	res, err := http.Post(srv.URL+"/auth/v1/signup", "application/json", strings.NewReader(body))
	if err != nil || res.StatusCode != 200 {
		b.Fatalf("sign-up: %v %v", res, err)
	}
	res.Body.Close()
	login := `{"email": "` + email + `", "password": "wrong-password-1"}`
	for b.Loop() {
		res, err := http.Post(srv.URL+"/auth/v1/token?grant_type=password", "application/json", strings.NewReader(login))
		if err != nil || res.StatusCode != 400 {
			b.Fatalf("sign-in: %v %v", res, err)
		}
		res.Body.Close()
	}
}

// The session and user objects carry exactly the fields supabase-js
// expects: the times a user does not have yet are left out (not null),
// an account without second factors has no "factors" field, and the
// empty phone and the user metadata are always there.
func TestSessionAnswerFieldsPresentAndAbsent(t *testing.T) {
	keys := func(m map[string]any) string { return strings.Join(slices.Sorted(maps.Keys(m)), " ") }
	const userKeys = "app_metadata aud confirmation_sent_at created_at email id identities is_anonymous phone role updated_at user_metadata"
	const identityKeys = "created_at email id identity_data identity_id provider updated_at user_id"
	eachEngine(t, func(c *config.Config) { c.ConfirmEmail = true }, func(t *testing.T, env *testEnv) {
		// Signed up, not yet confirmed: a user without a session, not
		// confirmed and never signed in, with the time the e-mail went.
		u := env.signUp(t, "mwila@example.com", goodPassword)
		if got := keys(u); got != userKeys {
			t.Fatalf("unconfirmed user's fields:\n got %s\nwant %s", got, userKeys)
		}
		ids, _ := u["identities"].([]any)
		if len(ids) != 1 {
			t.Fatalf("identities = %v", u["identities"])
		}
		if got := keys(ids[0].(map[string]any)); got != identityKeys {
			t.Fatalf("identity's fields:\n got %s\nwant %s", got, identityKeys)
		}
		if u["phone"] != "" || u["is_anonymous"] != false || keys(obj(u, "user_metadata")) != "" || keys(obj(u, "app_metadata")) != "provider providers" {
			t.Fatalf("user = %v", u)
		}
		// Confirmed and signed in: the session, and the user's
		// confirmation and sign-in times.
		hash, err := password.Hash(goodPassword)
		if err != nil {
			t.Fatal(err)
		}
		now := store.Now()
		if err := env.DB.CreateUser(context.Background(), &store.User{Email: "chanda@example.com", PasswordHash: hash, EmailConfirmedAt: &now}); err != nil {
			t.Fatal(err)
		}
		s := env.signIn(t, "chanda@example.com", goodPassword)
		if got, want := keys(s), "access_token expires_at expires_in refresh_token token_type user"; got != want {
			t.Fatalf("session's fields:\n got %s\nwant %s", got, want)
		}
		want := "app_metadata aud confirmed_at created_at email email_confirmed_at id identities is_anonymous last_sign_in_at phone role updated_at user_metadata"
		if got := keys(obj(s, "user")); got != want {
			t.Fatalf("signed-in user's fields:\n got %s\nwant %s", got, want)
		}
		id := obj(s, "user")["identities"].([]any)[0].(map[string]any)
		if got := keys(id); got != "created_at email id identity_data identity_id last_sign_in_at provider updated_at user_id" {
			t.Fatalf("signed-in identity's fields: %s", got)
		}
	})
}
