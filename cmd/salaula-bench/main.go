// Command salaula-bench is `make bench`'s side-by-side load: salaula on
// SQLite, salaula on PostgreSQL and PocketBase, each started on an empty
// data folder (PostgreSQL: a new database) and loaded in turn by wrk with
// the Lua scripts in bench/. Every scenario runs on every system in turn,
// round after round; the table shows the medians of the rounds (requests
// per second, p50 and p99 latency, errors, peak resident memory) with the
// ratio to PocketBase. With -baseline it runs a second salaula binary (the
// previous release) through the same rounds, interleaved, and adds each
// figure's ratio to it. It also times cold starts, reads idle memory and
// checks that every 2xx answer of a write stored its row. With -scale N
// (or SALAULA_BENCH_SIGNUPS=N) it also times the console's waitlist at N
// sign-ups on each system, and salaula's messages and people lists at N/10
// of each (scale.go). It builds nothing: it is given the
// binaries.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"salaula/internal/store"
)

// scenario is one row of the table: a wrk script in bench/, run with
// conc connections on each system it names (all when none).
type scenario struct {
	name   string
	script string   // bench/<script>.lua
	args   []string // for the script, after the system's kind and the run's tag
	conc   int
	on     []string            // system ids; empty: every system
	setup  func(*system) error // once on each system, before its first run
	fresh  bool                // on a server started just before the run, so its peak RSS is this scenario's alone
	least  time.Duration       // the shortest run: wrk counts only the answers that arrive within it
	rows   string              // a write: each 2xx answer stores one row of this kind (see system.tables)
	runs   map[string][]result // system id -> a result per round
}

func (sc *scenario) key() string { return fmt.Sprintf("%s c%d", sc.name, sc.conc) }

// scenarios are the rows of the table, in order. To add one, write its
// script in bench/ and add it here.
func scenarios(asset string) []*scenario {
	return []*scenario{
		{name: "waitlist-signup", script: "waitlist-signup", conc: 16, rows: "waitlist"},
		{name: "waitlist-signup", script: "waitlist-signup", conc: 64, rows: "waitlist"},
		{name: "contact-form-submit", script: "contact-form-submit", conc: 16, rows: "contact"},
		{name: "contact-form-submit", script: "contact-form-submit", conc: 64, rows: "contact"},
		// PocketBase answers 64 sign-ins at once in seconds: a short run
		// would count few of them.
		{name: "password sign-in", script: "password-sign-in", args: []string{benchEmail, benchPassword}, conc: 64,
			setup: (*system).createAccount, fresh: true, least: 20 * time.Second},
		{name: "GET /", script: "get", args: []string{"/"}, conc: 16},
		{name: "GET hashed asset", script: "get", args: []string{"/assets/" + asset}, conc: 16},
	}
}

// options are the command line.
type options struct {
	salaula, baseline, pocketbase, pgAdmin, out, dist, scripts, only string
	duration, idle                                                   time.Duration
	reps, threads, scale                                             int
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "salaula-bench:", err)
		os.Exit(1)
	}
}

