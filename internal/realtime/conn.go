package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
)

// conn is one client socket: a reader (the handler's goroutine) and a
// writer fed by a bounded queue.
type conn struct {
	hub      *Hub
	ws       *websocket.Conn
	ip       string // the client address's limit key (clientip.LimitKey)
	key      string // this socket's random id, its key in the hub's perConn limiter
	vsn2     bool
	send     chan frame
	done     chan struct{} // closed when the server gives the socket up
	closed   chan struct{} // closed when the close handshake is over
	closing  sync.Once
	lastRead atomic.Int64
	// hold is how long the reader waits before it reads the next message:
	// set when an event is dropped over a limit, so that a client sending
	// too fast is read at the pace the limit allows (the reader's own).
	hold time.Duration

	mu        sync.Mutex
	channels  map[string]*channel // by topic
	nBindings int                 // the distinct bindings of all its channels
}

// channel is one joined topic of a socket.
type channel struct {
	conn     *conn
	topic    string
	joinRef  json.RawMessage
	self     bool
	ack      bool
	user     string     // the account that joined (a new token must be its)
	bindings []*binding // distinct
	byKey    map[subKey][]*binding

	// Presence (guarded by the hub's mu): the channel's presence key,
	// whether it receives presence events, and the meta it tracks (nil:
	// none) with its phx_ref.
	pKey     string
	pEnabled bool
	pMeta    json.RawMessage
	pRef     string
	pPayload string    // the payload last tracked, as sent (a track of the same one changes nothing)
	pWindow  time.Time // the start of the current window of presence events
	pEvents  int       // presence events in that window

	mu  sync.Mutex
	id  Identity
	tok string
}

// newChannel is a channel of c on topic holding the distinct bindings,
// joined by id with token tok.
func newChannel(c *conn, topic string, bindings []*binding, id Identity, tok string) *channel {
	ch := &channel{conn: c, topic: topic, user: id.UserID, bindings: bindings, byKey: map[subKey][]*binding{}, id: id, tok: tok}
	for _, b := range bindings {
		ch.byKey[b.key()] = append(ch.byKey[b.key()], b)
	}
	return ch
}

// setIdentity replaces who ch acts for (with their rights as they are now).
func (ch *channel) setIdentity(id Identity) {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	ch.id = id
}

func (ch *channel) identity() Identity {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return ch.id
}

func (ch *channel) token() string {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return ch.tok
}

func (c *conn) channelList() []*channel {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*channel, 0, len(c.channels))
	for _, ch := range c.channels {
		out = append(out, ch)
	}
	return out
}

// push queues f for the client; a client whose queue is full is dropped.
func (c *conn) push(f frame, kind string) {
	select {
	case <-c.done:
		return
	default:
	}
	select {
	case c.send <- f:
		c.hub.events.WithLabelValues(kind).Inc()
	default:
		c.fail(websocket.StatusPolicyViolation, fmt.Sprintf("%s (more than %d messages waiting)", ReasonTooSlow, cap(c.send)), "slow")
	}
}

// fail closes the socket with code and reason (once) and forgets it.
func (c *conn) fail(code websocket.StatusCode, reason, label string) {
	c.closing.Do(func() {
		if label != "" {
			c.hub.dropped.WithLabelValues(label).Inc()
		}
		close(c.done)
		c.hub.unregister(c)
		reason = closeReason(reason)
		go func() {
			c.ws.Close(code, reason)
			close(c.closed)
		}()
	})
}

func (c *conn) writeLoop() {
	for {
		select {
		case <-c.done:
			return
		case f := <-c.send:
			ctx, cancel := context.WithTimeout(c.hub.ctx, c.hub.cfg.WriteTimeout)
			typ := websocket.MessageText
			if f.binary {
				typ = websocket.MessageBinary
			}
			err := c.ws.Write(ctx, typ, f.data)
			cancel()
			if err != nil {
				if errors.Is(err, context.DeadlineExceeded) {
					c.fail(websocket.StatusPolicyViolation, ReasonTooSlow, "slow")
				} else {
					c.fail(websocket.StatusNormalClosure, "", "")
				}
				return
			}
		}
	}
}

func (c *conn) readLoop() {
	for {
		if c.hold > 0 {
			t := time.NewTimer(c.hold)
			c.hold = 0
			select {
			case <-t.C:
			case <-c.done:
				t.Stop()
				return
			}
		}
		typ, data, err := c.ws.Read(c.hub.ctx)
		if err != nil {
			switch {
			case errors.Is(err, websocket.ErrMessageTooBig):
				c.hub.dropped.WithLabelValues("too_big").Inc()
			}
			c.fail(websocket.StatusNormalClosure, "", "")
			return
		}
		c.lastRead.Store(c.hub.now().UnixNano())
		var m message
		if typ == websocket.MessageBinary {
			m, err = decodeBinary(data)
		} else {
			m, err = decodeText(data)
		}
		if err != nil {
			c.fail(closeStatusMalformed, ReasonMalformed+": "+err.Error(), "malformed")
			return
		}
		c.handle(m)
	}
}

