package server

import (
	"crypto/elliptic"
	"encoding/base64"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"salaula/internal/config"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// waitAMinute checks a 429's words: when the next link may be asked for.
func waitAMinute(t *testing.T, body map[string]any) {
	t.Helper()
	if m := str(body, "msg"); !strings.HasPrefix(m, "For security purposes, you can only request this after ") || !strings.HasSuffix(m, " seconds.") {
		t.Fatalf("msg = %q", m)
	}
}

// The attack review's e-mail bombing: asking for reset links to one address
// again and again sends one e-mail; asking again within the minute is
// answered 429 with the seconds to wait, as the hosted service does, for an
// address with an account and one without alike.
func TestRecoverSendsAtMostOneEmailAMinutePerAddress(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		env.signUp(t, "bomb@example.com", goodPassword)
		const path = "/auth/v1/recover"
		runAuthScenarios(t, env, []authScenario{
			{"the first asks", "POST", path, map[string]any{"email": "Bomb@example.com"}, nil, "", 200, "", "", nil},
			{"the second within the minute waits", "POST", path, map[string]any{"email": "bomb@example.com"}, nil, "", 429, "over_email_send_rate_limit", "", waitAMinute},
			{"the third too", "POST", path, map[string]any{"email": " BOMB@example.com"}, nil, "", 429, "over_email_send_rate_limit", "", waitAMinute},
			{"an address without an account: first", "POST", path, map[string]any{"email": "nobody@example.com"}, nil, "", 200, "", "", nil},
			{"an address without an account: again", "POST", path, map[string]any{"email": "nobody@example.com"}, nil, "", 429, "over_email_send_rate_limit", "", waitAMinute},
		})
		res := env.authJSON(t, "POST", path, map[string]any{"email": "bomb@example.com"}, "")
		if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || s < 1 || s > 60 {
			t.Fatalf("Retry-After = %q, want 1 to 60 seconds", res.Header.Get("Retry-After"))
		}
		waitMail(t, env, "bomb@example.com", "recovery")
		// The refusals are decided before the answer (429), so once the
		// first e-mail is queued the count is final.
		if n := countMail(t, env.DB, "bomb@example.com", "recovery"); n != 1 {
			t.Fatalf("%d reset e-mails went to one address within a minute, want 1", n)
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM one_time_tokens`); n != 1 {
			t.Fatalf("%d reset tokens were made, want 1", n)
		}
	})
}

// Asking for the confirmation e-mail again within the minute is answered
// as a reset link is (429 with the seconds to wait), not 200 while nothing
// goes: for an account waiting for its link, a confirmed one and an address
// without an account alike. After the wait it goes.
func TestResendSaysWhenTheNextLinkMayBeAsked(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var clock atomic.Int64
		clock.Store(time.Now().UnixNano())
		now := func() time.Time { return time.Unix(0, clock.Load()) }
		env := newTestEnvAt(t, db, func(c *config.Config) { c.ConfirmEmail = true }, now)
		wantStatus(t, env.authJSON(t, "POST", "/auth/v1/signup", map[string]any{"email": "waiting@example.com", "password": goodPassword}, ""), 200)
		waitMail(t, env, "waiting@example.com", "confirmation")
		const path = "/auth/v1/resend"
		resend := func(email string) map[string]any { return map[string]any{"email": email, "type": "signup"} }
		runAuthScenarios(t, env, []authScenario{
			{"just after sign-up's e-mail", "POST", path, resend("Waiting@example.com"), nil, "", 429, "over_email_send_rate_limit", "", waitAMinute},
			{"an address without an account: first", "POST", path, resend("nobody@example.com"), nil, "", 200, "", "", nil},
			{"an address without an account: again", "POST", path, resend("nobody@example.com"), nil, "", 429, "over_email_send_rate_limit", "", waitAMinute},
		})
		res := env.authJSON(t, "POST", path, resend("waiting@example.com"), "")
		if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || s < 1 || s > 60 {
			t.Fatalf("Retry-After = %q, want 1 to 60 seconds", res.Header.Get("Retry-After"))
		}
		if n := countMail(t, env.DB, "waiting@example.com", "confirmation"); n != 1 {
			t.Fatalf("%d confirmation e-mails within the minute, want 1", n)
		}
		// After the wait the link goes again.
		clock.Add(int64(61 * time.Second))
		wantStatus(t, env.authJSON(t, "POST", path, resend("waiting@example.com"), ""), 200)
		deadline := time.Now().Add(10 * time.Second)
		for countMail(t, env.DB, "waiting@example.com", "confirmation") != 2 {
			if time.Now().After(deadline) {
				t.Fatal("no second confirmation e-mail after the wait")
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

// A password of spaces is refused on sign-up and on change, as weak with
// the reason supabase-js knows, and nothing is stored or changed.
func TestPasswordsBlankAfterTrimmingAreRefused(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		const msg = "Password should contain characters other than spaces."
		for _, pw := range []string{"        ", "\t \u00a0 \n   \u3000  "} {
			body := wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/signup", map[string]any{"email": "blank@example.com", "password": pw}, ""), 422, "weak_password", msg)
			if got := fmt.Sprint(obj(body, "weak_password")["reasons"]); got != "[characters]" {
				t.Fatalf("reasons = %s, want [characters]", got)
			}
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM users`); n != 0 {
			t.Fatalf("%d accounts made with a blank password", n)
		}
		access := str(env.signUp(t, "blank@example.com", goodPassword), "access_token")
		wantAuthError(t, env.authJSON(t, "PUT", "/auth/v1/user", map[string]any{"password": "          "}, access), 422, "weak_password", msg)
		env.signIn(t, "blank@example.com", goodPassword)
	})
}

