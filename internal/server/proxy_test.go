package server

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
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

// behindProxy returns env as reached through a reverse proxy that appends
// the address it was reached from to X-Forwarded-For, as nginx's
// $proxy_add_x_forwarded_for and most cloud load balancers do. The client
// reaches the proxy from client and forges the header it sends: forge
// gives the header of its n-th request ("" sends none).
func (e *testEnv) behindProxy(t *testing.T, client string, forge func(n int) string) *testEnv {
	t.Helper()
	return e.behindProxyFrom(t, func(int) string { return client }, forge)
}

// behindProxyFrom is behindProxy for a client that reaches the proxy from
// the address client(n) on its n-th request.
func (e *testEnv) behindProxyFrom(t *testing.T, client func(n int) string, forge func(n int) string) *testEnv {
	t.Helper()
	target, err := url.Parse(e.URL)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(target) // appends to X-Forwarded-For
	var n atomic.Int64
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1))
		r.RemoteAddr = net.JoinHostPort(client(i), "40000") // where the client connects from
		r.Header.Del("X-Forwarded-For")
		if h := forge(i); h != "" {
			r.Header.Set("X-Forwarded-For", h)
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	p := *e
	p.Server = proxy
	return &p
}

// forgedLeftmost forges a new left-most address on every request, which
// a server that believes the left-most entry takes for a new client.
func forgedLeftmost(n int) string { return fmt.Sprintf("203.0.113.%d, 192.0.2.%d", n%250+1, n%250+1) }

// loopbackProxy trusts the test's proxy (on loopback) and nothing else, and
// allows 5 sign-ins per client.
func loopbackProxy(c *config.Config) {
	c.TrustedProxies, _ = clientip.Parse("127.0.0.1, ::1")
	c.AuthRateLimit = config.Rate{Count: 5, Window: 5 * time.Minute}
}

// wrongPasswords sends n wrong passwords for email and returns the statuses.
func wrongPasswords(t *testing.T, env *testEnv, email string, n int) []int {
	t.Helper()
	var statuses []int
	for range n {
		res := env.authJSON(t, "POST", "/auth/v1/token?grant_type=password", map[string]any{"email": email, "password": "wrong-password-1"}, "")
		if res.StatusCode == http.StatusTooManyRequests && res.Header.Get("Retry-After") == "" {
			t.Fatal("429 without Retry-After")
		}
		statuses = append(statuses, res.StatusCode)
		res.Body.Close()
	}
	return statuses
}

// wantLimitedAfter wants count answers of 400 (wrong password), then only 429.
func wantLimitedAfter(t *testing.T, statuses []int, count int) {
	t.Helper()
	for i, s := range statuses {
		if want := map[bool]int{true: 400, false: 429}[i < count]; s != want {
			t.Fatalf("attempt %d: %d, want %d (all: %v)", i+1, s, want, statuses)
		}
	}
}

// Behind a trusted proxy that appends, a client that forges a new
// left-most X-Forwarded-For entry on every try is still one client: its
// 60 wrong passwords are limited after the allowance, while another
// client of the same proxy is not. Sessions and the audit log record the
// same address.
func TestForgedForwardedForIsLimitedBehindAProxy(t *testing.T) {
	eachEngine(t, loopbackProxy, func(t *testing.T, env *testEnv) {
		env.signUp(t, "chanda@example.com", goodPassword)
		attacker := env.behindProxy(t, "198.51.100.7", forgedLeftmost)
		wantLimitedAfter(t, wrongPasswords(t, attacker, "chanda@example.com", 60), 5)

		other := env.behindProxy(t, "2001:db8::8", forgedLeftmost)
		wantLimitedAfter(t, wrongPasswords(t, other, "chanda@example.com", 1), 1)

		// The session and the audit log name the client, not a forged address.
		seedForms(t, env)
		founder := env.behindProxy(t, "198.51.100.9", forgedLeftmost)
		op := founder.newOperator(t, "founder@example.com")
		if ip := queryString(t, env, `SELECT s.ip FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = ?`, "founder@example.com"); ip != "198.51.100.9" {
			t.Fatalf("session ip = %q", ip)
		}
		msgID := queryString(t, env, `SELECT id FROM contact_messages LIMIT 1`)
		wantStatus(t, founder.admin(t, "PATCH", "/admin/v1/messages/"+msgID, map[string]any{"status": "handled"}, op), http.StatusOK)
		if ip := queryString(t, env, `SELECT ip FROM audit_log`); ip != "198.51.100.9" {
			t.Fatalf("audit log ip = %q", ip)
		}
	})
}

