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
	"sync/atomic"
	"testing"
	"time"

	"salaula/internal/clientip"
	"salaula/internal/config"
	"salaula/internal/mail"
	"salaula/internal/media"
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
	if code != http.StatusOK || r.Status != "degraded" || r.Checks["mail"].Status != "down" || r.Checks["mail"].Error != "not working" {
		t.Fatalf("/readyz with the mail server down = %d %+v", code, r)
	}
}

// hangingS3 is an S3 endpoint that, while hung is set, accepts requests
// and never answers them; otherwise it answers 404 (no such object).
func hangingS3(t *testing.T, timeout time.Duration) (config.S3Config, *atomic.Bool) {
	t.Helper()
	var hung atomic.Bool
	hung.Store(true)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hung.Load() {
			<-r.Context().Done()
			return
		}
		w.WriteHeader(http.StatusNotFound)
	}))
	t.Cleanup(srv.Close)
	return config.S3Config{Endpoint: srv.URL, Region: "us-east-1", Bucket: "photos-bucket", AccessKey: "a", SecretKey: "b",
		UsePathStyle: true, Timeout: timeout}, &hung
}

// S3 hung: the instance stays ready ("degraded", naming media) within the
// probe's 2 s; pages and waitlist sign-ups work; a photo and a sized one
// answer 503 within SALAULA_S3_TIMEOUT, saying it; once S3 answers, ready
// at once.
func TestHungMediaDegradesButKeepsTheSiteUp(t *testing.T) {
	t.Parallel()
	s3cfg, hung := hangingS3(t, 700*time.Millisecond)
	s3, err := media.NewS3(s3cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv, logs := opsServer(t, slog.LevelInfo, nil, s3, nil)
	start := time.Now()
	code, r := getReady(t, srv.URL)
	if code != http.StatusOK || r.Status != "degraded" || r.Checks["media"].Status != "down" || r.Checks["database"].Status != "ok" ||
		r.Checks["media"].Error != "not answering in time" {
		t.Fatalf("/readyz with S3 hung = %d %+v", code, r)
	}
	if took := time.Since(start); took > 4*time.Second {
		t.Fatalf("/readyz took %s with S3 hung", took)
	}
	if !strings.Contains(logs.String(), `"msg":"readiness degraded","down":"media"`) || !strings.Contains(logs.String(), "S3 did not answer within 700ms") {
		t.Errorf("the log does not say media is down and why: %s", logs)
	}

	page, err := http.Get(srv.URL + "/")
	if err != nil || page.StatusCode != http.StatusOK {
		t.Fatalf("a page with S3 hung: %v %v", page, err)
	}
	page.Body.Close()
	signup, err := http.Post(srv.URL+"/functions/v1/waitlist-signup", "application/json",
		strings.NewReader(`{"email":"hung@example.com","programName":"Upcycling Initiative"}`))
	if err != nil || signup.StatusCode != http.StatusOK {
		t.Fatalf("a waitlist sign-up with S3 hung: %v %v", signup, err)
	}
	signup.Body.Close()

	// The photo, and a thumbnail of it.
	for _, p := range []string{"/storage/v1/object/public/user-media/9b2f0c55-7a8e-4f1e-9d6a-3c2b1a0f9e8d/avatar.png",
		"/storage/v1/render/image/public/user-media/9b2f0c55-7a8e-4f1e-9d6a-3c2b1a0f9e8d/avatar.png?width=192&height=192"} {
		start = time.Now()
		photo, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(photo.Body)
		photo.Body.Close()
		if took := time.Since(start); photo.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "did not answer within 700ms") || took > 3*time.Second {
			t.Fatalf("%s with S3 hung: %d %s after %s, want 503 naming the 700ms timeout", p, photo.StatusCode, body, took)
		}
	}

	hung.Store(false)
	if code, r := getReady(t, srv.URL); code != http.StatusOK || r.Status != "ready" {
		t.Fatalf("/readyz once S3 answers again = %d %+v", code, r)
	}
}

// The public /readyz names the part that is down in words; the errors'
// details (what was asked of S3, where) only reach a trusted proxy's own probe (no
// X-Forwarded-For) or a request with the metrics token.
func TestReadyzDetailsOnlyForTheProxyProbeAndTheMetricsToken(t *testing.T) {
	t.Parallel()
	s3cfg, _ := hangingS3(t, 500*time.Millisecond)
	s3, err := media.NewS3(s3cfg)
	if err != nil {
		t.Fatal(err)
	}
	trusted, err := clientip.Parse("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := opsServer(t, slog.LevelInfo, nil, s3, func(c *config.Config) { c.TrustedProxies, c.MetricsToken = trusted, "metrics-secret" })
	host := strings.TrimPrefix(s3cfg.Endpoint, "http://")
	ask := func(header ...string) string {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/readyz", nil)
		for i := 0; i < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("/readyz = %d %s", res.StatusCode, b)
		}
		return string(b)
	}
	for _, public := range []string{ask("X-Forwarded-For", "203.0.113.9"), ask("X-Forwarded-For", "203.0.113.9", "Authorization", "Bearer wrong")} {
		if strings.Contains(public, host) || strings.Contains(public, "photos-bucket") || strings.Contains(public, "S3") || strings.Contains(public, "user-media") ||
			!strings.Contains(public, `"media":{"status":"down","error":"not answering in time"`) {
			t.Errorf("public /readyz: %s", public)
		}
	}
	for _, detailed := range []string{ask(), ask("X-Forwarded-For", "203.0.113.9", "Authorization", "Bearer metrics-secret")} {
		if !strings.Contains(detailed, "media: S3 stat user-media/.readyz: S3 did not answer within 500ms") {
			t.Errorf("/readyz for the proxy's probe or the metrics token has no details: %s", detailed)
		}
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
	diskFullSince(dir).Store(time.Now().Add(-diskFailWindow - time.Second).UnixNano())
	if c := s.diskCheck(); c.Status != "ok" {
		t.Fatalf("disk check %s after the last full-disk error, space free: %+v", diskFailWindow, c)
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
