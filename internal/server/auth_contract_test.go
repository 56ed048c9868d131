package server

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"salaula/internal/config"
	"salaula/internal/mail"
	"salaula/internal/mfa"
	"salaula/internal/seal"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
	"salaula/internal/token"
)

// Access tokens are checked for exp, aud, iss and a future iat/nbf (#17):
// each of these tokens, signed with the server's own key for a live
// session, was accepted before.
func TestAccessTokenClaimsAreChecked(t *testing.T) {
	for _, mode := range []struct {
		name  string
		tweak func(*config.Config)
	}{{"es256", nil}, {"hs256", func(c *config.Config) { c.JWTSecret = "shared-secret-shared-secret-shared-secret" }}} {
		t.Run(mode.name, func(t *testing.T) {
			eachEngine(t, mode.tweak, func(t *testing.T, env *testEnv) {
				s := env.signUp(t, "claims@example.com", goodPassword)
				claims, err := env.claimsOf(t, str(s, "access_token"))
				if err != nil {
					t.Fatal(err)
				}
				wantStatus(t, env.authJSON(t, "GET", "/auth/v1/user", nil, env.sign(t, *claims)), 200)
				now := time.Now()
				for name, change := range map[string]func(c *token.Claims){
					"no exp":     func(c *token.Claims) { c.ExpiresAt = 0 },
					"wrong aud":  func(c *token.Claims) { c.Audience = "anon" },
					"no aud":     func(c *token.Claims) { c.Audience = "" },
					"wrong iss":  func(c *token.Claims) { c.Issuer = "https://evil.example/auth/v1" },
					"future iat": func(c *token.Claims) { c.IssuedAt = now.Add(10 * time.Minute).Unix() },
					"future nbf": func(c *token.Claims) { c.NotBefore = now.Add(10 * time.Minute).Unix() },
				} {
					t.Run(name, func(t *testing.T) {
						c := *claims
						change(&c)
						wantAuthError(t, env.authJSON(t, "GET", "/auth/v1/user", nil, env.sign(t, c)), 403, "bad_jwt", "")
					})
				}
			})
		})
	}
}

func TestJWKSAndRotation(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		s := env.signUp(t, "keys@example.com", goodPassword)
		before := str(s, "access_token")
		res := env.do(t, "GET", "/auth/v1/.well-known/jwks.json", nil, nil)
		wantStatus(t, res, 200)
		keys, _ := decode(t, res)["keys"].([]any)
		if len(keys) != 1 || keys[0].(map[string]any)["kty"] != "EC" || keys[0].(map[string]any)["d"] != nil {
			t.Fatalf("jwks = %v", keys)
		}
		oldKid := keys[0].(map[string]any)["kid"]
		box, _ := seal.New(testSecret, token.SealPurpose)
		if _, err := token.Rotate(context.Background(), env.DB, box, time.Now()); err != nil {
			t.Fatal(err)
		}
		// A token of the old key still works; a new one is signed by the new key,
		// which the server finds (an unknown kid reloads the keys, at most
		// every keyRetry after the last load).
		wantStatus(t, env.authJSON(t, "GET", "/auth/v1/user", nil, before), 200)
		newKr := env.keyring(t)
		if newKr.Current().ID == oldKid {
			t.Fatal("rotation did not make a new current key")
		}
		c, _ := env.claimsOf(t, before)
		time.Sleep(keyRetry)
		wantStatus(t, env.authJSON(t, "GET", "/auth/v1/user", nil, env.sign(t, *c)), 200)
		// A kid the server never had is refused.
		stranger, _ := token.NewES256Key(time.Now())
		sr, _ := token.NewKeyring([]*token.Key{stranger})
		forged, _ := sr.Sign(*c)
		wantAuthError(t, env.authJSON(t, "GET", "/auth/v1/user", nil, forged), 403, "bad_jwt", "")
		// Once every token of the old key has expired, it leaves the key set.
		later, err := token.LoadES256(context.Background(), env.DB, box, env.Config.AccessTokenTTL+token.Leeway, time.Now().Add(env.Config.AccessTokenTTL+time.Minute))
		if err != nil || later.Has(oldKid.(string)) || len(later.JWKS()["keys"]) != 1 {
			t.Fatalf("key set an hour later: %v, %v", later.JWKS(), err)
		}
		// The stored private keys are sealed, never in the clear.
		var sealed string
		env.DB.QueryRow(context.Background(), `SELECT private_sealed FROM signing_keys LIMIT 1`).Scan(&sealed)
		if raw, _ := base64.RawStdEncoding.DecodeString(sealed); len(raw) < 100 || strings.Contains(sealed, "PRIVATE") {
			t.Fatalf("sealed key = %q", sealed)
		}
	})
}

