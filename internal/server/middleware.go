package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"salaula/internal/apierr"
	"salaula/internal/auth"
	"salaula/internal/clientip"
	"salaula/internal/media"
)

// contentSecurityPolicy allows scripts only from the app's own origin, plus
// the inline scripts of the app's index.html by their hashes (scriptHashes,
// e.g. " 'sha256-...'", found when the app is loaded: see inlineScriptHashes).
// Styles allow 'unsafe-inline' because MUI (Emotion) injects <style> tags.
func contentSecurityPolicy(scriptHashes string) string {
	return "default-src 'self'; script-src 'self'" + scriptHashes + "; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; media-src 'self' blob:; " +
		"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
}

// fixedHeader is a response header with a value made once, under its
// canonical name.
type fixedHeader struct {
	name  string
	value []string
}

// securityHeaders adds the security headers every answer carries.
func (s *Server) securityHeaders(next http.Handler) http.Handler {
	// The values are made once; each response gets them under canonical
	// names without Set's per-call canonicalising and allocation. A slice
	// of one value is never changed in place (Set replaces it, Add copies
	// it), so responses can share it.
	page := []fixedHeader{
		{"Content-Security-Policy", []string{contentSecurityPolicy(s.app.scriptHashes)}},
		{"X-Content-Type-Options", []string{"nosniff"}},
		{"Referrer-Policy", []string{"strict-origin-when-cross-origin"}},
		{"X-Frame-Options", []string{"DENY"}},
		{"Permissions-Policy", []string{"geolocation=(), microphone=(), camera=()"}},
	}
	// API answers are JSON (or a stored file, or the unsubscribe link's
	// page, which set their own policy): nothing in them runs, loads or is
	// framed, so a short policy says all of it, about 360 bytes fewer on
	// every call than the app's page headers, on phones paying for data.
	// Tokens travel in headers, never cookies, so any origin may call.
	api := []fixedHeader{
		{"Content-Security-Policy", []string{apiContentSecurityPolicy}},
		{"X-Content-Type-Options", []string{"nosniff"}},
		{"Referrer-Policy", []string{"no-referrer"}},
		{"Access-Control-Allow-Origin", []string{"*"}},
		{"Access-Control-Expose-Headers", []string{"X-Supabase-Api-Version, Content-Range, ETag"}},
	}
	// The app's code and images (/assets/, /images/, /icons/) are never a
	// page: the short policy covers an image opened on its own, and a first
	// visit on a phone fetches about 30 of them (some 14 KiB of headers saved).
	static := []fixedHeader{
		{"Content-Security-Policy", []string{apiContentSecurityPolicy}},
		{"X-Content-Type-Options", []string{"nosniff"}},
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		fixed := page
		if isAPIPath(r.URL.Path) {
			fixed = api
		} else if isStaticPath(r.URL.Path) {
			fixed = static
		}
		for _, f := range fixed {
			h[f.name] = f.value
		}
		next.ServeHTTP(w, r)
	})
}

// apiContentSecurityPolicy is the policy of API answers: no content of
// any kind, in no frame.
const apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'"

// handlePreflight answers CORS preflight requests for the API.
func (s *Server) handlePreflight() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Methods", "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS")
		h.Set("Access-Control-Allow-Headers", preflightHeaders)
		h.Set("Access-Control-Max-Age", "86400")
		w.WriteHeader(http.StatusNoContent)
	})
}

// preflightHeaders are the request headers the API takes from another
// origin: every header supabase-js's clients send (auth, storage, functions,
// realtime's REST broadcast, postgrest, and trace propagation).
const preflightHeaders = "authorization, apikey, content-type, accept, x-client-info, x-supabase-api-version, " +
	"x-upsert, x-metadata, cache-control, range, x-region, x-retry-count, prefer, accept-profile, content-profile, " +
	"traceparent, tracestate, baggage, idempotency-key"

// apiPrefixes are the paths that are never the React app.
var apiPrefixes = []string{"/auth/v1/", "/functions/v1/", "/storage/v1/", "/realtime/v1/"}

