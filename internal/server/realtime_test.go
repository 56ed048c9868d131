package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"salaula/internal/config"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
	"salaula/internal/token"
)

// rtMsg is a Phoenix message as a realtime client receives it.
type rtMsg struct {
	JoinRef, Ref any
	Topic, Event string
	Payload      map[string]any
	Binary       bool
	BcastEvent   string
	BcastPayload string
}

// rtClient is a minimal realtime-js: a socket speaking vsn 2.0.0 that keeps
// every message it receives.
type rtClient struct {
	t    *testing.T
	ws   *websocket.Conn
	ref  int
	mu   sync.Mutex
	msgs []rtMsg
	err  error // why the socket ended
	done chan struct{}
	v1   bool // vsn 1.0.0: JSON objects instead of arrays
}

// realtimeDial opens a socket with the anon key; read false leaves the
// socket unread (a slow client).
func (e *testEnv) realtimeDial(t *testing.T, query string, read bool) *rtClient {
	t.Helper()
	if query == "" {
		query = "apikey=" + e.anonKey(t) + "&vsn=2.0.0"
	}
	url := "ws" + strings.TrimPrefix(e.URL, "http") + "/realtime/v1/websocket?" + query
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	ws.SetReadLimit(1 << 24)
	c := &rtClient{t: t, ws: ws, done: make(chan struct{}), v1: strings.Contains(query, "vsn=1.0.0")}
	t.Cleanup(func() { ws.CloseNow() })
	if read {
		go c.readAll()
	}
	return c
}

func (c *rtClient) readAll() {
	defer close(c.done)
	for {
		typ, data, err := c.ws.Read(context.Background())
		if err != nil {
			c.mu.Lock()
			c.err = err
			c.mu.Unlock()
			return
		}
		var m rtMsg
		if typ == websocket.MessageBinary {
			// kind 4: topic, event and metadata lengths, encoding, then the strings and payload.
			tl, el, ml := int(data[1]), int(data[2]), int(data[3])
			m = rtMsg{Binary: true, Event: "broadcast", Topic: string(data[5 : 5+tl]), BcastEvent: string(data[5+tl : 5+tl+el]),
				BcastPayload: string(data[5+tl+el+ml:])}
		} else if c.v1 {
			var o struct {
				JoinRef, Ref any
				Topic, Event string
				Payload      map[string]any
			}
			if err := json.Unmarshal(data, &o); err != nil {
				c.mu.Lock()
				c.err = fmt.Errorf("server sent %q", data)
				c.mu.Unlock()
				return
			}
			m = rtMsg{JoinRef: o.JoinRef, Ref: o.Ref, Topic: o.Topic, Event: o.Event, Payload: o.Payload}
		} else {
			var arr []json.RawMessage
			if err := json.Unmarshal(data, &arr); err != nil || len(arr) != 5 {
				c.mu.Lock()
				c.err = fmt.Errorf("server sent %q", data)
				c.mu.Unlock()
				return
			}
			json.Unmarshal(arr[0], &m.JoinRef)
			json.Unmarshal(arr[1], &m.Ref)
			json.Unmarshal(arr[2], &m.Topic)
			json.Unmarshal(arr[3], &m.Event)
			json.Unmarshal(arr[4], &m.Payload)
		}
		c.mu.Lock()
		c.msgs = append(c.msgs, m)
		c.mu.Unlock()
	}
}

// send pushes a message and returns its ref.
func (c *rtClient) send(joinRef, topic, event string, payload any) string {
	c.t.Helper()
	c.ref++
	ref := fmt.Sprint(c.ref)
	var jr any
	if joinRef != "" {
		jr = joinRef
	}
	b, _ := json.Marshal([]any{jr, ref, topic, event, payload})
	if c.v1 {
		b, _ = json.Marshal(map[string]any{"join_ref": jr, "ref": ref, "topic": topic, "event": event, "payload": payload})
	}
	c.raw(websocket.MessageText, b)
	return ref
}

func (c *rtClient) raw(typ websocket.MessageType, b []byte) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.ws.Write(ctx, typ, b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// wait returns the first message pred accepts within 3 s.
func (c *rtClient) wait(what string, pred func(rtMsg) bool) rtMsg {
	c.t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		c.mu.Lock()
		for _, m := range c.msgs {
			if pred(m) {
				c.mu.Unlock()
				return m
			}
		}
		got, err := fmt.Sprintf("%+v", c.msgs), c.err
		c.mu.Unlock()
		if time.Now().After(deadline) {
			c.t.Fatalf("no %s within 3 s (socket: %v); got %s", what, err, got)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// count counts the messages pred accepts.
func (c *rtClient) count(pred func(rtMsg) bool) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, m := range c.msgs {
		if pred(m) {
			n++
		}
	}
	return n
}

// replyTo waits for the phx_reply to ref and returns its status and response.
func (c *rtClient) replyTo(ref string) (string, map[string]any) {
	c.t.Helper()
	m := c.wait("reply to "+ref, func(m rtMsg) bool { return m.Event == "phx_reply" && m.Ref == ref })
	resp, _ := m.Payload["response"].(map[string]any)
	return m.Payload["status"].(string), resp
}

// join joins topic with postgres_changes bindings and token; it returns
// the reply's status and response.
func (c *rtClient) join(topic, tok string, changes ...map[string]any) (string, map[string]any) {
	c.t.Helper()
	if changes == nil {
		changes = []map[string]any{}
	}
	p := map[string]any{"config": map[string]any{"broadcast": map[string]any{"ack": true, "self": false},
		"presence": map[string]any{"key": "", "enabled": false}, "postgres_changes": changes, "private": false}}
	if tok != "" {
		p["access_token"] = tok
	}
	ref := c.send(fmt.Sprint(c.ref+1), "realtime:"+topic, "phx_join", p)
	return c.replyTo(ref)
}

// closedWith waits for the socket to end and returns the close status and reason.
func (c *rtClient) closedWith() (websocket.StatusCode, string) {
	c.t.Helper()
	select {
	case <-c.done:
	case <-time.After(5 * time.Second):
		c.t.Fatal("the server did not close the socket")
	}
	var ce websocket.CloseError
	if !errors.As(c.err, &ce) {
		c.t.Fatalf("socket ended without a close frame: %v", c.err)
	}
	return ce.Code, ce.Reason
}

// realtimeConns reads the open sockets from /metrics (MetricsToken set).
func (e *testEnv) realtimeConns(t *testing.T) int {
	t.Helper()
	res := e.do(t, "GET", "/metrics", nil, map[string]string{"Authorization": "Bearer " + testMetricsToken})
	wantStatus(t, res, 200)
	body, _ := io.ReadAll(res.Body)
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, "salaula_realtime_connections "); ok {
			var n int
			fmt.Sscan(v, &n)
			return n
		}
	}
	t.Fatal("no salaula_realtime_connections in /metrics")
	return 0
}

