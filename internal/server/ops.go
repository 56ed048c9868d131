package server

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"salaula/internal/media"
)

// handleHealth is the liveness check: 200 when the database answers within
// 2 seconds, else 503. GET /readyz is the load balancer's readiness check.
func (s *Server) handleHealth() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := s.db.Ping(ctx); err != nil {
			s.logger.Warn("health check failed", "err", err)
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "database": "not answering"})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "database": string(s.db.Dialect())})
	})
}

// handleConfig gives the app its API URL and public anon key at run time, so
// one build serves every deployment.
func (s *Server) handleConfig() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		anon, err := s.anonKey(r.Context())
		if err != nil {
			s.logger.Error("sign anon key", "err", err)
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": msgServiceBusy})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{
			"url":          s.publicURL(r),
			"anonKey":      anon,
			"supportEmail": s.cfg.SupportEmail,
		})
	})
}

// publicURL is SALAULA_PUBLIC_URL when set, else the origin the request came
// to, so the app calls back the host it was loaded from.
func (s *Server) publicURL(r *http.Request) string {
	if s.cfg.PublicURLSet {
		return s.cfg.PublicURL
	}
	scheme := "http"
	if r.TLS != nil || s.forwardedHTTPS(r) {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// Drain is the server's stopping state, shared by serve and GET /readyz:
// once Begin is called, /readyz answers 503 "stopping", so the load
// balancer sends nothing new here while the requests under way finish.
type Drain struct {
	stopping  atomic.Bool
	lastProbe atomic.Int64  // unix nanoseconds of the last /readyz answered
	told      chan struct{} // closed when a /readyz has answered "stopping"
	tellOnce  sync.Once
}

// NewDrain returns a Drain not yet begun.
func NewDrain() *Drain { return &Drain{told: make(chan struct{})} }

// Begin makes /readyz answer "stopping" from now on.
func (d *Drain) Begin() { d.stopping.Store(true) }

// Wait returns once a readiness probe has been told the server is stopping
// (and margin more, for requests the load balancer had already routed
// here), at once when no probe came in the last probeWindow (no load
// balancer is watching), and after max at the latest.
func (d *Drain) Wait(max, margin time.Duration) {
	if time.Since(time.Unix(0, d.lastProbe.Load())) > probeWindow {
		return
	}
	select {
	case <-d.told:
		time.Sleep(margin)
	case <-time.After(max):
	}
}

// probeWindow: a load balancer probing less often than this is taken for none.
const probeWindow = 30 * time.Second

// Thresholds of free space on the data folder's disk: below diskFull the
// disk check is down ("disk full"); below diskLow it says so, still ok.
const (
	diskFull = 64 << 20
	diskLow  = 512 << 20
)

// diskFailWindow: a write that failed for want of space keeps the disk
// check down this long, so readiness recovers within seconds once space
// is freed.
const diskFailWindow = 10 * time.Second

// mailProbeEvery: the mail server is asked at most this often (its answer
// is kept meanwhile), so probes do not fill its log.
const mailProbeEvery = 30 * time.Second

// check is one dependency's state in /readyz.
type check struct {
	Status    string `json:"status"` // ok, down, not configured
	Error     string `json:"error,omitempty"`
	FreeBytes *int64 `json:"free_bytes,omitempty"`
	Millis    int64  `json:"ms"`
}

// readiness is GET /readyz's answer.
type readiness struct {
	Status string           `json:"status"` // ready, degraded (media, disk or mail down), unavailable (database down), stopping
	Checks map[string]check `json:"checks"`
}

// mailProbe keeps the last answer of the mail server.
type mailProbe struct {
	mu   sync.Mutex
	at   time.Time
	last check
}

// handleReady answers whether this instance should get traffic: 200 while
// the database answers ("degraded" when the media store, the data folder's
// disk or the mail server fails: pages, sign-ups and the rest still work),
// 503 when the database does not or the server is stopping. The errors'
// details (hosts, bucket, paths) go to the log, to /metrics' checks and to
// a request with the metrics token or from a trusted proxy's own probe;
// everyone else reads only which part is down.
func (s *Server) handleReady() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		checks := s.runReadyChecks(ctx)
		res := readiness{Status: readyStatus(checks), Checks: checks}
		if s.drain != nil {
			s.drain.lastProbe.Store(time.Now().UnixNano())
			if s.drain.stopping.Load() {
				res.Status = "stopping"
				defer s.drain.tellOnce.Do(func() { close(s.drain.told) })
			}
		}
		s.noteReadiness(res)
		code := http.StatusOK
		if res.Status == "unavailable" || res.Status == "stopping" {
			code = http.StatusServiceUnavailable
		}
		if !s.readsDetails(r) {
			res.Checks = publicChecks(checks)
		}
		w.Header().Set("Cache-Control", "no-store")
		writeJSON(w, code, res)
	})
}

// readsDetails reports whether r may read the checks' errors as they are:
// it bears the metrics token, or it is a trusted proxy's own health probe
// (from its address, with no X-Forwarded-For: a request it relays for a
// client always has one).
func (s *Server) readsDetails(r *http.Request) bool {
	return s.hasMetricsToken(r) ||
		len(r.Header.Values("X-Forwarded-For")) == 0 && s.cfg.TrustedProxies.FromProxy(r.RemoteAddr)
}

// publicChecks are the checks as anyone may read them: each error said in
// words, without hosts, names or paths.
func publicChecks(checks map[string]check) map[string]check {
	res := make(map[string]check, len(checks))
	for name, c := range checks {
		switch {
		case c.Error == "":
		case name == "disk" && strings.HasPrefix(c.Error, "disk nearly full"):
			c.Error = "disk nearly full"
		case name == "disk" && strings.HasPrefix(c.Error, "disk full"):
			c.Error = "disk full"
		case strings.Contains(c.Error, "did not answer within"):
			c.Error = "not answering in time"
		default:
			c.Error = "not working"
		}
		res[name] = c
	}
	return res
}

