package realtime

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"

	"salaula/internal/store"
)

// Presence, as Supabase Realtime carries it: a client pushes the event
// "presence" with {type: "presence", event: "track", payload: <meta>} or
// {event: "untrack"}; every channel on the topic that enabled presence
// receives "presence_diff" {joins, leaves}, each a map from presence key
// to {metas: [...]}, and a joining one "presence_state" (the same map of
// everyone present). Each meta carries the server's phx_ref (and, when it
// replaces an earlier one, phx_ref_prev). One channel holds at most one
// meta: tracking again replaces it, leaving the channel or closing the
// socket removes it.
//
// Across instances the hubs tell each other what changes (Relay): every
// hub keeps the presences of the other instances for the topics it has
// channels on, asks for them when its first channel of a topic joins
// (sync) and forgets an instance that has said nothing for presenceTTL
// (a crashed one: a live instance with presences says "alive" every
// aliveEvery).

// Relayer carries a hub's messages to the hubs of the other instances
// (store.DB.Relay): they come back through the store's change feed as
// changes of store.TableRealtime, which Publish hands to the hub.
type Relayer interface {
	Relay(ctx context.Context, msg string) error
}

const (
	aliveEvery  = 10 * time.Second
	presenceTTL = 35 * time.Second
	// maxPresenceKey bounds a presence key (config.presence.key).
	maxPresenceKey = 200
)

// presences is one instance's presences on a topic: by key, by phx_ref,
// the meta (with its phx_ref).
type presences map[string]map[string]json.RawMessage

func (p presences) add(key, ref string, meta json.RawMessage) bool {
	if p[key] == nil {
		p[key] = map[string]json.RawMessage{}
	}
	if _, ok := p[key][ref]; ok {
		return false
	}
	p[key][ref] = meta
	return true
}

// presenceEntry is one key of presence_state or presence_diff.
type presenceEntry struct {
	Metas []json.RawMessage `json:"metas"`
}

// tracked is what one channel tracks.
type tracked struct {
	topic, key, ref string
	meta            json.RawMessage
}

// relayMsg is what hubs tell each other. Kinds: "b" a user's broadcast,
// "pd" a presence diff (joins: metas by key; leaves: phx_refs by key),
// "sync" a request for everyone's presences on the topic (answered with
// "pd" joins), "alive".
type relayMsg struct {
	Origin  string                       `json:"o"`
	Kind    string                       `json:"k"`
	Topic   string                       `json:"t,omitempty"`
	Event   string                       `json:"e,omitempty"`
	Payload []byte                       `json:"p,omitempty"`
	JSON    bool                         `json:"j,omitempty"`
	Joins   map[string][]json.RawMessage `json:"pj,omitempty"`
	Leaves  map[string][]string          `json:"pl,omitempty"`
	// A part of a longer message (Kind "part"): its index, how many there
	// are, and its bytes in Payload.
	Part  int `json:"i,omitempty"`
	Parts int `json:"n,omitempty"`
}

// RelayThrough makes the hub share broadcasts and presence with the hubs
// of the other instances through r (call it before the first socket).
func (h *Hub) RelayThrough(r Relayer) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.relayer = r
}

func (h *Hub) relaying() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.relayer != nil
}

// relayChunk is the most of a message one relay call carries: a longer
// one (a large broadcast) travels in parts of this size, base64-encoded,
// which fit store.MaxRelayBytes once quoted; the receiver joins them (one
// hub's parts arrive in order, as the relay loop sends them).
const relayChunk = 4000

// encodeRelay writes m for the relay.
func (h *Hub) encodeRelay(m relayMsg) (string, error) {
	m.Origin = h.origin
	b, err := json.Marshal(m)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// relayParts splits msg into the messages the relay carries.
func (h *Hub) relayParts(msg string) []string {
	q, _ := json.Marshal(msg)
	if len(q) <= store.MaxRelayBytes {
		return []string{msg}
	}
	n := (len(msg) + relayChunk - 1) / relayChunk
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		part := []byte(msg[i*relayChunk : min((i+1)*relayChunk, len(msg))])
		b, _ := json.Marshal(relayMsg{Origin: h.origin, Kind: "part", Part: i, Parts: n, Payload: part})
		out = append(out, string(b))
	}
	return out
}