// out queues a message of this socket's vsn.
func (c *conn) out(joinRef, ref json.RawMessage, topic, event string, payload any, kind string) {
	c.push(encode(c.vsn2, joinRef, ref, topic, event, payload), kind)
}

func (c *conn) handle(m message) {
	if m.Topic == topicPhoenix {
		if m.Event == evHeartbeat {
			c.out(nil, m.Ref, topicPhoenix, evReply, reply("ok", nil), "reply")
			return
		}
		c.out(nil, m.Ref, topicPhoenix, evReply, errorReply(fmt.Sprintf("unknown event %q on topic phoenix: only heartbeat", m.Event)), "reply")
		return
	}
	if m.Event == evJoin {
		c.join(m)
		return
	}
	c.mu.Lock()
	ch := c.channels[m.Topic]
	c.mu.Unlock()
	if ch == nil {
		// Phoenix answers a push to a topic the socket has not joined so.
		c.out(m.JoinRef, m.Ref, m.Topic, evReply, errorReply("unmatched topic: join the channel first"), "reply")
		return
	}
	switch m.Event {
	case evLeave:
		c.leave(ch)
		c.out(m.JoinRef, m.Ref, m.Topic, evReply, reply("ok", nil), "reply")
	case evAccessToken:
		c.accessToken(ch, m)
	case evBroadcast:
		c.broadcast(ch, m)
	case evPresence:
		c.presence(ch, m)
	default:
		c.out(m.JoinRef, m.Ref, m.Topic, evReply, errorReply(fmt.Sprintf("unknown event %q", m.Event)), "reply")
	}
}

const msgNoPrivate = "private channels are not offered by this server: join without config.private"

// join answers a phx_join: checks the topic, the token and the access
// rules, then replies with the postgres_changes bindings and their ids.
func (c *conn) join(m message) {
	refuse := func(reason string) {
		c.hub.refused.WithLabelValues("join").Inc()
		c.out(m.JoinRef, m.Ref, m.Topic, evReply, errorReply(reason), "reply")
	}
	if reason := validTopic(m.Topic); reason != "" {
		refuse(reason)
		return
	}
	var p joinPayload
	if err := json.Unmarshal(m.Payload, &p); err != nil {
		refuse("the join payload is not {config, access_token}: " + err.Error())
		return
	}
	if p.Config.Private {
		refuse(msgNoPrivate)
		return
	}
	bindings, replies, reason := parseBindings(p.Config)
	if reason != "" {
		refuse(reason)
		return
	}
	if len(bindings) > c.hub.cfg.MaxBindingsPerJoin {
		refuse(fmt.Sprintf("too many postgres_changes bindings in one join (limit %d different ones)", c.hub.cfg.MaxBindingsPerJoin))
		return
	}
	// A join without a token acts with the apikey's role (the zero
	// Identity), as one with the anon key does: public topics only, no
	// postgres_changes. A person's token may follow in access_token.
	var id Identity
	tok := ""
	if p.AccessToken != nil && *p.AccessToken != "" {
		tok = *p.AccessToken
		ctx, cancel := context.WithTimeout(c.hub.ctx, 5*time.Second)
		var err error
		id, err = c.hub.auth.Authenticate(ctx, tok)
		cancel()
		if err != nil {
			refuse(Reason(err))
			return
		}
	}
	if reason := allowed(id, m.Topic, bindings); reason != "" {
		refuse(reason)
		return
	}
	pkey, reason := presenceKey(p.Config.Presence.Key)
	if reason != "" {
		refuse(reason)
		return
	}
	ch := newChannel(c, m.Topic, bindings, id, tok)
	ch.joinRef, ch.self, ch.ack = m.JoinRef, p.Config.Broadcast.Self, p.Config.Broadcast.Ack
	ch.pKey, ch.pEnabled = pkey, p.Config.Presence.Enabled
	c.mu.Lock()
	old := c.channels[m.Topic]
	if old == nil && len(c.channels) >= c.hub.cfg.MaxChannelsPerConn {
		c.mu.Unlock()
		refuse(fmt.Sprintf("too many channels on this connection (limit %d): leave one first", c.hub.cfg.MaxChannelsPerConn))
		return
	}
	n := c.nBindings + len(bindings)
	if old != nil {
		n -= len(old.bindings)
	}
	if n > c.hub.cfg.MaxBindingsPerConn {
		c.mu.Unlock()
		refuse(fmt.Sprintf("too many postgres_changes bindings on this connection (limit %d, counting the different ones of each channel): leave a channel first",
			c.hub.cfg.MaxBindingsPerConn))
		return
	}
	c.channels[m.Topic] = ch
	c.nBindings = n
	c.mu.Unlock()
	c.hub.mu.Lock()
	if _, open := c.hub.conns[c]; !open {
		c.hub.mu.Unlock()
		return
	}
	var gone []tracked
	if old != nil {
		if t := c.hub.removeLocked(old); t != nil { // a second join of a topic replaces the first
			gone = append(gone, *t)
		}
	}
	fresh := len(c.hub.topics[m.Topic]) == 0
	c.hub.addLocked(ch)
	var state map[string]presenceEntry
	if ch.pEnabled {
		state = c.hub.presenceStateLocked(m.Topic)
	}
	c.hub.mu.Unlock()
	c.hub.presenceLeft(gone)
	if fresh {
		// The other instances' presences on the topic were not followed
		// here: ask for them (they come as presence_diff joins).
		if msg, err := c.hub.encodeRelay(relayMsg{Kind: "sync", Topic: m.Topic}); err == nil {
			c.hub.relay(msg)
		}
	}
	resp := map[string]any{}
	if len(replies) > 0 {
		resp["postgres_changes"] = replies
	}
	c.out(m.JoinRef, m.Ref, m.Topic, evReply, reply("ok", resp), "reply")
	if state != nil {
		c.out(m.JoinRef, nil, m.Topic, evPresenceSt, state, "presence")
	}
	if len(bindings) > 0 {
		c.out(m.JoinRef, nil, m.Topic, evSystem, map[string]any{"extension": "postgres_changes", "status": "ok",
			"message": "Subscribed to PostgreSQL", "channel": strings.TrimPrefix(m.Topic, topicPrefix)}, "system")
	}
}

