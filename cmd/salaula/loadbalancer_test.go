package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"salaula/internal/store/storetest"
	"salaula/internal/testproc"
)

// Two instances behind Caddy with the documented Caddyfile
// (docs/deploy/Caddyfile): steady traffic while one instance is killed
// with -9 (GET requests: Caddy retries them on the other) and while one is
// restarted gracefully (GET and POST) gets no failed request.
func TestLoadBalancerDropsNoRequest(t *testing.T) {
	if testing.Short() {
		t.Skip("needs PostgreSQL, S3 or caddy: runs without -short")
	}
	caddy, err := exec.LookPath("caddy")
	if err != nil {
		t.Fatal("caddy is not installed: run `make tools` (Debian's caddy)")
	}
	root, err := testproc.Root()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "deploy", "Caddyfile"))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DATABASE_URL": storetest.NewPostgresDatabase(t),
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
	defer proxy.Stop()

	// Steady traffic: 4 clients, GET /config.json and, when post is set,
	// a waitlist sign-up, one after the other.
	var post atomic.Bool
	var sent, failed atomic.Int64
	var mu sync.Mutex
	var failures []string
	stop := make(chan struct{})
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 20 * time.Second}
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				var res *http.Response
				var err error
				if post.Load() && i%2 == 1 {
					res, err = client.Post("http://"+lb+"/functions/v1/waitlist-signup", "application/json",
						strings.NewReader(fmt.Sprintf(`{"email":"lb%d-%d@example.com","programName":"Upcycling Initiative"}`, w, i)))
				} else {
					res, err = client.Get("http://" + lb + "/config.json")
				}
				sent.Add(1)
				if err == nil {
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
				if err != nil || res.StatusCode != http.StatusOK {
					failed.Add(1)
					mu.Lock()
					if err != nil {
						failures = append(failures, err.Error())
					} else {
						failures = append(failures, res.Status)
					}
					mu.Unlock()
				}
			}
		}()
	}
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
	phase := func(name string) {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		t.Logf("%s: %d requests, %d failed", name, sent.Load(), failed.Load())
		if failed.Load() > 0 {
			t.Errorf("%s: %d of %d requests failed: %v", name, failed.Load(), sent.Load(), failures[:min(len(failures), 5)])
		}
		sent.Store(0)
		failed.Store(0)
		failures = nil
	}
	waitServing(0)
	waitServing(1)
	phase("both instances up")

	// kill -9 of instance B under GET traffic, then B back.
	procs[1].Cmd.Process.Kill()
	procs[1].Cmd.Process.Wait()
	waitServing(0)
	time.Sleep(2 * time.Second) // traffic goes on with one instance
	start(1)
	waitServing(1)
	phase("kill -9 of one instance and its restart")

	// Graceful restart of instance A under GET and POST traffic.
	post.Store(true)
	waitServing(0)
	procs[0].Cmd.Process.Signal(syscall.SIGTERM)
	procs[0].Cmd.Process.Wait()
	waitServing(1)
	start(0)
	waitServing(0)
	phase("graceful restart of one instance")
	close(stop)
	wg.Wait()
}
