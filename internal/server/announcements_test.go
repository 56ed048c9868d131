package server

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"salaula/internal/announce"
)

// The console's announcements: a draft is checked (400 with a message,
// nothing stored), previewed with its unsubscribe link, tested to the
// operator's own address, sent (audited) and cannot be sent twice; the
// referrals and bounces answer; nobody else gets in.
func TestAdminAnnouncementsAPI(t *testing.T) {
	t.Parallel()
	eachEngine(t, trustLoopback, func(t *testing.T, env *testEnv) {
		op := env.newOperator(t, "founder@example.com")
		joinFrom(t, env, "owner@example.com", "", "10.0.0.1")
		_, code := confirmFrom(t, env, "owner@example.com", "10.0.0.1")
		joinFrom(t, env, "friend@example.com", code, "10.0.0.2")
		confirmFrom(t, env, "friend@example.com", "10.0.0.2")

		for _, c := range []struct {
			body any
			msg  string
		}{
			{map[string]any{"program": "Nope", "subject": "s", "body": "b"}, "Choose the waitlist"},
			{map[string]any{"program": "Upcycling Initiative", "subject": "", "body": "b"}, "Write a subject"},
			{map[string]any{"program": "Upcycling Initiative", "subject": "s", "body": "b", "ratePerSecond": 0.5}, "wrong type"},
			{`{"program": `, "not valid JSON"},
		} {
			res := env.admin(t, "POST", "/admin/v1/announcements", c.body, op)
			wantStatus(t, res, http.StatusBadRequest)
			if got, _ := decode(t, res)["error"].(string); !strings.Contains(got, c.msg) {
				t.Errorf("%v: error %q, want %q", c.body, got, c.msg)
			}
		}
		if n := count(t, env.DB, "announcements"); n != 0 {
			t.Fatalf("%d bad drafts stored", n)
		}
		res := env.admin(t, "POST", "/admin/v1/announcements", map[string]any{"program": "Upcycling Initiative",
			"subject": "We are open", "body": "Bring your clothes to Kabulonga."}, op)
		wantStatus(t, res, http.StatusOK)
		a := decode(t, res)
		id, _ := a["id"].(string)
		// The total: the two subscribed addresses it would go to.
		if a["status"] != "draft" || a["ratePerSecond"] != float64(5) || a["total"] != float64(2) {
			t.Fatalf("created %v", a)
		}
		p := env.adminGet(t, "/admin/v1/announcements/"+id+"/preview", op)
		if p["to"] != "founder@example.com" || !strings.Contains(p["body"].(string), "Bring your clothes") ||
			!strings.Contains(p["body"].(string), p["listUnsubscribe"].(string)) {
			t.Fatalf("preview %v", p)
		}
		wantStatus(t, env.admin(t, "POST", "/admin/v1/announcements/"+id+"/test", nil, op), http.StatusOK)
		if m := waitMail(t, env, "founder@example.com", "announcement-test"); m.Subject != "[Test] We are open" {
			t.Fatalf("test e-mail %+v", m)
		}
		res = env.admin(t, "POST", "/admin/v1/announcements/"+id+"/send", nil, op)
		wantStatus(t, res, http.StatusOK)
		if got := decode(t, res); got["status"] != "sending" {
			t.Fatalf("sent: %v", got)
		}
		wantStatus(t, env.admin(t, "POST", "/admin/v1/announcements/"+id+"/send", nil, op), http.StatusBadRequest)
		wantStatus(t, env.admin(t, "POST", "/admin/v1/announcements/"+id+"/explode", nil, op), http.StatusNotFound)
		wantStatus(t, env.admin(t, "GET", "/admin/v1/announcements/no-such-id", nil, op), http.StatusNotFound)
		if list := items(env.adminGet(t, "/admin/v1/announcements", op)); len(list) != 1 || list[0]["id"] != id || list[0]["total"] != float64(2) {
			t.Fatalf("list %v", list)
		}
		audit := items(env.adminGet(t, "/admin/v1/audit", op))
		if len(audit) == 0 || audit[0]["action"] != "announcement.send" || audit[0]["targetName"] != "We are open" {
			t.Fatalf("audit %v", audit)
		}
		if d, _ := audit[0]["detail"].(map[string]any); d["subscribed"] != float64(2) {
			t.Fatalf("audit detail %v", audit[0]["detail"])
		}
		refs := env.adminGet(t, "/admin/v1/referrals?program=Upcycling+Initiative", op)
		top, _ := refs["top"].([]any)
		if len(top) != 1 || top[0].(map[string]any)["email"] != "owner@example.com" || top[0].(map[string]any)["credited"] != float64(1) {
			t.Fatalf("referrals %v", refs)
		}
		ownerID := top[0].(map[string]any)["signupId"].(string)
		if of := items(env.adminGet(t, "/admin/v1/referrals/"+ownerID, op)); len(of) != 1 || of[0]["email"] != "friend@example.com" {
			t.Fatalf("referrals of the owner %v", of)
		}
		// A path that names no sign-up (not an id at all) has no referrals.
		for _, other := range []string{"not-an-id", strings.ToUpper(ownerID)} {
			if of := items(env.adminGet(t, "/admin/v1/referrals/"+other, op)); len(of) != 0 {
				t.Fatalf("referrals of %q: %v", other, of)
			}
		}
		wantStatus(t, env.admin(t, "GET", "/admin/v1/referrals?limit=0", nil, op), http.StatusBadRequest)
		wantStatus(t, env.admin(t, "GET", "/admin/v1/announcements", nil, ""), http.StatusUnauthorized)
		wantStatus(t, env.admin(t, "POST", "/admin/v1/announcements/"+id+"/cancel", nil, ""), http.StatusUnauthorized)
		// An unknown unsubscribe token is a friendly 404 page.
		res = env.do(t, "GET", "/functions/v1/announcement-unsubscribe?token=a.b.c", nil, nil)
		wantStatus(t, res, http.StatusNotFound)
	})
}

