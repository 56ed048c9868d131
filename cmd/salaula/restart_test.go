package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"salaula/internal/testproc"
)

// One instance on one VPS, restarted (an upgrade) under steady traffic of
// GETs, sign-ups and contact messages, with its listening socket held
// across the restart as systemd's salaula.socket holds it
// (docs/deploy/salaula.socket): no request fails, and every acknowledged
// sign-up and message is stored exactly once.
func TestRestartWithSystemdSocketDropsNoRequest(t *testing.T) {
	testproc.SkipShort(t, "a restart under load")
	// The socket systemd would hold: the test keeps it open all along and
	// hands each server process a copy as fd 3.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	sock, err := ln.(*net.TCPListener).File()
	if err != nil {
		t.Fatal(err)
	}
	defer sock.Close()
	addr := ln.Addr().String()

	dataDir := t.TempDir()
	env := map[string]string{"SALAULA_RATE_FORMS": "0", "SALAULA_PUBLIC_URL": "https://salaula.example",
		"SALAULA_HTTP": "127.0.0.1:0"} // unused: the socket comes from "systemd"
	var logPath string
	var logs []string
	defer func() {
		if t.Failed() {
			for _, p := range logs {
				b, _ := os.ReadFile(p)
				t.Logf("%s:\n%s", p, grepLines(string(b), "WARN")+grepLines(string(b), "ERROR")+grepLines(string(b), "stop")+grepLines(string(b), "shutting"))
			}
		}
	}()
	start := func() *testproc.Proc {
		t.Helper()
		cmd, err := commandProcess(env, "serve", "--data", dataDir)
		if err != nil {
			t.Fatal(err)
		}
		// As systemd starts a socket-activated service: LISTEN_PID names
		// the process itself (the shell execs the server, keeping its pid).
		cmd.Args = append([]string{"sh", "-c", `LISTEN_PID=$$ LISTEN_FDS=1 LISTEN_FDNAMES=salaula.socket exec "$0" "$@"`}, cmd.Args...)
		cmd.Path = "/bin/sh"
		cmd.ExtraFiles = []*os.File{sock}
		logPath = filepath.Join(t.TempDir(), "serve.log")
		logs = append(logs, logPath)
		p, err := testproc.Start(cmd, addr, logPath)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	// waitServing waits until the server logging to logPath has answered
	// 20 requests more.
	waitServing := func() {
		t.Helper()
		served := func() int { b, _ := os.ReadFile(logPath); return strings.Count(string(b), `"msg":"request"`) }
		before := served()
		for deadline := time.Now().Add(30 * time.Second); served() < before+20; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				b, _ := os.ReadFile(logPath)
				t.Fatalf("the server answered no requests in 30 s:\n%s", b)
			}
		}
	}

	proc := start()
	defer func() { proc.Stop() }()
	// New connections for each request: a connection the stopping server
	// closes while idle is not a dropped request, and the load balancer in
	// front retries it (docs/deploy.md).
	traffic := startLoad("http://"+addr, 4, newLoadClient(false))
	waitServing()
	traffic.phase(t, "serving")

	// systemctl restart salaula: SIGTERM, wait for the exit (Stop kills
	// the server if it takes over 5 s, which fails requests), start again.
	firstLog := logPath
	for i := range 3 {
		proc.Stop()
		proc = start()
		waitServing()
		traffic.phase(t, fmt.Sprintf("restart %d", i+1))
	}
	traffic.Stop()
	if b, _ := os.ReadFile(firstLog); !strings.Contains(string(b), `"socket_activation":true`) || !strings.Contains(string(b), `"msg":"stopped"`) {
		t.Errorf("the first server did not serve on the inherited socket and stop:\n%s", b)
	}
	proc.Stop()
	proc = nil
	traffic.checkStoredOnce(t, env, "--data", dataDir)
}
