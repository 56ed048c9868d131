package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"salaula/internal/config"
	"salaula/internal/mail"
	"salaula/internal/media"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// testSecret signs every token in the tests.
var testSecret = []byte("test-secret-test-secret-test-secret!")

// testApp stands in for the built React app.
var testApp = fstest.MapFS{
	"index.html":             {Data: []byte(`<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>`)},
	"assets/index-abc123.js": {Data: []byte(strings.Repeat("console.log('salaula');\n", 200))},
	"favicon.svg":            {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`)},
}

// logBuffer holds the server's log lines; a test may read it while the
// server writes.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns every line logged so far.
func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// testEnv is a running server on one engine with what the test needs to look inside.
type testEnv struct {
	*httptest.Server
	DB     *store.DB
	Config *config.Config
	Media  *media.Local
	Mailer *mail.Outbox // its sender does not run unless a test starts it (runMailer)
	Logs   *logBuffer
	anon   string // the anon key, once asked for
}

// newTestEnv starts a server on db; tweak may change the config first.
func newTestEnv(t testing.TB, db *store.DB, tweak func(*config.Config)) *testEnv {
	t.Helper()
	return newTestEnvAt(t, db, tweak, nil)
}

// newTestEnvAt is newTestEnv with the server's clock now (time.Now when nil).
func newTestEnvAt(t testing.TB, db *store.DB, tweak func(*config.Config), now func() time.Time) *testEnv {
	t.Helper()
	cfg, err := config.Parse("serve", nil, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DataDir = t.TempDir()
	if tweak != nil {
		tweak(cfg)
	}
	logs := &logBuffer{}
	logger := slog.New(slog.NewJSONHandler(logs, nil))
	m, err := media.NewLocal(filepath.Join(cfg.DataDir, "media"))
	if err != nil {
		t.Fatal(err)
	}
	mailer, err := mail.New(db, cfg.MailFrom, cfg.SMTPURL, logger)
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(Deps{Config: cfg, DB: db, Secret: testSecret, Mailer: mailer, Media: m, Logger: logger, App: testApp, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &testEnv{Server: srv, DB: db, Config: cfg, Media: m, Mailer: mailer, Logs: logs}
}

// runMailer runs the outbox's background sender, as `salaula serve` does,
// until the test ends.
func (e *testEnv) runMailer(t testing.TB) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); e.Mailer.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
}

// eachEngine runs fn with a fresh server on SQLite and on PostgreSQL.
func eachEngine(t *testing.T, tweak func(*config.Config), fn func(t *testing.T, env *testEnv)) {
	t.Helper()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fn(t, newTestEnv(t, db, tweak))
	})
}

// do sends a request with an optional JSON body and headers.
func (e *testEnv) do(t *testing.T, method, path string, body any, headers map[string]string) *http.Response {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, e.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// decode reads a JSON answer into a map.
func decode(t *testing.T, res *http.Response) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil {
		t.Fatalf("answer is not JSON: %v", err)
	}
	return m
}

// wantStatus fails the test when res has another status.
func wantStatus(t *testing.T, res *http.Response, want int) {
	t.Helper()
	if res.StatusCode != want {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("%s %s: status %d, want %d; body: %s", res.Request.Method, res.Request.URL.Path, res.StatusCode, want, b)
	}
}
