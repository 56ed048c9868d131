// Command salaula-bench loads salaula (on SQLite and on PostgreSQL) and
// PocketBase side by side with the same requests and prints one table:
// requests per second, p50 and p99 latency, errors and peak resident memory
// of each system, with the ratio to PocketBase. Runs are interleaved (each
// scenario on every system in turn) and repeated; the table shows the
// median of the repetitions. Afterwards it counts the stored rows: every
// 2xx answer must have stored exactly one row. `make bench` runs it.
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"salaula/internal/store"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "salaula-bench:", err)
		os.Exit(1)
	}
}

// options are the command line.
type options struct {
	salaula, pocketbase, pgAdmin, out, dist string
	duration                                time.Duration
	reps                                    int
	only                                    string
}

func run() error {
	var o options
	flag.StringVar(&o.salaula, "salaula", "bin/salaula", "the salaula binary")
	flag.StringVar(&o.pocketbase, "pocketbase", "bin/bench/base", "the PocketBase binary (examples/base)")
	flag.StringVar(&o.pgAdmin, "postgres", envOr("SALAULA_TEST_POSTGRES", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"), "PostgreSQL server to create the benchmark database on")
	flag.StringVar(&o.out, "out", "docs/benchmarks.md", "where to write the table (empty: only print it)")
	flag.StringVar(&o.dist, "dist", "internal/webapp/dist", "the built app, for GET / and a hashed asset on PocketBase")
	flag.DurationVar(&o.duration, "duration", 5*time.Second, "length of one measurement")
	flag.IntVar(&o.reps, "reps", 3, "repetitions of every measurement")
	flag.StringVar(&o.only, "only", "", "run only the scenarios whose name contains this")
	flag.Parse()

	tmp, err := os.MkdirTemp("", "salaula-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	asset, err := hashedAsset(o.dist)
	if err != nil {
		return err
	}
	pgURL, dropPG, err := createPostgresDB(o.pgAdmin)
	if err != nil {
		return err
	}
	defer dropPG()

	systems := []*system{
		{name: "salaula (SQLite)", kind: "salaula", bin: o.salaula, dir: filepath.Join(tmp, "sqlite")},
		{name: "salaula (PostgreSQL)", kind: "salaula", bin: o.salaula, dir: filepath.Join(tmp, "pg"), pgURL: pgURL},
		{name: "PocketBase", kind: "pocketbase", bin: o.pocketbase, dir: filepath.Join(tmp, "pb"), dist: o.dist},
	}
	// Cold start first, on empty data folders of their own.
	cold := map[string][]time.Duration{}
	for rep := 0; rep < o.reps; rep++ {
		for _, s := range systems {
			c := *s
			c.dir = filepath.Join(tmp, fmt.Sprintf("cold-%s-%d", c.kind, rep))
			if c.pgURL != "" {
				u, drop, err := createPostgresDB(o.pgAdmin)
				if err != nil {
					return err
				}
				c.pgURL = u
				defer drop()
			}
			d, err := c.coldStart()
			if err != nil {
				return fmt.Errorf("%s cold start: %w", s.name, err)
			}
			cold[s.name] = append(cold[s.name], d)
		}
	}
	for _, s := range systems {
		if err := s.start(); err != nil {
			return fmt.Errorf("start %s: %w", s.name, err)
		}
		defer s.stop()
		if err := s.setup(); err != nil {
			return fmt.Errorf("set up %s: %w", s.name, err)
		}
	}

	scenarios := []scenario{
		{name: "waitlist-signup", conc: 16, write: "waitlist"},
		{name: "waitlist-signup", conc: 64, write: "waitlist"},
		{name: "contact-form-submit", conc: 16, write: "contact"},
		{name: "contact-form-submit", conc: 64, write: "contact"},
		{name: "password sign-in", conc: 64, signIn: true, fresh: true},
		{name: "GET /", conc: 16, path: "/"},
		{name: "GET hashed asset", conc: 16, path: "/assets/" + asset},
	}
	results := map[string]map[string][]result{} // scenario key -> system -> runs
	crowd := map[string][]signInWork{}          // system -> the sign-in crowd's work, per repetition
	ok2xx := map[string]map[string]int64{}      // system -> write kind -> 2xx answers
	for _, s := range systems {
		ok2xx[s.name] = map[string]int64{}
	}
	for rep := 0; rep < o.reps; rep++ {
		for _, sc := range scenarios {
			if o.only != "" && !strings.Contains(sc.key(), o.only) {
				continue
			}
			for _, s := range systems {
				if sc.fresh {
					// A freshly started process, so its peak RSS is this
					// scenario's alone, not what earlier scenarios left behind.
					s.stop()
					if err := s.start(); err != nil {
						return fmt.Errorf("restart %s: %w", s.name, err)
					}
				}
				if waited, busy := settle(); busy {
					fmt.Fprintf(os.Stderr, "the machine stayed busy for %v before %s on %s; measuring anyway\n", waited, sc.key(), s.name)
				}
				// Under the crowd of sign-ins, the server's CPU and its
				// hashing CPU too (see crowdWork).
				var c0 cpuCounters
				counting := sc.signIn && s.kind == "salaula"
				if counting {
					if c0, err = s.cpuCounters(false); err != nil {
						return fmt.Errorf("%s on %s: %w", sc.key(), s.name, err)
					}
				}
				r := s.load(sc, o.duration, fmt.Sprintf("r%d", rep))
				if counting {
					c1, err := s.cpuCounters(true)
					if err != nil {
						return fmt.Errorf("%s on %s: %w", sc.key(), s.name, err)
					}
					crowd[s.name] = append(crowd[s.name], c1.per(c0, r.ok))
				}
				if results[sc.key()] == nil {
					results[sc.key()] = map[string][]result{}
				}
				results[sc.key()][s.name] = append(results[sc.key()][s.name], r)
				if sc.write != "" {
					ok2xx[s.name][sc.write] += r.ok
				}
				fmt.Fprintf(os.Stderr, "rep %d  %-28s %-22s %8.0f req/s  p50 %6.1f ms  p99 %7.1f ms  errors %d  peak RSS %s\n",
					rep+1, sc.key(), s.name, r.rps, ms(r.p50), ms(r.p99), r.errors, mib(r.peakRSS))
				time.Sleep(300 * time.Millisecond)
			}
		}
	}
	var counts []string
	for _, s := range systems {
		for _, kind := range []string{"waitlist", "contact"} {
			rows, err := s.countRows(kind)
			if err != nil {
				return fmt.Errorf("count %s rows on %s: %w", kind, s.name, err)
			}
			verdict := "ok"
			if rows != ok2xx[s.name][kind] {
				verdict = "MISMATCH"
			}
			counts = append(counts, fmt.Sprintf("| %s | %s | %d | %d | %s |", s.name, kind, ok2xx[s.name][kind], rows, verdict))
		}
	}
	// The work above the hash, on each salaula store (PocketBase has no
	// such target; its hash is bcrypt).
	work := map[string]signInWork{}
	var workOrder []string
	if o.only == "" || strings.Contains("password sign-in", o.only) {
		for _, s := range systems {
			if s.kind != "salaula" {
				continue
			}
			w, err := s.measureSignInWork(20, 10)
			if err != nil {
				return fmt.Errorf("sign-in work on %s: %w", s.name, err)
			}
			work[s.name] = w
			workOrder = append(workOrder, s.name)
			fmt.Fprintf(os.Stderr, "sign-in work %-22s server %.2f ms  of which argon2id %.2f ms  above the hash %.1f %%\n", s.name, ms(w.server), ms(w.hash), w.above())
		}
	}
	// Realtime last: its sign-ups are not part of the row counts above.
	rtRows := map[string]rtResult{}
	var rtOrder []string
	if o.only == "" || strings.Contains("realtime", o.only) {
		for _, s := range systems {
			if s.kind != "salaula" {
				continue
			}
			r, err := s.realtimeBench()
			if err != nil {
				return fmt.Errorf("realtime on %s: %w", s.name, err)
			}
			rtRows[s.name] = r
			rtOrder = append(rtOrder, s.name)
			fmt.Fprintf(os.Stderr, "realtime %-22s %d sockets  RSS %s -> %s  events %d/%d  p50 %.1f ms  p99 %.1f ms\n",
				s.name, r.conns, mib(r.rssBefore), mib(r.rssAfter), r.events, r.sent, ms(r.p50), ms(r.p99))
		}
	}
	crowdWork := map[string]signInWork{}
	for name, reps := range crowd {
		crowdWork[name] = medianWork(reps)
	}
	table := render(scenarios, systems, results, cold, counts, o) + renderSignInWork(work, crowdWork, workOrder) + renderRealtime(rtRows, rtOrder)
	fmt.Println(table)
	if o.out != "" {
		if err := writeSection(o.out, table); err != nil {
			return err
		}
	}
	for _, c := range counts {
		if strings.Contains(c, "MISMATCH") {
			return errors.New("stored rows differ from 2xx answers (see the table)")
		}
	}
	return nil
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// hashedAsset names the largest file under dist/assets (a content-hashed bundle).
func hashedAsset(dist string) (string, error) {
	entries, err := os.ReadDir(filepath.Join(dist, "assets"))
	if err != nil {
		return "", fmt.Errorf("the built app (%s): %w; run make build first", dist, err)
	}
	best, size := "", int64(-1)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && strings.HasSuffix(e.Name(), ".js") && info.Size() > size {
			best, size = e.Name(), info.Size()
		}
	}
	if best == "" {
		return "", fmt.Errorf("no .js asset in %s/assets", dist)
	}
	return best, nil
}

// createPostgresDB makes an empty database on the server at adminURL.
func createPostgresDB(adminURL string) (string, func(), error) {
	admin, err := sql.Open("pgx", adminURL)
	if err != nil {
		return "", nil, err
	}
	raw := make([]byte, 5)
	rand.Read(raw)
	name := "salaula_bench_" + hex.EncodeToString(raw)
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("PostgreSQL at %s: %w", adminURL, err)
	}
	u, _ := url.Parse(adminURL)
	u.Path = "/" + name
	return u.String(), func() {
		admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		admin.Close()
	}, nil
}

// system is one server under test.
type system struct {
	name, kind, bin, dir, pgURL, dist string
	addr                              string
	cmd                               *exec.Cmd
	pbToken                           string
	anon                              string // salaula: the anon key, for realtime sockets
	client                            *http.Client
}

const (
	benchSecret   = "bench-secret-bench-secret-bench-secret!!"
	benchEmail    = "bench-user@example.com"
	benchPassword = "chitenge-lusaka-42"
	pbAdminEmail  = "bench-admin@example.com"
	pbAdminPass   = "bench-admin-password-1"
)

func freePort() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func (s *system) command() *exec.Cmd {
	s.addr = freePort()
	var cmd *exec.Cmd
	if s.kind == "salaula" {
		cmd = exec.Command(s.bin, "serve", "--http", s.addr, "--data", s.dir)
		cmd.Env = append(os.Environ(), "SALAULA_RATE_FORMS=0", "SALAULA_RATE_AUTH=0", "SALAULA_JWT_SECRET="+benchSecret, "DATABASE_URL="+s.pgURL,
			"SALAULA_REALTIME_MAX_CONNS_PER_IP=5000", "SALAULA_METRICS_TOKEN="+benchMetricsToken)
	} else {
		pub := filepath.Join(s.dir, "pb_public")
		cmd = exec.Command(s.bin, "serve", "--http", s.addr, "--dir", filepath.Join(s.dir, "pb_data"), "--publicDir", pub)
	}
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	return cmd
}

func (s *system) healthPath() string {
	if s.kind == "salaula" {
		return "/healthz"
	}
	return "/api/health"
}

// coldStart starts the system on an empty folder and measures the time to
// its first 200 answer, then stops it.
func (s *system) coldStart() (time.Duration, error) {
	if s.kind == "pocketbase" {
		if err := copyApp(s.dist, filepath.Join(s.dir, "pb_public")); err != nil {
			return 0, err
		}
	}
	cmd := s.command()
	began := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	for time.Since(began) < 30*time.Second {
		res, err := http.Get("http://" + s.addr + s.healthPath())
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return time.Since(began), nil
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	return 0, errors.New("no 200 within 30 s")
}

func (s *system) start() error {
	if s.kind == "pocketbase" {
		if err := copyApp(s.dist, filepath.Join(s.dir, "pb_public")); err != nil {
			return err
		}
		up := exec.Command(s.bin, "superuser", "upsert", pbAdminEmail, pbAdminPass, "--dir", filepath.Join(s.dir, "pb_data"))
		if out, err := up.CombinedOutput(); err != nil {
			return fmt.Errorf("superuser upsert: %v: %s", err, out)
		}
	}
	s.cmd = s.command()
	if err := s.cmd.Start(); err != nil {
		return err
	}
	s.client = &http.Client{Timeout: 30 * time.Second}
	for began := time.Now(); time.Since(began) < 30*time.Second; time.Sleep(20 * time.Millisecond) {
		res, err := http.Get("http://" + s.addr + s.healthPath())
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return nil
			}
		}
	}
	return errors.New("not healthy within 30 s")
}

func (s *system) stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { s.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			s.cmd.Process.Kill()
		}
	}
}