func waitlistChanges(event string) map[string]any {
	return map[string]any{"event": event, "schema": "public", "table": "waitlist_signups"}
}

func signUpForWaitlist(t *testing.T, env *testEnv, email string) {
	t.Helper()
	res := env.do(t, "POST", "/functions/v1/waitlist-signup", map[string]any{"email": email, "programName": "Upcycling Initiative"},
		map[string]string{"apikey": env.anonKey(t)})
	wantStatus(t, res, 200)
}

func isChange(email string) func(rtMsg) bool {
	return func(m rtMsg) bool {
		if m.Event != "postgres_changes" {
			return false
		}
		rec, _ := m.Payload["data"].(map[string]any)["record"].(map[string]any)
		return rec["email"] == email
	}
}

func TestRealtimeOperatorReceivesSignUps(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		op := env.newOperator(t, "founder@example.com")
		c := env.realtimeDial(t, "", true)
		status, resp := c.join("console", op, waitlistChanges("INSERT"))
		if status != "ok" {
			t.Fatalf("join: %s %v", status, resp)
		}
		pcs := resp["postgres_changes"].([]any)
		b := pcs[0].(map[string]any)
		if len(pcs) != 1 || b["event"] != "INSERT" || b["schema"] != "public" || b["table"] != "waitlist_signups" || b["id"] == nil {
			t.Fatalf("bindings = %v", pcs)
		}
		if _, has := b["filter"]; has {
			t.Fatalf("a filter nobody asked for: %v", b)
		}
		c.wait("system message", func(m rtMsg) bool { return m.Event == "system" && m.Payload["status"] == "ok" })

		signUpForWaitlist(t, env, "mutale@example.com")
		m := c.wait("the sign-up", isChange("mutale@example.com"))
		data := m.Payload["data"].(map[string]any)
		if data["type"] != "INSERT" || data["table"] != "waitlist_signups" || data["schema"] != "public" {
			t.Fatalf("data = %v", data)
		}
		if ids := m.Payload["ids"].([]any); len(ids) != 1 || ids[0] != b["id"] {
			t.Fatalf("ids = %v, want [%v]", ids, b["id"])
		}
		if _, err := time.Parse(time.RFC3339Nano, data["commit_timestamp"].(string)); err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(m.Payload)
		if strings.Contains(string(raw), "unsubscribe_token") {
			t.Fatalf("a token hash reached the client: %s", raw)
		}
		cols := data["columns"].([]any)
		if cols[0].(map[string]any)["name"] != "id" {
			t.Fatalf("columns = %v", cols)
		}
		// Only INSERTs were asked for: unsubscribing (an UPDATE) sends nothing.
		if n := c.count(func(m rtMsg) bool { return m.Event == "postgres_changes" }); n != 1 {
			t.Fatalf("%d events", n)
		}
		// Heartbeats are answered.
		ref := c.send("", "phoenix", "heartbeat", map[string]any{})
		if status, _ := c.replyTo(ref); status != "ok" {
			t.Fatalf("heartbeat: %s", status)
		}
		// Leaving stops the events.
		ref = c.send("1", "realtime:console", "phx_leave", map[string]any{})
		if status, _ := c.replyTo(ref); status != "ok" {
			t.Fatal(status)
		}
		signUpForWaitlist(t, env, "late@example.com")
		signUpForWaitlist(t, env, "later@example.com")
		time.Sleep(200 * time.Millisecond)
		if n := c.count(func(m rtMsg) bool { return m.Event == "postgres_changes" }); n != 1 {
			t.Fatalf("%d events after leaving", n)
		}
	})
}