// enrol makes a verified TOTP factor for the session and returns the factor
// id, its secret and the aal2 session answer.
func enrol(t *testing.T, env *testEnv, access string) (string, string, map[string]any) {
	t.Helper()
	return enrolAt(t, env, access, time.Now())
}

// enrolAt is enrol with the code of the time step of at.
func enrolAt(t *testing.T, env *testEnv, access string, at time.Time) (string, string, map[string]any) {
	t.Helper()
	res := env.authJSON(t, "POST", "/auth/v1/factors", map[string]any{"factor_type": "totp", "friendly_name": "Phone"}, access)
	wantStatus(t, res, 200)
	f := decode(t, res)
	totp := obj(f, "totp")
	if !strings.HasPrefix(str(totp, "qr_code"), "<svg") || !strings.HasPrefix(str(totp, "uri"), "otpauth://totp/Salaula:") || len(str(totp, "secret")) != 32 {
		t.Fatalf("enroll = %v", f)
	}
	id, secret := str(f, "id"), str(totp, "secret")
	session := verifyCode(t, env, access, id, secret, at, 200)
	return id, secret, session
}

func verifyCode(t *testing.T, env *testEnv, access, factorID, secret string, at time.Time, status int) map[string]any {
	t.Helper()
	res := env.authJSON(t, "POST", "/auth/v1/factors/"+factorID+"/challenge", map[string]any{}, access)
	wantStatus(t, res, 200)
	ch := decode(t, res)
	code, _ := mfa.Code(secret, mfa.Step(at))
	res = env.authJSON(t, "POST", "/auth/v1/factors/"+factorID+"/verify", map[string]any{"challenge_id": str(ch, "id"), "code": code}, access)
	wantStatus(t, res, status)
	return decode(t, res)
}

