package server

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"salaula/internal/config"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// benchHandler is the server's handler on a fresh SQLite database.
func benchHandler(b *testing.B) http.Handler {
	b.Helper()
	db := storetest.Open(b, "sqlite")
	cfg, err := config.Parse("serve", nil, func(string) string { return "" }, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	cfg.DataDir = b.TempDir()
	h, err := New(Deps{Config: cfg, DB: db, Secret: testSecret, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), App: testApp})
	if err != nil {
		b.Fatal(err)
	}
	return h
}

func benchGet(b *testing.B, h http.Handler, path string, headers map[string]string) {
	b.Helper()
	req := httptest.NewRequest("GET", path, nil)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}

// BenchmarkServeIndex measures answering a route of the app with index.html.
func BenchmarkServeIndex(b *testing.B) {
	benchGet(b, benchHandler(b), "/about", nil)
}

// BenchmarkServeGzippedAsset measures serving a pre-compressed hashed asset.
func BenchmarkServeGzippedAsset(b *testing.B) {
	benchGet(b, benchHandler(b), "/assets/index-abc123.js", map[string]string{"Accept-Encoding": "gzip, br"})
}

// BenchmarkHealthz measures the health check, which pings SQLite.
func BenchmarkHealthz(b *testing.B) {
	benchGet(b, benchHandler(b), "/healthz", nil)
}

// BenchmarkWaitlistSignup measures concurrent new sign-ups on each store, the
// write a launch-day spike hits (group commit, outbox row in the same
// transaction). Profile it with -cpuprofile.
func BenchmarkWaitlistSignup(b *testing.B) {
	for _, engine := range []store.Dialect{store.SQLite, store.Postgres} {
		b.Run(string(engine), func(b *testing.B) {
			env := newTestEnv(b, storetest.Open(b, engine), func(c *config.Config) { c.FormRateLimit = config.Rate{} })
			h := env.Server.Config.Handler
			var n atomic.Int64
			b.SetParallelism(16)
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					body := fmt.Sprintf(`{"email":"b%d@example.com","programName":"Upcycling Initiative"}`, n.Add(1))
					req := httptest.NewRequest("POST", "/functions/v1/waitlist-signup", strings.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, req)
					if rec.Code != http.StatusOK {
						b.Fatalf("status %d", rec.Code)
					}
				}
			})
		})
	}
}
