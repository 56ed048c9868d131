package server

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"salaula/internal/clientip"
	"salaula/internal/config"
)

// trustLoopback makes the server read the client's IP from
// X-Forwarded-For, so the tests can join from several devices.
func trustLoopback(c *config.Config) {
	noFormLimit(c)
	c.TrustedProxies, _ = clientip.Parse("127.0.0.1, ::1")
}

// joinFrom signs email up for the Upcycling Initiative from ip, with ref.
func joinFrom(t *testing.T, env *testEnv, email, ref, ip string) map[string]any {
	t.Helper()
	res := env.do(t, "POST", "/functions/v1/waitlist-signup", map[string]any{"email": email, "programName": "Upcycling Initiative",
		"pagePath": "/upcycling", "ref": ref}, map[string]string{"X-Forwarded-For": ip})
	wantStatus(t, res, http.StatusOK)
	return decode(t, res)
}

func codeOf(t *testing.T, body map[string]any) string {
	t.Helper()
	u, err := url.Parse(body["shareUrl"].(string))
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get("ref")
}

// A sign-up answers its place and personal link (again on a repeat); a
// friend joining through the link moves the owner up; the same address
// written differently, or the same device within the hour, does not.
func TestWaitlistSignupAnswersPlaceAndLink(t *testing.T) {
	t.Parallel()
	eachEngine(t, trustLoopback, func(t *testing.T, env *testEnv) {
		for i, e := range []string{"a@example.com", "b@example.com", "c@example.com", "d@example.com", "e@example.com",
			"f@example.com", "g@example.com", "h@example.com", "i@example.com", "j@example.com", "k@example.com", "owner@example.com"} {
			body := joinFrom(t, env, e, "", "10.0.0."+string(rune('1'+i%9)))
			if body["success"] != true || body["message"] != "You're on the list!" || body["position"] != float64(i+1) {
				t.Fatalf("join %d: %v", i, body)
			}
		}
		owner := joinFrom(t, env, "Owner@Example.com", "", "10.9.9.9")
		if owner["position"] != float64(12) || !strings.HasPrefix(owner["shareUrl"].(string), env.Config.PublicURL+"/upcycling?ref=") {
			t.Fatalf("repeated join: %v", owner)
		}
		code := codeOf(t, owner)
		// Self-referrals: the same mailbox with a +tag, and the owner's own device.
		joinFrom(t, env, "owner+2@example.com", code, "10.1.1.1")
		joinFrom(t, env, "friend1@example.com", code, "10.0.0.3") // where the owner joined from
		if p := joinFrom(t, env, "owner@example.com", "", "10.1.1.1")["position"]; p != float64(12) {
			t.Fatalf("owner's place after self-referrals: %v, want 12", p)
		}
		joinFrom(t, env, "friend2@example.com", code, "10.2.2.2")
		if p := joinFrom(t, env, "owner@example.com", "", "10.1.1.1")["position"]; p != float64(2) {
			t.Fatalf("owner's place after one referral: %v, want 2", p)
		}
		// The same device again within the hour is not credited.
		joinFrom(t, env, "friend3@example.com", code, "10.2.2.2")
		if p := joinFrom(t, env, "owner@example.com", "", "10.1.1.1")["position"]; p != float64(2) {
			t.Fatalf("owner's place after a second referral from one device: %v, want 2", p)
		}
		// A code that is not one is ignored, nothing stored with it.
		if b := joinFrom(t, env, "odd@example.com", "<script>"+strings.Repeat("x", 500), "10.3.3.3"); b["position"] != float64(17) {
			t.Fatalf("odd ref: %v", b)
		}
		mail := waitMail(t, env, "friend2@example.com", "waitlist").Body
		if !strings.Contains(mail, env.Config.PublicURL+"/upcycling?ref=") {
			t.Fatalf("confirmation without the personal link:\n%s", mail)
		}
	})
}