// relay queues msg (from encodeRelay) for the other instances.
func (h *Hub) relay(msg string) {
	if msg == "" || !h.relaying() {
		return
	}
	select {
	case h.relayQ <- msg:
	default:
		h.dropped.WithLabelValues("relay_full").Inc()
	}
}

// relayLoop sends the queued messages one at a time, so they arrive in
// the order they were queued.
func (h *Hub) relayLoop() {
	for {
		select {
		case <-h.ctx.Done():
			return
		case msg := <-h.relayQ:
			h.mu.Lock()
			r := h.relayer
			h.mu.Unlock()
			if r == nil {
				continue
			}
			for _, part := range h.relayParts(msg) {
				ctx, cancel := context.WithTimeout(h.ctx, 5*time.Second)
				err := r.Relay(ctx, part)
				cancel()
				if err != nil {
					h.dropped.WithLabelValues("relay_failed").Inc()
					break
				}
			}
		}
	}
}

// relayed handles a message of another instance's hub.
func (h *Hub) relayed(raw string) {
	var m relayMsg
	if err := json.Unmarshal([]byte(raw), &m); err != nil || m.Origin == "" || m.Origin == h.origin {
		return
	}
	h.mu.Lock()
	if h.seen == nil {
		h.seen = map[string]time.Time{}
	}
	_, known := h.seen[m.Origin]
	h.seen[m.Origin] = h.now()
	if !known && m.Kind == "alive" {
		// An instance new to this hub, or back after falling silent: ask
		// for its presences on the topics followed here.
		topics := make([]string, 0, len(h.topics))
		for t := range h.topics {
			topics = append(topics, t)
		}
		h.mu.Unlock()
		for _, t := range topics {
			if msg, err := h.encodeRelay(relayMsg{Kind: "sync", Topic: t}); err == nil {
				h.relay(msg)
			}
		}
		return
	}
	if m.Kind == "part" {
		whole, done := h.joinPartLocked(m)
		h.mu.Unlock()
		if done {
			h.relayed(whole)
		}
		return
	}
	switch m.Kind {
	case "b":
		targets := h.onTopicLocked(m.Topic, false)
		h.mu.Unlock()
		bc := &broadcast{Event: m.Event, Payload: m.Payload, JSON: m.JSON}
		deliver(targets, "broadcast", func(vsn2 bool) (frame, bool) { return encodeBroadcast(vsn2, m.Topic, bc) })
	case "pd":
		if len(h.topics[m.Topic]) == 0 {
			h.mu.Unlock()
			return
		}
		byOrigin := h.remote[m.Topic]
		if byOrigin == nil {
			byOrigin = map[string]presences{}
			h.remote[m.Topic] = byOrigin
		}
		st := byOrigin[m.Origin]
		if st == nil {
			st = presences{}
			byOrigin[m.Origin] = st
		}
		joins, leaves := map[string][]json.RawMessage{}, map[string][]json.RawMessage{}
		for key, metas := range m.Joins {
			for _, meta := range metas {
				if ref := metaRef(meta); ref != "" && st.add(key, ref, meta) {
					joins[key] = append(joins[key], meta)
				}
			}
		}
		for key, refs := range m.Leaves {
			for _, ref := range refs {
				if meta, ok := st[key][ref]; ok {
					delete(st[key], ref)
					if len(st[key]) == 0 {
						delete(st, key)
					}
					leaves[key] = append(leaves[key], meta)
				}
			}
		}
		targets := h.onTopicLocked(m.Topic, true)
		h.mu.Unlock()
		h.pushDiff(targets, joins, leaves)
	case "sync":
		joins := map[string][]json.RawMessage{}
		for ch := range h.topics[m.Topic] {
			if ch.pMeta != nil {
				joins[ch.pKey] = append(joins[ch.pKey], ch.pMeta)
			}
		}
		h.mu.Unlock()
		h.relayJoins(m.Topic, joins)
	default: // "alive", or a kind of a newer version
		h.mu.Unlock()
	}
}

