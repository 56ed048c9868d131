package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"salaula/internal/mfa"
)

// Realtime on one salaula instance: idleConns sockets each joined to a
// channel (a person following their own profile, which does not change),
// the server's memory per socket, then one operator following the
// waitlist while sign-ups arrive at rtRate a second: the time from each
// sign-up's commit (the event's commit_timestamp) to its arrival.
const (
	idleConns  = 1000
	rtRate     = 50
	rtDuration = 10 * time.Second
)

// benchMetricsToken opens the servers' /metrics to the benchmark.
const benchMetricsToken = "salaula-bench-metrics-token-0123456789"

type rtResult struct {
	conns          int
	rssBefore      int64
	rssAfter       int64
	memBefore      int64 // Go heap in use + goroutine stacks, from /metrics
	memAfter       int64
	events, sent   int
	p50, p99, maxD time.Duration
}

// rtSocket opens a realtime socket and joins topic with token and the
// postgres_changes bindings; it returns the socket once the join is answered.
func (s *system) rtSocket(ctx context.Context, topic, token string, changes []map[string]any) (*websocket.Conn, error) {
	ws, _, err := websocket.Dial(ctx, "ws://"+s.addr+"/realtime/v1/websocket?vsn=2.0.0&apikey="+s.anon, nil)
	if err != nil {
		return nil, err
	}
	join, _ := json.Marshal([]any{"1", "1", "realtime:" + topic, "phx_join", map[string]any{
		"access_token": token, "config": map[string]any{"postgres_changes": changes}}})
	if err := ws.Write(ctx, websocket.MessageText, join); err != nil {
		ws.CloseNow()
		return nil, err
	}
	_, b, err := ws.Read(ctx)
	if err != nil || !strings.Contains(string(b), `"status":"ok"`) {
		ws.CloseNow()
		return nil, fmt.Errorf("join: %s %v", b, err)
	}
	return ws, nil
}

// session signs up email and returns its user id and access token.
func (s *system) session(email string) (string, string, error) {
	code, b, err := s.call("POST", "/auth/v1/signup", map[string]any{"email": email, "password": benchPassword}, "")
	if err != nil || code != 200 {
		return "", "", fmt.Errorf("sign-up: %d %s %v", code, b, err)
	}
	var out struct {
		AccessToken string `json:"access_token"`
		User        struct {
			ID string `json:"id"`
		} `json:"user"`
	}
	json.Unmarshal(b, &out)
	return out.User.ID, out.AccessToken, nil
}

// operatorToken makes an operator with two-step sign-in and returns its aal2 token.
func (s *system) operatorToken() (string, error) {
	email := fmt.Sprintf("rt-founder-%d@example.com", time.Now().UnixNano())
	_, tok, err := s.session(email)
	if err != nil {
		return "", err
	}
	grant := exec.Command(s.bin, "admin", "grant", email, "--data", s.dir)
	grant.Env = append(os.Environ(), "DATABASE_URL="+s.pgURL, "SALAULA_JWT_SECRET="+benchSecret)
	if out, err := grant.CombinedOutput(); err != nil {
		return "", fmt.Errorf("grant: %v: %s", err, out)
	}
	bearer := "Bearer " + tok
	code, b, err := s.call("POST", "/auth/v1/factors", map[string]any{"factor_type": "totp"}, bearer)
	if err != nil || code != 200 {
		return "", fmt.Errorf("enrol: %d %s %v", code, b, err)
	}
	var f struct {
		ID   string `json:"id"`
		TOTP struct {
			Secret string `json:"secret"`
		} `json:"totp"`
	}
	json.Unmarshal(b, &f)
	code, b, err = s.call("POST", "/auth/v1/factors/"+f.ID+"/challenge", map[string]any{}, bearer)
	if err != nil || code != 200 {
		return "", fmt.Errorf("challenge: %d %s %v", code, b, err)
	}
	var ch struct {
		ID string `json:"id"`
	}
	json.Unmarshal(b, &ch)
	totp, err := mfa.Code(f.TOTP.Secret, mfa.Step(time.Now()))
	if err != nil {
		return "", err
	}
	code, b, err = s.call("POST", "/auth/v1/factors/"+f.ID+"/verify", map[string]any{"challenge_id": ch.ID, "code": totp}, bearer)
	if err != nil || code != 200 {
		return "", fmt.Errorf("verify: %d %s %v", code, b, err)
	}
	var sess struct {
		AccessToken string `json:"access_token"`
	}
	json.Unmarshal(b, &sess)
	return sess.AccessToken, nil
}

