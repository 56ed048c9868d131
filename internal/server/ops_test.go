package server

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"testing/fstest"

	"salaula/internal/config"
	"salaula/internal/store/storetest"
)

type fstestEmpty = fstest.MapFS

func TestHealthAnswersOKWhenTheDatabaseAnswers(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		res := env.do(t, "GET", "/healthz", nil, nil)
		wantStatus(t, res, http.StatusOK)
		if body := decode(t, res); body["status"] != "ok" {
			t.Fatalf("body = %v", body)
		}
	})
}

func TestHealthAnswers503WhenTheDatabaseIsGone(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			db := storetest.Open(t, engine)
			env := newTestEnv(t, db, nil)
			db.Close()
			res := env.do(t, "GET", "/healthz", nil, nil)
			wantStatus(t, res, http.StatusServiceUnavailable)
		})
	}
}

func TestConfigGivesURLAndAnonKey(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		res := env.do(t, "GET", "/config.json", nil, nil)
		wantStatus(t, res, http.StatusOK)
		body := decode(t, res)
		if body["url"] != env.URL {
			t.Fatalf("url = %v, want %s", body["url"], env.URL)
		}
		claims, err := env.claimsOf(t, body["anonKey"].(string))
		if err != nil || claims.Role != "anon" {
			t.Fatalf("anonKey claims = %+v, %v; want role anon signed by the server", claims, err)
		}
	})
}

func TestConfigUsesThePublicURLWhenSet(t *testing.T) {
	db := storetest.Open(t, "sqlite")
	env := newTestEnv(t, db, func(c *config.Config) { c.PublicURL, c.PublicURLSet = "https://salaula.co.zm", true })
	body := decode(t, env.do(t, "GET", "/config.json", nil, nil))
	if body["url"] != "https://salaula.co.zm" {
		t.Fatalf("url = %v", body["url"])
	}
}

func TestAppFallbackAndCaching(t *testing.T) {
	db := storetest.Open(t, "sqlite")
	env := newTestEnv(t, db, nil)
	for _, path := range []string{"/", "/about", "/sign_up", "/no/such/page", "/404"} {
		res := env.do(t, "GET", path, nil, nil)
		wantStatus(t, res, http.StatusOK)
		b, _ := io.ReadAll(res.Body)
		if !strings.Contains(string(b), `<div id="root">`) {
			t.Errorf("%s: not index.html: %s", path, b)
		}
		if cc := res.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("%s: Cache-Control = %q, want no-cache", path, cc)
		}
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Errorf("%s: Content-Type = %q", path, ct)
		}
	}
	res := env.do(t, "GET", "/assets/index-abc123.js", nil, map[string]string{"Accept-Encoding": "gzip"})
	wantStatus(t, res, http.StatusOK)
	if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
		t.Errorf("asset Cache-Control = %q", cc)
	}
	if res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("asset not gzipped: %v", res.Header)
	}
	zr, err := gzip.NewReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if !strings.HasPrefix(string(plain), "console.log('salaula');") {
		t.Fatalf("gunzipped asset = %.40q", plain)
	}
	res = env.do(t, "GET", "/assets/index-abc123.js", nil, map[string]string{"Accept-Encoding": "identity"})
	if res.Header.Get("Content-Encoding") != "" {
		t.Fatal("gzip sent to a client that did not ask for it")
	}
	etag := res.Header.Get("ETag")
	res = env.do(t, "GET", "/assets/index-abc123.js", nil, map[string]string{"If-None-Match": etag})
	wantStatus(t, res, http.StatusNotModified)
	res = env.do(t, "GET", "/assets/missing-123.js", nil, nil)
	wantStatus(t, res, http.StatusNotFound)
	res = env.do(t, "POST", "/about", "x", nil)
	wantStatus(t, res, http.StatusMethodNotAllowed)
}

func TestUnknownAPIPathsAnswerJSON404(t *testing.T) {
	db := storetest.Open(t, "sqlite")
	env := newTestEnv(t, db, nil)
	for _, path := range []string{"/auth/v1/nope", "/functions/v1/no-such-function", "/storage/v1/bucket", "/auth/v1/"} {
		res := env.do(t, "GET", path, nil, nil)
		wantStatus(t, res, http.StatusNotFound)
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s: Content-Type = %q, want JSON", path, ct)
		}
		decode(t, res)
	}
}

