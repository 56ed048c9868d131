package server

import (
	"context"
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"salaula/internal/console/consoletest"
	"salaula/internal/mfa"
	"salaula/internal/store"
)

// newOperator makes an account with the operator role (as `salaula admin
// grant` does), enrols and verifies an authenticator app (TOTP), and returns
// its aal2 access token. Every console test makes its operators here.
func (e *testEnv) newOperator(t *testing.T, email string) string {
	t.Helper()
	tok := str(e.signUp(t, email, goodPassword), "access_token")
	if err := e.DB.SetAdmin(context.Background(), email, true); err != nil {
		t.Fatal(err)
	}
	_, _, session := enrol(t, e, tok)
	return str(session, "access_token")
}

// wantAAL403 wants the console's answer to an operator who has not passed
// two-step sign-in: 403, error_code insufficient_aal, the auth API's message.
func wantAAL403(t *testing.T, res *http.Response, msg string) {
	t.Helper()
	wantStatus(t, res, http.StatusForbidden)
	body := decode(t, res)
	if body["error_code"] != "insufficient_aal" || body["error"] != msg {
		t.Fatalf("%s %s: %v, want insufficient_aal %q", res.Request.Method, res.Request.URL, body, msg)
	}
}

func TestAdminOperatorNeedsTwoStep(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		seedForms(t, env)
		ctx := context.Background()
		email := "founder@example.com"
		aal1 := str(env.signUp(t, email, goodPassword), "access_token")
		if err := env.DB.SetAdmin(ctx, email, true); err != nil {
			t.Fatal(err)
		}
		var msgID string
		env.DB.QueryRow(ctx, `SELECT id FROM contact_messages LIMIT 1`).Scan(&msgID)
		patch := map[string]any{"status": "handled", "note": "called back"}
		// An operator without a factor: every endpoint refuses, nothing changes nor is audited.
		for _, p := range adminGets {
			wantAAL403(t, env.admin(t, "GET", p, nil, aal1), msgNoVerifiedFactor)
		}
		wantAAL403(t, env.admin(t, "PATCH", "/admin/v1/messages/"+msgID, patch, aal1), msgNoVerifiedFactor)
		// A factor enrolled but not verified yet is no factor.
		res := env.authJSON(t, "POST", "/auth/v1/factors", map[string]any{"factor_type": "totp"}, aal1)
		wantStatus(t, res, 200)
		unverified := str(decode(t, res), "id")
		wantAAL403(t, env.admin(t, "GET", "/admin/v1/overview", nil, aal1), msgNoVerifiedFactor)
		wantStatus(t, env.authJSON(t, "DELETE", "/auth/v1/factors/"+unverified, nil, aal1), 200)

		// With a verified factor, a password-only (aal1) session is still refused.
		_, secret, raised := enrol(t, env, aal1)
		factorID := str(obj(raised, "user")["factors"].([]any)[0].(map[string]any), "id")
		fresh := str(env.signIn(t, email, goodPassword), "access_token")
		for _, p := range adminGets {
			wantAAL403(t, env.admin(t, "GET", p, nil, fresh), msgInsufficientAAL)
		}
		wantAAL403(t, env.admin(t, "PATCH", "/admin/v1/messages/"+msgID, patch, fresh), msgInsufficientAAL)
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM audit_log`); n != 0 {
			t.Fatalf("refused calls wrote %d audit rows", n)
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM contact_messages WHERE status = 'handled'`); n != 0 {
			t.Fatal("a refused PATCH changed a message")
		}

		// The code raises that session to aal2: 200 everywhere.
		aal2 := str(verifyCode(t, env, fresh, factorID, secret, time.Now().Add(mfa.Period), 200), "access_token")
		for _, p := range adminGets {
			wantStatus(t, env.admin(t, "GET", p, nil, aal2), http.StatusOK)
		}
		wantStatus(t, env.admin(t, "PATCH", "/admin/v1/messages/"+msgID, patch, aal2), http.StatusOK)

		// A non-operator with two-step sign-in on still gets the plain 403, without error_code.
		shopper := str(env.signUp(t, "shopper@example.com", goodPassword), "access_token")
		_, _, s := enrol(t, env, shopper)
		res = env.admin(t, "GET", "/admin/v1/overview", nil, str(s, "access_token"))
		wantStatus(t, res, http.StatusForbidden)
		if body := decode(t, res); body["error"] != "This page is for the Salaula team" || body["error_code"] != nil {
			t.Fatalf("non-operator 403 = %v", body)
		}
		// A non-operator without a factor is not told to enrol either.
		wantAdminError(t, env.admin(t, "GET", "/admin/v1/overview", nil, str(env.signUp(t, "seller@example.com", goodPassword), "access_token")),
			http.StatusForbidden, "This page is for the Salaula team")
	})
}