func TestMFAEnrollVerifyUnenroll(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		s := env.signUp(t, "mfa@example.com", goodPassword)
		access := str(s, "access_token")
		enrolledAt := time.Now()
		id, secret, raised := enrolAt(t, env, access, enrolledAt)
		c, _ := env.claimsOf(t, str(raised, "access_token"))
		if c.AAL != "aal2" || c.AMR[0].Method != "totp" || c.SessionID == "" {
			t.Fatalf("claims after verify = %+v", c)
		}
		factors, _ := obj(raised, "user")["factors"].([]any)
		if len(factors) != 1 || factors[0].(map[string]any)["status"] != "verified" {
			t.Fatalf("factors = %v", factors)
		}
		// A password sign-in answers the account with its factor too (the
		// factor is known from the account's own read), and one without
		// a factor with none.
		again := env.signIn(t, "mfa@example.com", goodPassword)
		if f, _ := obj(again, "user")["factors"].([]any); len(f) != 1 || f[0].(map[string]any)["id"] != id {
			t.Fatalf("factors after sign-in = %v", obj(again, "user")["factors"])
		}
		env.signUp(t, "nomfa@example.com", goodPassword)
		if f, ok := obj(env.signIn(t, "nomfa@example.com", goodPassword), "user")["factors"]; ok && f != nil {
			t.Fatalf("factors of an account without any = %v", f)
		}
		// The secret is stored sealed.
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM mfa_factors WHERE secret_sealed = ?`, secret); n != 0 {
			t.Fatal("TOTP secret stored in the clear")
		}
		// The same code again is refused, even with a new challenge.
		body := verifyCode(t, env, str(raised, "access_token"), id, secret, enrolledAt, 422)
		if body["code"] != "mfa_verification_rejected" {
			t.Fatalf("reused code: %v", body)
		}
		// A wrong code, an unknown challenge and factor, bad input.
		aal2 := str(raised, "access_token")
		res := env.authJSON(t, "POST", "/auth/v1/factors/"+id+"/challenge", nil, aal2)
		ch := decode(t, res)
		verify := "/auth/v1/factors/" + id + "/verify"
		runAuthScenarios(t, env, []authScenario{
			{"a wrong code", "POST", verify, map[string]any{"challenge_id": str(ch, "id"), "code": "000000x"}, nil, aal2, 422, "mfa_verification_failed", "Invalid TOTP code entered", nil},
			{"an unknown challenge", "POST", verify, map[string]any{"challenge_id": "nope", "code": "123456"}, nil, aal2, 422, "mfa_factor_not_found", "MFA factor with the provided challenge ID not found", nil},
			{"no code", "POST", verify, map[string]any{"challenge_id": str(ch, "id")}, nil, aal2, 400, "validation_failed", "Code needs to be non-empty", nil},
			{"no challenge", "POST", verify, map[string]any{"code": "123456"}, nil, aal2, 400, "validation_failed", "challenge_id is required", nil},
			{"challenging an unknown factor", "POST", "/auth/v1/factors/unknown/challenge", nil, nil, aal2, 404, "mfa_factor_not_found", "Factor not found", nil},
			{"removing an unknown factor", "DELETE", "/auth/v1/factors/unknown", nil, nil, aal2, 404, "mfa_factor_not_found", "Factor not found", nil},
			{"malformed JSON", "POST", verify, `{"code":`, nil, aal2, 400, "bad_json", "", nil},
			{"a phone factor", "POST", "/auth/v1/factors", map[string]any{"factor_type": "phone", "phone": "+260971234567"}, nil, aal2, 422, "mfa_phone_enroll_not_enabled", "MFA enroll is disabled for Phone", nil},
			{"a WebAuthn factor", "POST", "/auth/v1/factors", map[string]any{"factor_type": "webauthn"}, nil, aal2, 422, "mfa_webauthn_enroll_not_enabled", "MFA enroll is disabled for WebAuthn", nil},
			{"another factor type", "POST", "/auth/v1/factors", map[string]any{"factor_type": "sms"}, nil, aal2, 400, "validation_failed", "factor_type needs to be totp", nil},
			{"enrolling with malformed JSON", "POST", "/auth/v1/factors", `{"factor_type":`, nil, aal2, 400, "bad_json", "", nil},
			{"enrolling without a token", "POST", "/auth/v1/factors", map[string]any{"factor_type": "totp"}, nil, "", 401, "no_authorization", "", nil},
		})

		// A fresh password sign-in is aal1: it may not remove the factor, nor enrol another.
		aal1 := str(env.signIn(t, "mfa@example.com", goodPassword), "access_token")
		c1, _ := env.claimsOf(t, aal1)
		if c1.AAL != "aal1" {
			t.Fatalf("password sign-in aal = %s", c1.AAL)
		}
		wantAuthError(t, env.authJSON(t, "DELETE", "/auth/v1/factors/"+id, nil, aal1), 422, "insufficient_aal", "")
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/factors", map[string]any{"factor_type": "totp"}, aal1), 403, "insufficient_aal", "")
		// The next step's code (one step of drift) raises it.
		raised2 := verifyCode(t, env, aal1, id, secret, time.Now().Add(mfa.Period), 200)
		// A refresh keeps aal2.
		res = env.refresh(t, str(raised2, "refresh_token"))
		wantStatus(t, res, 200)
		if c, _ := env.claimsOf(t, str(decode(t, res), "access_token")); c.AAL != "aal2" {
			t.Fatalf("refreshed aal = %s", c.AAL)
		}
		res = env.authJSON(t, "DELETE", "/auth/v1/factors/"+id, nil, str(raised2, "access_token"))
		wantStatus(t, res, 200)
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM mfa_factors`); n != 0 {
			t.Fatalf("%d factors left", n)
		}
	})
}

func TestMFAVerifyIsRateLimited(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		access := str(env.signUp(t, "limit@example.com", goodPassword), "access_token")
		res := env.authJSON(t, "POST", "/auth/v1/factors", map[string]any{"factor_type": "totp"}, access)
		id := str(decode(t, res), "id")
		ch := decode(t, env.authJSON(t, "POST", "/auth/v1/factors/"+id+"/challenge", nil, access))
		status := 0
		for i := 0; i < 11; i++ {
			status = env.authJSON(t, "POST", "/auth/v1/factors/"+id+"/verify", map[string]any{"challenge_id": str(ch, "id"), "code": "000000"}, access).StatusCode
		}
		if status != 429 {
			t.Fatalf("11th wrong code: status %d, want 429", status)
		}
	})
}

