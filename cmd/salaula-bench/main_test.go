package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// needWrk fails the test when wrk is missing (make tools installs it);
// go test -short skips it instead.
func needWrk(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("wrk"); err != nil {
		if testing.Short() {
			t.Skip("wrk is not installed")
		}
		t.Fatal("wrk is not installed: make tools installs Debian's wrk package")
	}
}

// seen is what a stand-in server received: each request's path and body.
type seen struct {
	mu       sync.Mutex
	paths    map[string]int
	bodies   []map[string]string
	received int
}

func standIn(t *testing.T) (*httptest.Server, *seen) {
	got := &seen{paths: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body map[string]string
		json.Unmarshal(b, &body)
		got.mu.Lock()
		got.paths[r.URL.RequestURI()]++
		got.bodies = append(got.bodies, body)
		got.received++
		got.mu.Unlock()
		time.Sleep(5 * time.Millisecond) // a few hundred requests a second, not the whole machine
		w.Write([]byte(`{}`))
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

func wrkAt(t *testing.T, srv *httptest.Server, script string, args ...string) report {
	t.Helper()
	w, err := runWrk(filepath.Join("..", "..", "bench"),
		append([]string{"-t", "2", "-c", "4", "-d", "1s", "-s", filepath.Join("..", "..", "bench", script+".lua"), srv.URL, "--"}, args...))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// Each write sends a new e-mail address, across wrk's threads, to the
// system's own path, and the report counts what the server answered.
func TestWriteScriptsSendANewEmailEachToTheSystemsPath(t *testing.T) {
	needWrk(t)
	for _, tc := range []struct{ script, system, path string }{
		{"waitlist-signup", "salaula", "/functions/v1/waitlist-signup"},
		{"waitlist-signup", "pocketbase", "/api/collections/waitlist/records"},
		{"contact-form-submit", "salaula", "/functions/v1/contact-form-submit"},
		{"contact-form-submit", "pocketbase", "/api/collections/contact_messages/records"},
	} {
		t.Run(tc.script+"/"+tc.system, func(t *testing.T) {
			srv, got := standIn(t)
			w := wrkAt(t, srv, tc.script, tc.system, "t1")
			srv.Close() // waits for the requests in flight
			if w.Requests == 0 || w.OK != w.Requests || w.Errors != 0 {
				t.Fatalf("report %+v", w)
			}
			if got.received < int(w.Requests) || int64(got.received) > w.Sent {
				t.Fatalf("the server received %d requests; wrk reported %d answered of %d sent", got.received, w.Requests, w.Sent)
			}
			if len(got.paths) != 1 || got.paths[tc.path] != got.received {
				t.Fatalf("paths %v, want all %s", got.paths, tc.path)
			}
			emails := map[string]bool{}
			for _, b := range got.bodies {
				e := b["email"]
				if !strings.HasPrefix(e, "t1-") || !strings.HasSuffix(e, "@example.com") || emails[e] {
					t.Fatalf("e-mail %q (new: %v)", e, !emails[e])
				}
				emails[e] = true
			}
		})
	}
}

func TestSignInAndGetScriptsSendTheirRequest(t *testing.T) {
	needWrk(t)
	for _, tc := range []struct {
		script string
		args   []string
		path   string
		body   map[string]string
	}{
		{"password-sign-in", []string{"salaula", "t", "a@example.com", "pw-1"}, "/auth/v1/token?grant_type=password",
			map[string]string{"email": "a@example.com", "password": "pw-1"}},
		{"password-sign-in", []string{"pocketbase", "t", "a@example.com", "pw-1"}, "/api/collections/users/auth-with-password",
			map[string]string{"identity": "a@example.com", "password": "pw-1"}},
		{"get", []string{"salaula", "t", "/assets/app.js"}, "/assets/app.js", nil},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			srv, got := standIn(t)
			w := wrkAt(t, srv, tc.script, tc.args...)
			srv.Close()
			if w.Requests == 0 || w.OK != w.Requests || w.Sent != 0 {
				t.Fatalf("report %+v", w)
			}
			if len(got.paths) != 1 || got.paths[tc.path] != got.received {
				t.Fatalf("paths %v, want all %s", got.paths, tc.path)
			}
			b, _ := json.Marshal(got.bodies[0])
			if want, _ := json.Marshal(tc.body); string(b) != string(want) {
				t.Fatalf("body %s, want %s", b, want)
			}
		})
	}
}

func TestRowCheck(t *testing.T) {
	for _, tc := range []struct {
		ok, unanswered, stored int64
		holds                  bool
	}{
		{100, 0, 100, true},
		{100, 16, 100, true},
		{100, 16, 116, true},
		{100, 16, 99, false},  // a 2xx answer stored nothing
		{100, 16, 117, false}, // more rows than requests
	} {
		c := rowCheck{ok: tc.ok, unanswered: tc.unanswered, stored: tc.stored}
		if c.holds() != tc.holds {
			t.Errorf("%+v: holds %v", tc, c.holds())
		}
	}
}

func TestWriteSectionReplacesOnlyBetweenTheMarkers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "benchmarks.md")
	os.WriteFile(path, []byte("# Benchmarks\n\nLighthouse.\n\n"+sectionStart+"\nold table\n"+sectionEnd+"\n\nNotes.\n"), 0o644)
	if err := writeSection(path, "new table\n"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if want := "# Benchmarks\n\nLighthouse.\n\n" + sectionStart + "\nnew table\n" + sectionEnd + "\n\nNotes.\n"; string(b) != want {
		t.Fatalf("got\n%s\nwant\n%s", b, want)
	}
	empty := filepath.Join(t.TempDir(), "new.md")
	if err := writeSection(empty, "table"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(empty); string(b) != "# Benchmarks\n\n"+sectionStart+"\ntable\n"+sectionEnd+"\n" {
		t.Fatalf("got %q", b)
	}
}

// The scale table has a row per request and two of bytes per sign-up
// (with and without the e-mail's record),
// with a column per system in the order given; PocketBase's column has
// "-" on the messages and people rows, which it is not asked.
func TestRenderScale(t *testing.T) {
	systems := []*system{{id: "sqlite", name: "salaula (SQLite)"}, {id: "pocketbase", name: "PocketBase"}}
	ms := func(v float64, lists ...string) map[string]float64 {
		m := map[string]float64{}
		for _, c := range scaleCases(5000) {
			if slices.Contains(lists, c.list) {
				m[c.name] = v
			}
		}
		return m
	}
	got := renderScale(5000, systems, map[string]*scaleResult{
		"sqlite":     {bytesPerSignup: 706.4, emailBytes: 200.2, ms: ms(1.25, "waitlist", "messages", "people")},
		"pocketbase": {bytesPerSignup: 269, ms: ms(3, "waitlist")},
	})
	for _, want := range []string{
		"| request | salaula (SQLite) | PocketBase |\n|---|---:|---:|\n",
		"| first page | 1.2 ms | 3.0 ms |\n",
		"| search, no match | 1.2 ms | 3.0 ms |\n",
		"| messages: first page | 1.2 ms | - |\n",
		"| people: search, a tenth match | 1.2 ms | - |\n",
		"| database bytes per sign-up | 706 | 269 |\n",
		"| database bytes per sign-up, its e-mail's record gone | 506 | 269 |\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

// Given a baseline binary, the table gains the baseline's rows and a
// column of salaula's figures over the baseline's on the same store
// (req/s, p50, p99, peak RSS; cold start and idle RSS below); without
// one, the tables keep their columns.
func TestRenderWithBaseline(t *testing.T) {
	o := options{baseline: "bin/salaula-prev", duration: 5 * time.Second, reps: 2, threads: 2}
	systems := []*system{
		{id: "sqlite", name: "salaula (SQLite)", kind: "salaula", base: "base-sqlite"},
		{id: "base-sqlite", name: "baseline (SQLite)", kind: "salaula"},
		{id: "pocketbase", name: "PocketBase", kind: "pocketbase"},
	}
	sc := &scenario{name: "password sign-in", conc: 64, runs: map[string][]result{
		"sqlite":      {{rps: 110, p50: 500, p99: 600, peak: 80 << 20}, {rps: 120, p50: 520, p99: 640, peak: 84 << 20}},
		"base-sqlite": {{rps: 100, p50: 500, p99: 800, peak: 120 << 20}, {rps: 100, p50: 520, p99: 800, peak: 140 << 20}},
		"pocketbase":  {{rps: 40, p50: 1700, p99: 3300, peak: 100 << 20}, {rps: 40, p50: 1700, p99: 3300, peak: 100 << 20}},
	}}
	cold := map[string][]float64{"sqlite": {90}, "base-sqlite": {100}, "pocketbase": {50}}
	idle := map[string][]float64{"sqlite": {40 << 20}, "base-sqlite": {50 << 20}, "pocketbase": {30 << 20}}
	got := render([]*scenario{sc}, systems, cold, idle, nil, o)
	for _, want := range []string{
		"Baseline: `bin/salaula-prev`",
		"| peak RSS | ratio to PocketBase | ratio to baseline (req/s · p50 · p99 · peak RSS) |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
		"| password sign-in c64 | salaula (SQLite) | 120 | 520.0 | 640.0 | 0 | 84 MiB | 3.00 (2.75 / 3.00) | 1.20 · 1.00 · 0.80 · 0.60 |\n",
		"| password sign-in c64 | baseline (SQLite) | 100 | 520.0 | 800.0 | 0 | 140 MiB | 2.50 (2.50 / 2.50) | - |\n",
		"| password sign-in c64 | PocketBase | 40 | 1700.0 | 3300.0 | 0 | 100 MiB | 1.00 | - |\n",
		"| system | cold start | idle RSS | ratio to baseline (cold start · idle RSS) |\n|---|---:|---:|---:|\n",
		"| salaula (SQLite) | 90 ms | 40 MiB | 0.90 · 0.80 |\n",
		"| baseline (SQLite) | 100 ms | 50 MiB | - |\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}

	o.baseline = ""
	got = render([]*scenario{sc}, systems[:1], cold, idle, nil, o)
	for _, absent := range []string{"aseline", "· "} {
		if strings.Contains(got, absent) {
			t.Errorf("without a baseline, %q in\n%s", absent, got)
		}
	}
	if want := "| peak RSS | ratio to PocketBase |\n|---|---|---:|---:|---:|---:|---:|---:|\n"; !strings.Contains(got, want) {
		t.Errorf("without a baseline, missing %q in\n%s", want, got)
	}
}