func TestRealtimeAccessRules(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		me := newUser(t, env, "me@example.com")
		other := newUser(t, env, "other@example.com")
		c := env.realtimeDial(t, "", true)
		own := map[string]any{"event": "*", "schema": "public", "table": "profiles", "filter": "user_id=eq." + me.ID}
		refusals := []struct {
			name, tok string
			changes   map[string]any
			want      string
		}{
			{"a person on the waitlist", me.Token, waitlistChanges("*"), "only your own profile"},
			{"a person on all tables", me.Token, map[string]any{"event": "*", "schema": "public"}, "only your own profile"},
			{"a person on another's profile", me.Token, map[string]any{"event": "*", "schema": "public", "table": "profiles", "filter": "user_id=eq." + other.ID}, "only your own profile"},
			{"a person on every profile", me.Token, map[string]any{"event": "UPDATE", "schema": "public", "table": "profiles"}, "only your own profile"},
			{"the anon key", env.anonKey(t), own, "Sign in"},
			{"no token", "", own, "Sign in"},
			{"a forged token", forgedToken(me.Token), own, "not valid"},
			{"an expired token", env.sign(t, func() token.Claims {
				cl := env.accessClaims(me.ID, "x", me.Email)
				cl.ExpiresAt = time.Now().Add(-time.Hour).Unix()
				return cl
			}()), own, "expired"},
			{"an unknown table", me.Token, map[string]any{"event": "*", "schema": "public", "table": "users"}, "not offered"},
			{"another schema", me.Token, map[string]any{"event": "*", "schema": "auth", "table": "profiles"}, `schema must be "public"`},
			{"a bad event", me.Token, map[string]any{"event": "TRUNCATE", "schema": "public", "table": "profiles"}, "TRUNCATE"},
			{"a bad filter", me.Token, map[string]any{"event": "*", "schema": "public", "table": "profiles", "filter": "user_id=like.x"}, "column=eq.value"},
			{"an unknown column", me.Token, map[string]any{"event": "*", "schema": "public", "table": "profiles", "filter": "password_hash=eq.x"}, "no column"},
		}
		for i, r := range refusals {
			status, resp := c.join(fmt.Sprintf("t%d", i), r.tok, r.changes)
			if status != "error" || !strings.Contains(fmt.Sprint(resp["reason"]), r.want) {
				t.Errorf("%s: %s %v, want error %q", r.name, status, resp, r.want)
			}
		}
		if status, resp := c.join("mine", me.Token, own); status != "ok" {
			t.Fatalf("own profile: %s %v", status, resp)
		}
		for _, u := range []testUser{other, me} {
			if _, err := env.DB.SaveBuyerProfile(context.Background(), u.ID, store.BuyerFields{FullName: "Name of " + u.Email}); err != nil {
				t.Fatal(err)
			}
		}
		m := c.wait("own profile change", func(m rtMsg) bool { return m.Event == "postgres_changes" })
		rec := m.Payload["data"].(map[string]any)["record"].(map[string]any)
		if rec["user_id"] != me.ID || rec["full_name"] != "Name of me@example.com" {
			t.Fatalf("record = %v", rec)
		}
		signUpForWaitlist(t, env, "visitor@example.com")
		time.Sleep(200 * time.Millisecond)
		if n := c.count(func(m rtMsg) bool { return m.Event == "postgres_changes" }); n != 1 {
			t.Fatalf("%d events reached the person, want only their own profile's", n)
		}

		// An operator without two-step sign-in is told what is missing.
		s := env.signUp(t, "founder@example.com", goodPassword)
		if err := env.DB.SetAdmin(context.Background(), "founder@example.com", true); err != nil {
			t.Fatal(err)
		}
		status, resp := c.join("aal1", str(s, "access_token"), waitlistChanges("*"))
		if status != "error" || !strings.Contains(fmt.Sprint(resp["reason"]), "two-step sign-in") {
			t.Fatalf("aal1 operator: %s %v", status, resp)
		}
	})
}

func TestRealtimeBroadcastSelfAndAck(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		a := newUser(t, env, "a@example.com")
		b := newUser(t, env, "b@example.com")
		ca := env.realtimeDial(t, "", true)
		cb := env.realtimeDial(t, "apikey="+env.anonKey(t)+"&vsn=1.0.0", true) // the older JSON shape
		for _, x := range []struct {
			c   *rtClient
			tok string
		}{{ca, a.Token}, {cb, b.Token}} {
			if status, resp := x.c.join("room", x.tok); status != "ok" {
				t.Fatalf("join: %v", resp)
			}
		}
		// vsn 2.0.0's binary user broadcast push (kind 3), as realtime-js sends it.
		topic, event, payload := "realtime:room", "wave", `{"n":1}`
		frame := []byte{3, 1, 2, byte(len(topic)), byte(len(event)), 0, 1}
		frame = append(frame, "5"+"10"+topic+event+payload...)
		ca.raw(websocket.MessageBinary, frame)
		if status, _ := ca.replyTo("10"); status != "ok" {
			t.Fatal("no ack")
		}
		// b (vsn 1.0.0) gets it as a JSON broadcast message.
		got := cb.wait("a's broadcast at b", func(m rtMsg) bool { return m.Event == "broadcast" })
		if got.Topic != topic || got.Payload["event"] != "wave" || got.Payload["type"] != "broadcast" || fmt.Sprint(got.Payload["payload"]) != "map[n:1]" {
			t.Fatalf("at b: %+v", got)
		}
		// A JSON broadcast from b reaches a as a binary user broadcast.
		cb.send("2", "realtime:room", "broadcast", map[string]any{"type": "broadcast", "event": "wave", "payload": map[string]any{"n": 2}})
		m := ca.wait("b's broadcast at a", func(m rtMsg) bool { return m.Binary && m.BcastPayload == `{"n":2}` })
		if m.BcastEvent != "wave" || m.Topic != "realtime:room" {
			t.Fatalf("broadcast = %+v", m)
		}
		// a did not ask for self: its own message did not come back.
		if n := ca.count(func(m rtMsg) bool { return m.Binary && m.BcastPayload == payload }); n != 0 {
			t.Fatal("a got its own broadcast back")
		}
	})
}

