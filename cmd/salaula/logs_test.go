package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

// Started without --public-url, serve says once, at start, which address
// e-mailed links carry and how to set it; with it, it says nothing of it.
func TestServeSaysWhichAddressEmailsCarry(t *testing.T) {
	for _, set := range []bool{false, true} {
		port, err := testproc.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		addr := testproc.Addr127(port)
		args := []string{"serve", "--http", addr, "--data", t.TempDir()}
		if set {
			args = append(args, "--public-url", "https://salaula.co.zm")
		}
		cmd, err := commandProcess(nil, args...)
		if err != nil {
			t.Fatal(err)
		}
		logPath := filepath.Join(t.TempDir(), "serve.log")
		p, err := testproc.Start(cmd, addr, logPath)
		if err != nil {
			t.Fatal(err)
		}
		p.Stop()
		b, _ := os.ReadFile(logPath)
		n := strings.Count(string(b), "no public URL set")
		want := "e-mailed links (confirm, reset, unsubscribe, share) will say http://localhost:" + strings.TrimPrefix(addr[strings.LastIndex(addr, ":"):], ":") +
			"; set --public-url or SALAULA_PUBLIC_URL to the address people open"
		switch {
		case set && n != 0:
			t.Errorf("with --public-url the log says %d times that none is set:\n%s", n, b)
		case !set && (n != 1 || !strings.Contains(string(b), want)):
			t.Errorf("without --public-url the log should say once %q:\n%s", want, b)
		}
	}
}

// A fatal start-up error (here the address is taken) is a JSON line like
// every other, so `journalctl -o cat | jq` reads on past it.
func TestFatalStartErrorIsAJSONLine(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	cmd, err := commandProcess(nil, "serve", "--http", ln.Addr().String(), "--data", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("serve on a taken address did not fail: %s", out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for _, l := range lines {
		if !json.Valid([]byte(l)) {
			t.Errorf("not a JSON line: %s", l)
		}
	}
	var last struct{ Level, Msg, Err string }
	if json.Unmarshal([]byte(lines[len(lines)-1]), &last) != nil || last.Level != "ERROR" || !strings.Contains(last.Err, "address already in use") {
		t.Errorf("the last line does not give the error: %s", lines[len(lines)-1])
	}

	// The guide's own filter (`journalctl -u salaula -o cat | jq '...'`)
	// reads the whole log and picks the error out (jq is one of make
	// tools', so the quick run goes without it).
	if testing.Short() {
		return
	}
	root, err := testproc.Root()
	if err != nil {
		t.Fatal(err)
	}
	guide, err := os.ReadFile(filepath.Join(root, "docs", "deploy.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("`journalctl -u salaula -o cat \\| jq '([^']+)'`").FindSubmatch(guide)
	if m == nil {
		t.Fatal("docs/deploy.md no longer shows `journalctl -u salaula -o cat | jq '...'`")
	}
	jq, err := exec.LookPath("jq")
	if err != nil {
		t.Fatalf("jq, the guide's log filter, is not installed (make tools installs it): %v", err)
	}
	filter := exec.Command(jq, "-c", string(m[1]))
	filter.Stdin = bytes.NewReader(out)
	picked, err := filter.CombinedOutput()
	if err != nil || !strings.Contains(string(picked), "address already in use") {
		t.Errorf("the guide's jq filter %s over the log: %v\n%s", m[1], err, picked)
	}
}