// admin calls the console API with a bearer token.
func (e *testEnv) admin(t *testing.T, method, path string, body any, bearer string) *http.Response {
	t.Helper()
	h := map[string]string{}
	if bearer != "" {
		h["Authorization"] = "Bearer " + bearer
	}
	return e.do(t, method, path, body, h)
}

// adminGet wants 200 and returns the JSON answer.
func (e *testEnv) adminGet(t *testing.T, path, bearer string) map[string]any {
	t.Helper()
	res := e.admin(t, "GET", path, nil, bearer)
	wantStatus(t, res, http.StatusOK)
	return decode(t, res)
}

func items(m map[string]any) []map[string]any {
	raw, _ := m["items"].([]any)
	out := make([]map[string]any, len(raw))
	for i, r := range raw {
		out[i], _ = r.(map[string]any)
	}
	return out
}

// wantAdminError checks a 4xx answer and that its message contains want.
func wantAdminError(t *testing.T, res *http.Response, status int, want string) {
	t.Helper()
	wantStatus(t, res, status)
	body := decode(t, res)
	if msg, _ := body["error"].(string); !strings.Contains(msg, want) {
		t.Fatalf("%s %s: error %q, want it to contain %q", res.Request.Method, res.Request.URL, msg, want)
	}
}

// seedForms stores a few sign-ups and messages through the public functions.
func seedForms(t *testing.T, env *testEnv) {
	t.Helper()
	for _, s := range []map[string]any{
		{"email": "mwila@example.com", "programName": "Wardrobe Clearance Program", "pagePath": "/wardrobeclearance",
			"referrer": "https://l.facebook.com/x", "utm_source": "facebook", "utm_campaign": "launch"},
		{"email": "chipo@example.com", "programName": "Upcycling Initiative", "pagePath": "/impact", "referrer": "https://www.google.com/"},
		{"email": "=cmd@example.com", "programName": "Upcycling Initiative", "pagePath": "/impact", "utm_source": "-2+3"},
	} {
		wantStatus(t, env.do(t, "POST", "/functions/v1/waitlist-signup", s, nil), http.StatusOK)
	}
	for _, m := range []map[string]any{
		{"firstName": "Ruth", "lastName": "Banda", "email": "ruth@example.com", "phoneNumber": "+260 966 000111", "subject": "careers", "message": "Are you hiring designers?"},
		{"firstName": "Joseph", "lastName": "Phiri", "email": "joseph@example.com", "subject": "investment Inquiry", "message": "I would like to invest in Salaula."},
	} {
		wantStatus(t, env.do(t, "POST", "/functions/v1/contact-form-submit", m, nil), http.StatusOK)
	}
}

var adminGets = []string{"/admin/v1/overview", "/admin/v1/waitlist", "/admin/v1/waitlist.csv", "/admin/v1/messages",
	"/admin/v1/messages.csv", "/admin/v1/people", "/admin/v1/people.csv", "/admin/v1/audit", "/admin/v1/analytics",
	"/admin/v1/announcements", "/admin/v1/bounces", "/admin/v1/referrals"}