// isStaticPath reports whether p is the app's code or an image (short headers).
func isStaticPath(p string) bool {
	return strings.HasPrefix(p, "/assets/") || strings.HasPrefix(p, "/images/") || strings.HasPrefix(p, "/icons/")
}

func isAPIPath(p string) bool {
	for _, prefix := range apiPrefixes {
		if strings.HasPrefix(p, prefix) || p+"/" == prefix {
			return true
		}
	}
	return false
}

// statusRecorder remembers the status of an answer.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (rec *statusRecorder) WriteHeader(code int) {
	if rec.status == 0 {
		rec.status = code
	}
	rec.ResponseWriter.WriteHeader(code)
}

func (rec *statusRecorder) Write(b []byte) (int, error) {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	n, err := rec.ResponseWriter.Write(b)
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (rec *statusRecorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }

// logRequests writes one structured line per request (never its body, query
// string, tokens or passwords) and counts it in the metrics. The line stays
// under 200 bytes for an API call (a million sign-ups log under 200 MB):
// no answer size, times to the millisecond. The line has
// the client's address and a request ID: the X-Request-Id a trusted proxy
// sent, else a new one; the answer carries it back in X-Request-Id. A
// successful request logs at info, a 5xx at error (SALAULA_LOG_LEVEL=warn
// keeps only those).
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := s.requestID(r)
		w.Header()["X-Request-Id"] = []string{id}
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		d := time.Since(start)
		route := r.Pattern
		if route == "" {
			route = "unmatched"
		}
		s.metrics.observe(r.Method, route, rec.status, d)
		level := slog.LevelInfo
		if rec.status >= 500 {
			level = slog.LevelError
		}
		// The record goes straight to the handler, with typed values and
		// no caller's program counter: slog's Logger.Info boxes each value
		// and walks the stack for a source that is never printed (a third
		// of the line's cost, on every request).
		if h := s.logger.Handler(); h.Enabled(r.Context(), level) {
			line := slog.NewRecord(time.Now(), level, "request", 0)
			line.AddAttrs(slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Int("status", rec.status),
				slog.Float64("ms", float64(d.Microseconds())/1000), slog.String("ip", s.clientIP(r)), slog.String("id", id))
			h.Handle(r.Context(), line)
		}
	})
}

// requestID is the X-Request-Id of a request from a trusted proxy (when it
// is short and plain), else 16 new random hex digits.
func (s *Server) requestID(r *http.Request) string {
	if v := r.Header.Get("X-Request-Id"); v != "" && len(v) <= 64 && s.cfg.TrustedProxies.FromProxy(r.RemoteAddr) &&
		strings.IndexFunc(v, func(c rune) bool {
			return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':')
		}) < 0 {
		return v
	}
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// NewLogHandler is the server's log: JSON lines on w from level up, times
// in UTC to the millisecond. An error logged because the disk is full
// gets "cause":"disk full" (SQLite's "disk I/O error" counts when less
// than 64 MB are left on the data folder's disk), and GET /readyz reports
// it for diskFailWindow (10 s).
func NewLogHandler(w io.Writer, level slog.Leveler, dataDir string) slog.Handler {
	return diskFullHandler{Handler: slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level, ReplaceAttr: shortTime}), dataDir: dataDir}
}

// shortTime writes the record's time as 2026-11-27T08:59:01.123Z.
func shortTime(groups []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey && len(groups) == 0 && a.Value.Kind() == slog.KindTime {
		return slog.String(slog.TimeKey, a.Value.Time().UTC().Format("2006-01-02T15:04:05.000Z"))
	}
	return a
}

// diskFullAt holds, per data folder, when a logged error last said its
// disk was full (unix nanoseconds).
var diskFullAt sync.Map // string -> *atomic.Int64

// diskFullSince returns the data folder's diskFullAt cell.
func diskFullSince(dataDir string) *atomic.Int64 {
	v, _ := diskFullAt.LoadOrStore(dataDir, new(atomic.Int64))
	return v.(*atomic.Int64)
}

// isDiskFull reports whether an error's text says the disk is full
// (SQLite's SQLITE_FULL, the system's ENOSPC, PostgreSQL's 53100).
func isDiskFull(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "disk is full") || strings.Contains(m, "no space left") || strings.Contains(m, "sqlstate 53100")
}