// A client that reaches the server directly, not through a trusted proxy,
// cannot choose its address with X-Forwarded-For nor its scheme with
// X-Forwarded-Proto.
func TestForwardedHeadersOfAnUntrustedPeerAreIgnored(t *testing.T) {
	eachEngine(t, func(c *config.Config) {
		c.TrustedProxies, _ = clientip.Parse("10.0.0.1") // the test client is on loopback
		c.AuthRateLimit = config.Rate{Count: 5, Window: 5 * time.Minute}
	}, func(t *testing.T, env *testEnv) {
		var statuses []int
		for i := range 60 {
			res := env.do(t, "POST", "/auth/v1/token?grant_type=password", map[string]any{"email": "a@example.com", "password": "wrong-password-1"},
				map[string]string{"X-Forwarded-For": forgedLeftmost(i), "X-Forwarded-Proto": "https"})
			statuses = append(statuses, res.StatusCode)
			res.Body.Close()
		}
		wantLimitedAfter(t, statuses, 5)
		res := env.do(t, "GET", "/config.json", nil, map[string]string{"X-Forwarded-Proto": "https"})
		if got := str(decode(t, res), "url"); !strings.HasPrefix(got, "http://") {
			t.Fatalf("url = %q, want the connection's own scheme", got)
		}
	})
}

// X-Forwarded-Proto is believed from a trusted proxy: its right-most entry,
// the one the nearest proxy wrote.
func TestForwardedProtoFromATrustedProxy(t *testing.T) {
	env := newTestEnv(t, storetest.Open(t, store.SQLite), loopbackProxy)
	for proto, want := range map[string]string{"https": "https://", "HTTPS": "https://", "http": "http://", "http, https": "https://", "https, http": "http://", "": "http://"} {
		res := env.do(t, "GET", "/config.json", nil, map[string]string{"X-Forwarded-Proto": proto})
		if got := str(decode(t, res), "url"); !strings.HasPrefix(got, want) {
			t.Errorf("X-Forwarded-Proto %q: url = %q, want %s...", proto, got, want)
		}
	}
}

// The realtime limit of sockets per address counts the client behind a
// trusted proxy, whatever left-most address it forges.
func TestRealtimeLimitPerAddressBehindAProxy(t *testing.T) {
	eachEngine(t, func(c *config.Config) {
		loopbackProxy(c)
		c.Realtime.MaxConnsPerIP = 2
		c.MetricsToken = testMetricsToken
	}, func(t *testing.T, env *testEnv) {
		one := env.behindProxy(t, "198.51.100.7", forgedLeftmost)
		one.realtimeDial(t, "", true)
		one.realtimeDial(t, "", true)
		for deadline := time.Now().Add(5 * time.Second); env.realtimeConns(t) != 2; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the server never counted the two sockets")
			}
		}
		code, reason := one.realtimeDial(t, "", true).closedWith()
		if code != websocket.StatusPolicyViolation || reason != "too many realtime connections from your address (limit 2)" {
			t.Fatalf("third socket: %d %q", code, reason)
		}
		c := env.behindProxy(t, "198.51.100.8", forgedLeftmost).realtimeDial(t, "", true)
		if status, _ := c.replyTo(c.send("", "phoenix", "heartbeat", map[string]any{})); status != "ok" {
			t.Fatalf("another client's heartbeat: %s", status)
		}
	})
}

// queryString reads one text value.
func queryString(t *testing.T, env *testEnv, query string, args ...any) string {
	t.Helper()
	var s string
	if err := env.DB.QueryRow(context.Background(), query, args...).Scan(&s); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return s
}