func run() error {
	o := options{pgAdmin: os.Getenv("SALAULA_TEST_POSTGRES")}
	if o.pgAdmin == "" {
		// PostgreSQL on the same machine, over its Unix socket, as
		// docs/deploy.md sets a database on the same machine up.
		o.pgAdmin = "postgres://postgres@/postgres?host=/var/run/postgresql"
	}
	flag.StringVar(&o.salaula, "salaula", "bin/salaula", "the salaula binary")
	flag.StringVar(&o.baseline, "baseline", "", "a second salaula binary (e.g. the previous release) run through the same scenarios, interleaved; the table gains its rows and each figure's ratio to it")
	flag.StringVar(&o.pocketbase, "pocketbase", "bin/bench/base", "the PocketBase binary (examples/base)")
	flag.StringVar(&o.pgAdmin, "postgres", o.pgAdmin, "PostgreSQL server to create the benchmark databases on")
	flag.StringVar(&o.out, "out", "docs/benchmarks.md", "where to write the table (empty: only print it)")
	flag.StringVar(&o.dist, "dist", "internal/webapp/dist", "the built app, which PocketBase serves too")
	flag.StringVar(&o.scripts, "scripts", "bench", "the folder of the wrk scripts and PocketBase's collections")
	flag.StringVar(&o.only, "only", "", `run only the scenarios whose name contains this ("cold start" too)`)
	flag.DurationVar(&o.duration, "duration", 5*time.Second, "length of one run, in whole seconds")
	flag.DurationVar(&o.idle, "idle", 3*time.Second, "how long a fresh server idles before its memory is read")
	flag.IntVar(&o.reps, "reps", 3, "rounds of every measurement")
	flag.IntVar(&o.threads, "threads", 2, "wrk's threads (-t)")
	scale, err := 0, error(nil)
	if v := os.Getenv("SALAULA_BENCH_SIGNUPS"); v != "" {
		if scale, err = strconv.Atoi(v); err != nil || scale < 0 {
			return fmt.Errorf("SALAULA_BENCH_SIGNUPS=%q: want a whole number of sign-ups", v)
		}
	}
	flag.IntVar(&o.scale, "scale", scale, "also time the console at this many waitlist sign-ups (default SALAULA_BENCH_SIGNUPS; 0: not)")
	flag.Parse()

	if _, err := exec.LookPath("wrk"); err != nil {
		return errors.New("wrk is not installed (make bench installs Debian's wrk package)")
	}
	if o.scale < 0 {
		return errors.New("-scale: want a whole number of sign-ups (0: no scale scenario)")
	}
	if o.scripts, err = filepath.Abs(o.scripts); err != nil {
		return err
	}
	asset, err := hashedAsset(o.dist)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "salaula-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// Each system runs from a copy: a binary the linker has just written
	// maps about 7 MiB more of its file than a copy of it (the page cache
	// keeps the linker's writes in larger pieces), which a peak RSS would
	// otherwise count against the newer build.
	for _, bin := range []*string{&o.salaula, &o.baseline, &o.pocketbase} {
		if *bin == "" {
			continue
		}
		if *bin, err = copyBinary(*bin, tmp); err != nil {
			return err
		}
	}
	pg := &postgres{url: o.pgAdmin}
	defer pg.dropAll()

	// Cold start and idle memory: in each round every system on a new folder.
	cold, idle := map[string][]float64{}, map[string][]float64{}
	for rep := range o.reps {
		if !strings.Contains("cold start", o.only) {
			break
		}
		systems, err := newSystems(o, filepath.Join(tmp, fmt.Sprint("cold", rep)), pg)
		if err != nil {
			return err
		}
		for _, s := range systems {
			settle(s.name + " cold start")
			d, err := s.start()
			if err != nil {
				return err
			}
			time.Sleep(o.idle)
			rss := float64(procField(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid), "VmRSS"))
			s.stop()
			cold[s.id], idle[s.id] = append(cold[s.id], float64(d.Microseconds())/1000), append(idle[s.id], rss)
			fmt.Fprintf(os.Stderr, "rep %d  cold start %-22s %6d ms  idle RSS %s\n", rep+1, s.name, d.Milliseconds(), mib(rss))
		}
	}

	// The load: each scenario on every system in turn, round after round.
	systems, err := newSystems(o, filepath.Join(tmp, "load"), pg)
	if err != nil {
		return err
	}
	for _, s := range systems {
		if err := s.prepare(o); err != nil {
			return err
		}
		if _, err := s.start(); err != nil {
			return err
		}
		defer s.stop()
		if err := s.setUp(o.scripts); err != nil {
			return fmt.Errorf("set up %s: %w", s.name, err)
		}
	}
	scs := scenarios(asset)
	var checks []*rowCheck
	for rep := range o.reps {
		for _, sc := range scs {
			for _, s := range systems {
				if !strings.Contains(sc.key(), o.only) || len(sc.on) > 0 && !slices.Contains(sc.on, s.id) {
					continue
				}
				if rep == 0 && sc.setup != nil {
					if err := sc.setup(s); err != nil {
						return fmt.Errorf("%s on %s: %w", sc.key(), s.name, err)
					}
				}
				if sc.fresh {
					s.stop()
					if _, err := s.start(); err != nil {
						return err
					}
				}
				settle(sc.key() + " on " + s.name)
				r, err := s.load(sc, o, fmt.Sprintf("%s-r%d-c%d", sc.script, rep+1, sc.conc))
				if err != nil {
					return fmt.Errorf("%s on %s: %w", sc.key(), s.name, err)
				}
				if sc.runs == nil {
					sc.runs = map[string][]result{}
				}
				sc.runs[s.id] = append(sc.runs[s.id], r)
				if sc.rows != "" {
					c := findCheck(&checks, s, sc.rows)
					c.ok, c.unanswered = c.ok+r.ok, c.unanswered+r.unanswered
				}
				fmt.Fprintf(os.Stderr, "rep %d  %-28s %-22s %8.0f req/s  p50 %6.1f ms  p99 %7.1f ms  errors %d  peak RSS %s\n",
					rep+1, sc.key(), s.name, r.rps, r.p50, r.p99, r.errors, mib(r.peak))
			}
		}
	}
	for _, s := range systems {
		s.stop() // so that the servers' last writes are in their files
	}
	for _, c := range checks {
		if err := c.count(); err != nil {
			return err
		}
	}
	table := render(scs, systems, cold, idle, checks, o)
	if o.scale > 0 {
		part, err := runScale(o, filepath.Join(tmp, "scale"), pg)
		if err != nil {
			return err
		}
		table += part
	}
	fmt.Println(table)
	if o.out != "" {
		if err := writeSection(o.out, table); err != nil {
			return err
		}
	}
	for _, c := range checks {
		if !c.holds() {
			return errors.New("stored rows do not match the 2xx answers (see the table)")
		}
	}
	return nil
}