// copyApp copies index.html and the assets of the built app into dst, so
// PocketBase serves the same files from its public folder.
func copyApp(dist, dst string) error {
	return filepath.Walk(dist, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dist, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}

// call sends one JSON request and returns the status and body.
func (s *system) call(method, path string, body any, token string) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, "http://"+s.addr+path, rd)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	res, err := s.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b, nil
}

// setup creates what the scenarios need: the account to sign in with and,
// on PocketBase, the same two collections through its API.
func (s *system) setup() error {
	if s.kind == "salaula" {
		code, b, err := s.call("POST", "/auth/v1/signup", map[string]any{"email": benchEmail, "password": benchPassword}, "")
		if err != nil || code != 200 {
			return fmt.Errorf("sign-up: %d %s %v", code, b, err)
		}
		return nil
	}
	if err := s.pbSignIn(); err != nil {
		return err
	}
	text := func(name string) map[string]any {
		return map[string]any{"name": name, "type": "text", "required": true}
	}
	optional := func(name string) map[string]any { return map[string]any{"name": name, "type": "text"} }
	for _, c := range []map[string]any{
		{"name": "waitlist", "type": "base", "createRule": "",
			"fields":  []any{text("email"), text("program"), optional("page_path"), optional("referrer")},
			"indexes": []string{"CREATE UNIQUE INDEX idx_waitlist_email_program ON waitlist (email, program)"}},
		{"name": "contact_messages", "type": "base", "createRule": "",
			"fields": []any{text("first_name"), text("last_name"), text("email"), optional("phone_number"), text("subject"), text("message")}},
	} {
		if code, b, err := s.call("POST", "/api/collections", c, s.pbToken); err != nil || code != 200 {
			return fmt.Errorf("create collection %s: %d %s %v", c["name"], code, b, err)
		}
	}
	code, b, err := s.call("POST", "/api/collections/users/records",
		map[string]any{"email": benchEmail, "password": benchPassword, "passwordConfirm": benchPassword, "verified": true}, s.pbToken)
	if err != nil || code != 200 {
		return fmt.Errorf("create user: %d %s %v", code, b, err)
	}
	return nil
}