// joinPartLocked adds a part of a longer message of m.Origin and returns
// the message once its last part is in (a part out of order drops what
// was gathered: its message is lost, never garbled).
func (h *Hub) joinPartLocked(m relayMsg) (string, bool) {
	if h.parts == nil {
		h.parts = map[string]*partial{}
	}
	p := h.parts[m.Origin]
	if m.Part == 0 {
		p = &partial{}
		h.parts[m.Origin] = p
	}
	if p == nil || p.next != m.Part || m.Part >= m.Parts {
		delete(h.parts, m.Origin)
		return "", false
	}
	p.buf = append(p.buf, m.Payload...)
	p.next++
	if p.next < m.Parts {
		return "", false
	}
	delete(h.parts, m.Origin)
	return string(p.buf), true
}

// partial is a longer message gathered so far: its bytes and the index of
// the part expected next.
type partial struct {
	buf  []byte
	next int
}

// relayJoins tells the other instances of presences on topic, in as many
// messages as they need.
func (h *Hub) relayJoins(topic string, joins map[string][]json.RawMessage) {
	batch := map[string][]json.RawMessage{}
	size := 0
	flush := func() {
		if len(batch) == 0 {
			return
		}
		if msg, err := h.encodeRelay(relayMsg{Kind: "pd", Topic: topic, Joins: batch}); err == nil {
			h.relay(msg)
		}
		batch, size = map[string][]json.RawMessage{}, 0
	}
	for key, metas := range joins {
		for _, meta := range metas {
			if size+2*(len(meta)+len(key))+200 > store.MaxRelayBytes {
				flush()
			}
			batch[key] = append(batch[key], meta)
			size += 2 * (len(meta) + len(key) + 8)
		}
	}
	flush()
}

// onTopicLocked lists the channels on topic (only those that receive
// presence, when presence is set).
func (h *Hub) onTopicLocked(topic string, presence bool) []*channel {
	out := make([]*channel, 0, len(h.topics[topic]))
	for ch := range h.topics[topic] {
		if !presence || ch.pEnabled {
			out = append(out, ch)
		}
	}
	return out
}

// pushDiff sends presence_diff to targets (nothing when both are empty).
func (h *Hub) pushDiff(targets []*channel, joins, leaves map[string][]json.RawMessage) {
	if len(joins) == 0 && len(leaves) == 0 {
		return
	}
	if len(targets) == 0 {
		return
	}
	payload := map[string]any{"joins": entries(joins), "leaves": entries(leaves)}
	topic := targets[0].topic
	deliver(targets, "presence", func(vsn2 bool) (frame, bool) {
		return encode(vsn2, nil, nil, topic, evPresenceDiff, payload), true
	})
}

func entries(m map[string][]json.RawMessage) map[string]presenceEntry {
	out := make(map[string]presenceEntry, len(m))
	for k, metas := range m {
		out[k] = presenceEntry{Metas: metas}
	}
	return out
}

// presenceStateLocked is everyone present on topic, on every instance.
func (h *Hub) presenceStateLocked(topic string) map[string]presenceEntry {
	all := map[string][]json.RawMessage{}
	for ch := range h.topics[topic] {
		if ch.pMeta != nil {
			all[ch.pKey] = append(all[ch.pKey], ch.pMeta)
		}
	}
	for _, st := range h.remote[topic] {
		for key, byRef := range st {
			for _, meta := range byRef {
				all[key] = append(all[key], meta)
			}
		}
	}
	return entries(all)
}

// presenceLeft tells the topic's channels (here and elsewhere) that the
// presences gone are no longer there.
func (h *Hub) presenceLeft(gone []tracked) {
	for _, g := range gone {
		h.mu.Lock()
		targets := h.onTopicLocked(g.topic, true)
		h.mu.Unlock()
		h.pushDiff(targets, nil, map[string][]json.RawMessage{g.key: {g.meta}})
		if msg, err := h.encodeRelay(relayMsg{Kind: "pd", Topic: g.topic, Leaves: map[string][]string{g.key: {g.ref}}}); err == nil {
			h.relay(msg)
		}
	}
}

