package server

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"salaula/internal/config"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// The visitor's contact message: their phone and home address.
const homeAddress = "Deliveries to Plot 12, Kabulonga, please"

// visitorSends fills the public forms with email, as a visitor does.
func visitorSends(t *testing.T, env *testEnv, email string) {
	t.Helper()
	contact := validContact()
	contact["email"], contact["phoneNumber"], contact["message"] = email, "0977123456", homeAddress
	wantStatus(t, env.do(t, "POST", "/functions/v1/contact-form-submit", contact, nil), 200)
	wantStatus(t, env.do(t, "POST", "/functions/v1/waitlist-signup", map[string]any{"email": email, "programName": "Upcycling Initiative"}, nil), 200)
	waitMail(t, env, email, "waitlist")
}

// signedUp signs email up with goodPassword (confirmation off: confirmed
// at once, the address not proven) and returns the account.
func signedUp(t *testing.T, env *testEnv, email string) testUser {
	t.Helper()
	s := env.signUp(t, email, goodPassword)
	return testUser{ID: str(obj(s, "user"), "id"), Email: email, Token: str(s, "access_token")}
}

// Someone who signs up with a visitor's address (confirmation off: the
// account is confirmed at once) neither sees, exports nor erases what the
// visitor sent with it; once the address's holder proves it with the link
// e-mailed to it, their account does.
func TestAccountFunctionsGiveTheRowsOfAnAddressOnlyToItsProvenHolder(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.FormRateLimit = config.Rate{} }, func(t *testing.T, env *testEnv) {
		const email = "chanda@example.com"
		visitorSends(t, env, email)
		intruder := signedUp(t, env, email)

		res := env.do(t, "POST", "/functions/v1/account-address", nil, intruder.auth(env))
		wantStatus(t, res, 200)
		a := decode(t, res)
		if a["email"] != email || a["proven"] != false || a["proven_at"] != nil || len(a["contact_messages"].([]any)) != 0 || len(a["waitlist_signups"].([]any)) != 0 {
			t.Fatalf("account-address of an unproven account: %v", a)
		}
		res = env.do(t, "POST", "/functions/v1/account-export", nil, intruder.auth(env))
		wantStatus(t, res, 200)
		raw, _ := io.ReadAll(res.Body)
		if strings.Contains(string(raw), homeAddress) || strings.Contains(string(raw), "977123456") || strings.Contains(string(raw), "Upcycling") {
			t.Fatalf("the export gives the visitor's rows to the unproven account: %s", raw)
		}
		if !strings.Contains(string(raw), `"address_not_proven":"The waitlist sign-ups and contact messages sent to Salaula with chanda@example.com are not in this file`) ||
			!strings.Contains(string(raw), `"email_proven":false`) {
			t.Fatalf("the export does not say why its lists are empty: %s", raw)
		}
		res = env.do(t, "POST", "/functions/v1/account-delete", map[string]any{"password": goodPassword}, intruder.auth(env))
		wantStatus(t, res, 200)
		if d := obj(decode(t, res), "deleted"); d["by_address"] != false {
			t.Fatalf("deleted %v", d)
		}
		if m, w := countRows(t, env.DB, `SELECT COUNT(*) FROM contact_messages WHERE email = ?`, email),
			countRows(t, env.DB, `SELECT COUNT(*) FROM waitlist_signups WHERE email = ? AND unsubscribed_at IS NULL`, email); m != 1 || w != 1 {
			t.Fatalf("deleting the unproven account took the visitor's rows: %d messages, %d sign-ups left", m, w)
		}
		if n := countMail(t, env.DB, email, "waitlist"); n != 1 {
			t.Fatalf("deleting the unproven account took the visitor's e-mails: %d left", n)
		}

		// The holder signs up and proves the address from My account.
		holder := signedUp(t, env, email)
		a = proveAddress(t, env, holder)
		msgs, signups := a["contact_messages"].([]any), a["waitlist_signups"].([]any)
		if len(msgs) != 1 || msgs[0].(map[string]any)["message"] != homeAddress || len(signups) != 1 || signups[0].(map[string]any)["program"] != "Upcycling Initiative" {
			t.Fatalf("account-address after the proof: %v", a)
		}
		res = env.do(t, "POST", "/functions/v1/account-export", nil, holder.auth(env))
		wantStatus(t, res, 200)
		raw, _ = io.ReadAll(res.Body)
		if !strings.Contains(string(raw), homeAddress) || strings.Contains(string(raw), "address_not_proven") || !strings.Contains(string(raw), `"email_proven":true`) {
			t.Fatalf("export of the proven holder: %s", raw)
		}
		res = env.do(t, "POST", "/functions/v1/account-delete", map[string]any{"password": goodPassword}, holder.auth(env))
		wantStatus(t, res, 200)
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM contact_messages WHERE email = ?`, email) +
			countRows(t, env.DB, `SELECT COUNT(*) FROM waitlist_signups WHERE email = ?`, email); n != 0 {
			t.Fatalf("%d rows of the address left after the proven holder's delete", n)
		}
	})
}

// The proof functions answer every bad request plainly and change nothing.
func TestProofFunctionsRefuseBadRequests(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "mutale@example.com")
		other := newUser(t, env, "bupe@example.com")
		for _, path := range []string{"account-address", "account-prove-email", "account-prove-email-verify"} {
			for _, h := range []map[string]string{nil, {"Authorization": "Bearer " + env.anonKey(t)}, {"Authorization": "Bearer not-a-token"}} {
				res := env.do(t, "POST", "/functions/v1/"+path, map[string]any{"token_hash": "x"}, h)
				wantStatus(t, res, 401)
				if got := decode(t, res)["error"]; got != msgAccountNoSession {
					t.Fatalf("%s %v: %v", path, h, got)
				}
			}
		}
		wantStatus(t, env.do(t, "POST", "/functions/v1/account-prove-email", nil, u.auth(env)), 200)
		tok := linkIn(t, waitMail(t, env, u.Email, "email_proof").Body, "http").Query().Get("token_hash")
		// A second link within the minute is refused: the address's e-mail limit.
		res := env.do(t, "POST", "/functions/v1/account-prove-email", nil, u.auth(env))
		wantStatus(t, res, 429)
		if got := decode(t, res)["error"]; !strings.HasPrefix(fmt.Sprint(got), "For security purposes, you can only request this after ") || res.Header.Get("Retry-After") == "" {
			t.Fatalf("429 answer %v", got)
		}
		for _, c := range []struct {
			body   any
			who    testUser
			status int
			msg    string
		}{
			{map[string]any{}, u, 400, "This link is incomplete. Open the link in the e-mail again, or ask for a new one from My account."},
			{map[string]any{"token_hash": "  "}, u, 400, "This link is incomplete. Open the link in the e-mail again, or ask for a new one from My account."},
			{map[string]any{"token_hash": 42}, u, 400, "Field token_hash has the wrong type"},
			{`{"token_hash": `, u, 400, "Request body is not valid JSON"},
			{map[string]any{"token_hash": tok + "x"}, u, 403, "This link has expired, has already been used, or was sent for another account. Sign in with the account it was sent for, or ask for a new link from My account."},
			{map[string]any{"token_hash": strings.Repeat("x", 60<<10)}, u, 403, "This link has expired, has already been used, or was sent for another account. Sign in with the account it was sent for, or ask for a new link from My account."},
			{map[string]any{"token_hash": tok}, other, 403, "This link has expired, has already been used, or was sent for another account. Sign in with the account it was sent for, or ask for a new link from My account."}, // another account's link
		} {
			res := env.do(t, "POST", "/functions/v1/account-prove-email-verify", c.body, c.who.auth(env))
			wantStatus(t, res, c.status)
			if got := decode(t, res)["error"]; got != c.msg {
				t.Fatalf("%.40v: error %q, want %q", c.body, got, c.msg)
			}
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM users WHERE email_proven_at IS NOT NULL`); n != 0 {
			t.Fatalf("%d accounts proven by refused requests", n)
		}
		// The link still works for its account, once.
		res = env.do(t, "POST", "/functions/v1/account-prove-email-verify", map[string]any{"token_hash": tok}, u.auth(env))
		wantStatus(t, res, 200)
		res = env.do(t, "POST", "/functions/v1/account-prove-email-verify", map[string]any{"token_hash": tok}, u.auth(env))
		wantStatus(t, res, 403)
		res = env.do(t, "POST", "/functions/v1/account-prove-email", nil, u.auth(env))
		wantStatus(t, res, 409)
		if got := decode(t, res)["error"]; got != "Your e-mail address is already proven." {
			t.Fatalf("409 answer %v", got)
		}
	})
}