func TestRealtimeRefusesBadInputClearlyAndKeepsServing(t *testing.T) {
	tweak := func(c *config.Config) {
		c.Realtime.MaxChannelsPerConn = 2
		c.Realtime.MaxConnsPerIP = 3
		c.Realtime.MaxMessageBytes = 4096
		c.MetricsToken = testMetricsToken
	}
	eachEngine(t, tweak, func(t *testing.T, env *testEnv) {
		me := newUser(t, env, "me@example.com")
		closes := []struct {
			name  string
			send  func(c *rtClient)
			code  websocket.StatusCode
			want  string
			query string
		}{
			{"not JSON", func(c *rtClient) { c.raw(websocket.MessageText, []byte("{nope")) }, websocket.StatusInvalidFramePayloadData, "not valid JSON", ""},
			{"wrong shape", func(c *rtClient) { c.raw(websocket.MessageText, []byte(`[1,2,3]`)) }, websocket.StatusInvalidFramePayloadData, "[join_ref, ref, topic, event, payload]", ""},
			{"no topic", func(c *rtClient) { c.raw(websocket.MessageText, []byte(`{"event":"phx_join"}`)) }, websocket.StatusInvalidFramePayloadData, "topic and event", ""},
			{"a bad binary frame", func(c *rtClient) { c.raw(websocket.MessageBinary, []byte{9, 9, 9}) }, websocket.StatusInvalidFramePayloadData, "binary frame", ""},
			{"too big", func(c *rtClient) {
				c.raw(websocket.MessageText, []byte(`["1","1","realtime:x","broadcast",{"p":"`+strings.Repeat("x", 5000)+`"}]`))
			}, websocket.StatusMessageTooBig, "", ""},
			{"no apikey", nil, websocket.StatusPolicyViolation, "apikey", "vsn=2.0.0"},
			{"a wrong apikey", nil, websocket.StatusPolicyViolation, "apikey", "apikey=abc&vsn=2.0.0"},
			{"an unknown vsn", nil, websocket.StatusPolicyViolation, "vsn", "apikey=" + env.anonKey(t) + "&vsn=9"},
		}
		for _, tc := range closes {
			c := env.realtimeDial(t, tc.query, true)
			if tc.send != nil {
				c.send("", "phoenix", "heartbeat", map[string]any{})
				tc.send(c)
			}
			code, reason := c.closedWith()
			if code != tc.code || !strings.Contains(reason, tc.want) {
				t.Errorf("%s: closed %d %q, want %d with %q", tc.name, code, reason, tc.code, tc.want)
			}
		}

		c := env.realtimeDial(t, "", true)
		for _, tc := range []struct {
			name, topic, event string
			want               string
		}{
			{"an unknown topic", "lobby", "phx_join", "unknown topic"},
			{"a push before joining", "realtime:nowhere", "broadcast", "join the channel first"},
			{"an unknown phoenix event", "phoenix", "shutdown", "only heartbeat"},
		} {
			ref := c.send("1", tc.topic, tc.event, map[string]any{"config": map[string]any{}, "access_token": me.Token})
			status, resp := c.replyTo(ref)
			if status != "error" || !strings.Contains(fmt.Sprint(resp["reason"]), tc.want) {
				t.Errorf("%s: %s %v, want %q", tc.name, status, resp, tc.want)
			}
		}
		ref := c.send("1", "realtime:bad", "phx_join", "not an object")
		if status, resp := c.replyTo(ref); status != "error" || !strings.Contains(fmt.Sprint(resp["reason"]), "join payload") {
			t.Errorf("join payload: %s %v", status, resp)
		}
		for _, topic := range []string{"one", "two"} {
			if status, resp := c.join(topic, me.Token); status != "ok" {
				t.Fatalf("%s: %v", topic, resp)
			}
		}
		if status, resp := c.join("three", me.Token); status != "error" || !strings.Contains(fmt.Sprint(resp["reason"]), "too many channels on this connection (limit 2)") {
			t.Fatalf("third channel: %s %v", status, resp)
		}
		if status, _ := c.join("two", me.Token); status != "ok" {
			t.Fatal("joining a joined topic again replaces it")
		}
		ref = c.send("1", "realtime:one", "presence", map[string]any{"type": "presence", "event": "wave"})
		if status, resp := c.replyTo(ref); status != "error" || !strings.Contains(fmt.Sprint(resp["reason"]), "presence needs") {
			t.Fatalf("presence: %v", resp)
		}
		if status, resp := c.join("private", "", nil); status != "error" {
			t.Fatalf("no token: %v", resp)
		}

		// Connections per address: c and two more, then a refusal with its reason.
		// A socket is counted once the server has taken it up, a moment after the
		// client's handshake has finished: wait for the server to count all three
		// (and the refused sockets above to be gone) before the fourth.
		env.realtimeDial(t, "", true)
		env.realtimeDial(t, "", true)
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			res := env.do(t, "GET", "/metrics", nil, map[string]string{"Authorization": "Bearer " + testMetricsToken})
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if strings.Contains(string(body), "salaula_realtime_connections 3\n") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the server never counted the three sockets:\n%s", body)
			}
		}
		code, reason := env.realtimeDial(t, "", true).closedWith()
		if code != websocket.StatusPolicyViolation || reason != "too many realtime connections from your address (limit 3)" {
			t.Fatalf("fourth socket: %d %q", code, reason)
		}
		// The server is unharmed and counts what happened.
		ref = c.send("", "phoenix", "heartbeat", map[string]any{})
		if status, _ := c.replyTo(ref); status != "ok" {
			t.Fatal("heartbeat after the refusals")
		}
		res := env.do(t, "GET", "/metrics", nil, map[string]string{"Authorization": "Bearer " + testMetricsToken})
		wantStatus(t, res, 200)
		body, _ := io.ReadAll(res.Body)
		for _, want := range []string{"salaula_realtime_connections 3", "salaula_realtime_channels 2",
			`salaula_realtime_disconnects_total{reason="malformed"} 4`, `salaula_realtime_disconnects_total{reason="too_big"} 1`,
			`salaula_realtime_refused_total{reason="per_ip"} 1`, `salaula_realtime_refused_total{reason="apikey"} 2`,
			`salaula_realtime_events_sent_total{kind="reply"}`} {
			if !strings.Contains(string(body), want) {
				t.Errorf("metrics lack %q", want)
			}
		}
	})
}

