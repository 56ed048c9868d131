package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"salaula/internal/mfa"
	"salaula/internal/store/storetest"
)

// rtSocket is a realtime-js socket (vsn 2.0.0) that keeps the messages
// it receives: [join_ref, ref, topic, event, payload].
type rtSocket struct {
	ws   *websocket.Conn
	mu   sync.Mutex
	msgs [][]json.RawMessage
}

// dialRealtime opens a realtime socket to c's server with its anon key.
func dialRealtime(t *testing.T, c apiClient) *rtSocket {
	t.Helper()
	code, body, err := c.call(http.MethodGet, "/config.json", "", "", nil)
	mustOK(t, "config.json", http.StatusOK, code, body, err)
	var cfg struct{ AnonKey string }
	if err := json.Unmarshal(body, &cfg); err != nil || cfg.AnonKey == "" {
		t.Fatalf("config.json: %s", body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(c.base, "http")+"/realtime/v1/websocket?vsn=2.0.0&apikey="+cfg.AnonKey, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	s := &rtSocket{ws: ws}
	go func() {
		for {
			_, b, err := ws.Read(context.Background())
			if err != nil {
				return
			}
			var m []json.RawMessage
			if json.Unmarshal(b, &m) == nil && len(m) == 5 {
				s.mu.Lock()
				s.msgs = append(s.msgs, m)
				s.mu.Unlock()
			}
		}
	}()
	return s
}

// wait returns the payload of the first message on topic with event (and
// with status, unless "") within 5 s.
func (s *rtSocket) wait(t *testing.T, topic, event, status string) map[string]any {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		s.mu.Lock()
		for _, m := range s.msgs {
			var p map[string]any
			json.Unmarshal(m[4], &p)
			if string(m[2]) == `"realtime:`+topic+`"` && string(m[3]) == `"`+event+`"` && (status == "" || p["status"] == status) {
				s.mu.Unlock()
				return p
			}
		}
		s.mu.Unlock()
	}
	t.Fatalf("no %s %s on realtime:%s within 5 s", event, status, topic)
	return nil
}

// join joins topic with token, following the postgres_changes of table
// (with filter, if any), and wants the join accepted.
func (s *rtSocket) join(t *testing.T, topic, token, table, filter string) {
	t.Helper()
	pc := map[string]any{"event": "*", "schema": "public", "table": table}
	if filter != "" {
		pc["filter"] = filter
	}
	b, _ := json.Marshal([]any{topic, topic, "realtime:" + topic, "phx_join",
		map[string]any{"access_token": token, "config": map[string]any{"postgres_changes": []any{pc}}}})
	if err := s.ws.Write(context.Background(), websocket.MessageText, b); err != nil {
		t.Fatal(err)
	}
	if p := s.wait(t, topic, "phx_reply", ""); p["status"] != "ok" {
		t.Fatalf("join %s: %v", topic, p)
	}
}

// closed waits for the server to close topic (a system error, then
// phx_close) and returns the reason.
func (s *rtSocket) closed(t *testing.T, topic string) string {
	t.Helper()
	p := s.wait(t, topic, "system", "error")
	s.wait(t, topic, "phx_close", "")
	return fmt.Sprint(p["message"])
}

// operatorSession signs email up on c, makes it an operator with `salaula
// admin grant` and passes two-step sign-in; it returns the aal2 token.
func operatorSession(t *testing.T, c apiClient, env map[string]string, email string) string {
	t.Helper()
	code, s, err := c.signUp(email, testPassword)
	mustOK(t, "operator sign-up", http.StatusOK, code, nil, err)
	if err := run(context.Background(), []string{"salaula", "admin", "grant", email, "--data", t.TempDir()}, envOf(env), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	post := func(path, body string, out any) {
		code, b, err := c.call(http.MethodPost, path, s.AccessToken, "application/json", []byte(body))
		mustOK(t, path, http.StatusOK, code, b, err)
		json.Unmarshal(b, out)
	}
	var factor struct {
		ID   string
		TOTP struct{ Secret string }
	}
	post("/auth/v1/factors", `{"factor_type":"totp"}`, &factor)
	var challenge struct{ ID string }
	post("/auth/v1/factors/"+factor.ID+"/challenge", `{}`, &challenge)
	code6, err := mfa.Code(factor.TOTP.Secret, mfa.Step(time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	var aal2 session
	post("/auth/v1/factors/"+factor.ID+"/verify", fmt.Sprintf(`{"challenge_id":%q,"code":%q}`, challenge.ID, code6), &aal2)
	return aal2.AccessToken
}

// A sign-out on instance A and the operator role removed with `salaula
// admin revoke` close, at once, the channels that person holds on
// instance B (the periodic re-check, every 30 s, is not what does it).
func TestRealtimeChannelsCloseOnEveryInstanceWhenAccessEnds(t *testing.T) {
	// One signing secret and one public address (the tokens' issuer), as behind a load balancer.
	env := map[string]string{"DATABASE_URL": storetest.MigratedPostgresDatabase(t), "SALAULA_JWT_SECRET": "one-secret-shared-by-every-instance-0123456789",
		"SALAULA_PUBLIC_URL": "https://salaula.example"}
	var procs [2]apiClient
	for i := range procs {
		p, err := startProcess(t, env, t.TempDir())
		if err != nil {
			t.Fatalf("instance %c: %v", 'A'+i, err)
		}
		t.Cleanup(p.Stop)
		procs[i] = apiClient{base: "http://" + p.Addr}
	}
	a, b := procs[0], procs[1]
	op := operatorSession(t, a, env, "founder@example.com")
	code, person, err := a.signUp("chipo@example.com", testPassword)
	mustOK(t, "sign-up", http.StatusOK, code, nil, err)

	sock := dialRealtime(t, b)
	sock.join(t, "console", op, "waitlist_signups", "")
	sock.join(t, "profile:"+person.User.ID, person.AccessToken, "profiles", "user_id=eq."+person.User.ID)

	code, body, err := a.call(http.MethodPost, "/auth/v1/logout", person.AccessToken, "", nil)
	mustOK(t, "sign-out on A", http.StatusNoContent, code, body, err)
	if reason := sock.closed(t, "profile:"+person.User.ID); !strings.Contains(reason, "signed out") {
		t.Fatalf("after the sign-out on A, B said %q", reason)
	}

	if err := run(context.Background(), []string{"salaula", "admin", "revoke", "founder@example.com", "--data", t.TempDir()}, envOf(env), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if reason := sock.closed(t, "console"); !strings.Contains(reason, "Salaula team's") {
		t.Fatalf("after admin revoke, B said %q", reason)
	}
}