// leave forgets ch.
func (c *conn) leave(ch *channel) {
	c.mu.Lock()
	if c.channels[ch.topic] == ch {
		delete(c.channels, ch.topic)
		c.nBindings -= len(ch.bindings)
	}
	c.mu.Unlock()
	c.hub.mu.Lock()
	gone := c.hub.removeLocked(ch)
	c.hub.mu.Unlock()
	if gone != nil {
		c.hub.presenceLeft([]tracked{*gone})
	}
}

// closeChannel ends ch from the server's side with a system message
// saying why, then phx_close (realtime-js reports CLOSED).
func (c *conn) closeChannel(ch *channel, reason string) {
	c.leave(ch)
	c.out(ch.joinRef, nil, ch.topic, evSystem, map[string]any{"extension": "system", "status": "error",
		"message": reason, "channel": strings.TrimPrefix(ch.topic, topicPrefix)}, "system")
	c.out(ch.joinRef, nil, ch.topic, evClose, struct{}{}, "reply")
}

// accessToken takes a refreshed token for ch: one of the same person that
// still passes the access rules keeps the channel; an expired, signed-out
// or other person's token closes it.
func (c *conn) accessToken(ch *channel, m message) {
	var p struct {
		AccessToken *string `json:"access_token"`
	}
	if err := json.Unmarshal(m.Payload, &p); err != nil || p.AccessToken == nil || *p.AccessToken == "" {
		c.out(m.JoinRef, m.Ref, m.Topic, evReply, errorReply("access_token needs {access_token: <token>}"), "reply")
		return
	}
	ctx, cancel := context.WithTimeout(c.hub.ctx, 5*time.Second)
	id, err := c.hub.auth.Authenticate(ctx, *p.AccessToken)
	cancel()
	if err != nil && isTransient(err) {
		c.out(m.JoinRef, m.Ref, m.Topic, evReply, errorReply(Reason(err)), "reply")
		return
	}
	switch {
	case err != nil:
	case id.UserID == "" && ch.user == "":
		// The anon key again on a channel that acts with it: nothing changes.
		c.out(m.JoinRef, m.Ref, m.Topic, evReply, reply("ok", nil), "reply")
		return
	case id.UserID == "":
		err = &Refusal{Reason: ReasonAnonKey}
	case ch.user != "" && id.UserID != ch.user:
		err = errors.New("the new access token belongs to another person: join the channel again")
	default:
		if reason := allowed(id, ch.topic, ch.bindings); reason != "" {
			err = errors.New(reason)
		}
	}
	if err != nil {
		c.closeChannel(ch, Reason(err))
		return
	}
	if ch.user == "" {
		c.hub.raise(ch, id.UserID) // a channel joined without a person's token now acts for this person
	}
	ch.mu.Lock()
	ch.id, ch.tok = id, *p.AccessToken
	ch.mu.Unlock()
	c.out(m.JoinRef, m.Ref, m.Topic, evReply, reply("ok", nil), "reply")
}

