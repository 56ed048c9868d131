package server

import (
	"net/http"
	"testing"
	"time"

	"salaula/internal/mfa"
)

// The words of a password-only session refused where two-step sign-in is on.
const (
	msgAAL2ToUpdateUser = "AAL2 session is required to update email or password when MFA is enabled."
	msgAAL2ToEnroll     = "AAL2 required to enroll a new factor"
	msgAAL2ToUnenroll   = "AAL2 required to unenroll verified factor"
	msgInsufficientAAL  = "AAL2 required: verify your two-step sign-in code first"
	msgNoVerifiedFactor = "Two-step sign-in is required: enrol an authenticator app first"
)

// callFunction calls an account function with bearer's session.
func (e *testEnv) callFunction(t *testing.T, name string, body any, bearer string) *http.Response {
	t.Helper()
	return e.do(t, "POST", "/functions/v1/"+name, body, map[string]string{"Authorization": "Bearer " + bearer, "apikey": e.anonKey(t)})
}

// wantFunctionAAL wants a function's refusal of a password-only session:
// 403, error_code insufficient_aal and the auth API's words for it.
func wantFunctionAAL(t *testing.T, res *http.Response) {
	t.Helper()
	wantStatus(t, res, 403)
	body := decode(t, res)
	if body["error_code"] != "insufficient_aal" || body["error"] != msgInsufficientAAL {
		t.Fatalf("%s %s answered %v, want insufficient_aal %q", res.Request.Method, res.Request.URL.Path, body, msgInsufficientAAL)
	}
}

