package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite"
)

const (
	benchSecret   = "bench-secret-bench-secret-bench-secret!!"
	benchEmail    = "bench-user@example.com"
	benchPassword = "chitenge-lusaka-42"
	pbAdminEmail  = "bench-admin@example.com"
	pbAdminPass   = "bench-admin-password-1"
)

// system is one server under test.
type system struct {
	id, name, kind  string // kind: "salaula" or "pocketbase", the first argument of every script
	base            string // with -baseline: the id of the baseline binary's system on the same store
	bin, dir, pgURL string
	tables          map[string]string // a scenario's rows -> the table they are stored in
	addr            string
	cmd             *exec.Cmd
	token           string // PocketBase: its superuser's
}

// newSystems are the three systems, with their data under dir and a new
// PostgreSQL database; with -baseline, the baseline binary on SQLite and
// on a PostgreSQL database of its own too, each after the current binary
// on the same store, so every round runs them back to back.
func newSystems(o options, dir string, pg *postgres) ([]*system, error) {
	pgURL, err := pg.create()
	if err != nil {
		return nil, err
	}
	salaula := map[string]string{"waitlist": "waitlist_signups", "contact": "contact_messages"}
	sqlite := &system{id: "sqlite", name: "salaula (SQLite)", kind: "salaula", bin: o.salaula, dir: filepath.Join(dir, "sqlite"), tables: salaula}
	postgres := &system{id: "postgres", name: "salaula (PostgreSQL)", kind: "salaula", bin: o.salaula, dir: filepath.Join(dir, "postgres"), pgURL: pgURL, tables: salaula}
	pocketbase := &system{id: "pocketbase", name: "PocketBase", kind: "pocketbase", bin: o.pocketbase, dir: filepath.Join(dir, "pocketbase"),
		tables: map[string]string{"waitlist": "waitlist", "contact": "contact_messages"}}
	if o.baseline == "" {
		return []*system{sqlite, postgres, pocketbase}, nil
	}
	basePG, err := pg.create()
	if err != nil {
		return nil, err
	}
	sqlite.base, postgres.base = "base-sqlite", "base-postgres"
	return []*system{
		sqlite,
		{id: sqlite.base, name: "baseline (SQLite)", kind: "salaula", bin: o.baseline, dir: filepath.Join(dir, "base-sqlite"), tables: salaula},
		postgres,
		{id: postgres.base, name: "baseline (PostgreSQL)", kind: "salaula", bin: o.baseline, dir: filepath.Join(dir, "base-postgres"), pgURL: basePG, tables: salaula},
		pocketbase,
	}, nil
}

// prepare gives PocketBase the built app to serve and a superuser.
func (s *system) prepare(o options) error {
	if s.kind != "pocketbase" {
		return nil
	}
	if err := os.CopyFS(filepath.Join(s.dir, "pb_public"), os.DirFS(o.dist)); err != nil {
		return err
	}
	out, err := exec.Command(s.bin, "superuser", "upsert", pbAdminEmail, pbAdminPass, "--dir", filepath.Join(s.dir, "pb_data")).CombinedOutput()
	if err != nil {
		return fmt.Errorf("PocketBase superuser upsert: %v: %s", err, out)
	}
	return nil
}

// client is for the health checks and the set-up calls.
var client = &http.Client{Timeout: 30 * time.Second}

// start starts the server on a free port and returns the time from the
// process's start to the first 200 of its health check.
func (s *system) start() (time.Duration, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	s.addr = ln.Addr().String()
	ln.Close()
	health := "http://" + s.addr + "/api/health"
	if s.kind == "salaula" {
		s.cmd = exec.Command(s.bin, "serve", "--http", s.addr, "--data", s.dir)
		s.cmd.Env = append(os.Environ(), "SALAULA_RATE_FORMS=0", "SALAULA_RATE_AUTH=0", "SALAULA_JWT_SECRET="+benchSecret, "DATABASE_URL="+s.pgURL)
		health = "http://" + s.addr + "/healthz"
	} else {
		s.cmd = exec.Command(s.bin, "serve", "--http", s.addr, "--dir", filepath.Join(s.dir, "pb_data"), "--publicDir", filepath.Join(s.dir, "pb_public"))
	}
	began := time.Now()
	if err := s.cmd.Start(); err != nil {
		return 0, fmt.Errorf("start %s: %w", s.name, err)
	}
	for time.Since(began) < 30*time.Second {
		if res, err := client.Get(health); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return time.Since(began), nil
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	s.stop()
	return 0, fmt.Errorf("%s: no 200 from %s within 30 s", s.name, health)
}

// stop ends the server: SIGTERM, and SIGKILL after 10 s.
func (s *system) stop() {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
	s.cmd = nil
}

// post sends body as JSON and returns the answer, which must be a 200.
func (s *system) post(path string, body any, token string) ([]byte, error) {
	return s.call("POST", path, body, token)
}

// call sends a request, with body as JSON unless it is nil, and returns
// the answer, which must be a 200.
func (s *system) call(method, path string, body any, token string) ([]byte, error) {
	var reqBody io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		reqBody = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, "http://"+s.addr+path, reqBody)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var answer bytes.Buffer
	answer.ReadFrom(res.Body)
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, answer.Bytes())
	}
	return answer.Bytes(), nil
}