// presenceJanitor forgets the presences of instances silent for presenceTTL
// and tells the channels that they left; while this hub tracks presences
// it says it is alive.
func (h *Hub) presenceJanitor(now time.Time) {
	type left struct {
		targets []*channel
		leaves  map[string][]json.RawMessage
	}
	var lefts []left
	h.mu.Lock()
	for origin, at := range h.seen {
		if now.Sub(at) > presenceTTL {
			delete(h.seen, origin) // its next message makes it known again (alive: a sync)
		}
	}
	for topic, byOrigin := range h.remote {
		for origin, st := range byOrigin {
			if _, alive := h.seen[origin]; alive {
				continue
			}
			leaves := map[string][]json.RawMessage{}
			for key, byRef := range st {
				leaves[key] = append(leaves[key], mapsValues(byRef)...)
			}
			delete(byOrigin, origin)
			lefts = append(lefts, left{h.onTopicLocked(topic, true), leaves})
		}
	}
	sayAlive := h.relayer != nil && h.nTracked > 0 && now.Sub(h.lastAlive) >= aliveEvery
	if sayAlive {
		h.lastAlive = now
	}
	h.mu.Unlock()
	for _, l := range lefts {
		h.pushDiff(l.targets, nil, l.leaves)
	}
	if sayAlive {
		if msg, err := h.encodeRelay(relayMsg{Kind: "alive"}); err == nil {
			h.relay(msg)
		}
	}
}

func mapsValues(m map[string]json.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, 0, len(m))
	for v := range maps.Values(m) {
		out = append(out, v)
	}
	return out
}

// metaRef reads a meta's phx_ref ("" when it has none).
func metaRef(meta json.RawMessage) string {
	var m struct {
		Ref string `json:"phx_ref"`
	}
	if json.Unmarshal(meta, &m) != nil {
		return ""
	}
	return m.Ref
}