// After mfa.LockAfter wrong codes in a row, on a verified factor or on one
// never verified alike, the account refuses every code for a while, the
// right one too, with 429, a clear message and Retry-After; the person is
// e-mailed once; after the wait the right code works.
func TestMFAWrongCodesInARowMakeTheAccountWait(t *testing.T) {
	for _, c := range []struct {
		name     string
		verified bool
	}{{"verified factor", true}, {"unverified factor", false}} {
		t.Run(c.name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *store.DB) {
				wrongCodesMakeTheAccountWait(t, db, c.verified)
			})
		})
	}
}

func wrongCodesMakeTheAccountWait(t *testing.T, db *store.DB, verified bool) {
	var mu sync.Mutex
	clock := time.Now()
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	env := newTestEnvAt(t, db, nil, now)
	access := str(env.signUp(t, "mwila@example.com", goodPassword), "access_token")
	var id, secret string
	if verified {
		id, secret, _ = enrol(t, env, access)
	} else {
		// An enrolment left unfinished: its factor is still unverified.
		res := env.authJSON(t, "POST", "/auth/v1/factors", map[string]any{"factor_type": "totp"}, access)
		wantStatus(t, res, 200)
		f := decode(t, res)
		id, secret = str(f, "id"), str(obj(f, "totp"), "secret")
	}
	aal1 := str(env.signIn(t, "mwila@example.com", goodPassword), "access_token")
	mu.Lock()
	clock = clock.Add(mfa.Period) // the enrolment's code is spent
	mu.Unlock()
	try := func(code string) *http.Response {
		t.Helper()
		ch := decode(t, env.authJSON(t, "POST", "/auth/v1/factors/"+id+"/challenge", nil, aal1))
		return env.authJSON(t, "POST", "/auth/v1/factors/"+id+"/verify", map[string]any{"challenge_id": str(ch, "id"), "code": code}, aal1)
	}
	right := func() string { c, _ := mfa.Code(secret, mfa.Step(now())); return c }
	wrong := "000000"
	if _, ok := mfa.Match(secret, wrong, now()); ok {
		wrong = "111111"
	}
	for range mfa.LockAfter {
		wantAuthError(t, try(wrong), 422, "mfa_verification_failed", "")
	}
	// Two more wrong codes (seven in all) are refused without being checked.
	for range 2 {
		wantAuthError(t, try(wrong), 429, "over_request_rate_limit", "")
	}
	res := try(right())
	wantAuthError(t, res, 429, "over_request_rate_limit", "Too many wrong codes in a row. Wait 1 minute, then type the code your app shows.")
	if got := res.Header.Get("Retry-After"); got != "60" {
		t.Fatalf("Retry-After = %q, want 60", got)
	}

	sent, err := mail.Recent(context.Background(), env.DB, "mwila@example.com", 10)
	if err != nil {
		t.Fatal(err)
	}
	var warnings []mail.Sent
	for _, m := range sent {
		if m.Kind == "mfa-wrong-codes" {
			warnings = append(warnings, m)
		}
	}
	if len(warnings) != 1 || warnings[0].Subject != "Someone is trying to sign in to your Salaula account" ||
		!strings.Contains(warnings[0].Body, "typed 5 wrong two-step sign-in codes in a row") ||
		!strings.Contains(warnings[0].Body, env.Config.PublicURL+"/sign_up?mode=login") {
		t.Fatalf("warnings = %+v", warnings)
	}

	mu.Lock()
	clock = clock.Add(mfa.FirstDelay)
	mu.Unlock()
	res = try(right())
	wantStatus(t, res, 200)
	if c, _ := env.claimsOf(t, str(decode(t, res), "access_token")); c.AAL != "aal2" {
		t.Fatalf("aal after the wait = %s", c.AAL)
	}
	if n := countRows(t, env.DB, `SELECT COUNT(*) FROM users WHERE mfa_failed_attempts = 0 AND mfa_locked_until IS NULL`); n != 1 {
		t.Fatal("the right code did not forget the wrong ones")
	}
}