// setUp gives PocketBase what salaula has built in: the collections of
// pocketbase-collections.json (in the scripts folder), created through its
// API as its superuser. An index a founder would add goes in there too.
func (s *system) setUp(scripts string) error {
	if s.kind != "pocketbase" {
		return nil
	}
	b, err := s.post("/api/collections/_superusers/auth-with-password", map[string]string{"identity": pbAdminEmail, "password": pbAdminPass}, "")
	if err != nil {
		return err
	}
	var auth struct{ Token string }
	if err := json.Unmarshal(b, &auth); err != nil {
		return err
	}
	s.token = auth.Token
	if b, err = os.ReadFile(filepath.Join(scripts, "pocketbase-collections.json")); err != nil {
		return err
	}
	var collections []json.RawMessage
	if err := json.Unmarshal(b, &collections); err != nil {
		return fmt.Errorf("pocketbase-collections.json: %w", err)
	}
	for _, c := range collections {
		if _, err := s.post("/api/collections", c, s.token); err != nil {
			return err
		}
	}
	return nil
}

// createAccount makes the account the sign-in scenario signs in with.
func (s *system) createAccount() error {
	var err error
	if s.kind == "salaula" {
		_, err = s.post("/auth/v1/signup", map[string]string{"email": benchEmail, "password": benchPassword}, "")
	} else {
		_, err = s.post("/api/collections/users/records", map[string]any{"email": benchEmail, "password": benchPassword,
			"passwordConfirm": benchPassword, "verified": true}, s.token)
	}
	return err
}

// database opens the system's database, to count what it stored.
func (s *system) database() (*sql.DB, error) {
	switch {
	case s.pgURL != "":
		return sql.Open("pgx", s.pgURL)
	case s.kind == "pocketbase":
		return sql.Open("sqlite", filepath.Join(s.dir, "pb_data", "data.db"))
	default:
		return sql.Open("sqlite", filepath.Join(s.dir, "salaula.db"))
	}
}

// result is one run.
type result struct {
	rps, p50, p99 float64 // 2xx answers a second; latencies in ms
	ok, errors    int64   // 2xx answers; socket errors and answers of 400 or more
	unanswered    int64   // requests made with email() that had no answer when wrk stopped
	peak          float64 // the server's peak resident memory, bytes
}

// load runs scenario sc on s with wrk. The server's peak resident memory
// over the run is the kernel's high-water mark (VmHWM), reset before the
// run (clear_refs).
func (s *system) load(sc *scenario, o options, tag string) (result, error) {
	pid := s.cmd.Process.Pid
	if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0); err != nil {
		return result{}, fmt.Errorf("reset the peak memory: %w", err)
	}
	args := []string{"-t", strconv.Itoa(min(o.threads, sc.conc)), "-c", strconv.Itoa(sc.conc),
		"-d", fmt.Sprintf("%ds", max(1, int(o.duration.Seconds()), int(sc.least.Seconds()))), "--timeout", "30s",
		"-s", filepath.Join(o.scripts, sc.script+".lua"), "http://" + s.addr, "--", s.kind, tag}
	w, err := runWrk(o.scripts, append(args, sc.args...))
	if err != nil {
		return result{}, err
	}
	r := result{ok: w.OK, errors: w.Errors, unanswered: max(0, w.Sent-w.Requests),
		p50: float64(w.P50) / 1000, p99: float64(w.P99) / 1000,
		peak: float64(procField(fmt.Sprintf("/proc/%d/status", pid), "VmHWM"))}
	if w.Duration > 0 {
		r.rps = float64(w.OK) / (float64(w.Duration) / 1e6)
	}
	return r, nil
}

// report is the line bench/common.lua's done() prints.
type report struct {
	Requests int64 `json:"requests"`    // answers
	OK       int64 `json:"ok"`          // answers below 400 (all 2xx for these scripts)
	Sent     int64 `json:"sent"`        // requests made with email(); 0 for the scripts that do not
	Errors   int64 `json:"errors"`      // socket errors, timeouts and answers of 400 or more
	Duration int64 `json:"duration_us"` // of the run
	P50      int64 `json:"p50_us"`
	P99      int64 `json:"p99_us"`
}

// runWrk runs wrk with args, its scripts' `require` looking in scripts,
// and reads the report line.
func runWrk(scripts string, args []string) (report, error) {
	var w report
	wrk := exec.Command("wrk", args...)
	wrk.Env = append(os.Environ(), "LUA_PATH="+scripts+"/?.lua;;")
	var stderr bytes.Buffer
	wrk.Stderr = &stderr
	out, err := wrk.Output()
	if err != nil {
		return w, fmt.Errorf("wrk %s: %v: %s%s", strings.Join(args, " "), err, out, stderr.Bytes())
	}
	_, line, found := strings.Cut(string(out), "salaula-bench ")
	if !found {
		return w, fmt.Errorf("wrk %s printed no report line: %s%s", strings.Join(args, " "), out, stderr.Bytes())
	}
	line, _, _ = strings.Cut(line, "\n")
	return w, json.Unmarshal([]byte(line), &w)
}

// postgres makes empty databases on the server at url and drops them all
// at the end.
type postgres struct {
	url   string
	admin *sql.DB
	names []string
}

func (p *postgres) create() (string, error) {
	if p.admin == nil {
		var err error
		if p.admin, err = sql.Open("pgx", p.url); err != nil {
			return "", err
		}
	}
	name := fmt.Sprintf("salaula_bench_%d_%d", os.Getpid(), len(p.names))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := p.admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("PostgreSQL at %s: %w", p.url, err)
	}
	p.names = append(p.names, name)
	u, err := url.Parse(p.url)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	return u.String(), nil
}

func (p *postgres) dropAll() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, name := range p.names {
		p.admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	}
	if p.admin != nil {
		p.admin.Close()
	}
}