// pbSignIn signs in as PocketBase's superuser. Each start upserts the
// superuser, which ends its earlier tokens, so a token is taken again after
// a restart (see scenario.fresh).
func (s *system) pbSignIn() error {
	code, b, err := s.call("POST", "/api/collections/_superusers/auth-with-password", map[string]any{"identity": pbAdminEmail, "password": pbAdminPass}, "")
	if err != nil || code != 200 {
		return fmt.Errorf("superuser sign-in: %d %s %v", code, b, err)
	}
	var auth struct {
		Token string `json:"token"`
	}
	if err := json.Unmarshal(b, &auth); err != nil {
		return fmt.Errorf("superuser sign-in: %w", err)
	}
	s.pbToken = auth.Token
	return nil
}

// countRows counts the stored sign-ups or messages made by the benchmark.
func (s *system) countRows(kind string) (int64, error) {
	if s.kind == "pocketbase" {
		if err := s.pbSignIn(); err != nil {
			return 0, err
		}
		coll := map[string]string{"waitlist": "waitlist", "contact": "contact_messages"}[kind]
		code, b, err := s.call("GET", "/api/collections/"+coll+"/records?perPage=1", nil, s.pbToken)
		if err != nil || code != 200 {
			return 0, fmt.Errorf("%d %s %v", code, b, err)
		}
		var page struct {
			TotalItems int64 `json:"totalItems"`
		}
		err = json.Unmarshal(b, &page)
		return page.TotalItems, err
	}
	db, err := store.Open(context.Background(), s.pgURL, s.dir)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	table := map[string]string{"waitlist": "waitlist_signups", "contact": "contact_messages"}[kind]
	var n int64
	err = db.QueryRow(context.Background(), `SELECT COUNT(*) FROM `+table).Scan(&n)
	return n, err
}

