package server

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"salaula/internal/config"
)

// doAt is env.do with the request's Host header set to host, as a browser
// that opened the site at another address sends it.
func doAt(t *testing.T, env *testEnv, host, method, path, body, contentType string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, env.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("X-Supabase-Api-Version", "2024-01-01")
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// E-mailed links carry the configured public URL whatever Host a request
// names (a Host of the asker's choosing would put their address in someone
// else's reset link); the button of a link's page sends the browser on to a
// path, so it works at whatever address the page was opened.
func TestEmailedLinksCarryThePublicURLWhateverTheHost(t *testing.T) {
	eachEngine(t, func(c *config.Config) {
		c.FormRateLimit, c.PublicURL, c.PublicURLSet = config.Rate{}, "https://salaula.example", true
	}, func(t *testing.T, env *testEnv) {
		const evil = "evil.example"
		newUser(t, env, "mwila@example.com")
		wantStatus(t, doAt(t, env, evil, "POST", "/auth/v1/recover", `{"email":"mwila@example.com"}`, "application/json"), 200)
		reset := waitMail(t, env, "mwila@example.com", "recovery")
		wantStatus(t, doAt(t, env, evil, "POST", "/functions/v1/waitlist-signup", `{"email":"chanda@example.com","programName":"Upcycling Initiative"}`, "application/json"), 200)
		joined := waitMail(t, env, "chanda@example.com", "waitlist")
		for _, m := range []string{reset.Body, joined.Body} {
			if strings.Contains(m, evil) || strings.Count(m, env.Config.PublicURL+"/") < 1 {
				t.Fatalf("an e-mailed link does not carry %s:\n%s", env.Config.PublicURL, m)
			}
			for _, f := range strings.Fields(m) {
				if strings.HasPrefix(f, "http") && !strings.HasPrefix(f, env.Config.PublicURL+"/") {
					t.Fatalf("link %s is not on %s", f, env.Config.PublicURL)
				}
			}
		}

		// The reset page opened at another address: its button leads to a path.
		link := linkIn(t, reset.Body, "http")
		form := url.Values{"type": {"recovery"}, "token": {link.Query().Get("token_hash")}, "redirect_to": {env.Config.PublicURL + "//evil.example/"}}
		res := doAt(t, env, "192.168.1.20:8080", "POST", "/auth/v1/verify", form.Encode(), "application/x-www-form-urlencoded")
		wantStatus(t, res, http.StatusSeeOther)
		loc := res.Header.Get("Location")
		if !strings.HasPrefix(loc, "/evil.example/#") || !strings.Contains(loc, "access_token=") {
			body, _ := io.ReadAll(res.Body)
			t.Fatalf("the button sends the browser to %q (%s)", loc, body)
		}
	})
}