// On an account with a verified factor, a password-only (aal1) session can
// change neither the password nor the address, add, verify or remove a
// verified factor, download the account's data, delete it, or prove its
// address; nothing changes. The same session raised to aal2 can do all of it.
func TestPasswordAloneNeverUndoesTwoStep(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		const email = "mfa-owner@example.com"
		s := env.signUp(t, email, goodPassword)
		userID := str(obj(s, "user"), "id")
		enrolledAt := time.Now()
		factor, secret, owner := enrolAt(t, env, str(s, "access_token"), enrolledAt)
		ownerTok := str(owner, "access_token")
		aal1 := str(env.signIn(t, email, goodPassword), "access_token")

		// The auth API, with Supabase Auth's codes and words.
		const newPassword = "brand-new-pass-5"
		for _, body := range []map[string]any{
			{"password": newPassword},
			{"password": newPassword, "current_password": goodPassword},
			{"email": "someone-else@example.com"},
		} {
			wantAuthError(t, env.authJSON(t, "PUT", "/auth/v1/user", body, aal1), 403, "insufficient_aal", msgAAL2ToUpdateUser)
		}
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/factors", map[string]any{"factor_type": "totp", "friendly_name": "Tablet"}, aal1),
			403, "insufficient_aal", msgAAL2ToEnroll)
		wantAuthError(t, env.authJSON(t, "DELETE", "/auth/v1/factors/"+factor, nil, aal1), 422, "insufficient_aal", msgAAL2ToUnenroll)
		// Metadata is not guarded.
		wantStatus(t, env.authJSON(t, "PUT", "/auth/v1/user", map[string]any{"data": map[string]any{"city": "Ndola"}}, aal1), 200)

		// A factor the owner left unverified cannot be finished from aal1,
		// even with its right code; it can be removed (it guards nothing).
		res := env.authJSON(t, "POST", "/auth/v1/factors", map[string]any{"factor_type": "totp", "friendly_name": "Tablet"}, ownerTok)
		wantStatus(t, res, 200)
		left := decode(t, res)
		leftID, leftSecret := str(left, "id"), str(obj(left, "totp"), "secret")
		ch := decode(t, env.authJSON(t, "POST", "/auth/v1/factors/"+leftID+"/challenge", nil, aal1))
		code, _ := mfa.Code(leftSecret, mfa.Step(time.Now()))
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/factors/"+leftID+"/verify", map[string]any{"challenge_id": str(ch, "id"), "code": code}, aal1),
			403, "insufficient_aal", msgAAL2ToEnroll)
		wantStatus(t, env.authJSON(t, "DELETE", "/auth/v1/factors/"+leftID, nil, aal1), 200)

		// The account functions, in their own shape.
		wantFunctionAAL(t, env.callFunction(t, "account-export", nil, aal1))
		wantFunctionAAL(t, env.callFunction(t, "account-delete", map[string]any{"password": goodPassword}, aal1))
		wantFunctionAAL(t, env.callFunction(t, "account-prove-email", nil, aal1))
		wantFunctionAAL(t, env.callFunction(t, "account-prove-email-verify", map[string]any{"token_hash": "any-token"}, aal1))

		// Nothing changed: the password, the owner's session, the factor, the account.
		env.signIn(t, email, goodPassword)
		wantStatus(t, env.authJSON(t, "GET", "/auth/v1/user", nil, ownerTok), 200)
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM mfa_factors WHERE id = ? AND status = 'verified'`, factor); n != 1 {
			t.Fatal("the verified factor is gone")
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM one_time_tokens WHERE user_id = ?`, userID); n != 0 {
			t.Fatalf("%d proof links made for a password-only session", n)
		}

		// The same session, raised with the next step's code, can do it all.
		aal2 := str(verifyCode(t, env, aal1, factor, secret, enrolledAt.Add(mfa.Period), 200), "access_token")
		wantStatus(t, env.callFunction(t, "account-export", nil, aal2), 200)
		wantStatus(t, env.callFunction(t, "account-prove-email", nil, aal2), 200)
		wantStatus(t, env.authJSON(t, "POST", "/auth/v1/factors", map[string]any{"factor_type": "totp", "friendly_name": "Tablet"}, aal2), 200)
		wantStatus(t, env.authJSON(t, "PUT", "/auth/v1/user", map[string]any{"password": newPassword, "current_password": goodPassword}, aal2), 200)
		env.signIn(t, email, newPassword)
		wantStatus(t, env.callFunction(t, "account-delete", map[string]any{"password": newPassword}, aal2), 200)
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM users WHERE id = ?`, userID); n != 0 {
			t.Fatal("the account is still there")
		}
	})
}

// An account without a verified factor is served at aal1 as before; the
// factor is read on every call, so once one is verified, a session still at
// aal1 is refused at once.
func TestAAL1IsEnoughUntilAFactorIsVerified(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		const email = "no-factor@example.com"
		env.signUp(t, email, goodPassword)
		aal1 := str(env.signIn(t, email, goodPassword), "access_token")
		wantStatus(t, env.callFunction(t, "account-export", nil, aal1), 200)
		wantStatus(t, env.authJSON(t, "PUT", "/auth/v1/user", map[string]any{"password": "brand-new-pass-5"}, aal1), 200)

		// An enrolment not yet verified changes nothing.
		res := env.authJSON(t, "POST", "/auth/v1/factors", map[string]any{"factor_type": "totp"}, aal1)
		wantStatus(t, res, 200)
		wantStatus(t, env.callFunction(t, "account-export", nil, aal1), 200)
		wantStatus(t, env.authJSON(t, "DELETE", "/auth/v1/factors/"+str(decode(t, res), "id"), nil, aal1), 200)

		// Another device turns two-step sign-in on: this aal1 token is refused.
		other := str(env.signIn(t, email, "brand-new-pass-5"), "access_token")
		enrol(t, env, other)
		wantFunctionAAL(t, env.callFunction(t, "account-export", nil, aal1))
		wantAuthError(t, env.authJSON(t, "PUT", "/auth/v1/user", map[string]any{"password": "another-pass-77"}, aal1), 403, "insufficient_aal", msgAAL2ToUpdateUser)
	})
}