func TestAdminAPIIsForOperatorsOnly(t *testing.T) {
	eachEngine(t, noFormLimit, func(t *testing.T, env *testEnv) {
		seedForms(t, env)
		op := env.newOperator(t, "founder@example.com")
		user := str(env.signUp(t, "shopper@example.com", goodPassword), "access_token")
		shopper, _ := env.DB.UserByEmail(context.Background(), "shopper@example.com")
		anon := env.anonKey(t)
		var msgID string
		env.DB.QueryRow(context.Background(), `SELECT id FROM contact_messages LIMIT 1`).Scan(&msgID)
		calls := []struct{ method, path string }{
			{"PATCH", "/admin/v1/messages/" + msgID}, {"GET", "/admin/v1/people/" + shopper.ID},
			{"POST", "/admin/v1/people/" + shopper.ID + "/sign-out"},
		}
		for _, p := range adminGets {
			calls = append(calls, struct{ method, path string }{"GET", p})
		}
		for _, c := range calls {
			var body any
			if c.method == "PATCH" {
				body = map[string]any{"status": "handled"}
			}
			wantAdminError(t, env.admin(t, c.method, c.path, body, ""), http.StatusUnauthorized, "sign in")
			wantAdminError(t, env.admin(t, c.method, c.path, body, anon), http.StatusUnauthorized, "not the anon key")
			wantAdminError(t, env.admin(t, c.method, c.path, body, "not.a.jwt"), http.StatusUnauthorized, "sign in again")
			wantAdminError(t, env.admin(t, c.method, c.path, body, user), http.StatusForbidden, "This page is for the Salaula team")
		}
		for _, p := range adminGets {
			wantStatus(t, env.admin(t, "GET", p, nil, op), http.StatusOK)
		}
		// Nothing was changed by the refused calls.
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM contact_messages WHERE status = 'handled'`); n != 0 {
			t.Fatalf("%d messages handled by refused calls", n)
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM audit_log`); n != 0 {
			t.Fatalf("%d audit rows from refused calls", n)
		}
		// A revoked operator is out at once, with the token issued before.
		if err := env.DB.SetAdmin(context.Background(), "founder@example.com", false); err != nil {
			t.Fatal(err)
		}
		for _, p := range adminGets {
			wantAdminError(t, env.admin(t, "GET", p, nil, op), http.StatusForbidden, "This page is for the Salaula team")
		}
		// Unknown console paths are JSON 404s, not the app.
		res := env.admin(t, "GET", "/admin/v1/nothing", nil, op)
		wantStatus(t, res, http.StatusNotFound)
	})
}

