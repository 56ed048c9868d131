package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"salaula/internal/store"
)

// person is an account a test filled with everything Salaula can hold
// about someone: a profile with photos and logos, a second session, a
// reset token, consent records, a waitlist sign-up and a contact message,
// and the proof that the account holds its address.
type person struct {
	testUser
	Password string
	Refresh  string
	Images   []string // public URLs
}

// newPerson signs email up (with a browser's user agent), onboards it as
// buyer and seller with two photos and a logo, and fills the public forms.
func newPerson(t *testing.T, env *testEnv, email, phone string, age int) person {
	t.Helper()
	const pw = "mulungushi-rock-77"
	res := env.do(t, "POST", "/auth/v1/signup", map[string]any{"email": email, "password": pw},
		map[string]string{"User-Agent": "Mozilla/5.0 (Linux; Android 10; itel A56)"})
	wantStatus(t, res, 200)
	s := decode(t, res)
	p := person{testUser: testUser{ID: str(obj(s, "user"), "id"), Email: email, Token: str(s, "access_token")}, Password: pw}
	p.Refresh = str(s, "refresh_token")
	env.signIn(t, email, pw) // a second device
	for _, name := range []string{"front.jpg", "side.jpg"} {
		p.Images = append(p.Images, env.mustUpload(t, p.testUser, p.ID+"/1700-"+name, testJPEG(t, 40, 60)))
	}
	logo := env.mustUpload(t, p.testUser, p.ID+"/logos/1700-logo.png", testPNG(t))
	p.Images = append(p.Images, logo)
	buyer := validProfile(p.testUser, p.Images[:2]...)
	buyer["phone_number"], buyer["age"], buyer["terms"], buyer["role"] = phone, age, true, "buyer_and_seller"
	if age < 18 {
		buyer["parental_consent"] = true
	}
	wantStatus(t, env.do(t, "POST", "/functions/v1/onboard-new-user", buyer, p.auth(env)), 200)
	seller := validSeller(p.testUser, logo)
	seller["phone_number"], seller["age"], seller["terms"], seller["role"], seller["parental_consent"] = phone, age, true, "buyer_and_seller", age < 18
	wantStatus(t, env.do(t, "POST", "/functions/v1/onboard-seller", seller, p.auth(env)), 200)
	wantStatus(t, env.do(t, "POST", "/functions/v1/waitlist-signup", map[string]any{"email": email, "programName": "Wardrobe Clearance Program"}, nil), 200)
	contact := validContact()
	contact["email"] = email
	wantStatus(t, env.do(t, "POST", "/functions/v1/contact-form-submit", contact, nil), 200)
	if err := env.DB.AddOneTimeToken(context.Background(), p.ID, store.TokenRecovery, "hash-of-"+p.ID, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	waitMail(t, env, email, "waitlist")
	proveAddress(t, env, p.testUser)
	return p
}

// proveAddress proves u's address as its holder does from My account: it
// asks for the link, reads it from the outbox and sends its token back.
func proveAddress(t *testing.T, env *testEnv, u testUser) map[string]any {
	t.Helper()
	res := env.do(t, "POST", "/functions/v1/account-prove-email", nil, u.auth(env))
	wantStatus(t, res, 200)
	if got := decode(t, res); got["email"] != u.Email || !strings.Contains(str(got, "message"), "We have sent a link to "+u.Email) {
		t.Fatalf("account-prove-email answered %v", got)
	}
	link := linkIn(t, waitMail(t, env, u.Email, "email_proof").Body, "http")
	if link.Path != "/account/prove_email" || link.Query().Get("token_hash") == "" {
		t.Fatalf("proof link %s", link)
	}
	res = env.do(t, "POST", "/functions/v1/account-prove-email-verify", map[string]any{"token_hash": link.Query().Get("token_hash")}, u.auth(env))
	wantStatus(t, res, 200)
	a := decode(t, res)
	if a["proven"] != true || a["proven_at"] == nil {
		t.Fatalf("after the proof: %v", a)
	}
	return a
}

// tables lists every table of the database.
func tables(t *testing.T, db *store.DB) []string {
	t.Helper()
	q := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
	if db.Dialect() == store.Postgres {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`
	}
	rows, err := db.Query(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		out = append(out, n)
	}
	slices.Sort(out)
	if len(out) < 10 {
		t.Fatalf("only %d tables: %v", len(out), out)
	}
	return out
}

// ownRows says, per table, which rows belong to a person (by id or e-mail).
var ownRows = map[string]string{
	"users": "id = ?", "sessions": "user_id = ?", "refresh_tokens": "user_id = ?", "one_time_tokens": "user_id = ?",
	"consents": "user_id = ?", "profiles": "user_id = ?", "media_objects": "owner_id = ?",
	"waitlist_signups": "email = ?", "contact_messages": "email = ?", "sent_emails": "to_address = ?",
}

// counts returns the rows of every table, in all and of each person.
func counts(t *testing.T, db *store.DB, people ...person) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range tables(t, db) {
		out[table] = countRows(t, db, `SELECT COUNT(*) FROM `+table)
		where, ok := ownRows[table]
		for _, p := range people {
			n := 0
			if ok {
				arg := p.ID
				if strings.Contains(where, "email = ?") || strings.HasPrefix(where, "to_address") {
					arg = p.Email
				}
				n = countRows(t, db, `SELECT COUNT(*) FROM `+table+` WHERE `+where, arg)
			}
			out[table+" of "+p.Email] = n
		}
	}
	return out
}

func TestAccountExportHoldsExactlyTheCallersData(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		a := newPerson(t, env, "chipo@example.com", "0971234567", 24)
		b := newPerson(t, env, "mwila@example.com", "0961111222", 16)

		res := env.do(t, "POST", "/functions/v1/account-export", map[string]any{}, a.auth(env))
		wantStatus(t, res, 200)
		if cd := res.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, `attachment; filename="salaula-my-data-`) {
			t.Errorf("Content-Disposition = %q", cd)
		}
		raw, _ := io.ReadAll(res.Body)
		for _, other := range []string{b.Email, b.ID, "0961111222"} {
			if strings.Contains(string(raw), other) {
				t.Fatalf("export of %s holds %q of another account:\n%s", a.Email, other, raw)
			}
		}
		var x struct {
			Account struct {
				ID, Email string
				Confirmed bool
				CreatedAt string `json:"created_at"`
			}
			Profile struct {
				PhoneNumber string   `json:"phone_number"`
				Role        string   `json:"role"`
				Photos      []string `json:"body_photo_urls"`
			}
			Images []struct {
				URL       string `json:"url"`
				InProfile bool   `json:"in_profile"`
			}
			WaitlistSignups []struct{ Program string } `json:"waitlist_signups"`
			ContactMessages []struct {
				Email, Message string
			} `json:"contact_messages"`
			Sessions []struct {
				UserAgent string `json:"user_agent"`
				IP        string `json:"ip"`
				Created   string `json:"created_at"`
				LastUsed  string `json:"last_used_at"`
				Current   bool   `json:"current"`
			}
			Consents []struct{ Kind, Version string }
		}
		if err := json.Unmarshal(raw, &x); err != nil {
			t.Fatal(err)
		}
		if x.Account.ID != a.ID || x.Account.Email != a.Email || !x.Account.Confirmed || x.Account.CreatedAt == "" {
			t.Errorf("account = %+v", x.Account)
		}
		if x.Profile.PhoneNumber != "+260971234567" || x.Profile.Role != "buyer_and_seller" || len(x.Profile.Photos) != 2 {
			t.Errorf("profile = %+v", x.Profile)
		}
		if len(x.Images) != 3 {
			t.Fatalf("images = %+v", x.Images)
		}
		for _, img := range x.Images {
			if !slices.Contains(a.Images, img.URL) || !img.InProfile {
				t.Errorf("image %+v is not one of %v", img, a.Images)
			}
			if res, _ := env.get(t, strings.TrimPrefix(img.URL, env.URL), nil); res.StatusCode != 200 {
				t.Errorf("%s: %d", img.URL, res.StatusCode)
			}
		}
		if len(x.WaitlistSignups) != 1 || x.WaitlistSignups[0].Program != "Wardrobe Clearance Program" {
			t.Errorf("waitlist = %+v", x.WaitlistSignups)
		}
		if len(x.ContactMessages) != 1 || x.ContactMessages[0].Email != a.Email || x.ContactMessages[0].Message == "" {
			t.Errorf("messages = %+v", x.ContactMessages)
		}
		if len(x.Sessions) != 2 || !x.Sessions[0].Current || x.Sessions[1].Current {
			t.Fatalf("sessions = %+v", x.Sessions)
		}
		if s := x.Sessions[0]; s.UserAgent != "Mozilla/5.0 (Linux; Android 10; itel A56)" || s.IP != "127.0.0.1" || s.Created == "" || s.LastUsed == "" {
			t.Errorf("session = %+v", s)
		}
		var kinds []string
		for _, c := range x.Consents {
			kinds = append(kinds, c.Kind+" "+c.Version)
		}
		slices.Sort(kinds)
		if want := []string{"privacy_policy 2025-09-11", "terms 2025-09-11", "wardrobe_clearance 2025-09-11"}; !slices.Equal(kinds, want) {
			t.Errorf("consents = %v, want %v", kinds, want)
		}

		// The 16-year-old's export holds the parent's consent.
		res = env.do(t, "POST", "/functions/v1/account-export", nil, b.auth(env))
		wantStatus(t, res, 200)
		if body := decode(t, res); !strings.Contains(fmt.Sprint(body["consents"]), "parental_consent") {
			t.Errorf("consents of %s = %v", b.Email, body["consents"])
		}

		// No user token: 401, nothing to download.
		for _, h := range []map[string]string{nil, {"apikey": env.anonKey(t), "Authorization": "Bearer " + env.anonKey(t)}, {"Authorization": "Bearer not-a-token"}} {
			res := env.do(t, "POST", "/functions/v1/account-export", nil, h)
			wantStatus(t, res, 401)
			if res.Header.Get("Content-Disposition") != "" || decode(t, res)["error"] != "You must be logged in." {
				t.Errorf("%v: answered a download or another message", h)
			}
		}
	})
}