func TestRealtimeTwoInstancesOnOnePostgres(t *testing.T) {
	ctx := context.Background()
	url := storetest.MigratedPostgresDatabase(t)
	open := func() *store.DB {
		db, err := store.Open(ctx, url, "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	dbA, dbB := open(), open()
	if _, err := dbA.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	a, b := newTestEnv(t, dbA, nil), newTestEnv(t, dbB, nil)
	op := b.newOperator(t, "founder@example.com")
	c := b.realtimeDial(t, "", true)
	if status, resp := c.join("console", op, map[string]any{"event": "*", "schema": "public"}); status != "ok" {
		t.Fatalf("join at B: %v", resp)
	}
	signUpForWaitlist(t, a, "from-a@example.com")
	m := c.wait("A's sign-up at B", isChange("from-a@example.com"))
	if m.Payload["data"].(map[string]any)["table"] != "waitlist_signups" {
		t.Fatalf("%v", m.Payload)
	}
	// A person signing up at A shows up at B as an account.
	a.signUp(t, "new@example.com", goodPassword)
	c.wait("A's new account at B", func(m rtMsg) bool {
		d, _ := m.Payload["data"].(map[string]any)
		rec, _ := d["record"].(map[string]any)
		return d["table"] == "accounts" && rec["email"] == "new@example.com"
	})
}

func TestRealtimeDropsASlowClient(t *testing.T) {
	tweak := func(c *config.Config) {
		c.Realtime.SendQueue = 8
		// The test sends as fast as the acknowledgements come.
		c.Realtime.EventsPerSecond, c.Realtime.TopicMessagesPerSecond = 1e6, 1e6
		c.MetricsToken = testMetricsToken
	}
	eachEngine(t, tweak, func(t *testing.T, env *testEnv) {
		a := newUser(t, env, "a@example.com")
		b := newUser(t, env, "b@example.com")
		slow := env.realtimeDial(t, "", false) // never reads
		slow.send("1", "realtime:room", "phx_join", map[string]any{"config": map[string]any{}, "access_token": a.Token})
		fast := env.realtimeDial(t, "", true)
		if status, _ := fast.join("room", b.Token); status != "ok" {
			t.Fatal("join")
		}
		big := strings.Repeat("x", 60<<10)
		deadline := time.Now().Add(20 * time.Second)
		for env.realtimeConns(t) == 2 {
			if time.Now().After(deadline) {
				t.Fatal("the slow client was never dropped")
			}
			// Each broadcast waits for its acknowledgement, so only the
			// client that never reads falls behind (sending without
			// waiting could outrun the fast client's own replies).
			ref := fast.send("2", "realtime:room", "broadcast", map[string]any{"type": "broadcast", "event": "big", "payload": map[string]any{"x": big}})
			if status, _ := fast.replyTo(ref); status != "ok" {
				t.Fatalf("broadcast answered %q", status)
			}
		}
		go slow.readAll()
		code, reason := slow.closedWith()
		if code != websocket.StatusPolicyViolation || !strings.Contains(reason, "too slow") {
			t.Fatalf("slow client closed %d %q", code, reason)
		}
		ref := fast.send("", "phoenix", "heartbeat", map[string]any{})
		if status, _ := fast.replyTo(ref); status != "ok" {
			t.Fatal("the fast client suffered")
		}
	})
}

func TestRealtimeAccessTokenUpdatesAndSignOut(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		s := env.signUp(t, "chipo@example.com", goodPassword)
		uid := str(obj(s, "user"), "id")
		own := map[string]any{"event": "*", "schema": "public", "table": "profiles", "filter": "user_id=eq." + uid}
		c := env.realtimeDial(t, "", true)
		if status, resp := c.join("me", str(s, "access_token"), own); status != "ok" {
			t.Fatalf("join: %v", resp)
		}
		// A refreshed token of the same person keeps the channel.
		res := env.refresh(t, str(s, "refresh_token"))
		wantStatus(t, res, 200)
		fresh := decode(t, res)
		ref := c.send("1", "realtime:me", "access_token", map[string]any{"access_token": str(fresh, "access_token")})
		if status, resp := c.replyTo(ref); status != "ok" {
			t.Fatalf("fresh token: %v", resp)
		}
		// Another person's token closes it.
		other := newUser(t, env, "other@example.com")
		c.send("1", "realtime:me", "access_token", map[string]any{"access_token": other.Token})
		m := c.wait("system error", func(m rtMsg) bool { return m.Event == "system" && m.Payload["status"] == "error" })
		if !strings.Contains(fmt.Sprint(m.Payload["message"]), "another person") {
			t.Fatalf("system = %v", m.Payload)
		}
		c.wait("phx_close", func(m rtMsg) bool { return m.Event == "phx_close" && m.Topic == "realtime:me" })

		// A signed-out session's token closes the channel.
		if status, resp := c.join("again", str(fresh, "access_token"), own); status != "ok" {
			t.Fatalf("join again: %v", resp)
		}
		wantStatus(t, env.authJSON(t, "POST", "/auth/v1/logout", nil, str(fresh, "access_token")), 204)
		c.send("1", "realtime:again", "access_token", map[string]any{"access_token": str(fresh, "access_token")})
		m = c.wait("close after sign-out", func(m rtMsg) bool {
			return m.Event == "system" && m.Topic == "realtime:again" && m.Payload["status"] == "error"
		})
		if !strings.Contains(fmt.Sprint(m.Payload["message"]), "signed out") {
			t.Fatalf("system = %v", m.Payload)
		}
		c.wait("phx_close", func(m rtMsg) bool { return m.Event == "phx_close" && m.Topic == "realtime:again" })
		if _, err := env.DB.SaveBuyerProfile(context.Background(), uid, store.BuyerFields{FullName: "After"}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
		if n := c.count(func(m rtMsg) bool { return m.Event == "postgres_changes" }); n != 0 {
			t.Fatalf("%d events after the channel closed", n)
		}
	})
}

func TestRealtimeRecheckClosesChannelsOfEndedSessionsAndRevokedOperators(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.Realtime.RecheckEvery = 200 * time.Millisecond }, func(t *testing.T, env *testEnv) {
		s := env.signUp(t, "chipo@example.com", goodPassword)
		uid := str(obj(s, "user"), "id")
		op := env.newOperator(t, "founder@example.com")
		c := env.realtimeDial(t, "", true)
		if status, resp := c.join("me", str(s, "access_token"), map[string]any{"event": "*", "schema": "public", "table": "profiles", "filter": "user_id=eq." + uid}); status != "ok" {
			t.Fatalf("join: %v", resp)
		}
		if status, resp := c.join("console", op, waitlistChanges("*")); status != "ok" {
			t.Fatalf("operator join: %v", resp)
		}
		// Signed out elsewhere: no push needed, the channel closes.
		wantStatus(t, env.authJSON(t, "POST", "/auth/v1/logout", nil, str(s, "access_token")), 204)
		m := c.wait("close of the signed-out channel", func(m rtMsg) bool {
			return m.Event == "system" && m.Topic == "realtime:me" && m.Payload["status"] == "error"
		})
		if !strings.Contains(fmt.Sprint(m.Payload["message"]), "signed out") {
			t.Fatalf("system = %v", m.Payload)
		}
		c.wait("phx_close", func(m rtMsg) bool { return m.Event == "phx_close" && m.Topic == "realtime:me" })
		// The operator role taken away: the console's channel closes too.
		if err := env.DB.SetAdmin(context.Background(), "founder@example.com", false); err != nil {
			t.Fatal(err)
		}
		c.wait("close of the ex-operator's channel", func(m rtMsg) bool { return m.Event == "phx_close" && m.Topic == "realtime:console" })
		signUpForWaitlist(t, env, "after@example.com")
		time.Sleep(200 * time.Millisecond)
		if n := c.count(isChange("after@example.com")); n != 0 {
			t.Fatal("a sign-up reached the ex-operator")
		}
		// The socket itself stays open.
		ref := c.send("", "phoenix", "heartbeat", map[string]any{})
		if status, _ := c.replyTo(ref); status != "ok" {
			t.Fatal("heartbeat")
		}
	})
}