func TestAdminWaitlistFiltersSortsAndRefusesBadInput(t *testing.T) {
	eachEngine(t, noFormLimit, func(t *testing.T, env *testEnv) {
		seedForms(t, env)
		op := env.newOperator(t, "founder@example.com")
		if _, err := env.DB.Exec(context.Background(), `UPDATE waitlist_signups SET unsubscribed_at = ? WHERE email = 'chipo@example.com'`, store.Now()); err != nil {
			t.Fatal(err)
		}
		// The list's totals come from the waitlist's counters, which the
		// store's own unsubscribe keeps; this one went round it.
		if err := env.DB.InTx(context.Background(), func(tx *store.Tx) error { return store.RecountWaitlist(context.Background(), tx) }); err != nil {
			t.Fatal(err)
		}
		emails := func(path string) string {
			page := env.adminGet(t, path, op)
			var out []string
			for _, it := range items(page) {
				out = append(out, it["email"].(string))
			}
			return fmt.Sprintf("%v total=%v", out, page["total"])
		}
		for path, want := range map[string]string{
			"/admin/v1/waitlist":                                                "[=cmd@example.com chipo@example.com mwila@example.com] total=3",
			"/admin/v1/waitlist?sort=created_at":                                "[mwila@example.com chipo@example.com =cmd@example.com] total=3",
			"/admin/v1/waitlist?sort=email":                                     "[=cmd@example.com chipo@example.com mwila@example.com] total=3",
			"/admin/v1/waitlist?sort=-email":                                    "[mwila@example.com chipo@example.com =cmd@example.com] total=3",
			"/admin/v1/waitlist?program=upcycling+initiative":                   "[=cmd@example.com chipo@example.com] total=2",
			"/admin/v1/waitlist?program=Upcycling+Initiative&status=subscribed": "[=cmd@example.com] total=1",
			"/admin/v1/waitlist?status=unsubscribed":                            "[chipo@example.com] total=1",
			"/admin/v1/waitlist?q=MWILA":                                        "[mwila@example.com] total=1",
			"/admin/v1/waitlist?q=%25":                                          "[] total=0",
			"/admin/v1/waitlist?limit=1&sort=created_at":                        "[mwila@example.com] total=3",
		} {
			if got := emails(path); got != want {
				t.Errorf("%s: %s, want %s", path, got, want)
			}
		}
		first := env.adminGet(t, "/admin/v1/waitlist?program=Wardrobe+Clearance+Program", op)
		it := items(first)[0]
		if it["pagePath"] != "/wardrobeclearance" || it["utmSource"] != "facebook" || it["utmCampaign"] != "launch" || first["nextCursor"] != nil {
			t.Fatalf("item %v, nextCursor %v", it, first["nextCursor"])
		}
		oldest := env.adminGet(t, "/admin/v1/waitlist?limit=1&sort=created_at", op)
		cursor := oldest["nextCursor"].(string)
		for path, want := range map[string]string{
			"/admin/v1/waitlist?program=Free+Shoes": "Unknown program \"Free Shoes\": use one of \"Upcycling Initiative\", \"Wardrobe Clearance Program\"",
			"/admin/v1/waitlist?status=maybe":       "Unknown status",
			"/admin/v1/waitlist?sort=name":          "Unknown sort \"name\"",
			"/admin/v1/waitlist?limit=0":            "limit must be a whole number from 1 to 200",
			"/admin/v1/waitlist?limit=201":          "limit must be a whole number from 1 to 200",
			"/admin/v1/waitlist?limit=ten":          "limit must be a whole number from 1 to 200",
			"/admin/v1/waitlist?cursor=garbage":     "The cursor is not valid",
			"/admin/v1/waitlist?cursor=" + base64.RawURLEncoding.EncodeToString([]byte(`{"s":"-created_at","k":"2026-11-27T08:00:00Z","i":"not-an-id"}`)): "The cursor is not valid",
			"/admin/v1/waitlist?cursor=" + url.QueryEscape(cursor): "another sort order",
			"/admin/v1/waitlist?subject=careers":                   "Unknown parameter \"subject\"",
			"/admin/v1/waitlist?q=a&q=b":                           "more than once",
			"/admin/v1/messages?subject=jobs":                      "Unknown subject",
			"/admin/v1/messages?status=closed":                     "Unknown status",
			"/admin/v1/people?role=admin":                          "Unknown role",
			"/admin/v1/audit?sort=created_at":                      "newest first",
			"/admin/v1/overview?days=7":                            "no parameters",
			"/admin/v1/waitlist.csv?limit=10":                      "leave out limit and cursor",
			"/admin/v1/waitlist.csv?program=x":                     "Unknown program",
			"/admin/v1/people.csv?sort=oops":                       "Unknown sort",
		} {
			wantAdminError(t, env.admin(t, "GET", path, nil, op), http.StatusBadRequest, want)
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM waitlist_signups`); n != 3 {
			t.Fatalf("%d sign-ups after bad requests", n)
		}
	})
}

// Every list's search finds the start of an address, of its domain or of
// a name, and answers any text clearly: only spaces or a lone '@' is no
// search, '@' first searches the domains, a lone '%' or '_' finds nothing,
// and text too long or not printable is
// refused with a message (never a server error), the CSV download's too.
func TestAdminSearchesAnswerAnyText(t *testing.T) {
	eachEngine(t, noFormLimit, func(t *testing.T, env *testEnv) {
		seedForms(t, env)
		op := env.newOperator(t, "founder@example.com")
		for path, want := range map[string]float64{
			"/admin/v1/messages?q=BANDA": 1, "/admin/v1/messages?q=jos": 1, "/admin/v1/messages?q=example.com": 2,
			"/admin/v1/messages?q=anda": 0, "/admin/v1/people?q=Founder": 1, "/admin/v1/people?q=xample": 0,
		} {
			if got := env.adminGet(t, path, op)["total"]; got != want {
				t.Errorf("%s: total %v, want %v", path, got, want)
			}
		}
		for list, all := range map[string]float64{"waitlist": 3, "messages": 2, "people": 1} {
			for q, want := range map[string]float64{"+++": all, "%40": all, "%40example.com": all, "%40founder": 0, "%25": 0, "_": 0,
				strings.Repeat("a", 254): 0} {
				path := "/admin/v1/" + list + "?q=" + q
				if got := env.adminGet(t, path, op)["total"]; got != want {
					t.Errorf("%.30s: total %v, want %v", path, got, want)
				}
			}
			for q, want := range map[string]string{
				strings.Repeat("a", 255): "at most 254 characters",
				"a%00b":                  "only printable text",
				"%FF%FE":                 "only printable text",
				"a%0Ab":                  "only printable text",
			} {
				wantAdminError(t, env.admin(t, "GET", "/admin/v1/"+list+"?q="+q, nil, op), http.StatusBadRequest, want)
				wantAdminError(t, env.admin(t, "GET", "/admin/v1/"+list+".csv?q="+q, nil, op), http.StatusBadRequest, want)
			}
		}
	})
}

// TestAdminPagesThrough10000RowsWithoutDuplicatesOrGaps walks every page of
// 10,000 sign-ups (many sharing a time) in each sort order.
func TestAdminPagesThrough10000RowsWithoutDuplicatesOrGaps(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		consoletest.SeedWaitlist(t, env.DB, 10_000)
		op := env.newOperator(t, "founder@example.com")
		for _, sort := range []string{"-created_at", "created_at", "email"} {
			seen := map[string]bool{}
			var prev string
			cursor, pages := "", 0
			for {
				path := "/admin/v1/waitlist?limit=200&sort=" + sort
				if cursor != "" {
					path += "&cursor=" + url.QueryEscape(cursor)
				}
				page := env.adminGet(t, path, op)
				pages++
				if page["total"] != float64(10_000) {
					t.Fatalf("%s: total %v", sort, page["total"])
				}
				for _, it := range items(page) {
					email := it["email"].(string)
					if seen[email] {
						t.Fatalf("%s: %s twice", sort, email)
					}
					seen[email] = true
					key := it["createdAt"].(string) + email
					if sort == "email" {
						key = email
					}
					asc := sort != "-created_at"
					if prev != "" && (asc && key <= prev || !asc && key >= prev) {
						t.Fatalf("%s: out of order: %s after %s", sort, key, prev)
					}
					prev = key
				}
				next, _ := page["nextCursor"].(string)
				if next == "" {
					break
				}
				cursor = next
			}
			if len(seen) != 10_000 || pages != 50 {
				t.Fatalf("%s: %d rows in %d pages, want 10000 in 50", sort, len(seen), pages)
			}
		}
	})
}

func TestAdminInboxMarksHandledWithANoteAndAudits(t *testing.T) {
	eachEngine(t, noFormLimit, func(t *testing.T, env *testEnv) {
		seedForms(t, env)
		op := env.newOperator(t, "founder@example.com")
		inbox := env.adminGet(t, "/admin/v1/messages?status=open&sort=created_at", op)
		if inbox["total"] != float64(2) {
			t.Fatalf("open messages %v", inbox)
		}
		ruth := items(inbox)[0]
		if ruth["email"] != "ruth@example.com" || ruth["subject"] != "careers" || ruth["status"] != "open" {
			t.Fatalf("first message %v", ruth)
		}
		id := ruth["id"].(string)
		res := env.admin(t, "PATCH", "/admin/v1/messages/"+id, map[string]any{"status": "handled", "note": "  Replied: no openings yet. "}, op)
		wantStatus(t, res, http.StatusOK)
		m := decode(t, res)
		if m["status"] != "handled" || m["note"] != "Replied: no openings yet." || m["handledAt"] == nil {
			t.Fatalf("answer %v", m)
		}
		if got := env.adminGet(t, "/admin/v1/messages?status=handled", op); got["total"] != float64(1) || items(got)[0]["id"] != id {
			t.Fatalf("handled %v", got)
		}
		if got := env.adminGet(t, "/admin/v1/messages?q=phiri&subject=investment+Inquiry", op); got["total"] != float64(1) {
			t.Fatalf("search %v", got)
		}
		// The same again changes nothing and writes no second audit row.
		wantStatus(t, env.admin(t, "PATCH", "/admin/v1/messages/"+id, map[string]any{"status": "handled"}, op), http.StatusOK)
		log := env.adminGet(t, "/admin/v1/audit", op)
		if log["total"] != float64(1) {
			t.Fatalf("audit %v", log)
		}
		e := items(log)[0]
		detail := e["detail"].(map[string]any)
		// The message is named by its sender, as founders know it.
		if e["action"] != "message.update" || e["targetId"] != id || e["targetName"] != "Ruth Banda" || e["actorEmail"] != "founder@example.com" || e["ip"] != "127.0.0.1" ||
			detail["status"].(map[string]any)["to"] != "handled" || detail["note"].(map[string]any)["to"] != "Replied: no openings yet." {
			t.Fatalf("audit entry %v", e)
		}
		// Bad input: nothing changes.
		for _, c := range []struct {
			body   any
			status int
			want   string
		}{
			{map[string]any{"status": "closed"}, 400, `status must be "open" or "handled"`},
			{map[string]any{}, 400, `Send "status"`},
			{map[string]any{"note": strings.Repeat("n", 2001)}, 400, "at most 2000 characters"},
			{map[string]any{"status": 3}, 400, "wrong type"},
			{"{not json", 400, "not valid JSON"},
		} {
			wantAdminError(t, env.admin(t, "PATCH", "/admin/v1/messages/"+id, c.body, op), c.status, c.want)
		}
		wantAdminError(t, env.admin(t, "PATCH", "/admin/v1/messages/no-such-id", map[string]any{"status": "open"}, op), 404, "No record")
		stored := env.adminGet(t, "/admin/v1/messages?status=handled", op)
		if items(stored)[0]["note"] != "Replied: no openings yet." || countRows(t, env.DB, `SELECT COUNT(*) FROM audit_log`) != 1 {
			t.Fatalf("bad input changed something: %v", stored)
		}
		// Reopening clears handledAt and is audited.
		res = env.admin(t, "PATCH", "/admin/v1/messages/"+id, map[string]any{"status": "open"}, op)
		wantStatus(t, res, http.StatusOK)
		if m := decode(t, res); m["handledAt"] != nil || m["status"] != "open" {
			t.Fatalf("reopened %v", m)
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM audit_log`); n != 2 {
			t.Fatalf("%d audit rows, want 2", n)
		}
	})
}

