package main

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// load is steady traffic for the restart tests: a few clients, each
// sending in turn GET /config.json, a waitlist sign-up and a contact
// message (with an Idempotency-Key), one after the other. It counts the
// requests that failed (no answer, or not 200) and remembers the e-mail
// address of every sign-up and message that was acknowledged (200).
type load struct {
	mu       sync.Mutex
	sent     int
	failures []string
	signups  []string // acknowledged sign-ups' addresses
	messages []string // acknowledged contact messages' addresses
	stop     chan struct{}
	wg       sync.WaitGroup
}

// startLoad starts clients clients sending to base ("http://host:port").
func startLoad(base string, clients int, client *http.Client) *load {
	l := &load{stop: make(chan struct{})}
	for w := range clients {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			for i := 0; ; i++ {
				select {
				case <-l.stop:
					return
				default:
				}
				email := fmt.Sprintf("load%d-%d@example.com", w, i)
				var req *http.Request
				switch i % 3 {
				case 0:
					req, _ = http.NewRequest("GET", base+"/config.json", nil)
				case 1:
					req, _ = http.NewRequest("POST", base+"/functions/v1/waitlist-signup",
						strings.NewReader(`{"email":"`+email+`","programName":"Upcycling Initiative"}`))
				case 2:
					req, _ = http.NewRequest("POST", base+"/functions/v1/contact-form-submit",
						strings.NewReader(`{"firstName":"Ruth","lastName":"Banda","email":"`+email+`","subject":"general Inquiry","message":"Hello from the load test."}`))
					req.Header.Set("Idempotency-Key", fmt.Sprintf("load-%d-%d", w, i))
				}
				if req.Method == "POST" {
					req.Header.Set("Content-Type", "application/json")
				}
				res, err := client.Do(req)
				if err == nil {
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
				l.mu.Lock()
				l.sent++
				switch {
				case err != nil:
					l.failures = append(l.failures, req.Method+" "+req.URL.Path+": "+err.Error())
				case res.StatusCode != http.StatusOK:
					l.failures = append(l.failures, req.Method+" "+req.URL.Path+": "+res.Status)
				case i%3 == 1:
					l.signups = append(l.signups, email)
				case i%3 == 2:
					l.messages = append(l.messages, email)
				}
				l.mu.Unlock()
			}
		}()
	}
	return l
}

// phase reports (and fails t on) the requests that failed since the last
// phase, and starts counting anew.
func (l *load) phase(t *testing.T, name string) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	t.Logf("%s: %d requests, %d failed", name, l.sent, len(l.failures))
	if len(l.failures) > 0 {
		t.Errorf("%s: %d of %d requests failed: %v", name, len(l.failures), l.sent, l.failures[:min(len(l.failures), 5)])
	}
	l.sent, l.failures = 0, nil
}

// Stop ends the traffic and waits for the requests under way.
func (l *load) Stop() {
	close(l.stop)
	l.wg.Wait()
}

// checkStoredOnce fails t unless every acknowledged sign-up and message is
// stored exactly once (and no address of the load is stored twice), as
// `salaula admin export` lists them with env and args.
func (l *load) checkStoredOnce(t *testing.T, env map[string]string, args ...string) {
	t.Helper()
	for _, c := range []struct {
		what  string
		acked []string
	}{{"waitlist", l.signups}, {"messages", l.messages}} {
		rows := exportRows(t, env, append([]string{c.what}, args...)...)
		col := slices.Index(rows[0], "email")
		stored := map[string]int{}
		for _, row := range rows[1:] {
			stored[row[col]]++
		}
		for email, n := range stored {
			if n > 1 {
				t.Errorf("%s: %s stored %d times", c.what, email, n)
			}
		}
		for _, email := range c.acked {
			if stored[email] != 1 {
				t.Errorf("%s: %s was acknowledged and is stored %d times", c.what, email, stored[email])
			}
		}
		t.Logf("%s: %d acknowledged, %d stored", c.what, len(c.acked), len(stored))
		if len(c.acked) == 0 {
			t.Errorf("%s: none acknowledged", c.what)
		}
	}
}

// newLoadClient is the HTTP client of the load, with a generous timeout
// (a busy machine, requests waiting for a restart).
func newLoadClient(keepAlive bool) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DisableKeepAlives = !keepAlive
	return &http.Client{Timeout: 30 * time.Second, Transport: tr}
}

// grepLines returns the lines of s that contain word.
func grepLines(s, word string) string {
	var out []string
	for line := range strings.Lines(s) {
		if strings.Contains(line, word) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "")
}