// closedChannel waits for the server to close topic (a system error with
// the reason, then phx_close, which realtime-js reports as CLOSED) and
// returns the reason.
func (c *rtClient) closedChannel(topic string) string {
	c.t.Helper()
	m := c.wait("the close of "+topic, func(m rtMsg) bool {
		return m.Event == "system" && m.Topic == "realtime:"+topic && m.Payload["status"] == "error"
	})
	c.wait("phx_close of "+topic, func(m rtMsg) bool { return m.Event == "phx_close" && m.Topic == "realtime:"+topic })
	return fmt.Sprint(m.Payload["message"])
}

// settle returns once every message the server queued for c before now has
// arrived: the answer to a heartbeat comes after them.
func (c *rtClient) settle() {
	c.t.Helper()
	ref := c.send("", "phoenix", "heartbeat", map[string]any{})
	if status, _ := c.replyTo(ref); status != "ok" {
		c.t.Fatalf("heartbeat: %s", status)
	}
}

func TestRealtimeCapsBindingsAndCountsDuplicatesOnce(t *testing.T) {
	tweak := func(c *config.Config) { c.Realtime.MaxBindingsPerJoin = 3; c.Realtime.MaxBindingsPerConn = 5 }
	eachEngine(t, tweak, func(t *testing.T, env *testEnv) {
		op := env.newOperator(t, "founder@example.com")
		c := env.realtimeDial(t, "", true)
		table := func(name, event string) map[string]any {
			return map[string]any{"event": event, "schema": "public", "table": name}
		}
		ins := waitlistChanges("INSERT")
		// Five entries, three of them the same: three different bindings, within the limit of 3.
		status, resp := c.join("console", op, ins, ins, waitlistChanges("*"), ins, table("contact_messages", "*"))
		if status != "ok" {
			t.Fatalf("join with duplicates: %s %v", status, resp)
		}
		pcs := resp["postgres_changes"].([]any)
		id := func(i int) any { return pcs[i].(map[string]any)["id"] }
		if len(pcs) != 5 || id(0) != id(1) || id(0) != id(3) || id(0) == id(2) || id(2) == id(4) {
			t.Fatalf("the reply lists %v: want one entry per entry sent, identical ones sharing their id", pcs)
		}

		// A sign-up reaches the socket once, naming each matching binding once.
		signUpForWaitlist(t, env, "first@example.com")
		signUpForWaitlist(t, env, "second@example.com")
		c.wait("the second sign-up", isChange("second@example.com"))
		if n := c.count(isChange("first@example.com")); n != 1 {
			t.Fatalf("the first sign-up arrived %d times", n)
		}
		m := c.wait("the first sign-up", isChange("first@example.com"))
		ids := fmt.Sprint(m.Payload["ids"])
		if want1, want2 := fmt.Sprint([]any{id(0), id(2)}), fmt.Sprint([]any{id(2), id(0)}); ids != want1 && ids != want2 {
			t.Fatalf("ids = %s, want the INSERT binding and the * binding once each (%s)", ids, want1)
		}

		// Four different bindings in one join: refused.
		status, resp = c.join("console-more", op, table("accounts", "*"), table("accounts", "INSERT"), table("profiles", "*"), table("profiles", "DELETE"))
		if status != "error" || !strings.Contains(fmt.Sprint(resp["reason"]), "too many postgres_changes bindings in one join (limit 3") {
			t.Fatalf("four bindings: %s %v", status, resp)
		}
		// Three more on the socket (3 + 3 > 5): refused; two fit.
		status, resp = c.join("console-more", op, table("accounts", "*"), table("accounts", "INSERT"), table("profiles", "*"))
		if status != "error" || !strings.Contains(fmt.Sprint(resp["reason"]), "too many postgres_changes bindings on this connection (limit 5") {
			t.Fatalf("over the socket's limit: %s %v", status, resp)
		}
		if status, resp := c.join("console-more", op, table("accounts", "*"), table("accounts", "INSERT")); status != "ok" {
			t.Fatalf("up to the socket's limit: %s %v", status, resp)
		}
		// Joining a topic again replaces its bindings, leaving room for others.
		if status, resp := c.join("console", op, ins); status != "ok" {
			t.Fatalf("joining again: %s %v", status, resp)
		}
		if status, resp := c.join("console-last", op, table("profiles", "*"), table("profiles", "DELETE")); status != "ok" {
			t.Fatalf("after joining again with fewer: %s %v", status, resp)
		}
	})
}