// scenario is one kind of load at one concurrency.
type scenario struct {
	name   string
	conc   int
	write  string // "waitlist" or "contact": a write scenario
	signIn bool
	fresh  bool   // measured on a freshly started server process
	path   string // a GET
}

func (sc scenario) key() string { return fmt.Sprintf("%s c%d", sc.name, sc.conc) }

// result is one measurement.
type result struct {
	rps          float64
	p50, p99     time.Duration
	ok, errors   int64
	peakRSS      int64
	firstFailure string
}

// load runs sc against s for d and measures it.
func (s *system) load(sc scenario, d time.Duration, tag string) result {
	shape := s.shape(sc, tag)
	// One thread runs the load, as a wrk thread does: with more, Go's
	// scheduler spins idle threads looking for work between answers, CPU
	// taken from the server measured (5 to 20 % of salaula's sign-ups a
	// second at c16 on this 2-core machine; see docs/decisions.md).
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var okN, errN atomic.Int64
	var failure atomic.Value
	lat := make([][]time.Duration, sc.conc)
	stopRSS := make(chan struct{})
	peak := make(chan int64)
	go func() {
		var max int64
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			if v := rss(s.cmd.Process.Pid); v > max {
				max = v
			}
			select {
			case <-stopRSS:
				peak <- max
				return
			case <-t.C:
			}
		}
	}()
	deadline := time.Now().Add(d)
	began := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < sc.conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn := &loadConn{addr: s.addr, timeout: 30 * time.Second}
			defer conn.close()
			var req []byte
			for n := 0; time.Now().Before(deadline); n++ {
				req = shape.appendRequest(req[:0], w, n)
				t0 := time.Now()
				status, err := conn.do(req)
				lat[w] = append(lat[w], time.Since(t0))
				if err != nil || status/100 != 2 {
					errN.Add(1)
					if err != nil {
						failure.CompareAndSwap(nil, err.Error())
					} else {
						failure.CompareAndSwap(nil, strconv.Itoa(status))
					}
					continue
				}
				okN.Add(1)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(began)
	close(stopRSS)
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	r := result{ok: okN.Load(), errors: errN.Load(), peakRSS: <-peak}
	r.rps = float64(r.ok) / elapsed.Seconds()
	if len(all) > 0 {
		r.p50 = all[len(all)*50/100]
		r.p99 = all[min(len(all)-1, len(all)*99/100)]
	}
	if f, ok := failure.Load().(string); ok {
		r.firstFailure = f
	}
	return r
}

