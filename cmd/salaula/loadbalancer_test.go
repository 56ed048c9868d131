package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"salaula/internal/store/storetest"
	"salaula/internal/testproc"
)

// Two instances behind Caddy with the documented Caddyfile
// (docs/deploy/Caddyfile): steady traffic of GETs, sign-ups and contact
// messages gets no failed request while one instance is killed with -9
// (Caddy retries a request the killed instance took, body and all, on the
// other) and while one is restarted gracefully, and every acknowledged
// sign-up and message is stored exactly once.
func TestLoadBalancerDropsNoRequest(t *testing.T) {
	if testing.Short() {
		t.Skip("needs PostgreSQL, S3 or caddy: runs without -short")
	}
	t.Parallel()                         // its own servers, load balancer, ports and database
	caddy, err := testproc.Tool("caddy") // 2.11.9: Debian's 2.6 retries a POST without its body
	if err != nil {
		t.Fatal(err)
	}
	root, err := testproc.Root()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "deploy", "Caddyfile"))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DATABASE_URL": storetest.MigratedPostgresDatabase(t),
		"SALAULA_JWT_SECRET": "one-secret-shared-by-every-instance-0123456789", "SALAULA_TRUSTED_PROXIES": "127.0.0.1",
		"SALAULA_RATE_FORMS": "0", "SALAULA_PUBLIC_URL": "https://salaula.example"}
	var addrs [2]string
	var procs [2]*testproc.Proc
	var logs [2]string
	dirs := [2]string{t.TempDir(), t.TempDir()}
	start := func(i int) {
		t.Helper()
		cmd, err := commandProcess(env, "serve", "--http", addrs[i], "--data", dirs[i])
		if err != nil {
			t.Fatal(err)
		}
		if procs[i], err = testproc.Start(cmd, addrs[i], logs[i]); err != nil {
			t.Fatalf("instance %c: %v", 'A'+i, err)
		}
	}
	for i := range addrs {
		port, err := testproc.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		addrs[i], logs[i] = testproc.Addr127(port), filepath.Join(t.TempDir(), "serve.log")
		start(i)
	}
	defer func() {
		for _, p := range procs {
			p.Stop()
		}
	}()

	port, err := testproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	lb := testproc.Addr127(port)
	conf := strings.Replace(string(doc), "salaula.co.zm {", "http://"+lb+" {", 1)
	conf = strings.Replace(conf, "10.0.0.11:8080 10.0.0.12:8080", addrs[0]+" "+addrs[1], 1)
	if conf == string(doc) || !strings.Contains(conf, addrs[1]) {
		t.Fatal("docs/deploy/Caddyfile no longer has the site salaula.co.zm and the upstreams 10.0.0.11:8080 10.0.0.12:8080")
	}
	home := t.TempDir()
	caddyfile := filepath.Join(home, "Caddyfile")
	os.WriteFile(caddyfile, []byte("{\n\tadmin off\n}\n"+conf), 0o600)
	cmd := exec.Command(caddy, "run", "--config", caddyfile, "--adapter", "caddyfile")
	cmd.Env = []string{"HOME=" + home, "XDG_DATA_HOME=" + home, "XDG_CONFIG_HOME=" + home, "PATH=" + os.Getenv("PATH")}
	proxy, err := testproc.Start(cmd, lb, filepath.Join(home, "caddy.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		proxy.Stop()
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(home, "caddy.log"))
			t.Logf("caddy log (errors):\n%s", grepLines(string(b), "error"))
		}
	}()

	// Steady traffic: 4 clients sending GETs, sign-ups and contact messages.
	traffic := startLoad("http://"+lb, 4, newLoadClient(true))
	stopped := false
	defer func() {
		if !stopped {
			traffic.Stop()
		}
	}()
	served := func(i int) int { b, _ := os.ReadFile(logs[i]); return strings.Count(string(b), `"msg":"request"`) }
	// waitServing waits until instance i answers requests through Caddy.
	waitServing := func(i int) {
		t.Helper()
		before := served(i)
		for deadline := time.Now().Add(20 * time.Second); served(i) < before+20; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("instance %c got no traffic through Caddy in 20 s", 'A'+i)
			}
		}
	}
	waitServing(0)
	waitServing(1)
	traffic.phase(t, "both instances up")

	// kill -9 of instance B, then B back.
	procs[1].Cmd.Process.Kill()
	procs[1].Cmd.Process.Wait()
	waitServing(0)
	time.Sleep(2 * time.Second) // traffic goes on with one instance
	start(1)
	waitServing(1)
	traffic.phase(t, "kill -9 of one instance and its restart")

	// Graceful restart of instance A.
	waitServing(0)
	procs[0].Cmd.Process.Signal(syscall.SIGTERM)
	procs[0].Cmd.Process.Wait()
	waitServing(1)
	start(0)
	waitServing(0)
	traffic.phase(t, "graceful restart of one instance")
	traffic.Stop()
	stopped = true
	traffic.checkStoredOnce(t, env, "--data", dirs[0])
}