func TestRealtimeClosesChannelsAtOnceWhenAccessEnds(t *testing.T) {
	// The periodic re-check (every 30 s) is not what closes them here.
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		ctx := context.Background()
		s := env.signUp(t, "chipo@example.com", goodPassword)
		uid := str(obj(s, "user"), "id")
		own := map[string]any{"event": "*", "schema": "public", "table": "profiles", "filter": "user_id=eq." + uid}
		op := env.newOperator(t, "founder@example.com")
		founder, err := env.DB.UserByEmail(ctx, "founder@example.com")
		if err != nil {
			t.Fatal(err)
		}
		ownOp := map[string]any{"event": "*", "schema": "public", "table": "profiles", "filter": "user_id=eq." + founder.ID}
		gone := newUser(t, env, "gone@example.com")
		ownGone := map[string]any{"event": "*", "schema": "public", "table": "profiles", "filter": "user_id=eq." + gone.ID}
		c := env.realtimeDial(t, "", true)
		for _, j := range []struct {
			topic, tok string
			changes    []map[string]any
		}{{"profile:" + uid, str(s, "access_token"), []map[string]any{own}}, {"console", op, []map[string]any{waitlistChanges("*")}},
			{"room", op, []map[string]any{ownOp}}, {"profile:" + gone.ID, gone.Token, []map[string]any{ownGone}}} {
			if status, resp := c.join(j.topic, j.tok, j.changes...); status != "ok" {
				t.Fatalf("join %s: %v", j.topic, resp)
			}
		}

		wantStatus(t, env.authJSON(t, "POST", "/auth/v1/logout", nil, str(s, "access_token")), 204)
		if reason := c.closedChannel("profile:" + uid); !strings.Contains(reason, "signed out") {
			t.Fatalf("signed out: %q", reason)
		}
		if err := env.DB.SetAdmin(ctx, "founder@example.com", false); err != nil {
			t.Fatal(err)
		}
		if reason := c.closedChannel("console"); !strings.Contains(reason, "Salaula team's") {
			t.Fatalf("operator role removed: %q", reason)
		}
		if _, err := env.DB.DeletePerson(ctx, gone.ID, true); err != nil {
			t.Fatal(err)
		}
		if reason := c.closedChannel("profile:" + gone.ID); !strings.Contains(reason, "deleted") {
			t.Fatalf("account deleted: %q", reason)
		}

		// The ex-operator's channel on an open topic, following only their
		// own profile, stays with a person's rights: a sign-up made now
		// does not reach it, the change of their profile made after it does.
		signUpForWaitlist(t, env, "after@example.com")
		if _, err := env.DB.SaveBuyerProfile(ctx, founder.ID, store.BuyerFields{FullName: "Founder"}); err != nil {
			t.Fatal(err)
		}
		c.wait("the ex-operator's own profile", func(m rtMsg) bool { return m.Event == "postgres_changes" && m.Topic == "realtime:room" })
		if n := c.count(isChange("after@example.com")); n != 0 {
			t.Fatal("a sign-up reached the ex-operator")
		}
		if n := c.count(func(m rtMsg) bool { return m.Event == "phx_close" && m.Topic == "realtime:room" }); n != 0 {
			t.Fatal("the open topic's channel was closed")
		}
	})
}

func TestRealtimeTeamAndPersonTopicsRefuseOthers(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		shopper := newUser(t, env, "shopper@example.com")
		other := newUser(t, env, "other@example.com")
		op := env.newOperator(t, "founder@example.com")
		opc := env.realtimeDial(t, "", true)
		if status, resp := opc.join("console", op); status != "ok" {
			t.Fatalf("operator: %v", resp)
		}
		c := env.realtimeDial(t, "", true)
		for topic, want := range map[string]string{
			"console":                     "Salaula team's",
			"console-waitlist":            "Salaula team's",
			"profile:" + other.ID:         "another person's",
			"profile:" + shopper.ID + "x": "another person's",
			"profile:" + shopper.ID:       "",
			"room":                        "",
		} {
			status, resp := c.join(topic, shopper.Token)
			if want == "" && status != "ok" || want != "" && (status != "error" || !strings.Contains(fmt.Sprint(resp["reason"]), want)) {
				t.Errorf("the shopper joining %s: %s %v, want %q", topic, status, resp, want)
			}
		}
		// Broadcasting on the team's topic, as JSON and as a binary frame: refused.
		ref := c.send("1", "realtime:console", "broadcast", map[string]any{"type": "broadcast", "event": "wave", "payload": map[string]any{"n": 1}})
		if status, _ := c.replyTo(ref); status != "error" {
			t.Fatalf("JSON broadcast: %s", status)
		}
		topic, event := "realtime:console", "wave"
		frame := append([]byte{3, 1, 2, byte(len(topic)), byte(len(event)), 0, 1}, "9"+"90"+topic+event+`{"n":2}`...)
		c.raw(websocket.MessageBinary, frame)
		if status, _ := c.replyTo("90"); status != "error" {
			t.Fatalf("binary broadcast: %s", status)
		}
		// Both were answered once the server was done with them: nothing reached the operator.
		opc.settle()
		if n := opc.count(func(m rtMsg) bool { return m.Event == "broadcast" }); n != 0 {
			t.Fatalf("%d of the shopper's broadcasts reached the operator", n)
		}
	})
}

// A join without a person's token (none, as supabase-js's first join with
// the accessToken option sends, or the anon key) acts with the apikey's
// role, as Supabase Realtime judges it: public topics open, the team's and
// a person's topics and postgres_changes refused with the reason. The
// person's token that follows in access_token raises the channel: it then
// acts for that person (and closes when their session ends); a topic that
// was refused is joined once the join carries the token.
func TestRealtimeJoinWithoutTokenActsAsTheAPIKeyUntilTheTokenComes(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		s := env.signUp(t, "chipo@example.com", goodPassword)
		uid, tok := str(obj(s, "user"), "id"), str(s, "access_token")
		c := env.realtimeDial(t, "", true)
		for _, anon := range []string{"", env.anonKey(t)} {
			if status, resp := c.join("room", anon); status != "ok" {
				t.Fatalf("public topic with %q: %s %v", anon, status, resp)
			}
			for _, topic := range []string{"console", "console-presence", "profile:" + uid, "profile:"} {
				status, resp := c.join(topic, anon)
				want := "Sign in to use live updates: channel realtime:" + topic + " is not open to the anon key, and the join carries no person's access_token"
				if status != "error" || resp["reason"] != want {
					t.Errorf("%s with %q: %s %v, want the error %q", topic, anon, status, resp, want)
				}
			}
			status, resp := c.join("changes", anon, map[string]any{"event": "*", "schema": "public", "table": "profiles", "filter": "user_id=eq." + uid})
			if status != "error" || !strings.Contains(fmt.Sprint(resp["reason"]), "postgres_changes are not open to the anon key") {
				t.Errorf("postgres_changes with %q: %s %v", anon, status, resp)
			}
		}
		// The refused topic is joined once the join carries the token, as realtime-js's rejoin does.
		if status, resp := c.join("profile:"+uid, tok); status != "ok" {
			t.Fatalf("own topic with the token: %s %v", status, resp)
		}
		// On the public topic, the anon key again changes nothing; the person's token raises the channel.
		ref := c.send("1", "realtime:room", "access_token", map[string]any{"access_token": env.anonKey(t)})
		if status, resp := c.replyTo(ref); status != "ok" {
			t.Fatalf("the anon key again: %v", resp)
		}
		ref = c.send("1", "realtime:room", "access_token", map[string]any{"access_token": tok})
		if status, resp := c.replyTo(ref); status != "ok" {
			t.Fatalf("the person's token: %v", resp)
		}
		// Acting for the person now, the channel ends with their session.
		wantStatus(t, env.authJSON(t, "POST", "/auth/v1/logout", nil, tok), 204)
		if reason := c.closedChannel("room"); !strings.Contains(reason, "signed out") {
			t.Fatalf("room closed with %q", reason)
		}
		// A bad token on a channel joined without one closes it.
		if status, resp := c.join("hall", ""); status != "ok" {
			t.Fatalf("hall: %v", resp)
		}
		c.send("1", "realtime:hall", "access_token", map[string]any{"access_token": forgedToken(tok)})
		if reason := c.closedChannel("hall"); !strings.Contains(reason, "not valid") {
			t.Fatalf("hall closed with %q", reason)
		}
	})
}

