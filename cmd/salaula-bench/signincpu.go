package main

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// signInWork is how much CPU the server process spends on one password
// sign-in (all its threads: HTTP, JSON, sessions, tokens and, on SQLite,
// the database; PostgreSQL's own process is not counted, nor the client,
// another process) and how much of that is argon2id, as the server counts
// it on the hashing thread (salaula_password_hash_cpu_seconds_total).
type signInWork struct {
	server, hash time.Duration // per sign-in: medians over the blocks
	signIns      int
}

// above is the share of the server's sign-in CPU that is not the hash.
func (w signInWork) above() float64 {
	return 100 * float64(w.server-w.hash) / float64(w.server)
}

// measureSignInWork runs blocks of perBlock sequential sign-ins against s
// over one keep-alive connection. Around each block it reads the server
// process's CPU time and the server's hashing CPU (a metrics scrape, made
// outside the block so its own work is not counted); the figures are the
// medians of the per-block averages, so a block slowed by another process
// on the machine does not carry them.
func (s *system) measureSignInWork(blocks, perBlock int) (signInWork, error) {
	pid := s.cmd.Process.Pid
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}, Timeout: 30 * time.Second}
	defer client.CloseIdleConnections()
	body := fmt.Sprintf(`{"email": %q, "password": %q}`, benchEmail, benchPassword)
	signIn := func() error {
		req, _ := http.NewRequest("POST", "http://"+s.addr+"/auth/v1/token?grant_type=password", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept-Encoding", "gzip, br") // as a browser asks
		res, err := client.Do(req)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("sign-in answered %d", res.StatusCode)
		}
		return nil
	}
	for range 3 { // warm: connection, statements, the hashing slots
		if err := signIn(); err != nil {
			return signInWork{}, err
		}
	}
	var serverPer, hashPer []time.Duration
	for range blocks {
		h0, err := s.hashCPU(client)
		if err != nil {
			return signInWork{}, err
		}
		c0, err := processCPU(pid)
		if err != nil {
			return signInWork{}, err
		}
		for range perBlock {
			if err := signIn(); err != nil {
				return signInWork{}, err
			}
		}
		c1, err := processCPU(pid)
		if err != nil {
			return signInWork{}, err
		}
		h1, err := s.hashCPU(client)
		if err != nil {
			return signInWork{}, err
		}
		serverPer = append(serverPer, (c1-c0)/time.Duration(perBlock))
		hashPer = append(hashPer, (h1-h0)/time.Duration(perBlock))
	}
	median := func(d []time.Duration) time.Duration {
		slices.Sort(d)
		return d[len(d)/2]
	}
	return signInWork{server: median(serverPer), hash: median(hashPer), signIns: blocks * perBlock}, nil
}

// hashCPU reads salaula_password_hash_cpu_seconds_total from s's metrics.
func (s *system) hashCPU(client *http.Client) (time.Duration, error) {
	req, _ := http.NewRequest("GET", "http://"+s.addr+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+benchMetricsToken)
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("metrics answered %d", res.StatusCode)
	}
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "salaula_password_hash_cpu_seconds_total "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return 0, err
			}
			return time.Duration(f * float64(time.Second)), nil
		}
	}
	return 0, fmt.Errorf("metrics lack salaula_password_hash_cpu_seconds_total (%v)", sc.Err())
}

// processCPU is the CPU time all threads of process pid have used so far:
// the sum of the first field of /proc/<pid>/task/*/schedstat, in
// nanoseconds (/proc/<pid>/stat counts in 10 ms ticks, too coarse for a
// block of sign-ins). A Go program keeps its threads, so none of its time
// leaves the sum by a thread ending.
func processCPU(pid int) (time.Duration, error) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		return 0, fmt.Errorf("read the CPU time of process %d: %v", pid, err)
	}
	var sum time.Duration
	for _, p := range tasks {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // the thread ended between the listing and the read
		}
		f := strings.Fields(string(b))
		if len(f) == 0 {
			continue
		}
		ns, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s: %q", p, b)
		}
		sum += time.Duration(ns)
	}
	return sum, nil
}