// hashedAsset names the largest script under dist/assets (a content-hashed bundle).
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

// rowCheck is one system's stored rows of one kind against its answers.
type rowCheck struct {
	s                      *system
	kind                   string
	ok, unanswered, stored int64
}

func findCheck(checks *[]*rowCheck, s *system, kind string) *rowCheck {
	for _, c := range *checks {
		if c.s == s && c.kind == kind {
			return c
		}
	}
	c := &rowCheck{s: s, kind: kind}
	*checks = append(*checks, c)
	return c
}

// holds when every 2xx answer stored its row and no request stored two.
// wrk stops with requests in flight, which the server may or may not have
// stored, so up to that many rows more than 2xx answers are right.
func (c *rowCheck) holds() bool { return c.stored >= c.ok && c.stored <= c.ok+c.unanswered }

// count reads the stored rows from the system's database, its server stopped.
func (c *rowCheck) count() error {
	db, err := c.s.database()
	if err != nil {
		return err
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if c.stored, err = store.CountRows(ctx, db, c.s.tables[c.kind]); err != nil {
		return fmt.Errorf("count the %s rows of %s: %w", c.kind, c.s.name, err)
	}
	return nil
}

func mib(b float64) string { return fmt.Sprintf("%.0f MiB", b/(1<<20)) }

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
}

// each is one figure of every round.
func each(rs []result, figure func(result) float64) []float64 {
	var v []float64
	for _, r := range rs {
		v = append(v, figure(r))
	}
	return v
}

// machine describes the computer and the wrk the benchmark ran on.
func machine() string {
	model := "unknown CPU"
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, line := range strings.Split(string(b), "\n") {
		if _, v, ok := strings.Cut(line, "model name"); ok {
			model = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
			break
		}
	}
	version, _ := exec.Command("wrk", "-v").Output() // wrk -v prints its version and exits with 1
	wrk, _, _ := strings.Cut(string(version), " Copyright")
	return fmt.Sprintf("%s, %d cores, %.0f GiB RAM, %s/%s, %s, %s", model, runtime.NumCPU(), float64(procField("/proc/meminfo", "MemTotal"))/(1<<30),
		runtime.GOOS, runtime.GOARCH, runtime.Version(), strings.TrimSpace(wrk))
}

