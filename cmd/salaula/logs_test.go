package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"salaula/internal/store/storetest"
	"salaula/internal/testproc"
)

// Every line `salaula serve` writes is JSON, the PostgreSQL change
// listener's too (it wrote plain text through slog's default logger).
func TestEveryLogLineIsJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("needs PostgreSQL: runs without -short")
	}
	dbURL := storetest.NewPostgresDatabase(t)
	port, err := testproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := testproc.Addr127(port)
	cmd, err := commandProcess(map[string]string{"DATABASE_URL": dbURL}, "serve", "--http", addr, "--data", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(t.TempDir(), "serve.log")
	p, err := testproc.Start(cmd, addr, logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	res, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()

	// Break the change listener's connection: it logs that it reconnects.
	u, _ := url.Parse(dbURL)
	admin, err := sql.Open("pgx", dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	deadline := time.Now().Add(20 * time.Second)
	for {
		admin.ExecContext(context.Background(), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			WHERE datname = $1 AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`, strings.TrimPrefix(u.Path, "/"))
		b, _ := os.ReadFile(logPath)
		if strings.Contains(string(b), "change listener: reconnecting") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the change listener did not log its reconnection in 20 s:\n%s", b)
		}
		time.Sleep(200 * time.Millisecond)
	}
	b, _ := os.ReadFile(logPath)
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Errorf("a log line is not JSON: %q", line)
		}
	}
}
