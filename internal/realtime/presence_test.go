package realtime

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"salaula/internal/store"
)

// sent is one message a test socket received: vsn 2.0.0's array.
type sent struct {
	Topic, Event string
	Payload      map[string]json.RawMessage
	raw          string
}

// next reads the next message queued for c (failing after 5 s).
func next(t *testing.T, c *conn) sent {
	t.Helper()
	select {
	case f := <-c.send:
		if f.binary {
			return sent{Event: evBroadcast, raw: string(f.data)}
		}
		var arr [5]json.RawMessage
		if err := json.Unmarshal(f.data, &arr); err != nil {
			t.Fatalf("not a vsn 2.0.0 message: %s", f.data)
		}
		var s sent
		json.Unmarshal(arr[2], &s.Topic)
		json.Unmarshal(arr[3], &s.Event)
		json.Unmarshal(arr[4], &s.Payload)
		s.raw = string(f.data)
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("no message within 5 s")
		return sent{}
	}
}

// withPresence marks ch as a join with config.presence {enabled, key}.
func withPresence(h *Hub, ch *channel, key string) *channel {
	h.mu.Lock()
	ch.pKey, ch.pEnabled = key, true
	h.mu.Unlock()
	return ch
}

func pushPresence(t *testing.T, c *conn, ch *channel, payload string) sent {
	t.Helper()
	m, err := decodeText([]byte(`["1","9","` + ch.topic + `","presence",` + payload + `]`))
	if err != nil {
		t.Fatal(err)
	}
	c.presence(ch, m)
	return next(t, c)
}