func TestAdminPeopleDetailAndSignOutEverywhere(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		ctx := context.Background()
		op := env.newOperator(t, "founder@example.com")
		shopperTok := str(env.signUp(t, "chipo@example.com", goodPassword), "access_token")
		env.signIn(t, "chipo@example.com", goodPassword) // a second device
		chipo, _ := env.DB.UserByEmail(ctx, "chipo@example.com")
		if _, err := env.DB.SaveBuyerProfile(ctx, chipo.ID, store.BuyerFields{FullName: "Chipo Mwale", Age: 24, Location: "Lusaka",
			BodyPhotoURLs: []string{"http://x/storage/v1/object/public/user-media/" + chipo.ID + "/a.jpg"}}); err != nil {
			t.Fatal(err)
		}
		if err := env.DB.RecordMediaObject(ctx, store.MediaObject{Key: "user-media/" + chipo.ID + "/a.jpg", ID: "m1", OwnerID: chipo.ID,
			Size: 1234, ContentType: "image/jpeg"}); err != nil {
			t.Fatal(err)
		}
		env.signUp(t, "lurker@example.com", goodPassword)
		for path, want := range map[string]float64{
			"/admin/v1/people": 3, "/admin/v1/people?role=buyer": 1, "/admin/v1/people?role=none": 2,
			"/admin/v1/people?q=mwale": 1, "/admin/v1/people?q=lurker": 1, "/admin/v1/people?role=seller": 0,
		} {
			if got := env.adminGet(t, path, op)["total"]; got != want {
				t.Errorf("%s: total %v, want %v", path, got, want)
			}
		}
		d := env.adminGet(t, "/admin/v1/people/"+chipo.ID, op)
		profile := d["profile"].(map[string]any)
		images := d["images"].([]any)
		if d["email"] != "chipo@example.com" || profile["full_name"] != "Chipo Mwale" || profile["role"] != "buyer" ||
			d["activeSessions"] != float64(2) || len(images) != 1 ||
			images[0].(map[string]any)["url"] != "/storage/v1/object/public/user-media/"+chipo.ID+"/a.jpg" {
			t.Fatalf("detail %v", d)
		}
		wantAdminError(t, env.admin(t, "GET", "/admin/v1/people/no-such-id", nil, op), 404, "No record")
		wantAdminError(t, env.admin(t, "POST", "/admin/v1/people/no-such-id/sign-out", nil, op), 404, "No record")
		res := env.admin(t, "POST", "/admin/v1/people/"+chipo.ID+"/sign-out", nil, op)
		wantStatus(t, res, http.StatusOK)
		if body := decode(t, res); body["sessionsEnded"] != float64(2) {
			t.Fatalf("sign-out %v", body)
		}
		// Chipo's token stops working at once.
		wantStatus(t, env.authJSON(t, "GET", "/auth/v1/user", nil, shopperTok), http.StatusForbidden)
		if got := env.adminGet(t, "/admin/v1/people/"+chipo.ID, op)["activeSessions"]; got != float64(0) {
			t.Fatalf("active sessions after sign-out: %v", got)
		}
		e := items(env.adminGet(t, "/admin/v1/audit", op))[0]
		// The person is named by their full name, not their id.
		if e["action"] != "person.sign_out" || e["targetId"] != chipo.ID || e["targetType"] != "user" || e["targetName"] != "Chipo Mwale" ||
			e["detail"].(map[string]any)["sessions"] != float64(2) {
			t.Fatalf("audit %v", e)
		}
	})
}

