package realtime

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"salaula/internal/store"
)

// testConn is a socket without a network: what the hub sends it waits in
// its queue.
func testConn(h *Hub) *conn {
	return &conn{hub: h, key: newID(8), vsn2: true, send: make(chan frame, 1024), done: make(chan struct{}), closed: make(chan struct{}),
		channels: map[string]*channel{}}
}

// attach joins c to topic as id with the postgres_changes entries pcs (as
// a client sends them), past the checks a join makes.
func attach(t testing.TB, c *conn, topic string, id Identity, pcs string) *channel {
	t.Helper()
	var cfg joinConfig
	if err := json.Unmarshal([]byte(`{"postgres_changes":`+pcs+`}`), &cfg); err != nil {
		t.Fatal(err)
	}
	bindings, _, reason := parseBindings(cfg)
	if reason != "" {
		t.Fatal(reason)
	}
	ch := newChannel(c, topic, bindings, id, "token")
	c.mu.Lock()
	c.channels[topic] = ch
	c.mu.Unlock()
	c.hub.mu.Lock()
	c.hub.addLocked(ch)
	c.hub.mu.Unlock()
	return ch
}

// A channel whose holder is no longer allowed on the team's topic (its
// identity changed since the join) may not broadcast there: the sender
// is answered with the reason and nobody on the topic receives anything.
func TestBroadcastOnTheTeamsTopicNeedsAnOperatorNow(t *testing.T) {
	t.Parallel()
	h := New(Config{}, nil, slog.New(slog.DiscardHandler))
	defer h.Close()
	op, sender := testConn(h), testConn(h)
	attach(t, op, "realtime:console", Identity{UserID: "op", Operator: true}, `[]`)
	ch := attach(t, sender, "realtime:console", Identity{UserID: "op2", Operator: true}, `[]`)
	ch.setIdentity(Identity{UserID: "op2"}) // the role removed

	m, err := decodeText([]byte(`["1","7","realtime:console","broadcast",{"type":"broadcast","event":"wave","payload":{}}]`))
	if err != nil {
		t.Fatal(err)
	}
	sender.broadcast(ch, m)
	select {
	case f := <-sender.send:
		if !strings.Contains(string(f.data), `"status":"error"`) || !strings.Contains(string(f.data), "Salaula team's") {
			t.Fatalf("the sender was answered %s", f.data)
		}
	default:
		t.Fatal("the sender was not answered")
	}
	// broadcast hands messages to the queues before it answers.
	if n := len(op.send); n != 0 {
		t.Fatalf("%d message(s) reached the operator", n)
	}
}

// BenchmarkPublish is what one change costs the hub while one person
// holds many channels on many sockets, each following their own profile
// under every event (the most a person may), and one operator follows
// the waitlist: a sign-up (which the operator receives) and a change of
// another person's profile (which nobody receives). It shows the cost; it
// is not a measure of the server's speed.
func BenchmarkPublish(b *testing.B) {
	own := `[{"event":"*","schema":"public","table":"profiles","filter":"user_id=eq.shopper"},
		{"event":"INSERT","schema":"public","table":"profiles","filter":"user_id=eq.shopper"},
		{"event":"UPDATE","schema":"public","table":"profiles","filter":"user_id=eq.shopper"},
		{"event":"DELETE","schema":"public","table":"profiles","filter":"user_id=eq.shopper"}]`
	changes := map[string]store.Change{
		"sign-up": {Table: store.TableWaitlist, Type: "INSERT", CommitTimestamp: time.Now(),
			Record: map[string]any{"id": "w1", "email": "mutale@example.com", "program": "Upcycling Initiative"}},
		"other-profile": {Table: store.TableProfiles, Type: "UPDATE", CommitTimestamp: time.Now(),
			Record: map[string]any{"user_id": "someone", "full_name": "Someone"}, OldRecord: map[string]any{"user_id": "someone"}},
	}
	for _, channels := range []int{1, 100, 9800} {
		for name, c := range changes {
			b.Run(fmt.Sprintf("%s/person-channels=%d", name, channels), func(b *testing.B) {
				h := New(Config{}, nil, slog.New(slog.DiscardHandler))
				defer h.Close()
				for i := range channels {
					attach(b, testConn(h), fmt.Sprintf("realtime:p%d", i), Identity{UserID: "shopper"}, own)
				}
				op := testConn(h)
				attach(b, op, "realtime:console", Identity{UserID: "op", Operator: true},
					`[{"event":"*","schema":"public","table":"waitlist_signups"}]`)
				b.ResetTimer()
				for b.Loop() {
					h.Publish(c)
					// Publish queues synchronously: the operator reads what
					// reached it, so its queue never fills (a full queue
					// drops the client).
					select {
					case <-op.send:
					default:
					}
				}
			})
		}
	}
}

// A broadcast is encoded once: every listener's queue holds the same
// bytes. Past the socket's events a second the sender is answered "Too
// many messages per second", nobody receives the event, and the socket is
// read again only when the limit has room.
func TestBroadcastIsEncodedOnceAndLimitedPerSocket(t *testing.T) {
	t.Parallel()
	h := New(Config{EventsPerSecond: 2}, nil, slog.New(slog.DiscardHandler))
	defer h.Close()
	sender, a, b := testConn(h), testConn(h), testConn(h)
	ch := attach(t, sender, "realtime:room", Identity{UserID: "u1"}, `[]`)
	attach(t, a, "realtime:room", Identity{UserID: "u2"}, `[]`)
	attach(t, b, "realtime:room", Identity{}, `[]`)
	m, err := decodeText([]byte(`["1","7","realtime:room","broadcast",{"type":"broadcast","event":"wave","payload":{"n":1}}]`))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		sender.broadcast(ch, m)
		if r := next(t, sender); !strings.Contains(r.raw, `"ok"`) {
			t.Fatalf("broadcast %d answered %s", i+1, r.raw)
		}
		fa, fb := <-a.send, <-b.send
		if &fa.data[0] != &fb.data[0] {
			t.Fatal("the listeners' messages were encoded apart")
		}
	}
	sender.broadcast(ch, m)
	if r := next(t, sender); !strings.Contains(r.raw, `"error"`) || !strings.Contains(r.raw, "Too many messages per second") {
		t.Fatalf("broadcast 3 answered %s", r.raw)
	}
	if len(a.send)+len(b.send) != 0 || sender.hold <= 0 || sender.hold > time.Second {
		t.Fatalf("after the limit: %d messages queued, the socket held %v", len(a.send)+len(b.send), sender.hold)
	}
}
