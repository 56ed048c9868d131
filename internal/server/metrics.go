package server

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// durationBuckets are the upper bounds (seconds) of the request-duration histogram.
var durationBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// metrics counts requests by route and status and times them by route, for
// GET /metrics, with prometheus/client_golang. Each server has its own
// registry (tests run many servers in one process); it also carries the
// standard Go runtime (go_*) and process (process_*) collectors.
type metrics struct {
	registry  *prometheus.Registry
	requests  *prometheus.CounterVec
	durations *prometheus.HistogramVec
	ready     *prometheus.GaugeVec // the last /readyz's checks: 1 working, 0 down
}

func newMetrics(dbStats func() sql.DBStats, outbox func(context.Context) (map[string]int, error)) *metrics {
	started := time.Now()
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "salaula_http_requests_total",
			Help: "HTTP requests answered, by method, route and status.",
		}, []string{"method", "route", "code"}),
		durations: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "salaula_http_request_duration_seconds",
			Help:    "Time to answer HTTP requests, by route.",
			Buckets: durationBuckets,
		}, []string{"route"}),
		ready: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "salaula_ready_check",
			Help: "The last /readyz's checks, by name: 1 working, 0 down (details in the log).",
		}, []string{"check"}),
	}
	dbConns := func(state string, f func(sql.DBStats) int) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "salaula_db_connections", Help: "Open database connections, by state.",
			ConstLabels: prometheus.Labels{"state": state},
		}, func() float64 { return float64(f(dbStats())) })
	}
	m.registry.MustRegister(
		m.requests, m.durations, m.ready,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "salaula_goroutines", Help: "Goroutines running."},
			func() float64 { return float64(runtime.NumGoroutine()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "salaula_heap_bytes", Help: "Bytes of allocated heap objects."},
			func() float64 {
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				return float64(ms.HeapAlloc)
			}),
		dbConns("open", func(s sql.DBStats) int { return s.OpenConnections }),
		dbConns("in_use", func(s sql.DBStats) int { return s.InUse }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "salaula_uptime_seconds", Help: "Seconds since the server started."},
			func() float64 { return time.Since(started).Seconds() }),
		outboxCollector{count: outbox},
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

func (m *metrics) observe(method, route string, code int, d time.Duration) {
	m.requests.WithLabelValues(method, route, strconv.Itoa(code)).Inc()
	m.durations.WithLabelValues(route).Observe(d.Seconds())
}

// handler serves the metrics in the Prometheus text format.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// handleMetrics is GET /metrics on the main address: closed (404, as any
// unknown path) unless SALAULA_METRICS_TOKEN is set, and then only for a
// request bearing that token (401 otherwise).
func (s *Server) handleMetrics() http.Handler {
	notFound, serve := s.handleAPINotFound(), s.metrics.handler()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.MetricsToken == "" {
			notFound.ServeHTTP(w, r)
			return
		}
		if !s.hasMetricsToken(r) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "Metrics need Authorization: Bearer <SALAULA_METRICS_TOKEN>"})
			return
		}
		serve.ServeHTTP(w, r)
	})
}

// hasMetricsToken reports whether r bears SALAULA_METRICS_TOKEN (never
// when none is set).
func (s *Server) hasMetricsToken(r *http.Request) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && s.cfg.MetricsToken != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.cfg.MetricsToken)) == 1
}

// metricsOnly serves GET /metrics without a token and nothing else: the
// handler of the separate SALAULA_METRICS_HTTP address.
func (s *Server) metricsOnly() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.metrics.handler())
	mux.Handle("/", http.NotFoundHandler())
	return mux
}

// outboxDesc describes the e-mail outbox gauge.
var outboxDesc = prometheus.NewDesc("salaula_outbox_emails",
	"E-mails in the outbox, by state: queued (not tried yet), failing (retrying), failed (given up), sent.",
	[]string{"state"}, nil)

// outboxCollector reads the outbox's counts from the database at each
// scrape, so every instance reports the same shared queue.
type outboxCollector struct {
	count func(context.Context) (map[string]int, error)
}

func (c outboxCollector) Describe(ch chan<- *prometheus.Desc) { ch <- outboxDesc }

func (c outboxCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	counts, err := c.count(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(outboxDesc, err)
		return
	}
	for _, state := range []string{"queued", "failing", "failed", "sent"} {
		ch <- prometheus.MustNewConstMetric(outboxDesc, prometheus.GaugeValue, float64(counts[state]), state)
	}
}