// rss is a process's resident memory in bytes (0 when unknown).
func rss(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			f := strings.Fields(line)
			if len(f) >= 2 {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

// median of the runs, by requests per second; latencies and memory are
// each the median of their own values.
func summarise(runs []result) result {
	pick := func(vals []float64) float64 {
		slices.Sort(vals)
		return vals[len(vals)/2]
	}
	var rps, p50, p99, peak []float64
	var out result
	for _, r := range runs {
		rps = append(rps, r.rps)
		p50 = append(p50, float64(r.p50))
		p99 = append(p99, float64(r.p99))
		peak = append(peak, float64(r.peakRSS))
		out.errors += r.errors
		out.ok += r.ok
		if out.firstFailure == "" {
			out.firstFailure = r.firstFailure
		}
	}
	out.rps = pick(rps)
	out.p50 = time.Duration(pick(p50))
	out.p99 = time.Duration(pick(p99))
	out.peakRSS = int64(slices.Max(peak))
	return out
}

// pairedRatios is " (a / b / c)": each repetition's req/s over
// PocketBase's in the same repetition (the runs of one repetition follow
// each other, so the machine's drift over the whole run cancels out), or
// "" with fewer than two repetitions.
func pairedRatios(runs, pb []result) string {
	n := min(len(runs), len(pb))
	if n < 2 {
		return ""
	}
	var parts []string
	for i := range n {
		if pb[i].rps > 0 {
			parts = append(parts, fmt.Sprintf("%.2f", runs[i].rps/pb[i].rps))
		}
	}
	return " (" + strings.Join(parts, " / ") + ")"
}

// machine describes the computer the benchmark ran on.
func machine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "model name") {
				model = strings.TrimSpace(strings.SplitN(line, ":", 2)[1])
				break
			}
		}
	}
	mem := ""
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		f := strings.Fields(strings.SplitN(string(b), "\n", 2)[0])
		if len(f) >= 2 {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			mem = fmt.Sprintf(", %.0f GiB RAM", float64(kb)/(1<<20))
		}
	}
	host, _ := os.Hostname()
	return fmt.Sprintf("%s, %d cores%s, %s/%s, %s, host %s", model, runtime.NumCPU(), mem, runtime.GOOS, runtime.GOARCH, runtime.Version(), host)
}