// diskFullHandler marks the log lines of errors caused by a full disk.
type diskFullHandler struct {
	slog.Handler
	dataDir string
}

func (h diskFullHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn {
		full := false
		r.Attrs(func(a slog.Attr) bool {
			var msg string
			switch v := a.Value.Any().(type) {
			case error:
				msg = v.Error()
			case string:
				msg = v
			default:
				return true
			}
			if isDiskFull(msg) || strings.Contains(strings.ToLower(msg), "disk i/o error") && lowDisk(h.dataDir) {
				full = true
				return false
			}
			return true
		})
		if full {
			diskFullSince(h.dataDir).Store(time.Now().UnixNano())
			r = r.Clone()
			r.AddAttrs(slog.String("cause", "disk full"))
		}
	}
	return h.Handler.Handle(ctx, r)
}

func (h diskFullHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return diskFullHandler{Handler: h.Handler.WithAttrs(as), dataDir: h.dataDir}
}

func (h diskFullHandler) WithGroup(name string) slog.Handler {
	return diskFullHandler{Handler: h.Handler.WithGroup(name), dataDir: h.dataDir}
}

// lowDisk reports whether the disk holding dir has less than diskFull left.
func lowDisk(dir string) bool {
	free, err := freeBytes(dir)
	return err == nil && free < diskFull
}

// recoverPanics turns a panic in a handler into a logged 500 instead of a
// dropped connection.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.logger.Error("panic", "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
				writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "Internal server error"})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// clientIP is the caller's address: the connection's, or, when the
// connection comes from a proxy in SALAULA_TRUSTED_PROXIES, the right-most
// X-Forwarded-For address that is not one of those proxies. Rate limits,
// the realtime per-address limit, sessions, challenges and the audit log
// all take the address from here.
func (s *Server) clientIP(r *http.Request) string {
	return s.cfg.TrustedProxies.ClientIP(r.RemoteAddr, r.Header.Values("X-Forwarded-For"))
}

// forwardedHTTPS reports whether a trusted proxy says the client came over
// HTTPS: the right-most X-Forwarded-Proto entry, the nearest proxy's own.
func (s *Server) forwardedHTTPS(r *http.Request) bool {
	if !s.cfg.TrustedProxies.FromProxy(r.RemoteAddr) {
		return false
	}
	values := r.Header.Values("X-Forwarded-Proto")
	if len(values) == 0 {
		return false
	}
	last := values[len(values)-1]
	if i := strings.LastIndexByte(last, ','); i >= 0 {
		last = last[i+1:]
	}
	return strings.EqualFold(strings.TrimSpace(last), "https")
}

// limit answers 429 with onLimit's body when the caller's address (its
// /64 for IPv6, clientip.LimitKey) has used up l.
func (s *Server) limit(l interface {
	Allow(string) (bool, time.Duration)
}, onLimit func(http.ResponseWriter), next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ok, wait := l.Allow(clientip.LimitKey(s.clientIP(r))); !ok {
			w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
			onLimit(w)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// limitAuth applies the sign-in/sign-up rate limit with the auth service's 429 body.
func (s *Server) limitAuth(next http.Handler) http.Handler {
	return s.limit(s.authLimiter, func(w http.ResponseWriter) {
		s.renderAuthError(w, "rate limit", auth.Fail(auth.CodeRequestLimit))
	}, next)
}

// limitForms applies the public-forms rate limit.
func (s *Server) limitForms(next http.Handler) http.Handler {
	return s.limit(s.formLimiter, func(w http.ResponseWriter) {
		writeFunctionError(w, http.StatusTooManyRequests, "Too many requests. Please wait a few minutes and try again.", nil)
	}, next)
}

// limitUploads applies the upload rate limit.
func (s *Server) limitUploads(next http.Handler) http.Handler {
	return s.limit(s.uploadLimiter, func(w http.ResponseWriter) {
		s.renderStorageError(w, "upload rate limit", apierr.Coded(apierr.TooMany, media.CodeTooMany, "Too many uploads. Please wait a few minutes and try again."))
	}, next)
}
