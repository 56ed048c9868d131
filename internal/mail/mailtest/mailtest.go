// Package mailtest runs a real SMTP server for tests: Debian's aiosmtpd
// (python3-aiosmtpd, installed by `make tools`), which keeps every message
// it receives in a Maildir the test then reads.
package mailtest

import (
	_ "embed"
	"fmt"
	"net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"salaula/internal/testproc"
)

//go:embed smtpd.py
var script []byte

// Python is the interpreter with Debian's aiosmtpd module.
const Python = "/usr/bin/python3"

// The credentials the test server accepts (AUTH PLAIN or LOGIN).
const (
	User     = "salaula"
	Password = "smtp-test-password"
)

// Server is a running aiosmtpd.
type Server struct {
	Addr    string // 127.0.0.1:PORT
	Maildir string
	proc    *testproc.Proc
}

// URL returns the SALAULA_SMTP_URL that sends through this server.
func (s *Server) URL() string {
	return fmt.Sprintf("smtp://%s:%s@%s", User, Password, s.Addr)
}

// Start runs aiosmtpd on a free port with a new Maildir.
func Start() (*Server, error) { return start(0) }

// StartHolding runs a server like Start that holds the nth message it is
// given (counting from 1, over every connection): it neither stores nor
// answers that message until Release, then refuses it (451), so its
// sender is known to be in the middle of that message, every earlier one
// accepted. WaitHeld tells when it holds the message.
func StartHolding(n int) (*Server, error) {
	if n < 1 {
		return nil, fmt.Errorf("mailtest: hold message %d: count from 1", n)
	}
	return start(n)
}

// WaitHeld waits up to 30 s until the server holds its message (see
// StartHolding).
func (s *Server) WaitHeld(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(filepath.Dir(s.Maildir), "held")); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the SMTP server was not given the message to hold within 30 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Release lets the held message go: it is refused (451) and not stored.
func (s *Server) Release() error {
	return os.WriteFile(filepath.Join(filepath.Dir(s.Maildir), "release"), nil, 0o600)
}

func start(hold int) (*Server, error) {
	if _, err := os.Stat(Python); err != nil {
		return nil, fmt.Errorf("SMTP for tests needs %s with Debian's python3-aiosmtpd: run `make tools`", Python)
	}
	if out, err := exec.Command(Python, "-c", "import aiosmtpd").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("SMTP for tests needs Debian's python3-aiosmtpd (run `make tools`): %v %s", err, out)
	}
	dir, err := os.MkdirTemp("", "salaula-smtp-")
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "smtpd.py")
	if err := os.WriteFile(path, script, 0o600); err != nil {
		return nil, err
	}
	port, err := testproc.FreePort()
	if err != nil {
		return nil, err
	}
	addr := testproc.Addr127(port)
	maildir := filepath.Join(dir, "Maildir")
	cmd := exec.Command(Python, path, "127.0.0.1", fmt.Sprint(port), maildir, User, Password, fmt.Sprint(hold))
	p, err := testproc.Start(cmd, addr, filepath.Join(dir, "smtpd.log"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &Server{Addr: addr, Maildir: maildir, proc: p}, nil
}

// Stop ends the server and removes its folder.
func (s *Server) Stop() {
	if s == nil {
		return
	}
	s.proc.Stop()
	os.RemoveAll(filepath.Dir(s.Maildir))
}

var shared testproc.Once[*Server]

// Shared returns the test binary's SMTP server, starting it on first use.
// Call StopShared from TestMain after m.Run. Under `go test -short` it
// skips the test instead.
func Shared(t testing.TB) *Server {
	t.Helper()
	SkipShort(t)
	v, err := shared.Get(Start)
	if err != nil {
		t.Fatalf("real SMTP for tests: %v", err)
	}
	return v
}

// SkipShort skips t under `go test -short`, which runs no SMTP server;
// a test that starts its own (StartHolding) calls it first.
func SkipShort(t testing.TB) {
	t.Helper()
	testproc.SkipShort(t, "SMTP (aiosmtpd)")
}

// StopShared stops the server Shared started, if any.
func StopShared() {
	if v, ok := shared.Started(); ok {
		v.Stop()
	}
}

// Received is one message as the SMTP server stored it.
type Received struct {
	Header mail.Header
	Body   string // with CRLF turned into LF
}

// To returns the messages received for an address (in its To header),
// oldest first, waiting up to 10 s for at least want of them.
func (s *Server) To(t testing.TB, addr string, want int) []Received {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := s.read(t, addr)
		if len(got) >= want || time.Now().After(deadline) {
			if len(got) < want {
				t.Fatalf("SMTP server received %d message(s) for %s, want %d", len(got), addr, want)
			}
			return got
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Counts returns how many messages the server has stored for each
// recipient (the address in the To header, in lower case).
func (s *Server) Counts(t testing.TB) map[string]int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(s.Maildir, "new", "*"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, f := range files {
		m := s.message(t, f)
		to, err := mail.ParseAddress(m.Header.Get("To"))
		if err != nil {
			t.Fatalf("stored message %s: To: %v", f, err)
		}
		out[strings.ToLower(to.Address)]++
	}
	return out
}

// message reads the stored message in file f.
func (s *Server) message(t testing.TB, f string) *mail.Message {
	t.Helper()
	raw, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mail.ReadMessage(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatalf("stored message %s: %v", f, err)
	}
	return m
}

func (s *Server) read(t testing.TB, addr string) []Received {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(s.Maildir, "new", "*"))
	type item struct {
		mod time.Time
		r   Received
	}
	var items []item
	for _, f := range files {
		m := s.message(t, f)
		to, err := mail.ParseAddress(m.Header.Get("To"))
		if err != nil || !strings.EqualFold(to.Address, addr) {
			continue
		}
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := m.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		st, _ := os.Stat(f)
		items = append(items, item{st.ModTime(), Received{Header: m.Header, Body: strings.ReplaceAll(b.String(), "\r\n", "\n")}})
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].mod.Before(items[j].mod) })
	out := make([]Received, len(items))
	for i, it := range items {
		out[i] = it.r
	}
	return out
}