func render(scenarios []scenario, systems []*system, results map[string]map[string][]result, cold map[string][]time.Duration, counts []string, o options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Writes: salaula against PocketBase\n\n")
	fmt.Fprintf(&b, "Written by `make bench` (`cmd/salaula-bench`) on %s.\n\n", time.Now().UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&b, "Machine: %s.\n\n", machine())
	fmt.Fprintf(&b, "Each row: %s of load at the given concurrency (keep-alive connections, a unique e-mail per write; the load generator is this command's own lean HTTP/1.1 client on one thread, within about 10 %% of wrk), "+
		"repeated %d times with the three systems interleaved, each run starting once the machine is at least 90 %% idle over half a second "+
		"(waiting up to 20 s, so background work an earlier run left behind, such as PostgreSQL's autovacuum, does not land on the next); the figures are the medians of the repetitions, errors are summed, "+
		"RSS is the peak resident memory of the server process during the runs (for password sign-in, of a server process started afresh just before each run, so it is that scenario's alone). Ratio = req/s of the system / req/s of PocketBase (the medians), and in brackets the same ratio in each repetition, whose runs follow each other. "+
		"salaula runs with its rate limits off (`SALAULA_RATE_FORMS=0`, `SALAULA_RATE_AUTH=0`), SQLite with `synchronous=FULL`; "+
		"PocketBase v0.39.11 (`examples/base`) with the same collections created through its API (a unique (email, program) index on the waitlist, public create rules); "+
		"note that PocketBase runs SQLite with `synchronous=NORMAL` (its commits are not flushed to disk: they survive a crash of the process, not a power cut) and sends no e-mail, "+
		"while each salaula sign-up also queues its confirmation e-mail in the same transaction. "+
		"The machine is shared, so absolute figures wander; compare the systems side by side.\n\n", o.duration, o.reps)
	fmt.Fprintf(&b, "| scenario | system | req/s | p50 ms | p99 ms | errors | peak RSS | ratio to PocketBase |\n|---|---|---:|---:|---:|---:|---:|---:|\n")
	for _, sc := range scenarios {
		runs := results[sc.key()]
		if runs == nil {
			continue
		}
		pb := summarise(runs["PocketBase"])
		for _, s := range systems {
			r := summarise(runs[s.name])
			ratio := "1.00"
			if s.kind != "pocketbase" && pb.rps > 0 {
				ratio = fmt.Sprintf("%.2f", r.rps/pb.rps) + pairedRatios(runs[s.name], runs["PocketBase"])
			}
			errs := strconv.FormatInt(r.errors, 10)
			if r.errors > 0 && r.firstFailure != "" {
				errs += " (" + r.firstFailure + ")"
			}
			fmt.Fprintf(&b, "| %s | %s | %.0f | %.1f | %.1f | %s | %s | %s |\n", sc.key(), s.name, r.rps, ms(r.p50), ms(r.p99), errs, mib(r.peakRSS), ratio)
		}
	}
	fmt.Fprintf(&b, "\nCold start (process start to the first 200 of its health check, on an empty data folder; median of %d):\n\n| system | cold start |\n|---|---:|\n", o.reps)
	for _, s := range systems {
		d := slices.Clone(cold[s.name])
		slices.Sort(d)
		if len(d) > 0 {
			fmt.Fprintf(&b, "| %s | %.0f ms |\n", s.name, ms(d[len(d)/2]))
		}
	}
	fmt.Fprintf(&b, "\nStored rows after the runs (every 2xx answer must have stored exactly one row):\n\n| system | write | 2xx answers | rows stored | check |\n|---|---|---:|---:|---|\n")
	for _, c := range counts {
		b.WriteString(c + "\n")
	}
	return b.String()
}