func TestAdminOverviewCountsAndSeries(t *testing.T) {
	eachEngine(t, noFormLimit, func(t *testing.T, env *testEnv) {
		seedForms(t, env)
		op := env.newOperator(t, "founder@example.com")
		env.signUp(t, "chipo@example.com", goodPassword)
		chipo, _ := env.DB.UserByEmail(context.Background(), "chipo@example.com")
		if _, err := env.DB.SaveSellerProfile(context.Background(), chipo.ID, store.SellerFields{FullName: "Chipo", BusinessName: "Chipo Thrift"}); err != nil {
			t.Fatal(err)
		}
		o := env.adminGet(t, "/admin/v1/overview", op)
		tot := o["totals"].(map[string]any)
		wl := tot["waitlist"].(map[string]any)
		if tot["accounts"] != float64(2) || tot["operators"] != float64(1) || tot["onboardingUnfinished"] != float64(1) ||
			tot["profilesByRole"].(map[string]any)["seller"] != float64(1) ||
			wl["Upcycling Initiative"].(map[string]any)["subscribed"] != float64(2) ||
			wl["Wardrobe Clearance Program"].(map[string]any)["subscribed"] != float64(1) ||
			tot["messages"].(map[string]any)["open"] != float64(2) {
			t.Fatalf("totals %v", tot)
		}
		daily := o["daily"].([]any)
		today := daily[len(daily)-1].(map[string]any)
		if len(daily) != 90 || today["date"] != time.Now().UTC().Format("2006-01-02") || today["accounts"] != float64(2) ||
			today["profilesCompleted"] != float64(1) || today["messages"] != float64(2) ||
			today["waitlist"].(map[string]any)["Upcycling Initiative"] != float64(2) {
			t.Fatalf("today %v (of %d days)", today, len(daily))
		}
		src := o["sources"].(map[string]any)
		if fmt.Sprint(src["referrers"]) != "[map[count:1 name:] map[count:1 name:google.com] map[count:1 name:l.facebook.com]]" ||
			fmt.Sprint(src["pages"]) != "[map[count:2 name:/impact] map[count:1 name:/wardrobeclearance]]" {
			t.Fatalf("sources %v", src)
		}
		if newest := o["newest"].([]any); len(newest) != 7 {
			t.Fatalf("newest %v", newest)
		}
		// A new sign-up shows at once.
		wantStatus(t, env.do(t, "POST", "/functions/v1/waitlist-signup", map[string]any{"email": "new@example.com", "programName": "Wardrobe Clearance Program"}, nil), 200)
		o = env.adminGet(t, "/admin/v1/overview", op)
		if got := o["totals"].(map[string]any)["waitlist"].(map[string]any)["Wardrobe Clearance Program"].(map[string]any)["subscribed"]; got != float64(2) {
			t.Fatalf("after a sign-up: %v", got)
		}
	})
}