// User metadata rides in every access token: more than 4 KiB is refused with
// a clear 422 on sign-up and on update, and nothing is changed.
func TestUserMetadataIsCappedAt4KiB(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		const msg = "User metadata is too large: at most 4 KiB (4096 bytes) of JSON"
		big := map[string]any{"bio": strings.Repeat("x", 60<<10)}
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/signup", map[string]any{"email": "meta@example.com", "password": goodPassword, "data": big}, ""), 422, "validation_failed", msg)
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM users`); n != 0 {
			t.Fatal("an account was made with oversized metadata")
		}
		access := str(env.signUp(t, "meta@example.com", goodPassword), "access_token")
		wantStatus(t, env.authJSON(t, "PUT", "/auth/v1/user", map[string]any{"data": map[string]any{"nickname": "Mwila"}}, access), 200)
		// 4 KiB in several keys, each small: the whole is what counts. The
		// password in the same call is not changed either.
		var many = map[string]any{}
		for i := range 9 {
			many[fmt.Sprintf("k%d", i)] = strings.Repeat("y", 500)
		}
		wantAuthError(t, env.authJSON(t, "PUT", "/auth/v1/user", map[string]any{"data": many, "password": "another-good-pass-77"}, access), 422, "validation_failed", msg)
		res := env.authJSON(t, "GET", "/auth/v1/user", nil, access)
		wantStatus(t, res, 200)
		if meta := obj(decode(t, res), "user_metadata"); len(meta) != 1 || meta["nickname"] != "Mwila" {
			t.Fatalf("metadata after a refused update = %v", meta)
		}
		env.signIn(t, "meta@example.com", goodPassword)
		// Just under the cap is fine, and the session keeps working.
		wantStatus(t, env.authJSON(t, "PUT", "/auth/v1/user", map[string]any{"data": map[string]any{"bio": strings.Repeat("z", 3900)}}, access), 200)
		wantStatus(t, env.authJSON(t, "GET", "/auth/v1/user", nil, access), 200)
	})
}

// The attack review's second spelling of an ES256 signature: (r, n-s)
// verifies by the curve's arithmetic as (r, s) does, but a token has one
// spelling. The server signs low-S, and a token re-spelt high-S is refused
// with 401 where the original answers 200.
func TestAnAccessTokenRespeltHighSIsRefused(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		s := env.signUp(t, "spelling@example.com", goodPassword)
		c, err := env.claimsOf(t, str(s, "access_token"))
		if err != nil {
			t.Fatal(err)
		}
		n := elliptic.P256().Params().N
		for i := range 16 {
			tok := str(s, "access_token")
			if i > 0 {
				tok = env.sign(t, *c) // the server's signer; each signature is new
			}
			dot := strings.LastIndexByte(tok, '.')
			sig, err := base64.RawURLEncoding.DecodeString(tok[dot+1:])
			if err != nil || len(sig) != 64 {
				t.Fatalf("signature of %q: %d bytes, %v", tok, len(sig), err)
			}
			sv := new(big.Int).SetBytes(sig[32:])
			if sv.Cmp(new(big.Int).Rsh(n, 1)) > 0 {
				t.Errorf("token %d is signed high-S", i)
			}
			sv.Sub(n, sv).FillBytes(sig[32:])
			twin := tok[:dot+1] + base64.RawURLEncoding.EncodeToString(sig)
			if body := env.callProfileMe(t, tok); body["_status"] != 200 {
				t.Fatalf("token %d: get-profile-me = %v, want 200", i, body)
			}
			if body := env.callProfileMe(t, twin); body["_status"] != 401 {
				t.Fatalf("token %d re-spelt (r, n-s): get-profile-me = %v, want 401", i, body)
			}
		}
	})
}
