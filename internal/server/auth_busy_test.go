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