func TestAdminCSVDownloadsFollowTheFiltersAndDisarmFormulas(t *testing.T) {
	eachEngine(t, noFormLimit, func(t *testing.T, env *testEnv) {
		seedForms(t, env)
		op := env.newOperator(t, "founder@example.com")
		res := env.admin(t, "GET", "/admin/v1/waitlist.csv?program=Upcycling+Initiative", nil, op)
		wantStatus(t, res, http.StatusOK)
		if ct, cd := res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"); ct != "text/csv; charset=utf-8" ||
			!strings.HasPrefix(cd, `attachment; filename="salaula-waitlist-`) {
			t.Fatalf("headers %q %q", ct, cd)
		}
		rows, err := csv.NewReader(res.Body).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(rows[0], ",") != "created_at,email,program,page_path,referrer,utm_source,utm_medium,utm_campaign,utm_term,utm_content,unsubscribed_at,referred_by" ||
			len(rows) != 3 || rows[1][1] != "chipo@example.com" || rows[2][1] != "'=cmd@example.com" || rows[2][5] != "'-2+3" {
			t.Fatalf("waitlist csv %q", rows)
		}
		res = env.admin(t, "GET", "/admin/v1/messages.csv?subject=careers", nil, op)
		wantStatus(t, res, http.StatusOK)
		rows, _ = csv.NewReader(res.Body).ReadAll()
		if len(rows) != 2 || rows[1][1] != "Ruth" || rows[1][4] != "'+260966000111" || rows[1][7] != "open" {
			t.Fatalf("messages csv %q", rows)
		}
		res = env.admin(t, "GET", "/admin/v1/people.csv?q=founder", nil, op)
		wantStatus(t, res, http.StatusOK)
		rows, _ = csv.NewReader(res.Body).ReadAll()
		if len(rows) != 2 || rows[0][0] != "user_id" || rows[1][1] != "founder@example.com" || rows[1][2] != "" {
			t.Fatalf("people csv %q", rows)
		}
	})
}