func TestRequireAAL2(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		s := env.signUp(t, "op@example.com", goodPassword)
		u, _ := env.DB.UserByEmail(context.Background(), "op@example.com")
		if err := mfa.RequireAAL2(context.Background(), env.DB, u.ID, "aal1"); err != mfa.ErrNoVerifiedFactor {
			t.Fatalf("no factor: %v", err)
		}
		_, _, raised := enrol(t, env, str(s, "access_token"))
		if err := mfa.RequireAAL2(context.Background(), env.DB, u.ID, "aal1"); err != mfa.ErrInsufficientAAL {
			t.Fatalf("aal1: %v", err)
		}
		c, _ := env.claimsOf(t, str(raised, "access_token"))
		if err := mfa.RequireAAL2(context.Background(), env.DB, u.ID, c.AAL); err != nil {
			t.Fatalf("aal2: %v", err)
		}
		if n, err := mfa.Reset(context.Background(), env.DB, "op@example.com"); n != 1 || err != nil {
			t.Fatalf("reset = %d, %v", n, err)
		}
	})
}

// lastLink returns the newest link in the e-mails sent to addr.
func lastLink(t *testing.T, env *testEnv, addr string) string {
	t.Helper()
	var sent []mail.Sent
	for i := 0; i < 50; i++ {
		sent, _ = mail.Recent(context.Background(), env.DB, addr, 1)
		if len(sent) > 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(sent) == 0 {
		t.Fatalf("no e-mail to %s", addr)
	}
	for _, f := range strings.Fields(sent[0].Body) {
		if strings.HasPrefix(f, "http") {
			return f
		}
	}
	t.Fatalf("no link in %q", sent[0].Body)
	return ""
}

func TestPKCESignupConfirmation(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.ConfirmEmail = true; c.EmailRateLimit = config.Rate{} }, func(t *testing.T, env *testEnv) {
		verifier := strings.Repeat("v3rifier-", 6)
		sum := sha256.Sum256([]byte(verifier))
		challenge := base64.RawURLEncoding.EncodeToString(sum[:])
		res := env.authJSON(t, "POST", "/auth/v1/signup?redirect_to="+url.QueryEscape(env.Config.PublicURL+"/sign_up?sb_flow_id=f1"),
			map[string]any{"email": "pkce@example.com", "password": goodPassword, "code_challenge": challenge, "code_challenge_method": "s256"}, "")
		wantStatus(t, res, 200)
		link := lastLink(t, env, "pkce@example.com")
		u, _ := url.Parse(link)
		res = openLink(t, env, u)
		wantStatus(t, res, http.StatusSeeOther)
		loc, _ := url.Parse(res.Header.Get("Location"))
		code := loc.Query().Get("code")
		if code == "" || loc.Query().Get("sb_flow_id") != "f1" || loc.Path != "/sign_up" {
			t.Fatalf("redirect = %s", loc)
		}
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/token?grant_type=pkce", map[string]any{"auth_code": code, "code_verifier": verifier + "x"}, ""), 400, "bad_code_verifier", "")
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/token?grant_type=pkce", map[string]any{"auth_code": code}, ""), 400, "validation_failed", "")
		res = env.authJSON(t, "POST", "/auth/v1/token?grant_type=pkce", map[string]any{"auth_code": code, "code_verifier": verifier}, "")
		wantStatus(t, res, 200)
		if s := decode(t, res); obj(s, "user")["email"] != "pkce@example.com" || str(s, "access_token") == "" {
			t.Fatalf("pkce session = %v", s)
		}
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/token?grant_type=pkce", map[string]any{"auth_code": code, "code_verifier": verifier}, ""), 404, "flow_state_not_found", "")
		// Bad challenges are refused before anything is stored.
		for name, body := range map[string]map[string]any{
			"method only":    {"email": "x@example.com", "password": goodPassword, "code_challenge_method": "s256"},
			"short":          {"email": "x@example.com", "password": goodPassword, "code_challenge": "abc", "code_challenge_method": "s256"},
			"unknown method": {"email": "x@example.com", "password": goodPassword, "code_challenge": challenge, "code_challenge_method": "md5"},
		} {
			t.Run(name, func(t *testing.T) {
				wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/signup", body, ""), 400, "validation_failed", "")
			})
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM users WHERE email = 'x@example.com'`); n != 0 {
			t.Fatal("a refused sign-up made an account")
		}

		// Recovery with the plain method; a code left too long expires.
		plain := strings.Repeat("p1ain-", 8)
		wantStatus(t, env.authJSON(t, "POST", "/auth/v1/recover", map[string]any{"email": "pkce@example.com", "code_challenge": plain, "code_challenge_method": "plain"}, ""), 200)
		var rlink string
		for i := 0; i < 100 && !strings.Contains(rlink, "type=recovery"); i++ {
			time.Sleep(20 * time.Millisecond)
			rlink = lastLink(t, env, "pkce@example.com")
		}
		u, _ = url.Parse(rlink)
		res = openLink(t, env, u)
		wantStatus(t, res, http.StatusSeeOther)
		loc, _ = url.Parse(res.Header.Get("Location"))
		if loc.Path != "/reset_password" || loc.Query().Get("code") == "" {
			t.Fatalf("recovery redirect = %s", loc)
		}
		if _, err := env.DB.Exec(context.Background(), `UPDATE flow_states SET auth_code_issued_at = ?`, time.Now().Add(-10*time.Minute)); err != nil {
			t.Fatal(err)
		}
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/token?grant_type=pkce", map[string]any{"auth_code": loc.Query().Get("code"), "code_verifier": plain}, ""), 422, "flow_state_expired", "")
	})
}

func TestResendAndExistingAddress(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.ConfirmEmail = true }, func(t *testing.T, env *testEnv) {
		first := env.authJSON(t, "POST", "/auth/v1/signup", map[string]any{"email": "re@example.com", "password": goodPassword}, "")
		wantStatus(t, first, 200)
		a := decode(t, first)
		// Again with the same address: the same shape of answer, another id.
		again := env.authJSON(t, "POST", "/auth/v1/signup", map[string]any{"email": "re@example.com", "password": goodPassword}, "")
		wantStatus(t, again, 200)
		b := decode(t, again)
		if a["id"] == b["id"] || b["email"] != "re@example.com" || b["confirmation_sent_at"] == nil || len(b["identities"].([]any)) != 1 {
			t.Fatalf("existing-address answer = %v", b)
		}
		// One e-mail a minute per address: the repeat sends nothing, and a resend says when to ask again.
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/resend", map[string]any{"email": "re@example.com", "type": "signup"}, ""), 429, "over_email_send_rate_limit", "")
		time.Sleep(100 * time.Millisecond)
		if n := countMail(t, env.DB, "re@example.com", ""); n != 1 {
			t.Fatalf("%d e-mails, want 1 (per-address limit)", n)
		}
		// Unknown address: the same answer, no e-mail.
		wantStatus(t, env.authJSON(t, "POST", "/auth/v1/resend", map[string]any{"email": "nobody@example.com", "type": "signup"}, ""), 200)
		runAuthScenarios(t, env, []authScenario{
			{"an e-mail change", "POST", "/auth/v1/resend", map[string]any{"email": "re@example.com", "type": "email_change"}, nil, "", 400, "validation_failed", "", nil},
			{"an SMS", "POST", "/auth/v1/resend", map[string]any{"phone": "+260971234567", "type": "sms"}, nil, "", 400, "phone_provider_disabled", "Phone logins are disabled", nil},
			{"no address", "POST", "/auth/v1/resend", map[string]any{"type": "signup"}, nil, "", 400, "validation_failed", "Resend requires an email", nil},
			{"no type", "POST", "/auth/v1/resend", map[string]any{"email": "re@example.com"}, nil, "", 400, "validation_failed", "Resend requires a type: signup", nil},
			{"another type", "POST", "/auth/v1/resend", map[string]any{"email": "re@example.com", "type": "recovery"}, nil, "", 400, "validation_failed", "Unsupported resend type: use signup", nil},
			{"not an address", "POST", "/auth/v1/resend", map[string]any{"email": "not-an-address", "type": "signup"}, nil, "", 400, "email_address_invalid", "", nil},
			{"an array", "POST", "/auth/v1/resend", `[]`, nil, "", 400, "bad_json", "", nil},
		})
	})
}

func TestDisabledSignupAndFeatures(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.DisableSignup = true }, func(t *testing.T, env *testEnv) {
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/signup", map[string]any{"email": "a@example.com", "password": goodPassword}, ""), 422, "signup_disabled", msgSignupDisabled)
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM users`); n != 0 {
			t.Fatal("account made with sign-up off")
		}
		res := env.do(t, "GET", "/auth/v1/settings", nil, nil)
		if decode(t, res)["disable_signup"] != true {
			t.Fatal("settings do not show sign-up off")
		}
		// Features not offered keep their codes and use the hosted service's words.
		runAuthScenarios(t, env, []authScenario{
			{"an e-mail code", "POST", "/auth/v1/otp", map[string]any{"email": "a@example.com"}, nil, "", 422, "otp_disabled", "Login with magic link is disabled", nil},
			{"a magic link", "POST", "/auth/v1/magiclink", map[string]any{"email": "a@example.com"}, nil, "", 422, "otp_disabled", "Login with magic link is disabled", nil},
			{"a phone code", "POST", "/auth/v1/otp", map[string]any{"phone": "+260971234567"}, nil, "", 422, "phone_provider_disabled", "Phone logins are disabled", nil},
			{"SAML", "POST", "/auth/v1/sso", map[string]any{"domain": "example.com"}, nil, "", 422, "sso_provider_disabled", "SAML 2.0 is disabled", nil},
			{"an OAuth provider", "GET", "/auth/v1/authorize?provider=google", nil, nil, "", 400, "provider_disabled", "Unsupported provider: provider is not enabled", nil},
			{"an ID token", "POST", "/auth/v1/token?grant_type=id_token", map[string]any{"provider": "google"}, nil, "", 400, "provider_disabled", "Unsupported provider: provider is not enabled", nil},
			{"a Web3 wallet", "POST", "/auth/v1/token?grant_type=web3", map[string]any{"chain": "ethereum"}, nil, "", 400, "web3_provider_disabled", "Web3 provider is disabled", nil},
			{"linking an identity", "GET", "/auth/v1/user/identities/authorize?provider=github", nil, nil, "", 422, "manual_linking_disabled", "Manual linking is disabled", nil},
			{"unlinking an identity", "DELETE", "/auth/v1/user/identities/x", nil, nil, "", 422, "manual_linking_disabled", "Manual linking is disabled", nil},
			{"a passkey", "POST", "/auth/v1/passkeys/authentication/options", map[string]any{}, nil, "", 422, "passkey_disabled", "Passkeys are disabled", nil},
			{"the service-role API", "GET", "/auth/v1/admin/users", nil, nil, "", 403, "not_admin", "User not allowed", nil},
			{"an invitation", "POST", "/auth/v1/invite", map[string]any{"email": "a@example.com"}, nil, "", 403, "not_admin", "User not allowed", nil},
			{"an unknown grant", "POST", "/auth/v1/token?grant_type=magic", map[string]any{}, nil, "", 400, "validation_failed", "", nil},
		})
	})
}