// One person flooding a public topic with 60 KB broadcasts, as fast as the
// socket takes them, to 100 listeners leaves other people's waitlist
// sign-ups alone: their median with the flood stays within 1.5 times their
// median without it, measured in interleaved rounds on the same server. The
// flooder is told that its excess is dropped, and a listener receives no
// more than the per-socket limit lets through.
func TestRealtimeFloodDoesNotSlowSignUps(t *testing.T) {
	if testing.Short() {
		t.Skip("a test under load: it runs without -short")
	}
	const listeners, rounds, phase = 100, 16, 150 * time.Millisecond
	tweak := func(c *config.Config) {
		c.FormRateLimit = config.Rate{}
		c.Realtime.MaxConnsPerIP = listeners + 10
	}
	eachEngine(t, tweak, func(t *testing.T, env *testEnv) {
		flooder := newUser(t, env, "flooder@example.com")
		var received atomic.Int64 // broadcasts that reached the first listener
		for i := range listeners {
			l := env.realtimeDial(t, "", false)
			l.raw(websocket.MessageText, []byte(`["1","1","realtime:room","phx_join",{"config":{}}]`))
			_, reply, err := l.ws.Read(context.Background())
			if err != nil || !strings.Contains(string(reply), `"status":"ok"`) {
				t.Fatalf("listener %d: join answered %s (%v)", i, reply, err)
			}
			go func() { // reads and forgets what arrives, as a browser tab would
				for {
					typ, r, err := l.ws.Reader(context.Background())
					if err != nil {
						return
					}
					io.Copy(io.Discard, r)
					if i == 0 && typ == websocket.MessageBinary {
						received.Add(1)
					}
				}
			}()
		}
		msg := []byte(`["1","2","realtime:room","broadcast",{"type":"broadcast","event":"flood","payload":{"x":"` + strings.Repeat("x", 60<<10) + `"}}]`)
		// flood opens a flooding socket that sends as fast as the server
		// reads; stop closes it (what the server had not read yet goes
		// with it) and returns what the server last refused and how long
		// the socket flooded.
		flood := func() (stop func() (string, time.Duration)) {
			began := time.Now()
			c := env.realtimeDial(t, "", true)
			if status, resp := c.join("room", flooder.Token); status != "ok" {
				t.Fatalf("flooder: %v", resp)
			}
			sent := make(chan struct{})
			go func() {
				defer close(sent)
				for c.ws.Write(context.Background(), websocket.MessageText, msg) == nil {
				}
			}()
			return func() (string, time.Duration) {
				c.ws.CloseNow()
				<-sent
				<-c.done
				took := time.Since(began)
				c.mu.Lock()
				defer c.mu.Unlock()
				told := ""
				for _, m := range c.msgs {
					if resp, _ := m.Payload["response"].(map[string]any); m.Payload["status"] == "error" {
						told = fmt.Sprint(resp["reason"])
					}
				}
				return told, took
			}
		}
		client := &http.Client{}
		n := 0
		signUp := func() time.Duration {
			n++
			body := fmt.Sprintf(`{"email":"visitor%d@example.com","programName":"Upcycling Initiative"}`, n)
			req, _ := http.NewRequest("POST", env.URL+"/functions/v1/waitlist-signup", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("apikey", env.anonKey(t))
			start := time.Now()
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			took := time.Since(start)
			if res.StatusCode != 200 {
				t.Fatalf("sign-up %d: %d", n, res.StatusCode)
			}
			return took
		}
		signUps := func() []time.Duration {
			var ds []time.Duration
			for end := time.Now().Add(phase); time.Now().Before(end); {
				ds = append(ds, signUp())
			}
			return ds
		}
		signUp() // the first request opens the connection
		// Each round measures sign-ups without and with a flood, next to
		// each other (in turn first and second), so that what else the
		// machine does falls on both alike; the medians of all are compared.
		var told string
		var quiet, flooded []time.Duration
		limit := int64(0) // the broadcasts the limits let through
		for r := range rounds {
			if r%2 == 1 {
				quiet = append(quiet, signUps()...)
			}
			stop := flood()
			time.Sleep(20 * time.Millisecond) // the flood is under way
			flooded = append(flooded, signUps()...)
			reason, took := stop()
			if reason != "" {
				told = reason
			}
			// A 60 KB broadcast to 100 listeners counts as 6,000 of the
			// topic's 1,000 messages a second: one passes alone in each
			// one-second window the flood touched.
			limit += int64(took/time.Second + 2)
			if r%2 == 0 {
				quiet = append(quiet, signUps()...)
			}
		}
		q, f := median(quiet), median(flooded)
		t.Logf("sign-ups: median %v without the flood (%d), %v with it (%d): %.2f times; the first listener received %d broadcasts",
			q, len(quiet), f, len(flooded), float64(f)/float64(q), received.Load())
		if f > q*3/2 {
			t.Errorf("sign-ups' median under the flood is %v, more than 1.5 times the %v without it", f, q)
		}
		if !strings.Contains(told, "Too many messages per second") {
			t.Errorf("the flooder was told %q, want Too many messages per second", told)
		}
		if got := received.Load(); got == 0 || got > limit {
			t.Errorf("a listener received %d broadcasts, want 1 to %d", got, limit)
		}
	})
}

// median is the middle of ds (which it sorts).
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}