// broadcast sends a user's message to the other sockets on the topic (and
// back to this one when the channel asked for self), then acknowledges.
func (c *conn) broadcast(ch *channel, m message) {
	bc := m.bcast
	if bc == nil {
		var p struct {
			Type    string          `json:"type"`
			Event   string          `json:"event"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal(m.Payload, &p); err != nil || p.Event == "" {
			c.out(m.JoinRef, m.Ref, m.Topic, evReply, errorReply("broadcast needs {type: \"broadcast\", event, payload}"), "reply")
			return
		}
		if len(p.Payload) == 0 {
			p.Payload = json.RawMessage("{}")
		}
		bc = &broadcast{Event: p.Event, Payload: p.Payload, JSON: true}
	}
	if reason := topicRule(ch.identity(), ch.topic); reason != "" {
		c.out(m.JoinRef, m.Ref, m.Topic, evReply, errorReply(reason), "reply")
		return
	}
	c.hub.mu.Lock()
	targets := make([]*channel, 0, len(c.hub.topics[m.Topic]))
	for other := range c.hub.topics[m.Topic] {
		if other != ch || ch.self {
			targets = append(targets, other)
		}
	}
	c.hub.mu.Unlock()
	if reason := c.allow(ch.topic, len(targets), len(bc.Payload)); reason != "" {
		c.out(m.JoinRef, m.Ref, m.Topic, evReply, errorReply(reason), "reply")
		return
	}
	msg, err := c.hub.relayBroadcast(ch.topic, bc)
	if err != nil {
		c.out(m.JoinRef, m.Ref, m.Topic, evReply, errorReply("broadcast "+err.Error()), "reply")
		return
	}
	defer c.hub.relay(msg)
	deliver(targets, "broadcast", func(vsn2 bool) (frame, bool) { return encodeBroadcast(vsn2, ch.topic, bc) })
	if ch.ack || m.Ref != nil {
		c.out(m.JoinRef, m.Ref, m.Topic, evReply, reply("ok", nil), "reply")
	}
}

// Reasons an event is dropped over a limit (Supabase Realtime's words first).
const (
	msgConnRate  = "Too many messages per second: a connection may send %d broadcast and presence events a second; this one was dropped"
	msgTopicRate = "Too many messages per second on %s: it delivers at most %d messages a second to its listeners; this one was dropped"
)

// allow counts a broadcast or presence event of size bytes that this
// socket sends on topic, reaching n channels, and says why it is dropped
// ("" when it is within the limits): the socket's events a second, then
// the topic's messages a second (messages(n, size)). A dropped event also
// holds the reader until the limit has room again, so a flood is read no
// faster than the limit takes it.
func (c *conn) allow(topic string, n, size int) string {
	h := c.hub
	if ok, wait := h.perConn.Allow(c.key); !ok {
		h.refused.WithLabelValues("conn_rate").Inc()
		c.hold = wait
		return fmt.Sprintf(msgConnRate, h.cfg.EventsPerSecond)
	}
	if ok, wait := h.perTopic.AllowN(topic, messages(n, size)); !ok {
		h.refused.WithLabelValues("topic_rate").Inc()
		c.hold = wait
		return fmt.Sprintf(msgTopicRate, topic, h.cfg.TopicMessagesPerSecond)
	}
	return ""
}

// messages is what an event of size bytes delivered to n channels counts
// against its topic's limit: one message per channel (at least one), as
// Supabase counts them, and one more for each KiB started beyond the
// first, so that the limit bounds the bytes a topic sends out as well.
func messages(n, size int) int {
	return max(n, 1) * max(1, (size+1023)/1024)
}

// deliver queues one message for every target channel (all on one
// topic), encoded at most once for each vsn by enc (ok false: that vsn
// cannot carry it), so that every listener's queue holds the same bytes.
func deliver(targets []*channel, kind string, enc func(vsn2 bool) (frame, bool)) {
	var frames [2]frame
	var done, ok [2]bool
	for _, t := range targets {
		i := 0
		if t.conn.vsn2 {
			i = 1
		}
		if !done[i] {
			frames[i], ok[i] = enc(t.conn.vsn2)
			done[i] = true
		}
		if ok[i] {
			t.conn.push(frames[i], kind)
		}
	}
}

// closeReason fits reason in a close frame (at most 123 bytes, cut at a
// character boundary).
func closeReason(reason string) string {
	if len(reason) <= 123 {
		return reason
	}
	cut := 120
	for cut > 0 && !utf8.RuneStart(reason[cut]) {
		cut--
	}
	return reason[:cut] + "..."
}
