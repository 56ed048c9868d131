package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"salaula/internal/clientip"
	"salaula/internal/config"
	"salaula/internal/mail"
	"salaula/internal/media"
	"salaula/internal/media/mediatest"
	"salaula/internal/store/storetest"
)

// opsServer starts a server logging as `salaula serve` does (NewLogHandler
// at level), with drain as its stopping state; tweak may change the config.
func opsServer(t *testing.T, level slog.Level, drain *Drain, st media.Store, tweak func(*config.Config)) (*httptest.Server, *bytes.Buffer) {
	t.Helper()
	db := storetest.Open(t, "sqlite")
	cfg, err := config.Parse("serve", nil, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DataDir = t.TempDir()
	if tweak != nil {
		tweak(cfg)
	}
	logs := &bytes.Buffer{}
	logger := slog.New(NewLogHandler(&lockedWriter{w: logs}, level, cfg.DataDir))
	if st == nil {
		if st, err = media.NewLocal(filepath.Join(cfg.DataDir, "media")); err != nil {
			t.Fatal(err)
		}
	}
	mailer, err := mail.New(db, cfg.MailFrom, cfg.SMTPURL, logger)
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(Deps{Config: cfg, DB: db, Secret: testSecret, Mailer: mailer, Media: st, Logger: logger, App: testApp, Drain: drain})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, logs
}

// lockedWriter lets the test read what the server writes meanwhile.
type lockedWriter struct{ w *bytes.Buffer }

func (l *lockedWriter) Write(p []byte) (int, error) { return l.w.Write(p) }

func getReady(t *testing.T, url string) (int, readiness) {
	t.Helper()
	res, err := http.Get(url + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var r readiness
	if err := json.NewDecoder(res.Body).Decode(&r); err != nil {
		t.Fatalf("/readyz is not JSON: %v", err)
	}
	return res.StatusCode, r
}

func TestReadyzReportsEachDependency(t *testing.T) {
	t.Parallel()
	srv, _ := opsServer(t, slog.LevelInfo, nil, nil, nil)
	code, r := getReady(t, srv.URL)
	if code != http.StatusOK || r.Status != "ready" || r.Checks["database"].Status != "ok" || r.Checks["media"].Status != "ok" ||
		r.Checks["disk"].Status != "ok" || r.Checks["disk"].FreeBytes == nil || *r.Checks["disk"].FreeBytes <= 0 ||
		r.Checks["mail"].Status != "not configured" {
		t.Fatalf("/readyz = %d %+v", code, r)
	}
	res, err := http.Get(srv.URL + "/healthz")
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("/healthz = %v %v", res, err)
	}
	res.Body.Close()
}

// Only the mail server down: degraded but ready (e-mails wait in the outbox).
func TestReadyzIsDegradedWhenOnlyMailIsDown(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nobody answers there now
	srv, _ := opsServer(t, slog.LevelInfo, nil, nil, func(c *config.Config) { c.SMTPURL = "smtp://" + addr })
	code, r := getReady(t, srv.URL)
	if code != http.StatusOK || r.Status != "degraded" || r.Checks["mail"].Status != "down" || !strings.Contains(r.Checks["mail"].Error, addr) {
		t.Fatalf("/readyz with the mail server down = %d %+v", code, r)
	}
}

// A media store that does not answer: not ready, within the probe's 2 s.
func TestReadyzIsUnavailableWhenMediaHangs(t *testing.T) {
	t.Parallel()
	s3, err := media.NewS3(mediatest.Hung(t, 5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := opsServer(t, slog.LevelInfo, nil, s3, nil)
	start := time.Now()
	code, r := getReady(t, srv.URL)
	if code != http.StatusServiceUnavailable || r.Status != "unavailable" || r.Checks["media"].Status != "down" || r.Checks["database"].Status != "ok" {
		t.Fatalf("/readyz with S3 hung = %d %+v", code, r)
	}
	if took := time.Since(start); took > 4*time.Second {
		t.Fatalf("/readyz took %s with S3 hung", took)
	}
}

// A write that failed because the disk is full is logged with those words,
// and readiness says "disk full".
func TestDiskFullIsSaidInTheLogAndReadiness(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	logs := &bytes.Buffer{}
	logger := slog.New(NewLogHandler(logs, slog.LevelInfo, dir))
	logger.Error("commit", "err", errors.New("sqlite: database or disk is full (13)"))
	var line map[string]any
	if err := json.Unmarshal(logs.Bytes(), &line); err != nil || line["cause"] != "disk full" {
		t.Fatalf("log line %s (%v), want \"cause\":\"disk full\"", logs, err)
	}
	s := &Server{cfg: &config.Config{DataDir: dir}}
	if c := s.diskCheck(); c.Status != "down" || !strings.Contains(c.Error, "disk full") {
		t.Fatalf("disk check after a full-disk error: %+v", c)
	}
	if c := (&Server{cfg: &config.Config{DataDir: t.TempDir()}}).diskCheck(); c.Status != "ok" {
		t.Fatalf("another data folder's disk check: %+v", c)
	}
}

// Stopping: /readyz answers 503 "stopping" while requests are still served,
// and Drain.Wait returns once a probe has heard it.
func TestReadyzSaysStoppingBeforeTheServerStops(t *testing.T) {
	t.Parallel()
	drain := NewDrain()
	srv, _ := opsServer(t, slog.LevelInfo, drain, nil, nil)
	if code, _ := getReady(t, srv.URL); code != http.StatusOK {
		t.Fatalf("/readyz before stopping = %d", code)
	}
	drain.Begin()
	waited := make(chan struct{})
	go func() { drain.Wait(20*time.Second, 0); close(waited) }()
	code, r := getReady(t, srv.URL)
	if code != http.StatusServiceUnavailable || r.Status != "stopping" {
		t.Fatalf("/readyz while stopping = %d %+v", code, r)
	}
	select {
	case <-waited:
	case <-time.After(5 * time.Second):
		t.Fatal("Drain.Wait did not return after the probe heard \"stopping\"")
	}
	res, err := http.Get(srv.URL + "/healthz")
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("requests while draining: %v %v", res, err)
	}
	res.Body.Close()
}

// Each access line has the client's address and a request ID (a trusted
// proxy's X-Request-Id, echoed), stays under 200 bytes, and goes away at
// SALAULA_LOG_LEVEL=warn.
func TestAccessLineHasClientAndRequestIDAndIsShort(t *testing.T) {
	t.Parallel()
	trusted, err := clientip.Parse("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	srv, logs := opsServer(t, slog.LevelInfo, nil, nil, func(c *config.Config) { c.TrustedProxies = trusted })
	send := func(id string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/functions/v1/waitlist-signup",
			strings.NewReader(`{"email":"line@example.com","programName":"Upcycling Initiative"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", "203.0.113.250")
		if id != "" {
			req.Header.Set("X-Request-Id", id)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	uuid := "9f3c2a64-1b7e-4c1d-8f0a-2d6b5e4c3a21"
	if res := send(uuid); res.StatusCode != http.StatusOK || res.Header.Get("X-Request-Id") != uuid {
		t.Fatalf("answer %d, X-Request-Id %q; want 200 and the proxy's %s", res.StatusCode, res.Header.Get("X-Request-Id"), uuid)
	}
	generated := send("not a plain id!").Header.Get("X-Request-Id")
	if len(generated) != 16 {
		t.Fatalf("X-Request-Id for a bad proxy id = %q, want 16 new hex digits", generated)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if strings.Contains(l, `"msg":"request"`) {
			lines = append(lines, l)
		}
	}
	if len(lines) != 2 {
		t.Fatalf("request lines: %q", lines)
	}
	for i, want := range []string{uuid, generated} {
		var line map[string]any
		if err := json.Unmarshal([]byte(lines[i]), &line); err != nil {
			t.Fatal(err)
		}
		if line["ip"] != "203.0.113.250" || line["id"] != want || line["status"] != float64(200) {
			t.Errorf("line %s: want ip 203.0.113.250 and id %s", lines[i], want)
		}
		if len(lines[i]) >= 200 && want == generated { // a proxy's UUID adds 20 bytes
			t.Errorf("a successful request's line is %d bytes, want under 200: %s", len(lines[i]), lines[i])
		}
	}

	quiet, quietLogs := opsServer(t, slog.LevelWarn, nil, nil, nil)
	res, err := http.Get(quiet.URL + "/healthz")
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatal(res, err)
	}
	res.Body.Close()
	if strings.Contains(quietLogs.String(), `"msg":"request"`) {
		t.Errorf("at warn the access log still has successful requests: %s", quietLogs)
	}
}
