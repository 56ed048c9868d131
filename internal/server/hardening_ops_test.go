package server

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"salaula/internal/config"
	"salaula/internal/mail"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// testMetricsToken opens /metrics in the tests that set it.
const testMetricsToken = "metrics-token-for-tests-0123456789"

const healthzCount = `salaula_http_requests_total{code="200",method="GET",route="GET /healthz"} 1`

// /metrics is closed by default: it answers like any unknown API path and
// shows nothing.
func TestMetricsAreClosedByDefault(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		env.do(t, "GET", "/healthz", nil, nil)
		for _, h := range []map[string]string{nil, {"Authorization": "Bearer "}, {"Authorization": "Bearer anything-at-all-here"}} {
			res, body := env.get(t, "/metrics", h)
			wantStatus(t, res, http.StatusNotFound)
			if strings.Contains(string(body), "salaula_") {
				t.Fatalf("closed /metrics shows metrics: %s", body)
			}
		}
	})
}

// With SALAULA_METRICS_TOKEN, /metrics answers only that bearer token.
func TestMetricsNeedTheirToken(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.MetricsToken = testMetricsToken }, func(t *testing.T, env *testEnv) {
		env.do(t, "GET", "/healthz", nil, nil)
		for name, h := range map[string]map[string]string{
			"no token":        nil,
			"wrong token":     {"Authorization": "Bearer " + testMetricsToken + "x"},
			"a prefix of it":  {"Authorization": "Bearer " + testMetricsToken[:10]},
			"not bearer":      {"Authorization": "Basic " + testMetricsToken},
			"as the anon key": {"Authorization": "Bearer " + env.anonKey(t)},
		} {
			res, body := env.get(t, "/metrics", h)
			if res.StatusCode != http.StatusUnauthorized || strings.Contains(string(body), "salaula_") ||
				!strings.Contains(string(body), "SALAULA_METRICS_TOKEN") || res.Header.Get("WWW-Authenticate") == "" {
				t.Fatalf("%s: %d %s", name, res.StatusCode, body)
			}
		}
		res, body := env.get(t, "/metrics", map[string]string{"Authorization": "Bearer " + testMetricsToken})
		wantStatus(t, res, http.StatusOK)
		if !strings.Contains(string(body), healthzCount) {
			t.Fatalf("metrics lack %q:\n%s", healthzCount, body)
		}
	})
}

// The handler of the separate metrics address serves /metrics without a
// token (it listens where only the operator reaches), and nothing else.
func TestMetricsOnTheirOwnAddress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		env := newTestEnv(t, db, nil)
		mailer, err := mail.New(db, env.Config.MailFrom, "", slog.New(slog.NewJSONHandler(io.Discard, nil)))
		if err != nil {
			t.Fatal(err)
		}
		app, metrics, err := NewWithMetrics(Deps{Config: env.Config, DB: db, Secret: testSecret, Mailer: mailer, Media: env.Media, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), App: testApp})
		if err != nil {
			t.Fatal(err)
		}
		main, side := httptest.NewServer(app), httptest.NewServer(metrics)
		defer main.Close()
		defer side.Close()
		get := func(url string) (int, string) {
			res, err := http.Get(url)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return res.StatusCode, string(b)
		}
		get(main.URL + "/healthz")
		if code, body := get(main.URL + "/metrics"); code != http.StatusNotFound || strings.Contains(body, "salaula_") {
			t.Fatalf("main address /metrics: %d %s", code, body)
		}
		if code, body := get(side.URL + "/metrics"); code != http.StatusOK || !strings.Contains(body, healthzCount) {
			t.Fatalf("metrics address: %d %s", code, body)
		}
		for _, p := range []string{"/", "/healthz", "/auth/v1/settings"} {
			if code, _ := get(side.URL + p); code != http.StatusNotFound {
				t.Fatalf("metrics address serves %s: %d", p, code)
			}
		}
	})
}