func TestOnboardingUnder18NeedsParentalConsent(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "teen@example.com")
		body := validProfile(u)
		body["age"], body["terms"] = 16, true
		res := env.do(t, "POST", "/functions/v1/onboard-new-user", body, u.auth(env))
		wantStatus(t, res, 400)
		msg := "If you are under 18, a parent or guardian must agree: please tick the parental consent box"
		if got := decode(t, res); got["error"] != msg || fieldsOf(t, got)["parental_consent"] != msg {
			t.Fatalf("answer = %v", got)
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM profiles`) + countRows(t, env.DB, `SELECT COUNT(*) FROM consents`); n != 0 {
			t.Fatalf("%d rows stored for a refused submit", n)
		}
		body["parental_consent"] = true
		wantStatus(t, env.do(t, "POST", "/functions/v1/onboard-new-user", body, u.auth(env)), 200)
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM consents WHERE user_id = ? AND kind = 'parental_consent'`, u.ID); n != 1 {
			t.Fatalf("parental consent records = %d", n)
		}
		// Unticking the clearance box withdraws that consent; the record stays.
		body["wants_clearance_program"] = false
		wantStatus(t, env.do(t, "POST", "/functions/v1/onboard-new-user", body, u.auth(env)), 200)
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM consents WHERE user_id = ? AND kind = 'wardrobe_clearance' AND withdrawn_at IS NOT NULL`, u.ID); n != 1 {
			t.Fatalf("withdrawn clearance consents = %d", n)
		}
	})
}

func TestAccountDeleteRemovesTheCallerAndNobodyElse(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		a := newPerson(t, env, "chipo@example.com", "0971234567", 24)
		b := newPerson(t, env, "mwila@example.com", "0961111222", 30)
		before := counts(t, env.DB, a, b)
		for table, where := range ownRows {
			if before[table+" of "+a.Email] == 0 && table != "one_time_tokens" {
				t.Fatalf("the test holds no %s row of %s (%s)", table, a.Email, where)
			}
		}

		// Bad requests and a wrong password change nothing.
		for _, c := range []struct {
			body    any
			headers map[string]string
			status  int
			msg     string
		}{
			{map[string]any{"password": "wrong-password-1"}, a.auth(env), 401, "The password is not correct"},
			{map[string]any{}, a.auth(env), 400, "Please enter your password to delete your account"},
			{map[string]any{"password": "   "}, a.auth(env), 400, "Please enter your password to delete your account"},
			{`{"password": `, a.auth(env), 400, "Request body is not valid JSON"},
			{map[string]any{"password": 42}, a.auth(env), 400, "Field password has the wrong type"},
			{map[string]any{"password": a.Password}, nil, 401, "You must be logged in."},
			{map[string]any{"password": a.Password}, map[string]string{"Authorization": "Bearer " + env.anonKey(t)}, 401, "You must be logged in."},
		} {
			res := env.do(t, "POST", "/functions/v1/account-delete", c.body, c.headers)
			wantStatus(t, res, c.status)
			if got := decode(t, res)["error"]; got != c.msg {
				t.Errorf("%v: error = %q, want %q", c.body, got, c.msg)
			}
		}
		if after := counts(t, env.DB, a, b); !maps.Equal(before, after) {
			t.Fatalf("a refused delete changed rows:\nbefore %v\nafter  %v", before, after)
		}
		wantStatus(t, env.do(t, "POST", "/functions/v1/get-profile-me", nil, a.auth(env)), 200)

		res := env.do(t, "POST", "/functions/v1/account-delete", map[string]any{"password": a.Password}, a.auth(env))
		wantStatus(t, res, 200)
		if got := decode(t, res); got["message"] != "Your account has been deleted." {
			t.Fatalf("answer = %v", got)
		}
		after := counts(t, env.DB, a, b)
		for _, table := range tables(t, env.DB) {
			if table == "waitlist_counts" || table == "waitlist_daily" || table == "waitlist_line_numbers" {
				// Roll-ups: a count taken off may land in a row of another
				// writer lane; their totals are checked by the console's tests.
				continue
			}
			want := before[table] - before[table+" of "+a.Email]
			if table == "sent_emails" {
				want++ // the confirmation
			}
			if after[table] != want {
				t.Errorf("%s: %d rows after, want %d (before %d, of %s %d)", table, after[table], want, before[table], a.Email, before[table+" of "+a.Email])
			}
			if after[table+" of "+b.Email] != before[table+" of "+b.Email] {
				t.Errorf("%s: rows of %s went from %d to %d", table, b.Email, before[table+" of "+b.Email], after[table+" of "+b.Email])
			}
		}
		if m := waitMail(t, env, a.Email, "account_deleted"); m.Subject != "Your Salaula account has been deleted" {
			t.Errorf("confirmation = %+v", m)
		}
		for _, u := range a.Images {
			if res, _ := env.get(t, strings.TrimPrefix(u, env.URL), nil); res.StatusCode != 404 {
				t.Errorf("%s answers %d after the delete", u, res.StatusCode)
			}
		}
		for _, u := range b.Images {
			if res, _ := env.get(t, strings.TrimPrefix(u, env.URL), nil); res.StatusCode != 200 {
				t.Errorf("%s of the other account answers %d", u, res.StatusCode)
			}
		}

		// The old tokens are refused by every endpoint.
		for _, path := range []string{"get-profile-me", "account-export", "account-delete", "onboard-new-user", "onboard-seller"} {
			res := env.do(t, "POST", "/functions/v1/"+path, map[string]any{"password": a.Password}, a.auth(env))
			wantStatus(t, res, 401)
		}
		wantAuthError(t, env.authJSON(t, "GET", "/auth/v1/user", nil, a.Token), 403, "session_not_found", "")
		wantAuthError(t, env.authJSON(t, "PUT", "/auth/v1/user", map[string]any{"data": map[string]any{"x": 1}}, a.Token), 403, "session_not_found", "")
		wantStatus(t, env.upload(t, a.testUser, a.ID+"/again.jpg", testJPEG(t, 10, 10), false), 401)
		wantAuthError(t, env.refresh(t, a.Refresh), 400, "refresh_token_not_found", "")
		wantAuthError(t, env.authJSON(t, "POST", "/auth/v1/token?grant_type=password", map[string]any{"email": a.Email, "password": a.Password}, ""), 400, "invalid_credentials", "")

		// The e-mail may sign up again, as a new account.
		again := env.signUp(t, a.Email, "another-good-pass-9")
		if id := str(obj(again, "user"), "id"); id == "" || id == a.ID {
			t.Fatalf("new account id %q (old %q)", id, a.ID)
		}
		wantStatus(t, env.do(t, "POST", "/functions/v1/get-profile-me", nil, b.auth(env)), 200)
	})
}

func TestChangePasswordChecksTheCurrentOne(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		s := env.signUp(t, "chipo@example.com", goodPassword)
		tok := str(s, "access_token")
		wantAuthError(t, env.authJSON(t, "PUT", "/auth/v1/user", map[string]any{"password": "brand-new-pass-5", "current_password": "not-it-at-all"}, tok),
			400, "invalid_credentials", "Your current password is not correct")
		env.signIn(t, "chipo@example.com", goodPassword)
		wantStatus(t, env.authJSON(t, "PUT", "/auth/v1/user", map[string]any{"password": "brand-new-pass-5", "current_password": goodPassword}, tok), 200)
		env.signIn(t, "chipo@example.com", "brand-new-pass-5")
	})
}