// noteReadiness logs the checks' details when the readiness status or the
// set of checks down changes (not at each probe), and sets the
// salaula_ready_check gauges.
func (s *Server) noteReadiness(res readiness) {
	var down []string
	for _, name := range []string{"database", "media", "disk", "mail"} {
		c, ok := res.Checks[name]
		if !ok {
			continue
		}
		s.metrics.ready.WithLabelValues(name).Set(map[bool]float64{true: 0, false: 1}[c.Status == "down"])
		if c.Status == "down" {
			down = append(down, name)
		}
	}
	state := res.Status + " " + strings.Join(down, ",")
	if prev, _ := s.lastReady.Swap(state).(string); prev == state || prev == "" && res.Status == "ready" {
		return
	}
	if res.Status == "ready" {
		s.logger.Info("ready again")
		return
	}
	if res.Status != "stopping" {
		s.logger.Warn("readiness "+res.Status, "down", strings.Join(down, ","), "checks", res.Checks)
	}
}

// runReadyChecks runs the readiness checks at once, each timed, and
// returns their answers by name: database, media, disk and mail.
func (s *Server) runReadyChecks(ctx context.Context) map[string]check {
	checks := map[string]func(context.Context) check{
		"database": func(ctx context.Context) check {
			if err := s.db.Ping(ctx); err != nil {
				return check{Status: "down", Error: describe(err)}
			}
			return check{Status: "ok"}
		},
		"media": func(ctx context.Context) check {
			if _, err := s.media.Stat(ctx, media.Key(media.Bucket, ".readyz")); err != nil && !errors.Is(err, media.ErrNotFound) {
				return check{Status: "down", Error: describe(err)}
			}
			return check{Status: "ok"}
		},
		"disk": func(context.Context) check { return s.diskCheck() },
		"mail": s.mailCheck,
	}
	res := map[string]check{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, f := range checks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			c := f(ctx)
			if c.Millis == 0 {
				c.Millis = time.Since(start).Milliseconds()
			}
			mu.Lock()
			res[name] = c
			mu.Unlock()
		}()
	}
	wg.Wait()
	return res
}

// readyStatus is the status the checks add up to: unavailable when the
// database is down (nothing works without it), degraded when another
// check is, else ready.
func readyStatus(checks map[string]check) string {
	status := "ready"
	for name, c := range checks {
		switch {
		case c.Status != "down":
		case name == "database":
			return "unavailable"
		default:
			status = "degraded"
		}
	}
	return status
}

// describe is an error as /readyz shows it: "disk full" said plainly.
func describe(err error) string {
	if isDiskFull(err.Error()) {
		return "disk full: " + err.Error()
	}
	return err.Error()
}

// diskCheck reports the free space on the data folder's disk, and "disk
// full" when it is nearly gone or a write failed for want of it in the
// last diskFailWindow.
func (s *Server) diskCheck() check {
	free, err := freeBytes(s.cfg.DataDir)
	if err != nil {
		return check{Status: "down", Error: err.Error()}
	}
	c := check{Status: "ok", FreeBytes: &free}
	switch at := diskFullSince(s.cfg.DataDir).Load(); {
	case free < diskFull:
		c.Status, c.Error = "down", fmt.Sprintf("disk full: %d bytes free on %s", free, s.cfg.DataDir)
	case at != 0 && time.Since(time.Unix(0, at)) < diskFailWindow:
		c.Status, c.Error = "down", fmt.Sprintf("disk full: a write failed for want of space in the last %s", diskFailWindow)
	case free < diskLow:
		c.Error = fmt.Sprintf("disk nearly full: %d bytes free on %s", free, s.cfg.DataDir)
	}
	return c
}

// mailCheck asks the SMTP server for its greeting (at most every
// mailProbeEvery); without SALAULA_SMTP_URL e-mails go to the log.
func (s *Server) mailCheck(ctx context.Context) check {
	if s.cfg.SMTPURL == "" {
		return check{Status: "not configured"}
	}
	s.mailProbe.mu.Lock()
	defer s.mailProbe.mu.Unlock()
	if !s.mailProbe.at.IsZero() && time.Since(s.mailProbe.at) < mailProbeEvery {
		return s.mailProbe.last
	}
	start := time.Now()
	c := check{Status: "ok"}
	if err := smtpGreeting(ctx, s.cfg.SMTPURL); err != nil {
		c = check{Status: "down", Error: err.Error()}
	}
	c.Millis = max(time.Since(start).Milliseconds(), 1)
	s.mailProbe.at, s.mailProbe.last = time.Now(), c
	return c
}

// smtpGreeting connects to the server of smtpURL and reads its 220 greeting.
func smtpGreeting(ctx context.Context, smtpURL string) error {
	u, err := url.Parse(smtpURL)
	if err != nil {
		return errors.New("SALAULA_SMTP_URL does not parse")
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), map[bool]string{true: "465", false: "25"}[u.Scheme == "smtps"])
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("smtp %s: %w", addr, err)
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	var rd io.Reader = conn
	if u.Scheme == "smtps" {
		tc := tls.Client(conn, &tls.Config{ServerName: u.Hostname()})
		defer tc.Close()
		rd = tc
	}
	line, err := bufio.NewReader(rd).ReadString('\n')
	if err != nil {
		return fmt.Errorf("smtp %s: no greeting: %w", addr, err)
	}
	if !strings.HasPrefix(line, "220") {
		return fmt.Errorf("smtp %s: greeting %q", addr, strings.TrimSpace(line))
	}
	fmt.Fprint(conn, "QUIT\r\n")
	return nil
}