// metas reads the metas of key in a presence map (joins, leaves, state).
func metas(t *testing.T, raw json.RawMessage, key string) []map[string]any {
	t.Helper()
	var m map[string]struct {
		Metas []map[string]any `json:"metas"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("not a presence map: %s", raw)
	}
	return m[key].Metas
}

// A tracked presence reaches everyone on the topic (the tracker too) as a
// presence_diff join; a channel joining later gets it in presence_state;
// tracking again replaces it; untrack and a closed socket take it away.
func TestPresenceTrackReplaceUntrackAndClose(t *testing.T) {
	t.Parallel()
	h := New(Config{}, nil, slog.New(slog.DiscardHandler))
	defer h.Close()
	a, b := testConn(h), testConn(h)
	h.register(a)
	op := Identity{UserID: "op", Operator: true}
	cha := withPresence(h, attach(t, a, "realtime:console", op, `[]`), "mutale")
	withPresence(h, attach(t, b, "realtime:console", Identity{UserID: "op2", Operator: true}, `[]`), "chanda")

	diff := pushPresence(t, a, cha, `{"type":"presence","event":"track","payload":{"page":"messages"}}`)
	if diff.Event != evPresenceDiff {
		t.Fatalf("the tracker got %s first, want its own join", diff.raw)
	}
	if r := next(t, a); r.Event != evReply || !strings.Contains(r.raw, `"ok"`) {
		t.Fatalf("track was answered %s", r.raw)
	}
	got := next(t, b)
	joined := metas(t, got.Payload["joins"], "mutale")
	if got.Event != evPresenceDiff || len(joined) != 1 || joined[0]["page"] != "messages" || joined[0]["phx_ref"] == "" {
		t.Fatalf("the other operator got %s", got.raw)
	}
	firstRef := joined[0]["phx_ref"]

	h.mu.Lock()
	state := h.presenceStateLocked("realtime:console")
	h.mu.Unlock()
	if len(state) != 1 || len(state["mutale"].Metas) != 1 {
		t.Fatalf("presence_state for a joining channel: %v", state)
	}

	pushPresence(t, a, cha, `{"type":"presence","event":"track","payload":{"page":"people"}}`)
	next(t, a) // the reply
	got = next(t, b)
	j, l := metas(t, got.Payload["joins"], "mutale"), metas(t, got.Payload["leaves"], "mutale")
	if len(j) != 1 || j[0]["page"] != "people" || j[0]["phx_ref_prev"] != firstRef || len(l) != 1 || l[0]["phx_ref"] != firstRef {
		t.Fatalf("tracking again sent %s", got.raw)
	}

	if r := pushPresence(t, a, cha, `{"type":"presence","event":"untrack"}`); r.Event != evPresenceDiff {
		t.Fatalf("untrack sent the tracker %s", r.raw)
	}
	next(t, a)
	got = next(t, b)
	if l := metas(t, got.Payload["leaves"], "mutale"); len(l) != 1 || l[0]["page"] != "people" {
		t.Fatalf("untrack sent %s", got.raw)
	}

	pushPresence(t, a, cha, `{"type":"presence","event":"track","payload":{"page":"waitlist"}}`)
	next(t, a)
	next(t, b)
	h.unregister(a) // the socket closes
	got = next(t, b)
	if l := metas(t, got.Payload["leaves"], "mutale"); got.Event != evPresenceDiff || len(l) != 1 || l[0]["page"] != "waitlist" {
		t.Fatalf("a closed socket sent %s", got.raw)
	}
	h.mu.Lock()
	state, n := h.presenceStateLocked("realtime:console"), h.nTracked
	h.mu.Unlock()
	if len(state) != 0 || n != 0 {
		t.Fatalf("after the close: state %v, %d tracked", state, n)
	}
}

// Bad presence pushes are answered with a reason a person can act on, and
// nobody on the topic receives anything.
func TestPresenceRefusesBadInputClearly(t *testing.T) {
	t.Parallel()
	h := New(Config{MaxPresenceBytes: 100}, nil, slog.New(slog.DiscardHandler))
	defer h.Close()
	a, b := testConn(h), testConn(h)
	cha := withPresence(h, attach(t, a, "realtime:console", Identity{UserID: "op", Operator: true}, `[]`), "op")
	withPresence(h, attach(t, b, "realtime:console", Identity{UserID: "op2", Operator: true}, `[]`), "op2")
	for name, tc := range map[string]struct{ payload, want string }{
		"not an object":   {`[1,2]`, "presence needs"},
		"unknown event":   {`{"type":"presence","event":"wave"}`, "presence needs"},
		"wrong type":      {`{"type":"broadcast","event":"track","payload":{}}`, "presence needs"},
		"meta a string":   {`{"type":"presence","event":"track","payload":"here"}`, msgPresenceMeta},
		"meta an array":   {`{"type":"presence","event":"track","payload":[1]}`, msgPresenceMeta},
		"meta too large":  {`{"type":"presence","event":"track","payload":{"page":"` + strings.Repeat("x", 200) + `"}}`, "presence payload too large"},
		"event not given": {`{"type":"presence"}`, "presence needs"},
	} {
		r := pushPresence(t, a, cha, tc.payload)
		if r.Event != evReply || !strings.Contains(r.raw, `"status":"error"`) || !strings.Contains(r.raw, tc.want) {
			t.Errorf("%s: answered %s, want an error with %q", name, r.raw, tc.want)
		}
	}
	// The role removed since the join: the team's topic is refused.
	cha.setIdentity(Identity{UserID: "op"})
	r := pushPresence(t, a, cha, `{"type":"presence","event":"track","payload":{}}`)
	if !strings.Contains(r.raw, "Salaula team's") {
		t.Fatalf("a person on the team's topic was answered %s", r.raw)
	}
	// presence() queues diffs before it answers: none were queued.
	if n := len(b.send); n != 0 {
		t.Fatalf("%d message(s) reached the other channel", n)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.nTracked != 0 {
		t.Fatalf("%d presences tracked after refusals", h.nTracked)
	}
}

// pipe relays one hub's messages to the others, as PostgreSQL's NOTIFY
// does (the sender's own included).
type pipe struct{ hubs []*Hub }

func (p *pipe) Relay(_ context.Context, msg string) error {
	for _, h := range p.hubs {
		h.Publish(store.Change{Table: store.TableRealtime, Type: "MESSAGE", Record: map[string]any{"m": msg}})
	}
	return nil
}

// Two instances: a presence tracked on one reaches the channels of the
// other (join and leave); a channel that joins the other instance later
// learns of it (sync); an instance that falls silent has its presences
// removed; broadcasts cross too.
func TestPresenceAndBroadcastAcrossInstances(t *testing.T) {
	t.Parallel()
	h1 := New(Config{}, nil, slog.New(slog.DiscardHandler))
	defer h1.Close()
	h2 := New(Config{}, nil, slog.New(slog.DiscardHandler))
	defer h2.Close()
	p := &pipe{hubs: []*Hub{h1, h2}}
	h1.RelayThrough(p)
	h2.RelayThrough(p)
	op := Identity{UserID: "op", Operator: true}

	a := testConn(h1)
	h1.register(a)
	cha := withPresence(h1, attach(t, a, "realtime:console", op, `[]`), "mutale")
	pushPresence(t, a, cha, `{"type":"presence","event":"track","payload":{"page":"messages"}}`)
	next(t, a)

	// A channel joins on instance 2: its hub asks for the topic's presences.
	b := testConn(h2)
	withPresence(h2, attach(t, b, "realtime:console", op, `[]`), "chanda")
	msg, _ := h2.encodeRelay(relayMsg{Kind: "sync", Topic: "realtime:console"})
	h2.relay(msg)
	got := next(t, b)
	if j := metas(t, got.Payload["joins"], "mutale"); got.Event != evPresenceDiff || len(j) != 1 || j[0]["page"] != "messages" {
		t.Fatalf("instance 2 learnt %s", got.raw)
	}

	// A broadcast from instance 1 reaches instance 2.
	m, _ := decodeText([]byte(`["1","7","realtime:console","broadcast",{"type":"broadcast","event":"wave","payload":{"n":1}}]`))
	a.broadcast(cha, m)
	if got := next(t, b); !strings.Contains(got.raw, "wave") {
		t.Fatalf("instance 2 received %s, want the broadcast", got.raw)
	}

	// One larger than a NOTIFY travels in parts and arrives whole.
	big := strings.Repeat("é", 10000)
	m, _ = decodeText([]byte(`["1","8","realtime:console","broadcast",{"type":"broadcast","event":"big","payload":{"s":"` + big + `"}}]`))
	a.broadcast(cha, m)
	if got := next(t, b); !strings.Contains(got.raw, big) {
		t.Fatalf("instance 2 received %d bytes, want the whole broadcast", len(got.raw))
	}

	h1.unregister(a) // the socket closes
	got = next(t, b)
	if l := metas(t, got.Payload["leaves"], "mutale"); got.Event != evPresenceDiff || len(l) != 1 {
		t.Fatalf("the close reached instance 2 as %s", got.raw)
	}

	// An instance that says nothing for presenceTTL is forgotten.
	c := testConn(h1)
	chc := withPresence(h1, attach(t, c, "realtime:console", op, `[]`), "bwalya")
	pushPresence(t, c, chc, `{"type":"presence","event":"track","payload":{}}`)
	next(t, c)
	if got := next(t, b); metas(t, got.Payload["joins"], "bwalya") == nil {
		t.Fatalf("instance 2 received %s", got.raw)
	}
	h2.presenceJanitor(time.Now().Add(presenceTTL + time.Second))
	got = next(t, b)
	if l := metas(t, got.Payload["leaves"], "bwalya"); len(l) != 1 {
		t.Fatalf("a silent instance's presence left as %s", got.raw)
	}
	// When that instance is heard of again (it says alive), its presences
	// are asked for and come back.
	h1.presenceJanitor(time.Now())
	got = next(t, b)
	if j := metas(t, got.Payload["joins"], "bwalya"); got.Event != evPresenceDiff || len(j) != 1 {
		t.Fatalf("after alive, instance 2 received %s", got.raw)
	}
}

// A channel joined without presence enabled that tracks receives who is
// there (presence_state), then presence events.
func TestPresenceTrackingEnablesPresenceForTheChannel(t *testing.T) {
	t.Parallel()
	h := New(Config{}, nil, slog.New(slog.DiscardHandler))
	defer h.Close()
	a, b := testConn(h), testConn(h)
	op := Identity{UserID: "op", Operator: true}
	chb := withPresence(h, attach(t, b, "realtime:room", op, `[]`), "chanda")
	pushPresence(t, b, chb, `{"type":"presence","event":"track","payload":{"n":1}}`)
	next(t, b)
	cha := attach(t, a, "realtime:room", op, `[]`) // presence not enabled
	cha.pKey = "mutale"
	st := pushPresence(t, a, cha, `{"type":"presence","event":"track","payload":{"n":2}}`)
	if st.Event != evPresenceSt || len(metas(t, json.RawMessage(mustMarshal(st.Payload)), "chanda")) != 1 {
		t.Fatalf("the tracker got %s first, want presence_state with chanda", st.raw)
	}
	if d := next(t, a); d.Event != evPresenceDiff || len(metas(t, d.Payload["joins"], "mutale")) != 1 {
		t.Fatalf("then %s, want its own join", d.raw)
	}
}

func mustMarshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// Tracking the same payload again changes nothing and tells nobody; a
// channel pushing presence events too fast is answered with the limit.
func TestPresenceSamePayloadIsQuietAndEventsAreLimited(t *testing.T) {
	t.Parallel()
	h := New(Config{EventsPerSecond: 1000}, nil, slog.New(slog.DiscardHandler)) // the channel's own limit is the one tried
	defer h.Close()
	a, b := testConn(h), testConn(h)
	op := Identity{UserID: "op", Operator: true}
	cha := withPresence(h, attach(t, a, "realtime:console", op, `[]`), "mutale")
	withPresence(h, attach(t, b, "realtime:console", op, `[]`), "chanda")
	pushPresence(t, a, cha, `{"type":"presence","event":"track","payload":{"page":"messages"}}`)
	next(t, a)
	next(t, b)
	if r := pushPresence(t, a, cha, `{"type":"presence","event":"track","payload":{"page":"messages"}}`); r.Event != evReply || !strings.Contains(r.raw, `"ok"`) {
		t.Fatalf("the same payload again was answered %s", r.raw)
	}
	if n := len(b.send); n != 0 {
		t.Fatalf("the same payload again sent %d message(s) to the other channel", n)
	}
	// Two events so far; the limit allows presenceEventsPerWindow in a window.
	for i := 3; i <= presenceEventsPerWindow; i++ {
		pushPresence(t, a, cha, fmt.Sprintf(`{"type":"presence","event":"track","payload":{"n":%d}}`, i))
		next(t, a)
	}
	r := pushPresence(t, a, cha, `{"type":"presence","event":"untrack"}`)
	if !strings.Contains(r.raw, "too many presence events") {
		t.Fatalf("event %d was answered %s", presenceEventsPerWindow+1, r.raw)
	}
}