// newID is a random hex id of n bytes.
func newID(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// presenceKey is a join's presence key: the client's, or a random one.
func presenceKey(k string) (string, string) {
	if k == "" {
		return newID(16), ""
	}
	if len(k) > maxPresenceKey {
		return "", fmt.Sprintf("config.presence.key too long: at most %d bytes", maxPresenceKey)
	}
	return k, ""
}

// Reasons a presence push is refused.
const (
	msgPresenceShape = `presence needs {type: "presence", event: "track", payload: {...}} or {type: "presence", event: "untrack"}`
	msgPresenceMeta  = "presence track needs a payload that is a JSON object"
)

var errPresenceMeta = errors.New(msgPresenceMeta)

// buildMeta is the meta tracked for payload: the client's object with the
// server's phx_ref (and phx_ref_prev when it replaces prev).
func buildMeta(payload json.RawMessage, limit int, ref, prev string) (json.RawMessage, error) {
	if len(payload) > limit {
		return nil, fmt.Errorf("presence payload too large: %d bytes, at most %d", len(payload), limit)
	}
	var obj map[string]json.RawMessage
	if len(payload) == 0 || strings.TrimSpace(string(payload)) == "null" {
		obj = map[string]json.RawMessage{}
	} else if err := json.Unmarshal(payload, &obj); err != nil || obj == nil {
		return nil, errPresenceMeta
	}
	r, _ := json.Marshal(ref)
	obj["phx_ref"] = r
	delete(obj, "phx_ref_prev")
	if prev != "" {
		p, _ := json.Marshal(prev)
		obj["phx_ref_prev"] = p
	}
	return json.Marshal(obj)
}

// A channel may push at most presenceEventsPerWindow presence events
// (track, untrack) in each presenceWindow: each one reaches every channel
// of the topic on every instance.
const (
	presenceEventsPerWindow = 20
	presenceWindow          = 10 * time.Second
)

// allowPresenceEvent counts one presence event of ch and reports whether
// it is within the limit.
func (h *Hub) allowPresenceEvent(ch *channel) bool {
	now := h.now()
	h.mu.Lock()
	defer h.mu.Unlock()
	if now.Sub(ch.pWindow) >= presenceWindow {
		ch.pWindow, ch.pEvents = now, 0
	}
	ch.pEvents++
	return ch.pEvents <= presenceEventsPerWindow
}

// presence answers a channel's presence push (track or untrack).
func (c *conn) presence(ch *channel, m message) {
	h := c.hub
	fail := func(reason string) {
		c.out(m.JoinRef, m.Ref, m.Topic, evReply, errorReply(reason), "reply")
	}
	var p struct {
		Type    string          `json:"type"`
		Event   string          `json:"event"`
		Payload json.RawMessage `json:"payload"`
	}
	if err := json.Unmarshal(m.Payload, &p); err != nil || (p.Type != "" && p.Type != evPresence) {
		fail(msgPresenceShape)
		return
	}
	if reason := topicRule(ch.identity(), ch.topic); reason != "" {
		fail(reason)
		return
	}
	h.mu.Lock()
	listeners := 0
	for other := range h.topics[ch.topic] {
		if other.pEnabled {
			listeners++
		}
	}
	h.mu.Unlock()
	if reason := c.allow(ch.topic, listeners, len(p.Payload)); reason != "" {
		fail(reason)
		return
	}
	if !h.allowPresenceEvent(ch) {
		fail(fmt.Sprintf("too many presence events: at most %d every %s on a channel", presenceEventsPerWindow, presenceWindow))
		return
	}
	switch p.Event {
	case "track":
		ref := newID(8)
		h.mu.Lock()
		if _, open := h.topics[ch.topic][ch]; !open {
			h.mu.Unlock()
			return // left meanwhile
		}
		if ch.pMeta != nil && ch.pPayload == string(p.Payload) {
			h.mu.Unlock() // tracked as it is: nothing changes
			c.out(m.JoinRef, m.Ref, m.Topic, evReply, reply("ok", nil), "reply")
			return
		}
		meta, err := buildMeta(p.Payload, h.cfg.MaxPresenceBytes, ref, ch.pRef)
		var msg string
		if err == nil {
			joins := map[string][]json.RawMessage{ch.pKey: {meta}}
			rm := relayMsg{Kind: "pd", Topic: ch.topic, Joins: joins}
			if ch.pMeta != nil {
				rm.Leaves = map[string][]string{ch.pKey: {ch.pRef}}
			}
			msg, err = h.encodeRelay(rm)
		}
		if err != nil {
			h.mu.Unlock()
			fail(err.Error())
			return
		}
		var leaves map[string][]json.RawMessage
		if ch.pMeta != nil {
			leaves = map[string][]json.RawMessage{ch.pKey: {ch.pMeta}}
		} else {
			h.nTracked++
		}
		var state map[string]presenceEntry
		if !ch.pEnabled {
			// A channel that tracks receives presence from now on,
			// starting with who is there.
			ch.pEnabled = true
			state = h.presenceStateLocked(ch.topic)
		}
		ch.pMeta, ch.pRef, ch.pPayload = meta, ref, string(p.Payload)
		targets := h.onTopicLocked(ch.topic, true)
		h.mu.Unlock()
		if state != nil {
			c.out(ch.joinRef, nil, ch.topic, evPresenceSt, state, "presence")
		}
		h.pushDiff(targets, map[string][]json.RawMessage{ch.pKey: {meta}}, leaves)
		h.relay(msg)
	case "untrack":
		h.mu.Lock()
		var gone []tracked
		if ch.pMeta != nil {
			gone = append(gone, tracked{topic: ch.topic, key: ch.pKey, ref: ch.pRef, meta: ch.pMeta})
			ch.pMeta, ch.pRef, ch.pPayload = nil, "", ""
			h.nTracked--
		}
		h.mu.Unlock()
		h.presenceLeft(gone)
	default:
		fail(msgPresenceShape)
		return
	}
	c.out(m.JoinRef, m.Ref, m.Topic, evReply, reply("ok", nil), "reply")
}

// relayBroadcast encodes bc on topic for the other instances ("" when no
// relay is set), or says why it cannot reach them.
func (h *Hub) relayBroadcast(topic string, bc *broadcast) (string, error) {
	if !h.relaying() {
		return "", nil
	}
	return h.encodeRelay(relayMsg{Kind: "b", Topic: topic, Event: bc.Event, Payload: bc.Payload, JSON: bc.JSON})
}