func TestSignupOfAConfirmedAddressMailsTheOwner(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.ConfirmEmail = true }, func(t *testing.T, env *testEnv) {
		now := store.Now()
		owner := &store.User{Email: "owner@example.com", PasswordHash: "x", UserMetadata: "{}", CreatedAt: now, EmailConfirmedAt: &now}
		if err := env.DB.CreateUser(context.Background(), owner); err != nil {
			t.Fatal(err)
		}
		res := env.authJSON(t, "POST", "/auth/v1/signup", map[string]any{"email": "Owner@example.com", "password": goodPassword}, "")
		wantStatus(t, res, 200)
		if b := decode(t, res); b["id"] == owner.ID || b["access_token"] != nil || b["email"] != "owner@example.com" {
			t.Fatalf("answer = %v", b)
		}
		sent, _ := mail.Recent(context.Background(), env.DB, "owner@example.com", 5)
		if len(sent) != 1 || sent[0].Subject != "Someone tried to sign up with your e-mail" || !strings.Contains(sent[0].Body, "/sign_up?mode=login") {
			t.Fatalf("mail to the owner = %+v", sent)
		}
		if u, _ := env.DB.UserByEmail(context.Background(), "owner@example.com"); u.PasswordHash != "x" {
			t.Fatal("the existing account was changed")
		}
	})
}
