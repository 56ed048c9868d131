package server

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"salaula/internal/clientip"
	"salaula/internal/config"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// trustLoopbackLimits reads the client from X-Forwarded-For (the test
// client is on loopback) and keeps the default per-address limits: 30
// sign-ins per 5 minutes, 20 form submissions per 10 minutes.
func trustLoopbackLimits(c *config.Config) {
	c.TrustedProxies, _ = clientip.Parse("127.0.0.1, ::1")
	c.AuthRateLimit = config.Rate{Count: 30, Window: 5 * time.Minute}
	c.FormRateLimit = config.Rate{Count: 20, Window: 10 * time.Minute}
}

// statusesFrom sends send once from each address and returns the statuses.
func statusesFrom(t *testing.T, addrs []string, send func(i int, addr string) *http.Response) []int {
	t.Helper()
	var statuses []int
	for i, a := range addrs {
		res := send(i, a)
		if res.StatusCode == http.StatusTooManyRequests && res.Header.Get("Retry-After") == "" {
			t.Fatalf("from %s: 429 without Retry-After", a)
		}
		statuses = append(statuses, res.StatusCode)
		res.Body.Close()
	}
	return statuses
}

// wantAnsweredThenLimited wants n answers of ok, then only 429.
func wantAnsweredThenLimited(t *testing.T, what string, statuses []int, ok, n int) {
	t.Helper()
	for i, s := range statuses {
		want := ok
		if i >= n {
			want = http.StatusTooManyRequests
		}
		if s != want {
			t.Fatalf("%s: request %d answered %d, want %d (all: %v)", what, i+1, s, want, statuses)
		}
	}
}

// addrs is n addresses made by format from 1 to n.
func addrs(format string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf(format, i+1)
	}
	return out
}

// A phone that takes a new IPv6 address for every sign-in is still one
// client: 34 tries from 34 addresses of one /64 get the 30 of one address,
// while another /64 is not limited, and IPv4 addresses of one /24 each
// keep their own allowance.
func TestSignInLimitCountsAnIPv6ClientByItsSlash64(t *testing.T) {
	eachEngine(t, trustLoopbackLimits, func(t *testing.T, env *testEnv) {
		signIn := func(i int, addr string) *http.Response {
			// A different e-mail each time, so only the address's limit counts.
			return env.do(t, "POST", "/auth/v1/token?grant_type=password",
				map[string]any{"email": fmt.Sprintf("guess%d-%s@example.com", i, strings.ReplaceAll(addr, ":", ".")), "password": "wrong-password-1"},
				map[string]string{"X-Forwarded-For": addr})
		}
		wantAnsweredThenLimited(t, "one /64", statusesFrom(t, addrs("2001:db8:1:2::%x", 34), signIn), 400, 30)
		wantAnsweredThenLimited(t, "the /64's last address", statusesFrom(t, []string{"2001:db8:1:2:ffff:ffff:ffff:ffff"}, signIn), 400, 0)
		wantAnsweredThenLimited(t, "another /64", statusesFrom(t, addrs("2001:db8:1:3::%x", 2), signIn), 400, 2)
		wantAnsweredThenLimited(t, "IPv4 addresses of one /24", statusesFrom(t, addrs("198.51.100.%d", 34), signIn), 400, 34)
		var mapped []string
		for i := range 31 {
			mapped = append(mapped, []string{"203.0.113.7", "::ffff:203.0.113.7"}[i%2])
		}
		wantAnsweredThenLimited(t, "one IPv4 address, also written in IPv6", statusesFrom(t, mapped, signIn), 400, 30)
	})
}

// The waitlist form's limit counts an IPv6 client by its /64 too.
func TestFormLimitCountsAnIPv6ClientByItsSlash64(t *testing.T) {
	eachEngine(t, trustLoopbackLimits, func(t *testing.T, env *testEnv) {
		join := func(i int, addr string) *http.Response {
			return env.do(t, "POST", "/functions/v1/waitlist-signup",
				map[string]any{"email": fmt.Sprintf("join-%s@example.com", strings.ReplaceAll(addr, ":", ".")), "programName": "Upcycling Initiative"},
				map[string]string{"X-Forwarded-For": addr})
		}
		wantAnsweredThenLimited(t, "one /64", statusesFrom(t, addrs("2001:db8:1:2::%x", 34), join), 200, 20)
		wantAnsweredThenLimited(t, "another /64", statusesFrom(t, addrs("2001:db8:1:3::%x", 2), join), 200, 2)
		if n := queryString(t, env, `SELECT COUNT(*) FROM waitlist_signups`); n != "22" {
			t.Fatalf("%s sign-ups stored, want 22", n)
		}
	})
}

// The realtime sockets one address may hold count an IPv6 client's /64:
// 34 sockets from 34 addresses of one /64 get the 30 of one address.
func TestRealtimeLimitCountsAnIPv6ClientByItsSlash64(t *testing.T) {
	eachEngine(t, func(c *config.Config) {
		trustLoopbackLimits(c)
		c.Realtime.MaxConnsPerIP = 30
		c.MetricsToken = testMetricsToken
	}, func(t *testing.T, env *testEnv) {
		phone := env.behindProxyFrom(t, func(n int) string { return fmt.Sprintf("2001:db8:1:2::%x", n) }, func(int) string { return "" })
		for range 30 {
			phone.realtimeDial(t, "", true)
		}
		for deadline := time.Now().Add(5 * time.Second); env.realtimeConns(t) != 30; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the server counted %d sockets, want 30", env.realtimeConns(t))
			}
		}
		for i := 31; i <= 34; i++ {
			code, reason := phone.realtimeDial(t, "", true).closedWith()
			if code != websocket.StatusPolicyViolation || reason != "too many realtime connections from your address (limit 30)" {
				t.Fatalf("socket %d: %d %q", i, code, reason)
			}
		}
		c := env.behindProxy(t, "2001:db8:1:3::1", func(int) string { return "" }).realtimeDial(t, "", true)
		if status, _ := c.replyTo(c.send("", "phoenix", "heartbeat", map[string]any{})); status != "ok" {
			t.Fatalf("another /64's heartbeat: %s", status)
		}
	})
}