// heapSampler counts the bytes read through it and samples the heap.
type heapSampler struct {
	r     io.Reader
	n     int64
	reads int
	peak  uint64
}

func (h *heapSampler) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	h.n += int64(n)
	h.reads++
	if h.reads%64 == 0 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		h.peak = max(h.peak, ms.HeapAlloc)
	}
	return n, err
}

// TestAdminCSVStreams100000RowsInConstantMemory downloads 100,000 sign-ups
// (about 13 MB of CSV) while watching the heap of the process (client and
// server alike): it stays within a few MB, so the rows are never all held.
func TestAdminCSVStreams100000RowsInConstantMemory(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		consoletest.SeedWaitlist(t, env.DB, 100_000)
		op := env.newOperator(t, "founder@example.com")
		defer debug.SetGCPercent(debug.SetGCPercent(20))
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base := ms.HeapAlloc
		res := env.admin(t, "GET", "/admin/v1/waitlist.csv", nil, op)
		wantStatus(t, res, http.StatusOK)
		h := &heapSampler{r: res.Body}
		lines := 0
		r := csv.NewReader(h)
		r.ReuseRecord = true
		for {
			rec, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if lines == 1 && rec[1] != "seed000000@example.com" {
				t.Fatalf("first row %q", rec)
			}
			lines++
		}
		grew := int64(h.peak) - int64(base)
		t.Logf("%d lines, %.1f MB of CSV, heap grew at most %.1f MB", lines, float64(h.n)/1e6, float64(grew)/1e6)
		if lines != 100_001 || h.n < 10_000_000 {
			t.Fatalf("%d lines, %d bytes", lines, h.n)
		}
		if grew > 8<<20 {
			t.Fatalf("the heap grew by %.1f MB while streaming %.1f MB: the rows are being held", float64(grew)/1e6, float64(h.n)/1e6)
		}
	})
}
