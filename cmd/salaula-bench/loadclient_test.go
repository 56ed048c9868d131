package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// seen is what a test server saw of one request.
type seen struct {
	method, path, remote, contentType string
	body                              map[string]any
}

// recorder is an HTTP server that keeps what it was sent and answers as
// answer says.
func recorder(t *testing.T, answer func(w http.ResponseWriter, r *http.Request)) (*httptest.Server, func() []seen) {
	t.Helper()
	var mu sync.Mutex
	var got []seen
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := seen{method: r.Method, path: r.URL.RequestURI(), remote: r.RemoteAddr, contentType: r.Header.Get("Content-Type")}
		if r.Method == "POST" {
			if err := json.NewDecoder(r.Body).Decode(&s.body); err != nil {
				t.Errorf("the body is not JSON: %v", err)
			}
		}
		mu.Lock()
		got = append(got, s)
		mu.Unlock()
		answer(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []seen { mu.Lock(); defer mu.Unlock(); return append([]seen(nil), got...) }
}

func TestWritesCarryAUniqueEmailInValidJSONOverOneConnection(t *testing.T) {
	srv, got := recorder(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"success":true}`)
	})
	s := &system{kind: "salaula", addr: strings.TrimPrefix(srv.URL, "http://")}
	shape := s.shape(scenario{name: "waitlist-signup", conc: 16, write: "waitlist"}, "r2")
	conn := &loadConn{addr: s.addr, timeout: 5 * time.Second}
	defer conn.close()
	var req []byte
	for n := range 3 {
		req = shape.appendRequest(req[:0], 5, n)
		status, err := conn.do(req)
		if err != nil || status != http.StatusCreated {
			t.Fatalf("request %d: status %d, %v", n, status, err)
		}
	}
	reqs := got()
	if len(reqs) != 3 {
		t.Fatalf("the server saw %d requests, want 3", len(reqs))
	}
	for n, r := range reqs {
		want := "r2-16-5-" + string(rune('0'+n)) + "@example.com"
		if r.method != "POST" || r.path != "/functions/v1/waitlist-signup" || r.contentType != "application/json" {
			t.Errorf("request %d: %s %s (%s)", n, r.method, r.path, r.contentType)
		}
		if r.body["email"] != want || r.body["programName"] != "Upcycling Initiative" || r.body["pagePath"] != "/upcycling" {
			t.Errorf("request %d: body %v, want the e-mail %s", n, r.body, want)
		}
		if r.remote != reqs[0].remote {
			t.Errorf("request %d came over a new connection (%s, first %s)", n, r.remote, reqs[0].remote)
		}
	}
}

func TestAnswersAreReadWhateverTheirFraming(t *testing.T) {
	srv, got := recorder(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/chunked":
			w.WriteHeader(http.StatusOK)
			io.WriteString(w, "part one, ")
			w.(http.Flusher).Flush() // the rest goes chunked
			io.WriteString(w, "part two")
		case "/busy":
			http.Error(w, "try later", http.StatusServiceUnavailable)
		case "/close":
			w.Header().Set("Connection", "close")
			io.WriteString(w, "bye")
		case "/empty":
			w.WriteHeader(http.StatusNoContent)
		default:
			io.WriteString(w, strings.Repeat("x", 40<<10)) // larger than the reader's buffer
		}
	})
	s := &system{kind: "salaula", addr: strings.TrimPrefix(srv.URL, "http://")}
	conn := &loadConn{addr: s.addr, timeout: 5 * time.Second}
	defer conn.close()
	for _, c := range []struct {
		path   string
		status int
	}{{"/chunked", 200}, {"/big", 200}, {"/busy", 503}, {"/empty", 204}, {"/close", 200}, {"/chunked", 200}, {"/big", 200}} {
		shape := s.shape(scenario{name: "GET", conc: 1, path: c.path}, "")
		status, err := conn.do(shape.appendRequest(nil, 0, 0))
		if err != nil || status != c.status {
			t.Fatalf("GET %s: status %d, %v; want %d", c.path, status, err, c.status)
		}
	}
	reqs := got()
	if len(reqs) != 7 {
		t.Fatalf("the server saw %d requests, want 7", len(reqs))
	}
	// The answers before Connection: close shared one connection; the one
	// after it came over a new one.
	if reqs[3].remote != reqs[0].remote || reqs[4].remote != reqs[0].remote || reqs[5].remote == reqs[4].remote || reqs[6].remote != reqs[5].remote {
		t.Errorf("connections used: %v", []string{reqs[0].remote, reqs[3].remote, reqs[4].remote, reqs[5].remote, reqs[6].remote})
	}
}

func TestAMalformedAnswerIsAnErrorAndTheNextRequestRedials(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	answers := []string{
		"SMTP ready\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: many\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
	}
	go func() {
		for _, a := range answers {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			br := bufio.NewReader(c)
			http.ReadRequest(br)
			io.WriteString(c, a)
			c.Close()
		}
	}()
	conn := &loadConn{addr: ln.Addr().String(), timeout: 5 * time.Second}
	defer conn.close()
	req := []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	for i := range 3 {
		if status, err := conn.do(req); !errors.Is(err, errBadAnswer) {
			t.Errorf("answer %d (%q): status %d, error %v; want errBadAnswer", i, answers[i], status, err)
		}
	}
	if status, err := conn.do(req); err != nil || status != 200 {
		t.Errorf("after the malformed answers: status %d, %v; want 200 over a new connection", status, err)
	}
}

// The ratio column shows each repetition's own ratio beside the ratio of
// the medians: runs are paired by repetition, not sorted first.
func TestPairedRatiosAreEachRepetitionsOwn(t *testing.T) {
	runs := []result{{rps: 800}, {rps: 1000}, {rps: 900}}
	pb := []result{{rps: 400}, {rps: 1000}, {rps: 300}}
	if got := pairedRatios(runs, pb); got != " (2.00 / 1.00 / 3.00)" {
		t.Fatalf("paired ratios %q", got)
	}
	if got := pairedRatios(runs[:1], pb[:1]); got != "" {
		t.Fatalf("one repetition: %q, want nothing", got)
	}
}

// The crowd's work is per sign-in answered, and the row shown is the
// repetition with the median share above the hash, counting the sign-ins
// of all of them.
func TestCrowdWorkIsPerSignInAndTheMedianRepetition(t *testing.T) {
	before := cpuCounters{server: time.Second, hash: 500 * time.Millisecond}
	after := cpuCounters{server: 3 * time.Second, hash: 2400 * time.Millisecond}
	w := after.per(before, 100)
	if w.server != 20*time.Millisecond || w.hash != 19*time.Millisecond || w.signIns != 100 || w.above() != 5 {
		t.Fatalf("per sign-in %+v, above %.1f %%", w, w.above())
	}
	if (cpuCounters{}).per(before, 0) != (signInWork{}) {
		t.Fatal("no sign-ins answered should give no figures")
	}
	reps := []signInWork{
		{server: 20 * time.Millisecond, hash: 18 * time.Millisecond, signIns: 400},    // 10 %
		{server: 20 * time.Millisecond, hash: 19 * time.Millisecond, signIns: 300},    // 5 %
		{server: 20 * time.Millisecond, hash: 19800 * time.Microsecond, signIns: 500}, // 1 %
	}
	m := medianWork(reps)
	if m.hash != 19*time.Millisecond || m.signIns != 1200 {
		t.Fatalf("median %+v", m)
	}
}