// realtimeBench runs the realtime measurement on a started salaula system.
func (s *system) realtimeBench() (rtResult, error) {
	var r rtResult
	code, b, err := s.call("GET", "/config.json", nil, "")
	if err != nil || code != 200 {
		return r, fmt.Errorf("config.json: %d %v", code, err)
	}
	var cfg struct {
		AnonKey string `json:"anonKey"`
	}
	json.Unmarshal(b, &cfg)
	s.anon = cfg.AnonKey
	uid, tok, err := s.session(fmt.Sprintf("rt-idle-%d@example.com", time.Now().UnixNano()))
	if err != nil {
		return r, err
	}
	opTok, err := s.operatorToken()
	if err != nil {
		return r, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.Sleep(2 * time.Second)
	r.rssBefore, r.memBefore = rss(s.cmd.Process.Pid), s.goMemory()
	own := []map[string]any{{"event": "*", "schema": "public", "table": "profiles", "filter": "user_id=eq." + uid}}
	idle := make([]*websocket.Conn, 0, idleConns)
	defer func() {
		for _, ws := range idle {
			ws.CloseNow()
		}
	}()
	for i := range idleConns {
		dctx, dcancel := context.WithTimeout(ctx, 10*time.Second)
		ws, err := s.rtSocket(dctx, fmt.Sprintf("idle-%d", i), tok, own)
		dcancel()
		if err != nil {
			return r, fmt.Errorf("idle socket %d: %w", i, err)
		}
		go func() { // idle: what the server sends (the system message) is read and dropped
			for {
				if _, _, err := ws.Read(ctx); err != nil {
					return
				}
			}
		}()
		idle = append(idle, ws)
	}
	time.Sleep(time.Second)
	r.rssAfter, r.memAfter = rss(s.cmd.Process.Pid), s.goMemory()
	r.conns = int(s.metric("salaula_realtime_connections "))
	if r.conns != idleConns {
		return r, fmt.Errorf("the server has %d sockets open, want %d", r.conns, idleConns)
	}

	op, err := s.rtSocket(ctx, "console", opTok, []map[string]any{{"event": "INSERT", "schema": "public", "table": "waitlist_signups"}})
	if err != nil {
		return r, fmt.Errorf("operator socket: %w", err)
	}
	defer op.CloseNow()
	var mu sync.Mutex
	var lat []time.Duration
	go func() {
		for {
			_, b, err := op.Read(ctx)
			if err != nil {
				return
			}
			at := time.Now()
			var arr []json.RawMessage
			if json.Unmarshal(b, &arr) != nil || len(arr) != 5 || string(arr[3]) != `"postgres_changes"` {
				continue
			}
			var p struct {
				Data struct {
					CommitTimestamp time.Time `json:"commit_timestamp"`
				} `json:"data"`
			}
			json.Unmarshal(arr[4], &p)
			mu.Lock()
			lat = append(lat, at.Sub(p.Data.CommitTimestamp))
			mu.Unlock()
		}
	}()
	tick := time.NewTicker(time.Second / rtRate)
	stop := time.After(rtDuration)
	var wg sync.WaitGroup
loop:
	for i := 0; ; i++ {
		select {
		case <-stop:
			break loop
		case <-tick.C:
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, _, err := s.call("POST", "/functions/v1/waitlist-signup",
				map[string]any{"email": fmt.Sprintf("rt-%d-%d@example.com", time.Now().UnixNano(), i), "programName": "Upcycling Initiative"}, "")
			if err == nil && code == 200 {
				mu.Lock()
				r.sent++
				mu.Unlock()
			}
		}()
	}
	tick.Stop()
	wg.Wait()
	time.Sleep(time.Second)
	mu.Lock()
	defer mu.Unlock()
	r.events = len(lat)
	if len(lat) == 0 {
		return r, fmt.Errorf("no events reached the operator (%d sign-ups)", r.sent)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	r.p50, r.p99, r.maxD = lat[len(lat)/2], lat[len(lat)*99/100], lat[len(lat)-1]
	return r, nil
}

// goMemory reads the server's Go heap in use plus goroutine stacks from /metrics.
func (s *system) goMemory() int64 {
	return int64(s.metric("go_memstats_heap_inuse_bytes ") + s.metric("go_memstats_stack_inuse_bytes "))
}

// metric reads one unlabelled value (name with its trailing space) from the server's /metrics.
func (s *system) metric(name string) float64 {
	code, b, err := s.call("GET", "/metrics", nil, "Bearer "+benchMetricsToken)
	if err != nil || code != 200 {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, name); ok {
			var f float64
			fmt.Sscan(v, &f)
			return f
		}
	}
	return 0
}

// renderRealtime is the realtime table of docs/benchmarks.md.
func renderRealtime(rows map[string]rtResult, order []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n### Realtime (%d idle subscribed sockets on one instance; sign-ups at %d/s for %s)\n\n", idleConns, rtRate, rtDuration)
	b.WriteString("| system | sockets | server Go heap+stacks before → after | per socket | RSS before → after | sign-ups (2xx) | events at the operator | commit → event p50 | p99 | max |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, name := range order {
		r, ok := rows[name]
		if !ok {
			continue
		}
		per := float64(r.memAfter-r.memBefore) / float64(max(r.conns, 1)) / 1024
		fmt.Fprintf(&b, "| %s | %d | %s → %s | %.1f KiB | %s → %s | %d | %d | %.1f ms | %.1f ms | %.1f ms |\n",
			name, r.conns, mib(r.memBefore), mib(r.memAfter), per, mib(r.rssBefore), mib(r.rssAfter), r.sent, r.events, ms(r.p50), ms(r.p99), ms(r.maxD))
	}
	b.WriteString("\nThe commit time is the event's commit_timestamp: on SQLite taken right after the commit, on PostgreSQL just before\n" +
		"COMMIT (NOTIFY is sent by the commit), so PostgreSQL's figures include the commit's own flush.\n")
	return b.String()
}
