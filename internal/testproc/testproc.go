// Package testproc starts the real programs the tests run against (an S3
// gateway, an SMTP server, the salaula binary): it finds them in the
// project's own bin/ folder, picks free ports, waits until they answer and
// stops them. A program that is missing fails the test loudly; it is
// skipped only under `go test -short`, which uses none of them (SkipShort).
package testproc

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Root returns the repository's root folder (where go.mod is), found from
// the working directory the test runs in.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("testproc: go.mod not found above the working directory")
		}
		dir = parent
	}
}

// SkipShort skips t under `go test -short`, the quick run that needs no
// outside service; otherwise the test goes on and a service it cannot
// reach fails it. service names what is not used, for the skip message.
func SkipShort(t testing.TB, service string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("%s is not used under go test -short", service)
	}
}

// Tool returns the path of a program installed by `make tools` under
// bin/tools, or an error that says how to install it.
func Tool(name string) (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	p := filepath.Join(root, "bin", "tools", name)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%s is not installed at %s: run `make tools` (make test does it)", name, p)
	}
	return p, nil
}

// FreePort returns a TCP port on 127.0.0.1 nobody listens on right now.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// Proc is a started program.
type Proc struct {
	Cmd  *exec.Cmd
	Addr string // 127.0.0.1:PORT it listens on
	done chan error
}

// Start runs cmd (which must listen on addr), with its output in logPath,
// and waits up to 30 s until addr accepts connections. The program is
// killed if the test process dies first.
func Start(cmd *exec.Cmd, addr, logPath string) (*Proc, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	p := &Proc{Cmd: cmd, Addr: addr, done: make(chan error, 1)}
	go func() { p.done <- cmd.Wait(); logf.Close() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return p, nil
		}
		select {
		case err := <-p.done:
			out, _ := os.ReadFile(logPath)
			return nil, fmt.Errorf("%s exited before listening on %s (%v):\n%s", filepath.Base(cmd.Path), addr, err, out)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.Stop()
			out, _ := os.ReadFile(logPath)
			return nil, fmt.Errorf("%s did not listen on %s within 30s:\n%s", filepath.Base(cmd.Path), addr, out)
		}
	}
}

// Stop ends the program (SIGTERM, then SIGKILL after 5 s) and waits for it.
func (p *Proc) Stop() {
	if p == nil || p.Cmd.Process == nil {
		return
	}
	p.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		p.Cmd.Process.Kill()
		<-p.done
	}
}

// Addr127 returns "127.0.0.1:PORT".
func Addr127(port int) string { return "127.0.0.1:" + strconv.Itoa(port) }

// Once starts a service at most once per test binary and remembers it (or
// the error of starting it).
type Once[T any] struct {
	once sync.Once
	v    T
	err  error
}

// Get returns the service, starting it with start on the first call.
func (o *Once[T]) Get(start func() (T, error)) (T, error) {
	o.once.Do(func() { o.v, o.err = start() })
	return o.v, o.err
}

// Started returns the service if it was started, for stopping it.
func (o *Once[T]) Started() (T, bool) {
	var zero T
	if o.err != nil {
		return zero, false
	}
	return o.v, true
}