// procField is a size field (such as VmRSS) of a /proc file in bytes, 0 when unknown.
func procField(path, field string) int64 {
	b, _ := os.ReadFile(path)
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

func render(scs []*scenario, systems []*system, cold, idle map[string][]float64, checks []*rowCheck, o options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Writes: salaula against PocketBase\n\n")
	fmt.Fprintf(&b, "Written by `make bench` (`cmd/salaula-bench`, the load by wrk with the scripts in `bench/`) on %s.\n\n", time.Now().UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&b, "Machine: %s.\n\n", machine())
	seconds := fmt.Sprintf("%d s", max(1, int(o.duration.Seconds())))
	for _, sc := range scs {
		if sc.least > o.duration && sc.runs != nil && !strings.Contains(seconds, sc.name) {
			seconds += fmt.Sprintf(" (%s: %d s)", sc.name, int(sc.least.Seconds()))
		}
	}
	fmt.Fprintf(&b, "Each row: %s of `wrk -t%d` at the given concurrency (one keep-alive connection per concurrent client, a unique e-mail per write), "+
		"%d rounds with the systems interleaved, each run starting once the machine is at least 90 %% idle over half a second "+
		"(waiting up to 20 s, so background work an earlier run left behind, such as PostgreSQL's autovacuum, does not land on the next). "+
		"req/s counts 2xx answers; the figures are the medians of the rounds, errors (socket errors and answers of 400 or more) are summed, "+
		"peak RSS is the highest over the rounds of the server process's peak resident memory during the run (the kernel's high-water mark, reset before each run; "+
		"for password sign-in, of a server process started just before the run, so it is that scenario's alone). "+
		"Ratio = req/s of the system / req/s of PocketBase (the medians), and in brackets the same ratio in each round. "+
		"salaula runs with its rate limits off (`SALAULA_RATE_FORMS=0`, `SALAULA_RATE_AUTH=0`), SQLite with `synchronous=FULL`, "+
		"PostgreSQL (default settings) on the same machine reached at `%s` (docs/deploy.md: over the Unix socket for a database on the same machine); "+
		"PocketBase v0.39.11 (`examples/base`) with the collections of `bench/pocketbase-collections.json` created through its API "+
		"(a unique (email, program) index on the waitlist, public create rules); "+
		"note that PocketBase runs SQLite with `synchronous=NORMAL` (its commits are not flushed to disk: they survive a crash of the process, not a power cut) and sends no e-mail, "+
		"while each salaula sign-up also queues its confirmation e-mail in the same transaction. "+
		"The machine is shared, so absolute figures wander; compare the systems side by side.\n\n",
		seconds, o.threads, o.reps, o.pgAdmin)
	head, rule := "| scenario | system | req/s | p50 ms | p99 ms | errors | peak RSS | ratio to PocketBase |", "|---|---|---:|---:|---:|---:|---:|---:|"
	if o.baseline != "" {
		fmt.Fprintf(&b, "Baseline: `%s`, on SQLite and on a PostgreSQL database of its own, run in the same rounds right after salaula on the same store. "+
			"Ratio to baseline: salaula's figure / the baseline's on the same store (the medians; peak RSS: the highest), for req/s, p50, p99 and peak RSS in that order: "+
			"above 1 for req/s, or below 1 for the others, is better than the baseline.\n\n", o.baseline)
		head, rule = head+" ratio to baseline (req/s · p50 · p99 · peak RSS) |", rule+"---:|"
	}
	b.WriteString(head + "\n" + rule + "\n")
	for _, sc := range scs {
		pb := median(each(sc.runs["pocketbase"], func(r result) float64 { return r.rps }))
		for _, s := range systems {
			rs := sc.runs[s.id]
			if len(rs) == 0 {
				continue
			}
			rps := median(each(rs, func(r result) float64 { return r.rps }))
			ratio := "-"
			if pb > 0 {
				ratio = fmt.Sprintf("%.2f", rps/pb)
			}
			if pbs := sc.runs["pocketbase"]; s.id != "pocketbase" && pb > 0 && len(pbs) == len(rs) && len(rs) > 1 {
				var rounds []string
				for i := range rs {
					rounds = append(rounds, fmt.Sprintf("%.2f", rs[i].rps/pbs[i].rps))
				}
				ratio += " (" + strings.Join(rounds, " / ") + ")"
			}
			var errs int64
			for _, r := range rs {
				errs += r.errors
			}
			fmt.Fprintf(&b, "| %s | %s | %.0f | %.1f | %.1f | %d | %s | %s |", sc.key(), s.name, rps,
				median(each(rs, func(r result) float64 { return r.p50 })), median(each(rs, func(r result) float64 { return r.p99 })),
				errs, mib(slices.Max(each(rs, func(r result) float64 { return r.peak }))), ratio)
			if o.baseline != "" {
				b.WriteString(" " + baselineRatios(rs, sc.runs[s.base]) + " |")
			}
			b.WriteString("\n")
		}
	}
	if len(cold) > 0 {
		fmt.Fprintf(&b, "\nCold start (process start to the first 200 of its health check, on an empty data folder or a new PostgreSQL database) "+
			"and idle RSS (the same process's resident memory %s later, no load); medians of %d:\n\n", o.idle, o.reps)
		head, rule := "| system | cold start | idle RSS |", "|---|---:|---:|"
		if o.baseline != "" {
			head, rule = head+" ratio to baseline (cold start · idle RSS) |", rule+"---:|"
		}
		b.WriteString(head + "\n" + rule + "\n")
		for _, s := range systems {
			fmt.Fprintf(&b, "| %s | %.0f ms | %s |", s.name, median(cold[s.id]), mib(median(idle[s.id])))
			if o.baseline != "" {
				ratios := "-"
				if s.base != "" {
					ratios = ratioOf(median(cold[s.id]), median(cold[s.base])) + " · " + ratioOf(median(idle[s.id]), median(idle[s.base]))
				}
				b.WriteString(" " + ratios + " |")
			}
			b.WriteString("\n")
		}
	}
	if len(checks) > 0 {
		b.WriteString("\nStored rows after the runs. wrk stops with requests in flight, which the server may or may not have stored, so " +
			"every 2xx answer stored its row and no request stored two when the rows stored are at least the 2xx answers and at most that plus the requests unanswered at the stops:\n\n" +
			"| system | write | 2xx answers | unanswered at the stops | rows stored | check |\n|---|---|---:|---:|---:|---|\n")
		for _, c := range checks {
			verdict := "ok"
			if !c.holds() {
				verdict = "MISMATCH"
			}
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %s |\n", c.s.name, c.kind, c.ok, c.unanswered, c.stored, verdict)
		}
	}
	return b.String()
}

// baselineRatios is salaula's figures over the baseline's on the same
// store, "req/s · p50 · p99 · peak RSS", or "-" when either is missing
// (the baseline's own rows, PocketBase).
func baselineRatios(rs, base []result) string {
	if len(rs) == 0 || len(base) == 0 {
		return "-"
	}
	var parts []string
	for _, figure := range []func(result) float64{
		func(r result) float64 { return r.rps },
		func(r result) float64 { return r.p50 },
		func(r result) float64 { return r.p99 },
	} {
		parts = append(parts, ratioOf(median(each(rs, figure)), median(each(base, figure))))
	}
	peak := func(r result) float64 { return r.peak }
	parts = append(parts, ratioOf(slices.Max(each(rs, peak)), slices.Max(each(base, peak))))
	return strings.Join(parts, " · ")
}

// ratioOf is a / b to two places, "-" when b is 0.
func ratioOf(a, b float64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", a/b)
}

// Markers around the part of the benchmarks file this program owns; the
// rest of the file is kept as it is.
const (
	sectionStart = "<!-- salaula-bench:start -->"
	sectionEnd   = "<!-- salaula-bench:end -->"
)

// writeSection replaces the text between the markers in path with table,
// or appends the marked table when the file or the markers are missing.
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

// settle waits, for at most 20 s, until the machine's CPUs have been at
// least 90 % idle over half a second: what an earlier run left running
// (PostgreSQL's autovacuum and checkpoint, a SQLite WAL checkpoint) then
// does not land on the next run's figures. It says so when the machine
// stayed busy.
func settle(what string) {
	for began := time.Now(); time.Since(began) < 20*time.Second; {
		i0, t0 := cpuTimes()
		time.Sleep(500 * time.Millisecond)
		i1, t1 := cpuTimes()
		if t1 == t0 || float64(i1-i0)/float64(t1-t0) >= 0.9 {
			return
		}
	}
	fmt.Fprintf(os.Stderr, "the machine stayed busy for 20 s before %s; measuring anyway\n", what)
}

// cpuTimes are the machine's idle (idle and iowait) and total CPU time so
// far, in ticks: the first line of /proc/stat, "cpu user nice system idle iowait ...".
func cpuTimes() (idle, total uint64) {
	b, _ := os.ReadFile("/proc/stat")
	line, _, _ := strings.Cut(string(b), "\n")
	for i, v := range strings.Fields(line) {
		n, _ := strconv.ParseUint(v, 10, 64) // 0 for "cpu"
		total += n
		if i == 4 || i == 5 {
			idle += n
		}
	}
	return idle, total
}

// copyBinary copies the executable at path into a new folder in dir and
// returns the copy's path.
func copyBinary(path, dir string) (string, error) {
	src, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer src.Close()
	into, err := os.MkdirTemp(dir, "bin-")
	if err != nil {
		return "", err
	}
	to := filepath.Join(into, filepath.Base(path))
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return "", err
	}
	return to, dst.Close()
}