// An announcement e-mail's unsubscribe link: GET shows a page with a
// button and changes nothing; POST (the button, or one-click) unsubscribes.
func TestAnnouncementUnsubscribeLink(t *testing.T) {
	t.Parallel()
	eachEngine(t, trustLoopback, func(t *testing.T, env *testEnv) {
		op := env.newOperator(t, "founder@example.com")
		joinFrom(t, env, "chipo@example.com", "", "10.0.0.1")
		res := env.admin(t, "POST", "/admin/v1/announcements", map[string]any{"program": "Upcycling Initiative", "subject": "Open", "body": "Come"}, op)
		wantStatus(t, res, http.StatusOK)
		id := decode(t, res)["id"].(string)
		wantStatus(t, env.admin(t, "POST", "/admin/v1/announcements/"+id+"/send", nil, op), http.StatusOK)
		// The pacer of this test server does not run (no Deps.Context): one step by hand.
		svc := announce.New(env.DB, env.Config.PublicURL, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
		if err := svc.Step(t.Context()); err != nil {
			t.Fatal(err)
		}
		var link string
		if err := env.DB.QueryRow(t.Context(), `SELECT list_unsubscribe FROM outbox_emails WHERE kind = 'announcement'`).Scan(&link); err != nil {
			t.Fatal(err)
		}
		path := strings.TrimPrefix(link, env.Config.PublicURL)
		res = env.do(t, "GET", path, nil, nil)
		wantStatus(t, res, http.StatusOK)
		if b, _ := io.ReadAll(res.Body); !strings.Contains(string(b), "Unsubscribe from the Upcycling Initiative waitlist?") {
			t.Fatalf("GET page: %s", b)
		}
		if su, _ := env.DB.WaitlistSignupByEmail(t.Context(), "chipo@example.com", "Upcycling Initiative"); su.UnsubscribedAt != nil {
			t.Fatal("opening the link unsubscribed")
		}
		res = env.do(t, "POST", path, "List-Unsubscribe=One-Click", map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
		wantStatus(t, res, http.StatusOK)
		if su, _ := env.DB.WaitlistSignupByEmail(t.Context(), "chipo@example.com", "Upcycling Initiative"); su.UnsubscribedAt == nil {
			t.Fatal("one-click POST did not unsubscribe")
		}
	})
}