// Markers around the part of the benchmarks file this program owns; the
// rest of the file (Lighthouse figures, notes) is kept as it is.
const (
	sectionStart = "<!-- salaula-bench:start -->"
	sectionEnd   = "<!-- salaula-bench:end -->"
)

// writeSection replaces the text between the markers in path with table, or
// appends the marked table when the file or the markers are missing.
func writeSection(path, table string) error {
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	doc := string(old)
	section := sectionStart + "\n" + strings.TrimRight(table, "\n") + "\n" + sectionEnd
	start, end := strings.Index(doc, sectionStart), strings.Index(doc, sectionEnd)
	switch {
	case start >= 0 && end > start:
		doc = doc[:start] + section + doc[end+len(sectionEnd):]
	case doc == "":
		doc = "# Benchmarks\n\n" + section + "\n"
	default:
		doc = strings.TrimRight(doc, "\n") + "\n\n" + section + "\n"
	}
	return os.WriteFile(path, []byte(doc), 0o644)
}

// settle waits, for at most settleMax, until the machine's CPUs have been
// at least settleIdle idle over settleWindow: what an earlier measurement
// left running (PostgreSQL's autovacuum and checkpoint after a write
// scenario, a SQLite WAL checkpoint) then does not land on the next
// system's figures. It reports how long it waited and whether the machine
// was still busy at the end.
func settle() (waited time.Duration, busy bool) {
	began := time.Now()
	for time.Since(began) < settleMax {
		idle, err := idleShare(settleWindow)
		if err != nil || idle >= settleIdle {
			return time.Since(began), false
		}
	}
	return time.Since(began), true
}

const (
	settleIdle   = 0.9
	settleWindow = 500 * time.Millisecond
	settleMax    = 20 * time.Second
)

// idleShare is the share of the machine's CPU time that was idle (or
// waiting for I/O) over d, from /proc/stat.
func idleShare(d time.Duration) (float64, error) {
	read := func() (idle, total uint64, err error) {
		b, err := os.ReadFile("/proc/stat")
		if err != nil {
			return 0, 0, err
		}
		line, _, _ := strings.Cut(string(b), "\n")
		f := strings.Fields(line)
		if len(f) < 6 || f[0] != "cpu" {
			return 0, 0, fmt.Errorf("/proc/stat: %q", line)
		}
		for i, v := range f[1:] {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return 0, 0, err
			}
			total += n
			if i == 3 || i == 4 { // idle, iowait
				idle += n
			}
		}
		return idle, total, nil
	}
	i0, t0, err := read()
	if err != nil {
		return 0, err
	}
	time.Sleep(d)
	i1, t1, err := read()
	if err != nil || t1 == t0 {
		return 1, err
	}
	return float64(i1-i0) / float64(t1-t0), nil
}