// A password-reset link proves the address only in the step that sets the
// new password, which also signs the account's other sessions out: someone
// who made an account with a visitor's address and asks for a reset link
// to it reads nothing of the visitor's when the visitor opens the link, and
// loses the account when the visitor sets a password.
func TestRecoveryLinkProvesTheAddressWithTheNewPassword(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.FormRateLimit = config.Rate{} }, func(t *testing.T, env *testEnv) {
		const email = "mwila@example.com"
		visitorSends(t, env, email)
		intruder := signedUp(t, env, email)
		wantStatus(t, env.authJSON(t, "POST", "/auth/v1/recover", map[string]any{"email": email}, ""), 200)
		link := linkIn(t, waitMail(t, env, email, "recovery").Body, "http")
		res := env.authJSON(t, "POST", "/auth/v1/verify", map[string]any{"type": "recovery", "token_hash": link.Query().Get("token_hash")}, "")
		wantStatus(t, res, http.StatusOK)
		reset := testUser{ID: intruder.ID, Email: email, Token: str(decode(t, res), "access_token")}
		for _, who := range []testUser{intruder, reset} {
			res = env.do(t, "POST", "/functions/v1/account-address", nil, who.auth(env))
			wantStatus(t, res, 200)
			if a := decode(t, res); a["proven"] != false || len(a["contact_messages"].([]any)) != 0 {
				t.Fatalf("the reset link opened, no new password yet: %v", a)
			}
		}
		res = env.authJSON(t, "PUT", "/auth/v1/user", map[string]any{"password": "Kalingalinga-Rain-2026"}, reset.Token)
		wantStatus(t, res, http.StatusOK)
		res = env.do(t, "POST", "/functions/v1/account-address", nil, intruder.auth(env))
		wantStatus(t, res, http.StatusUnauthorized)
		res = env.do(t, "POST", "/functions/v1/account-address", nil, reset.auth(env))
		wantStatus(t, res, 200)
		if a := decode(t, res); a["proven"] != true || len(a["contact_messages"].([]any)) != 1 {
			t.Fatalf("after the new password: %v", a)
		}
	})
}

