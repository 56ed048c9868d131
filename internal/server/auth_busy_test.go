package server

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"salaula/internal/config"
	"salaula/internal/password"
)

// When every password-hashing slot stays taken past the wait, sign-in and
// sign-up answer 503 in the auth service's error shape with Retry-After,
// and nothing is created; once slots are free again, both work.
func TestSignInAnswers503WhenPasswordChecksQueuePastTheirDeadline(t *testing.T) {
	eachEngine(t, noAuthLimit, func(t *testing.T, env *testEnv) {
		env.signUp(t, "mwila@example.com", goodPassword)
		restore := password.SetLimits(0, 20*time.Millisecond) // no slot ever frees
		for _, path := range []string{"/auth/v1/token?grant_type=password", "/auth/v1/signup"} {
			res := env.authJSON(t, "POST", path, map[string]any{"email": "chanda@example.com", "password": goodPassword}, "")
			if path == "/auth/v1/token?grant_type=password" {
				res = env.authJSON(t, "POST", path, map[string]any{"email": "mwila@example.com", "password": goodPassword}, "")
			}
			if res.Header.Get("Retry-After") != "1" {
				t.Errorf("%s: Retry-After %q", path, res.Header.Get("Retry-After"))
			}
			wantAuthError(t, res, http.StatusServiceUnavailable, "unexpected_failure", msgServiceBusy)
		}
		restore()
		if n := count(t, env.DB, "users"); n != 1 {
			t.Fatalf("%d accounts after a refused sign-up", n)
		}
		if n := count(t, env.DB, "sessions"); n != 1 {
			t.Fatalf("%d sessions after a refused sign-in", n)
		}
		// One slot and a generous wait: a crowd of sign-ins queues and all get in.
		defer password.SetLimits(1, 30*time.Second)()
		var wg sync.WaitGroup
		codes := make([]int, 6)
		for i := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res := env.authJSON(t, "POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "mwila@example.com", "password": goodPassword}, "")
				codes[i] = res.StatusCode
			}()
		}
		wg.Wait()
		for i, c := range codes {
			if c != http.StatusOK {
				t.Fatalf("queued sign-in %d answered %d", i, c)
			}
		}
	})
}

// noAuthLimit turns the auth rate limit off for tests that sign in often.
func noAuthLimit(c *config.Config) { c.AuthRateLimit = config.Rate{} }

// A crowd of sign-ins far beyond the hashing slots: every sign-in either
// gets in or gets the clear busy answer (503 unexpected_failure, Retry-After), never
// anything else. With a generous wait all get in; with a wait shorter than
// the queue, the ones at the back are told to come back.
func TestCrowdOfSignInsStaysWithinTheHashingSlots(t *testing.T) {
	publishedPasswordCost(t) // the queue's length counts on a check's time
	eachEngine(t, noAuthLimit, func(t *testing.T, env *testEnv) {
		env.signUp(t, "mwila@example.com", goodPassword)
		before := count(t, env.DB, "sessions")
		crowd := func(n int) (ok, busy int) {
			t.Helper()
			res := make([]*http.Response, n)
			var wg sync.WaitGroup
			for i := range res {
				wg.Add(1)
				go func() {
					defer wg.Done()
					res[i] = env.authJSON(t, "POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "mwila@example.com", "password": goodPassword}, "")
				}()
			}
			wg.Wait()
			for i, r := range res {
				switch r.StatusCode {
				case http.StatusOK:
					if body := decode(t, r); body["access_token"] == nil {
						t.Fatalf("sign-in %d: 200 without a token: %v", i, body)
					}
					ok++
				case http.StatusServiceUnavailable:
					if r.Header.Get("Retry-After") != "1" {
						t.Errorf("sign-in %d: Retry-After %q", i, r.Header.Get("Retry-After"))
					}
					wantAuthError(t, r, http.StatusServiceUnavailable, "unexpected_failure", msgServiceBusy)
					busy++
				default:
					t.Fatalf("sign-in %d answered %d: %v", i, r.StatusCode, decode(t, r))
				}
			}
			return ok, busy
		}
		restore := password.SetLimits(2, time.Minute)
		if ok, busy := crowd(12); ok != 12 || busy != 0 {
			t.Fatalf("with a long wait: %d signed in, %d busy; want all 12 in", ok, busy)
		}
		restore()
		// Each check takes a core for 20 ms or more (5 ms on a machine four
		// times faster): in 20 ms two slots get through a few of the 24,
		// never all.
		defer password.SetLimits(2, 20*time.Millisecond)()
		ok, busy := crowd(24)
		if ok < 2 || busy < 1 {
			t.Fatalf("with a 20 ms wait: %d signed in, %d busy; want the first two in and the back of the queue told to wait", ok, busy)
		}
		if n := count(t, env.DB, "sessions"); n != before+12+ok {
			t.Fatalf("%d new sessions, want one per 200 (%d)", n-before, 12+ok)
		}
	})
}
