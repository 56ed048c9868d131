package main

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"salaula/internal/store/storetest"
)

// SALAULA_METRICS_HTTP serves /metrics on its own address; the main address
// keeps it closed.
func TestServeMetricsOnTheirOwnAddress(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			env := engineEnv(t, engine)
			metricsAddr := freeAddr(t)
			env["SALAULA_METRICS_HTTP"] = metricsAddr
			addr, cancel, done, _ := startServe(t, env, "--data", t.TempDir())
			defer func() { cancel(); <-done }()
			get := func(url string) (int, string) {
				res, err := http.Get(url)
				if err != nil {
					t.Fatal(err)
				}
				defer res.Body.Close()
				b, _ := io.ReadAll(res.Body)
				return res.StatusCode, string(b)
			}
			if code, body := get("http://" + addr + "/metrics"); code != http.StatusNotFound || strings.Contains(body, "salaula_") {
				t.Fatalf("main address /metrics: %d %s", code, body)
			}
			code, body := get("http://" + metricsAddr + "/metrics")
			if code != http.StatusOK || !strings.Contains(body, `code="200",method="GET",route="GET /healthz"`) {
				t.Fatalf("metrics address: %d %s", code, body)
			}
		})
	}
}