// A sign-up through a personal link from another address of the owner's
// /64 is the owner's own device: not credited, even once confirmed. One
// from another /64 is, once its friend confirms.
func TestReferralFromTheOwnersSlash64IsNotCredited(t *testing.T) {
	eachEngine(t, trustLoopback, func(t *testing.T, env *testEnv) {
		for _, e := range []string{"a@example.com", "b@example.com", "c@example.com"} {
			joinFrom(t, env, e, "", "198.51.100.1")
		}
		joinFrom(t, env, "owner@example.com", "", "2001:db8:1:2::1")
		_, code := confirmFrom(t, env, "owner@example.com", "2001:db8:1:2::1")
		joinFrom(t, env, "friend1@example.com", code, "2001:db8:1:2:aaaa::2")
		confirmFrom(t, env, "friend1@example.com", "2001:db8:1:2:aaaa::2")
		if p := placeOf(t, env, "owner@example.com"); p != 4 {
			t.Fatalf("owner's place after a sign-up from its own /64: %d, want 4", p)
		}
		joinFrom(t, env, "friend2@example.com", code, "2001:db8:1:3::2")
		confirmFrom(t, env, "friend2@example.com", "2001:db8:1:3::2")
		if p := placeOf(t, env, "owner@example.com"); p >= 4 {
			t.Fatalf("owner's place after a sign-up from another /64: %d, want ahead of 4", p)
		}
	})
}

// Wrong passwords for one account from many addresses (a new /64 each, so
// no per-address limit applies) are checked 10 times, then the account
// waits 1 minute, doubling: no password is checked meanwhile, right or
// wrong, and an unknown e-mail is answered alike. The owner still gets in:
// a signed-in device refreshes, the e-mailed reset link signs in, and the
// new password works at once.
func TestWrongPasswordsForOneAccountWaitWhileTheOwnerGetsIn(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var clock atomic.Int64
		clock.Store(time.Now().UnixNano())
		now := func() time.Time { return time.Unix(0, clock.Load()) }
		env := newTestEnvAt(t, db, func(c *config.Config) {
			trustLoopbackLimits(c)
			c.PublicURL = "https://salaula.example"
		}, now)
		owner := env.signUp(t, "chanda@example.com", goodPassword)
		var from int
		try := func(email, pw string) *http.Response {
			from++
			return env.do(t, "POST", "/auth/v1/token?grant_type=password", map[string]any{"email": email, "password": pw},
				map[string]string{"X-Forwarded-For": fmt.Sprintf("2001:db8:%x::1", from), "X-Supabase-Api-Version": "2024-01-01"})
		}
		const waitMsg = `Too many wrong passwords for this account. Wait %s and try again, or use "Forgot password?" to get a link by e-mail.`
		for _, email := range []string{"Chanda@Example.com", "nobody@example.com"} {
			for i := range 10 {
				wantAuthError(t, try(email, fmt.Sprintf("wrong-password-%d", i)), 400, "invalid_credentials", "Invalid login credentials")
			}
			for _, pw := range []string{"wrong-password-11", goodPassword} {
				res := try(email, pw)
				if ra := res.Header.Get("Retry-After"); ra != "60" {
					t.Fatalf("%s: Retry-After %q, want 60", email, ra)
				}
				wantAuthError(t, res, 429, "over_request_rate_limit", fmt.Sprintf(waitMsg, "1 minute"))
			}
		}

		// The owner's signed-in device keeps its session.
		wantStatus(t, env.refresh(t, str(owner, "refresh_token")), 200)

		// After the wait one more password is checked; a wrong one doubles it.
		clock.Add(int64(61 * time.Second))
		wantAuthError(t, try("chanda@example.com", "wrong-password-12"), 400, "invalid_credentials", "")
		wantAuthError(t, try("chanda@example.com", goodPassword), 429, "over_request_rate_limit", fmt.Sprintf(waitMsg, "2 minutes"))

		// The e-mailed reset link signs the owner in, and the new password
		// works at once.
		wantStatus(t, env.authJSON(t, "POST", "/auth/v1/recover", map[string]any{"email": "chanda@example.com"}, ""), 200)
		link := linkIn(t, waitMail(t, env, "chanda@example.com", "recovery").Body, "https://salaula.example/reset_password?")
		res := env.authJSON(t, "POST", "/auth/v1/verify", map[string]any{"type": "recovery", "token_hash": link.Query().Get("token_hash")}, "")
		wantStatus(t, res, 200)
		wantStatus(t, env.authJSON(t, "PUT", "/auth/v1/user", map[string]any{"password": "reset-chilanga-88"}, str(decode(t, res), "access_token")), 200)
		wantStatus(t, try("chanda@example.com", "reset-chilanga-88"), 200)

		// A right password sets the count back: ten more wrong ones are checked.
		for i := range 10 {
			wantAuthError(t, try("chanda@example.com", fmt.Sprintf("wrong-password-%d", i)), 400, "invalid_credentials", "")
		}
		wantAuthError(t, try("chanda@example.com", "reset-chilanga-88"), 429, "over_request_rate_limit", "")
	})
}