func TestSecurityHeadersOnEveryAnswer(t *testing.T) {
	db := storetest.Open(t, "sqlite")
	env := newTestEnv(t, db, nil)
	for _, path := range []string{"/", "/healthz", "/config.json", "/auth/v1/nope", "/assets/index-abc123.js"} {
		res := env.do(t, "GET", path, nil, nil)
		csp := res.Header.Get("Content-Security-Policy")
		want := "script-src 'self'" // the app's own scripts
		static := strings.HasPrefix(path, "/assets/")
		if strings.HasPrefix(path, "/auth/v1/") || static {
			want = "default-src 'none'" // an API answer or a file of code runs and loads nothing as a page
		}
		if !strings.Contains(csp, want) || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: CSP = %q", path, csp)
		}
		if res.Header.Get("X-Content-Type-Options") != "nosniff" || (res.Header.Get("Referrer-Policy") == "") != static {
			t.Errorf("%s: headers = %v", path, res.Header)
		}
	}
}

func TestMetricsCountRequestsByRoute(t *testing.T) {
	db := storetest.Open(t, "sqlite")
	env := newTestEnv(t, db, func(c *config.Config) { c.MetricsToken = testMetricsToken })
	env.do(t, "GET", "/healthz", nil, nil)
	env.do(t, "GET", "/healthz", nil, nil)
	res := env.do(t, "GET", "/metrics", nil, map[string]string{"Authorization": "Bearer " + testMetricsToken})
	wantStatus(t, res, http.StatusOK)
	b, _ := io.ReadAll(res.Body)
	for _, want := range []string{
		`salaula_http_requests_total{code="200",method="GET",route="GET /healthz"} 2`,
		`salaula_http_request_duration_seconds_count{route="GET /healthz"} 2`,
		`salaula_http_request_duration_seconds_bucket{route="GET /healthz",le="10"} 2`,
		`salaula_db_connections{state="open"}`, "salaula_goroutines ", "salaula_heap_bytes ", "salaula_uptime_seconds ",
		"go_goroutines ", "go_memstats_heap_alloc_bytes ", "process_resident_memory_bytes ", "process_open_fds ",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if strings.Contains(string(b), "salaula_password_hash") {
		t.Error("metrics still show the password-hashing CPU, which the server no longer counts")
	}
	if t.Failed() {
		t.Logf("metrics:\n%s", b)
	}
}

// The metrics show the shared e-mail outbox by state, read from the
// database, so every instance reports the same queue.
func TestMetricsShowTheOutbox(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.MetricsToken = testMetricsToken }, func(t *testing.T, env *testEnv) {
		for _, e := range []string{"a@example.com", "b@example.com"} {
			res := env.do(t, "POST", "/functions/v1/waitlist-signup", map[string]any{"email": e, "programName": "Upcycling Initiative"}, nil)
			wantStatus(t, res, http.StatusOK)
		}
		res := env.do(t, "GET", "/metrics", nil, map[string]string{"Authorization": "Bearer " + testMetricsToken})
		wantStatus(t, res, http.StatusOK)
		b, _ := io.ReadAll(res.Body)
		var queued, sent int
		for _, line := range strings.Split(string(b), "\n") {
			fmt.Sscanf(line, `salaula_outbox_emails{state="queued"} %d`, &queued)
			fmt.Sscanf(line, `salaula_outbox_emails{state="sent"} %d`, &sent)
		}
		if queued+sent != 2 || !strings.Contains(string(b), `salaula_outbox_emails{state="failed"} 0`) {
			t.Fatalf("outbox metrics: queued %d, sent %d, want 2 in all:\n%s", queued, sent, b)
		}
	})
}

func TestOneLogLinePerRequestWithoutSecrets(t *testing.T) {
	db := storetest.Open(t, "sqlite")
	env := newTestEnv(t, db, nil)
	env.do(t, "GET", "/healthz?token=supersecret", nil, map[string]string{"Authorization": "Bearer abc.def.ghi"})
	logs := env.Logs.String()
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logs), "\n") {
		var line map[string]any
		if err := json.Unmarshal([]byte(l), &line); err != nil {
			t.Fatalf("log line %q is not JSON: %v", l, err)
		}
		if line["msg"] == "request" {
			lines = append(lines, line)
		}
	}
	if len(lines) != 1 {
		t.Fatalf("%d request lines, want 1: %s", len(lines), logs)
	}
	line := lines[0]
	if line["level"] != "INFO" || line["method"] != "GET" || line["path"] != "/healthz" || line["status"] != float64(200) ||
		line["time"] == nil || line["ms"] == nil || line["id"] == nil || line["ip"] == nil {
		t.Fatalf("log line missing fields: %s", logs)
	}
	if strings.Contains(logs, "supersecret") || strings.Contains(logs, "abc.def.ghi") {
		t.Fatalf("log leaks secrets: %s", logs)
	}
}

func TestNewRefusesAnAppWithoutIndex(t *testing.T) {
	db := storetest.Open(t, "sqlite")
	_, err := New(Deps{Config: &config.Config{}, DB: db, Secret: testSecret, App: fstestEmpty{}})

	if err == nil || !strings.Contains(err.Error(), "index.html") {
		t.Fatalf("err = %v", err)
	}
}