// Asked for again too soon, the proof link's refusal says when it can be
// asked for: the seconds left of the minute after each e-mail, and "several
// e-mails" (with the minutes) only once the hour's quota of 5 has gone.
func TestProofLinkRefusalSaysWhenToAskAgain(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var clock atomic.Int64
		clock.Store(time.Now().UnixNano())
		now := func() time.Time { return time.Unix(0, clock.Load()) }
		env := newTestEnvAt(t, db, nil, now)
		u := newUser(t, env, "mutale@example.com")
		ask := func() *http.Response { return env.do(t, "POST", "/functions/v1/account-prove-email", nil, u.auth(env)) }
		refused := func(res *http.Response) (string, int) {
			t.Helper()
			wantStatus(t, res, 429)
			secs, err := strconv.Atoi(res.Header.Get("Retry-After"))
			if err != nil {
				t.Fatalf("Retry-After = %q", res.Header.Get("Retry-After"))
			}
			return fmt.Sprint(decode(t, res)["error"]), secs
		}
		for i := range 4 {
			wantStatus(t, ask(), 200)
			msg, secs := refused(ask())
			if want := fmt.Sprintf("For security purposes, you can only request this after %d seconds.", secs); msg != want || secs < 1 || secs > 60 {
				t.Fatalf("after e-mail %d: %q (Retry-After %d), want %q", i+1, msg, secs, want)
			}
			clock.Add(int64(61 * time.Second))
		}
		// The fifth this hour: the next waits for the first to be an hour old.
		wantStatus(t, ask(), 200)
		msg, secs := refused(ask())
		if want := "We have sent several e-mails to this address in the last hour. You can ask for another in 56 minutes."; msg != want || secs <= 60 || secs > 3600 {
			t.Fatalf("after five e-mails: %q (Retry-After %d), want %q", msg, secs, want)
		}
		if n := countMail(t, env.DB, u.Email, "email_proof"); n != 5 {
			t.Fatalf("%d proof e-mails, want 5", n)
		}
	})
}