// cpuCounters are a salaula server's CPU time so far, all its threads,
// and the part of it spent hashing passwords.
type cpuCounters struct{ server, hash time.Duration }

// cpuCounters reads s's counters. The hashing CPU comes from a metrics
// scrape, whose own work is kept out of the span between two readings:
// before the span (after false) the scrape comes first, after it (after
// true) last.
func (s *system) cpuCounters(after bool) (cpuCounters, error) {
	var c cpuCounters
	var err error
	if !after {
		if c.hash, err = s.hashCPU(s.client); err != nil {
			return c, err
		}
	}
	if c.server, err = processCPU(s.cmd.Process.Pid); err != nil {
		return c, err
	}
	if after {
		c.hash, err = s.hashCPU(s.client)
	}
	return c, err
}

// per is the work of each of n sign-ins made between before and c.
func (c cpuCounters) per(before cpuCounters, n int64) signInWork {
	if n <= 0 {
		return signInWork{}
	}
	return signInWork{server: (c.server - before.server) / time.Duration(n), hash: (c.hash - before.hash) / time.Duration(n), signIns: int(n)}
}

// medianWork is the repetition with the median share above the hash, with
// the sign-ins of all repetitions.
func medianWork(reps []signInWork) signInWork {
	sorted := slices.Clone(reps)
	slices.SortFunc(sorted, func(a, b signInWork) int { return cmp.Compare(a.above(), b.above()) })
	w := sorted[len(sorted)/2]
	w.signIns = 0
	for _, r := range reps {
		w.signIns += r.signIns
	}
	return w
}

// renderSignInWork is the table of the work above the hash: sequential
// sign-ins (seq) and, where measured, under the crowd of 64 (crowd).
func renderSignInWork(seq, crowd map[string]signInWork, order []string) string {
	if len(order) == 0 {
		return ""
	}
	rows := seq
	var b strings.Builder
	b.WriteString("\n### Password sign-in: the server's own work above the hash (issue 12 target: under 5 %)\n\n")
	b.WriteString("Sequential sign-ins over one keep-alive connection (asking for gzip or brotli, as a browser does), in blocks of 10. ")
	b.WriteString("Server CPU is the server process's alone, all its threads (/proc/PID/task/*/schedstat): HTTP, JSON, sessions, tokens and, on SQLite, the database count; the client and PostgreSQL's own process do not. ")
	b.WriteString("The argon2id part is what the server counts on its hashing thread (`salaula_password_hash_cpu_seconds_total`, read between blocks). Medians over the blocks.\n\n")
	b.WriteString("| system | sign-ins | server CPU per sign-in | of which argon2id | above the hash |\n|---|---:|---:|---:|---:|\n")
	for _, name := range order {
		w := rows[name]
		fmt.Fprintf(&b, "| %s | %d | %.2f ms | %.2f ms | %.1f %% |\n", name, w.signIns, ms(w.server), ms(w.hash), w.above())
	}
	if len(crowd) > 0 {
		b.WriteString("\nThe same under the crowd of the `password sign-in c64` rows above: the server's CPU and its hashing CPU read before and after each repetition " +
			"(64 clients signing in at once on a freshly started server), per sign-in answered; the repetition with the median share.\n\n")
		b.WriteString("| system | sign-ins | server CPU per sign-in | of which argon2id | above the hash |\n|---|---:|---:|---:|---:|\n")
		for _, name := range order {
			if w, ok := crowd[name]; ok {
				fmt.Fprintf(&b, "| %s | %d | %.2f ms | %.2f ms | %.1f %% |\n", name, w.signIns, ms(w.server), ms(w.hash), w.above())
			}
		}
	}
	return b.String()
}
