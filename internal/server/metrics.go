package server

import (
	"crypto/subtle"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

// durationBuckets are the upper bounds (seconds) of the request-duration histogram.
var durationBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

type routeKey struct {
	method, route string
	code          int
}

type histogram struct {
	counts []uint64 // per bucket, cumulative at write time
	sum    float64
	n      uint64
}

// metrics counts requests by route and status and times them by route, for
// GET /metrics in the Prometheus text format.
type metrics struct {
	mu        sync.Mutex
	requests  map[routeKey]uint64
	durations map[string]*histogram
	started   time.Time
}

func newMetrics() *metrics {
	return &metrics{requests: map[routeKey]uint64{}, durations: map[string]*histogram{}, started: time.Now()}
}

func (m *metrics) observe(method, route string, code int, d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests[routeKey{method, route, code}]++
	h := m.durations[route]
	if h == nil {
		h = &histogram{counts: make([]uint64, len(durationBuckets))}
		m.durations[route] = h
	}
	sec := d.Seconds()
	for i, b := range durationBuckets {
		if sec <= b {
			h.counts[i]++
		}
	}
	h.sum += sec
	h.n++
}

func (m *metrics) write(w io.Writer, dbOpen, dbInUse int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fmt.Fprintln(w, "# HELP salaula_http_requests_total HTTP requests answered, by method, route and status.")
	fmt.Fprintln(w, "# TYPE salaula_http_requests_total counter")
	keys := make([]routeKey, 0, len(m.requests))
	for k := range m.requests {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.route != b.route {
			return a.route < b.route
		}
		if a.method != b.method {
			return a.method < b.method
		}
		return a.code < b.code
	})
	for _, k := range keys {
		fmt.Fprintf(w, "salaula_http_requests_total{method=%q,route=%q,code=\"%d\"} %d\n", k.method, k.route, k.code, m.requests[k])
	}
	fmt.Fprintln(w, "# HELP salaula_http_request_duration_seconds Time to answer HTTP requests, by route.")
	fmt.Fprintln(w, "# TYPE salaula_http_request_duration_seconds histogram")
	routes := make([]string, 0, len(m.durations))
	for r := range m.durations {
		routes = append(routes, r)
	}
	sort.Strings(routes)
	for _, r := range routes {
		h := m.durations[r]
		for i, b := range durationBuckets {
			fmt.Fprintf(w, "salaula_http_request_duration_seconds_bucket{route=%q,le=\"%g\"} %d\n", r, b, h.counts[i])
		}
		fmt.Fprintf(w, "salaula_http_request_duration_seconds_bucket{route=%q,le=\"+Inf\"} %d\n", r, h.n)
		fmt.Fprintf(w, "salaula_http_request_duration_seconds_sum{route=%q} %g\n", r, h.sum)
		fmt.Fprintf(w, "salaula_http_request_duration_seconds_count{route=%q} %d\n", r, h.n)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintln(w, "# HELP salaula_goroutines Goroutines running.\n# TYPE salaula_goroutines gauge")
	fmt.Fprintf(w, "salaula_goroutines %d\n", runtime.NumGoroutine())
	fmt.Fprintln(w, "# HELP salaula_heap_bytes Bytes of allocated heap objects.\n# TYPE salaula_heap_bytes gauge")
	fmt.Fprintf(w, "salaula_heap_bytes %d\n", ms.HeapAlloc)
	fmt.Fprintln(w, "# HELP salaula_db_connections Open database connections, by state.\n# TYPE salaula_db_connections gauge")
	fmt.Fprintf(w, "salaula_db_connections{state=\"open\"} %d\nsalaula_db_connections{state=\"in_use\"} %d\n", dbOpen, dbInUse)
	fmt.Fprintln(w, "# HELP salaula_uptime_seconds Seconds since the server started.\n# TYPE salaula_uptime_seconds gauge")
	fmt.Fprintf(w, "salaula_uptime_seconds %g\n", time.Since(m.started).Seconds())
}

// writeMetrics serves the metrics in the Prometheus text format.
func (s *Server) writeMetrics(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	st := s.db.Stats()
	s.metrics.write(w, st.OpenConnections, st.InUse)
}

// handleMetrics is GET /metrics on the main address: closed (404, as any
// unknown path) unless SALAULA_METRICS_TOKEN is set, and then only for a
// request bearing that token (401 otherwise).
func (s *Server) handleMetrics() http.Handler {
	notFound := s.handleAPINotFound()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.MetricsToken == "" {
			notFound.ServeHTTP(w, r)
			return
		}
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(s.cfg.MetricsToken)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "Metrics need Authorization: Bearer <SALAULA_METRICS_TOKEN>"})
			return
		}
		s.writeMetrics(w)
	})
}

// metricsOnly serves GET /metrics without a token and nothing else: the
// handler of the separate SALAULA_METRICS_HTTP address.
func (s *Server) metricsOnly() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.writeMetrics(w) }))
	mux.Handle("/", http.NotFoundHandler())
	return mux
}
