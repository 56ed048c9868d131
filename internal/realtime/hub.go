// Package realtime serves the part of the Supabase Realtime protocol that
// supabase-js v2's channel() uses: a Phoenix-style WebSocket
// (/realtime/v1/websocket) with heartbeats, channel joins and leaves,
// access_token updates, postgres_changes (the store's committed changes of
// the tables the product shows live, under the same access rules as the
// HTTP side), broadcast between the clients of one channel (self and ack
// options) and system messages. The Hub keeps each socket's channels in
// memory only; the changes themselves come from the store, which on
// PostgreSQL carries them between instances (LISTEN/NOTIFY).
package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/prometheus/client_golang/prometheus"

	"salaula/internal/clientip"
	"salaula/internal/ratelimit"
	"salaula/internal/store"
)

// Config holds the hub's limits.
type Config struct {
	MaxConns           int           // sockets open at once on this instance (10000)
	MaxConnsPerIP      int           // sockets open at once from one client address (100)
	MaxChannelsPerConn int           // channels one socket may join (100)
	MaxBindingsPerJoin int           // distinct postgres_changes bindings of one join (20)
	MaxBindingsPerConn int           // distinct postgres_changes bindings of all of a socket's channels (100)
	MaxMessageBytes    int64         // largest message a client may send (65536)
	SendQueue          int           // messages waiting for a slow client before it is dropped (256)
	IdleTimeout        time.Duration // a socket that sends nothing (not even a heartbeat) this long is closed (60s)
	WriteTimeout       time.Duration // a write a client does not take this long drops it (10s)
	RecheckEvery       time.Duration // how often each channel's token and session are checked again (30s)
	MaxPresenceBytes   int           // largest presence meta a channel may track (2048)
	// EventsPerSecond is how many broadcast and presence events one socket
	// may send in a second (10); TopicMessagesPerSecond how many messages
	// one topic may deliver in a second (1000), counted as Supabase
	// counts them, one per channel that receives the event, and once
	// more per KiB of payload started beyond the first (messages). An
	// event beyond either is dropped and its sender told.
	EventsPerSecond        int
	TopicMessagesPerSecond int
}

// DefaultConfig returns the limits used when a field of Config is zero.
func DefaultConfig() Config {
	return Config{MaxConns: 10000, MaxConnsPerIP: 100, MaxChannelsPerConn: 100, MaxBindingsPerJoin: 20, MaxBindingsPerConn: 100,
		MaxMessageBytes: 64 << 10, SendQueue: 256, IdleTimeout: 60 * time.Second, WriteTimeout: 10 * time.Second, RecheckEvery: 30 * time.Second,
		MaxPresenceBytes: 2048, EventsPerSecond: 10, TopicMessagesPerSecond: 1000}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.MaxConns <= 0 {
		c.MaxConns = d.MaxConns
	}
	if c.MaxConnsPerIP <= 0 {
		c.MaxConnsPerIP = d.MaxConnsPerIP
	}
	if c.MaxChannelsPerConn <= 0 {
		c.MaxChannelsPerConn = d.MaxChannelsPerConn
	}
	if c.MaxBindingsPerJoin <= 0 {
		c.MaxBindingsPerJoin = d.MaxBindingsPerJoin
	}
	if c.MaxBindingsPerConn <= 0 {
		c.MaxBindingsPerConn = d.MaxBindingsPerConn
	}
	if c.MaxMessageBytes <= 0 {
		c.MaxMessageBytes = d.MaxMessageBytes
	}
	if c.SendQueue <= 0 {
		c.SendQueue = d.SendQueue
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = d.IdleTimeout
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = d.WriteTimeout
	}
	if c.RecheckEvery <= 0 {
		c.RecheckEvery = d.RecheckEvery
	}
	if c.MaxPresenceBytes <= 0 {
		c.MaxPresenceBytes = d.MaxPresenceBytes
	}
	if c.EventsPerSecond <= 0 {
		c.EventsPerSecond = d.EventsPerSecond
	}
	if c.TopicMessagesPerSecond <= 0 {
		c.TopicMessagesPerSecond = d.TopicMessagesPerSecond
	}
	return c
}

// Authenticator checks what a client presents: the apikey of the socket
// and the access tokens of its channels. Authenticate returns the zero
// Identity (the apikey's role) for the anon key. Errors carry a message a
// person can act on.
type Authenticator interface {
	CheckAPIKey(ctx context.Context, apikey string) error
	Authenticate(ctx context.Context, accessToken string) (Identity, error)
}

// Close reasons (sent in the WebSocket close frame).
const (
	ReasonTooManyConns   = "too many realtime connections from your address"
	ReasonServerFull     = "the server has too many realtime connections: try again later"
	ReasonBadAPIKey      = "apikey is missing or is not this server's anon key"
	ReasonTooSlow        = "client too slow: it did not read its messages"
	ReasonIdle           = "no heartbeat: the socket sent nothing"
	ReasonShutdown       = "server shutting down"
	ReasonMalformed      = "malformed message"
	ReasonBadVersion     = "unsupported vsn: use 1.0.0 or 2.0.0"
	closeStatusTooMany   = websocket.StatusPolicyViolation
	closeStatusTryLater  = websocket.StatusTryAgainLater
	closeStatusMalformed = websocket.StatusInvalidFramePayloadData
)

// ReasonAnonKey refuses the anon key where a person's token is needed.
const ReasonAnonKey = "Sign in to use live updates: the anon key is not a person's token"

// Hub holds every open socket and its channels.
type Hub struct {
	cfg  Config
	auth Authenticator
	log  *slog.Logger
	now  func() time.Time

	ctx    context.Context
	cancel context.CancelFunc

	mu     sync.Mutex
	conns  map[*conn]struct{}
	perIP  map[string]int
	topics map[string]map[*channel]struct{} // joined channels by topic
	nChans int
	// subs holds who follows what: by table, column and value (subKey),
	// the channels with bindings under that key, so that a change costs
	// what the channels that want it cost, not every binding held.
	subs map[subKey]map[*channel]struct{}
	// filtered counts, by table and column, the keys of subs that filter
	// on that column: the columns whose value a change is looked up by.
	filtered map[string]map[string]int
	// users holds the joined channels by account, for closing them when
	// the person signs out or is no longer an operator.
	users  map[string]map[*channel]struct{}
	closed bool

	// Presence and relaying (presence.go): this hub's random id among the
	// instances, the other instances' presences by topic and origin, when
	// each origin was last heard of, how many channels track a presence,
	// when this hub last said it is alive, and the relay's queue.
	origin    string
	relayer   Relayer
	remote    map[string]map[string]presences
	seen      map[string]time.Time
	nTracked  int
	lastAlive time.Time
	relayQ    chan string
	parts     map[string]*partial // by origin, a longer message's parts so far

	// perConn and perTopic count the events sockets send and the messages
	// topics deliver (conn.allow).
	perConn  *ratelimit.Memory
	perTopic *ratelimit.Memory

	events  *prometheus.CounterVec
	dropped *prometheus.CounterVec
	refused *prometheus.CounterVec
	gauges  []prometheus.Collector
	janitor chan struct{}
}

// New returns a hub with the given limits (zero fields take
// DefaultConfig's); Close ends it.
func New(cfg Config, auth Authenticator, logger *slog.Logger) *Hub {
	if logger == nil {
		logger = slog.Default()
	}
	h := &Hub{cfg: cfg.withDefaults(), auth: auth, log: logger, now: time.Now,
		conns: map[*conn]struct{}{}, perIP: map[string]int{}, topics: map[string]map[*channel]struct{}{},
		subs: map[subKey]map[*channel]struct{}{}, filtered: map[string]map[string]int{}, users: map[string]map[*channel]struct{}{},
		janitor: make(chan struct{}), origin: newID(8), remote: map[string]map[string]presences{}, seen: map[string]time.Time{},
		relayQ: make(chan string, 4096)}
	h.perConn = ratelimit.New(h.cfg.EventsPerSecond, time.Second)
	h.perTopic = ratelimit.New(h.cfg.TopicMessagesPerSecond, time.Second)
	h.ctx, h.cancel = context.WithCancel(context.Background())
	h.events = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "salaula_realtime_events_sent_total",
		Help: "Realtime messages sent to clients, by kind (postgres_changes, broadcast, system, reply).",
	}, []string{"kind"})
	h.dropped = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "salaula_realtime_disconnects_total",
		Help: "Realtime sockets closed by the server, by reason (slow, idle, malformed, too_big, shutdown).",
	}, []string{"reason"})
	h.refused = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "salaula_realtime_refused_total",
		Help: "Realtime sockets, joins and events refused, by reason (per_ip, full, apikey, join, conn_rate, topic_rate).",
	}, []string{"reason"})
	h.gauges = []prometheus.Collector{
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "salaula_realtime_connections", Help: "Realtime sockets open."},
			func() float64 { h.mu.Lock(); defer h.mu.Unlock(); return float64(len(h.conns)) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "salaula_realtime_channels", Help: "Realtime channels joined."},
			func() float64 { h.mu.Lock(); defer h.mu.Unlock(); return float64(h.nChans) }),
	}
	go h.janitorLoop()
	go h.relayLoop()
	return h
}

// Collectors are the hub's metrics, for the server's registry.
func (h *Hub) Collectors() []prometheus.Collector {
	return append([]prometheus.Collector{h.events, h.dropped, h.refused}, h.gauges...)
}

// Stats is a snapshot of the hub's size.
type Stats struct{ Conns, Channels int }

// Stats reports how many sockets and channels are open.
func (h *Hub) Stats() Stats {
	h.mu.Lock()
	defer h.mu.Unlock()
	return Stats{Conns: len(h.conns), Channels: h.nChans}
}

// Close closes every socket (1001, "server shutting down") and stops the hub.
func (h *Hub) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	conns := make([]*conn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	close(h.janitor)
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.fail(websocket.StatusGoingAway, ReasonShutdown, "shutdown")
			<-c.closed
		}()
	}
	waited := make(chan struct{})
	go func() { wg.Wait(); close(waited) }()
	select { // each close waits for the client's answer, at most a moment
	case <-waited:
	case <-time.After(2 * time.Second):
	}
	h.cancel()
}

// Serve upgrades r to a realtime socket of the client at ip and runs it
// until it closes. The sockets per address are counted by the address's
// limit key (an IPv6 client's /64).
func (h *Hub) Serve(w http.ResponseWriter, r *http.Request, ip string) {
	q := r.URL.Query()
	vsn := q.Get("vsn")
	// The HTTP server's read and write deadlines must not end a socket
	// that lives for hours; the hub keeps its own (IdleTimeout, WriteTimeout).
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		// Tokens, not cookies, authorise everything here, so another
		// origin gains nothing a page of its own could not do.
		InsecureSkipVerify: true,
	})
	if err != nil {
		return // Accept has answered (e.g. 426 for a plain GET)
	}
	ws.SetReadLimit(h.cfg.MaxMessageBytes)
	c := &conn{hub: h, ws: ws, ip: clientip.LimitKey(ip), key: newID(8), vsn2: vsn == "2.0.0", send: make(chan frame, h.cfg.SendQueue),
		done: make(chan struct{}), closed: make(chan struct{}), channels: map[string]*channel{}}
	c.lastRead.Store(h.now().UnixNano())
	if vsn != "" && vsn != "1.0.0" && vsn != "2.0.0" {
		h.refused.WithLabelValues("vsn").Inc()
		ws.Close(websocket.StatusPolicyViolation, ReasonBadVersion)
		return
	}
	if err := h.auth.CheckAPIKey(r.Context(), q.Get("apikey")); err != nil {
		h.refused.WithLabelValues("apikey").Inc()
		ws.Close(websocket.StatusPolicyViolation, ReasonBadAPIKey)
		return
	}
	if code, reason, label := h.register(c); reason != "" {
		h.refused.WithLabelValues(label).Inc()
		ws.Close(code, reason)
		return
	}
	go c.writeLoop()
	c.readLoop()
}

// register adds c unless a limit refuses it.
func (h *Hub) register(c *conn) (websocket.StatusCode, string, string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.closed:
		return websocket.StatusGoingAway, ReasonShutdown, "shutdown"
	case len(h.conns) >= h.cfg.MaxConns:
		return closeStatusTryLater, ReasonServerFull, "full"
	case h.perIP[c.ip] >= h.cfg.MaxConnsPerIP:
		return closeStatusTooMany, fmt.Sprintf("%s (limit %d)", ReasonTooManyConns, h.cfg.MaxConnsPerIP), "per_ip"
	}
	h.conns[c] = struct{}{}
	h.perIP[c.ip]++
	return 0, "", ""
}

// unregister removes c and its channels.
func (h *Hub) unregister(c *conn) {
	h.mu.Lock()
	if _, ok := h.conns[c]; !ok {
		h.mu.Unlock()
		return
	}
	delete(h.conns, c)
	if h.perIP[c.ip]--; h.perIP[c.ip] <= 0 {
		delete(h.perIP, c.ip)
	}
	var gone []tracked
	c.mu.Lock()
	for _, ch := range c.channels {
		if t := h.removeLocked(ch); t != nil {
			gone = append(gone, *t)
		}
	}
	c.channels = map[string]*channel{}
	c.nBindings = 0
	c.mu.Unlock()
	h.mu.Unlock()
	h.presenceLeft(gone)
}

// addLocked adds ch to the hub's indexes.
func (h *Hub) addLocked(ch *channel) {
	addTo(h.topics, ch.topic, ch)
	if ch.user != "" {
		addTo(h.users, ch.user, ch)
	}
	for k := range ch.byKey {
		if addTo(h.subs, k, ch) && k.col != "" {
			cols := h.filtered[k.table]
			if cols == nil {
				cols = map[string]int{}
				h.filtered[k.table] = cols
			}
			cols[k.col]++
		}
	}
	h.nChans++
}

// removeLocked takes ch out of the hub's indexes (if it is in them) and
// returns the presence it tracked (nil when none), which the caller
// announces as gone once it has let go of h.mu (presenceLeft).
func (h *Hub) removeLocked(ch *channel) *tracked {
	if !removeFrom(h.topics, ch.topic, ch) {
		return nil
	}
	var gone *tracked
	if ch.pMeta != nil {
		gone = &tracked{topic: ch.topic, key: ch.pKey, ref: ch.pRef, meta: ch.pMeta}
		ch.pMeta, ch.pRef, ch.pPayload = nil, "", ""
		h.nTracked--
	}
	if len(h.topics[ch.topic]) == 0 {
		delete(h.remote, ch.topic) // asked for again at the topic's next join
	}
	removeFrom(h.users, ch.user, ch)
	for k := range ch.byKey {
		if removeFrom(h.subs, k, ch) && k.col != "" {
			if _, still := h.subs[k]; !still {
				cols := h.filtered[k.table]
				if cols[k.col]--; cols[k.col] <= 0 {
					delete(cols, k.col)
				}
				if len(cols) == 0 {
					delete(h.filtered, k.table)
				}
			}
		}
	}
	h.nChans--
	return gone
}

// raise makes ch, joined without a person's token, act for the account
// user from now on (an access_token push with their token): it is closed
// with the account's channels when their access ends.
func (h *Hub) raise(ch *channel, user string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ch.user = user
	if _, open := h.topics[ch.topic][ch]; open {
		addTo(h.users, user, ch)
	}
}

// addTo adds ch to the set of m under k and reports whether the set is new.
func addTo[K comparable](m map[K]map[*channel]struct{}, k K, ch *channel) bool {
	set := m[k]
	fresh := set == nil
	if fresh {
		set = map[*channel]struct{}{}
		m[k] = set
	}
	set[ch] = struct{}{}
	return fresh
}

// removeFrom takes ch out of the set of m under k (dropping the set once
// empty) and reports whether ch was in it.
func removeFrom[K comparable](m map[K]map[*channel]struct{}, k K, ch *channel) bool {
	set := m[k]
	if _, ok := set[ch]; !ok {
		return false
	}
	delete(set, ch)
	if len(set) == 0 {
		delete(m, k)
	}
	return true
}

// Publish first closes the channels change c takes access from (a session
// signed out, an account deleted or no longer an operator's), then sends c
// to every channel that follows it and may see it. Its cost grows with
// the channels that follow c's table (and, for filtered bindings, c's
// values), not with every binding held. It never blocks on a client (a
// client whose queue is full is dropped).
func (h *Hub) Publish(c store.Change) {
	if c.Table == store.TableRealtime {
		if m, ok := c.Record["m"].(string); ok {
			h.relayed(m)
		}
		return
	}
	h.revoke(revocationOf(&c))
	if store.ChangeColumns(c.Table) == nil {
		return // e.g. an ended session: no client follows it
	}
	row := changeRow(&c)
	var targets map[*channel][]uint32
	collect := func(k subKey) {
		for ch := range h.subs[k] {
			for _, b := range ch.byKey[k] {
				if b.Event == "*" || b.Event == c.Type {
					if targets == nil {
						targets = map[*channel][]uint32{}
					}
					targets[ch] = append(targets[ch], b.ID)
				}
			}
		}
	}
	h.mu.Lock()
	collect(subKey{})
	collect(subKey{table: c.Table})
	for col := range h.filtered[c.Table] {
		if v, ok := row[col]; ok {
			collect(subKey{table: c.Table, col: col, val: cellString(v)})
		}
	}
	h.mu.Unlock()
	if len(targets) == 0 {
		return
	}
	data := changeData(&c)
	for ch, ids := range targets {
		if !visible(ch.identity(), &c) {
			continue
		}
		ch.conn.push(encode(ch.conn.vsn2, nil, nil, ch.topic, evChanges,
			map[string]any{"ids": ids, "data": data}), "postgres_changes")
	}
}

// revoke closes at once the channels r takes access from (on this
// instance; every instance receives the change that causes it): those of
// an ended session or a deleted account; for an account no longer an
// operator, those its bindings and topic now refuse (the others go on
// with the account's rights as a person).
func (h *Hub) revoke(r revocation) {
	if r.user == "" {
		return
	}
	h.mu.Lock()
	chans := make([]*channel, 0, len(h.users[r.user]))
	for ch := range h.users[r.user] {
		chans = append(chans, ch)
	}
	h.mu.Unlock()
	for _, ch := range chans {
		id := ch.identity()
		switch {
		case r.demoted:
			if !id.Operator {
				continue
			}
			id.Operator, id.NeedsAAL2 = false, false
			if reason := allowed(id, ch.topic, ch.bindings); reason != "" {
				ch.conn.closeChannel(ch, reason)
				continue
			}
			ch.setIdentity(id)
		case r.session == "" || id.SessionID == r.session:
			ch.conn.closeChannel(ch, r.reason)
		}
	}
}

// changeData is a change as realtime-js reads it (payload.data).
func changeData(c *store.Change) json.RawMessage {
	d := map[string]any{
		"schema": "public", "table": c.Table, "type": c.Type,
		"commit_timestamp": c.CommitTimestamp.UTC().Format(time.RFC3339Nano),
		"columns":          store.ChangeColumns(c.Table), "errors": nil,
	}
	if c.Type == "INSERT" || c.Type == "UPDATE" {
		d["record"] = c.Record
	}
	if c.Type == "UPDATE" || c.Type == "DELETE" {
		d["old_record"] = c.OldRecord
	}
	b, _ := json.Marshal(d)
	return b
}

// janitorLoop closes idle sockets and re-checks channels' tokens.
func (h *Hub) janitorLoop() {
	tick := h.cfg.IdleTimeout / 6
	tick = min(tick, 5*time.Second, h.cfg.RecheckEvery)
	t := time.NewTicker(tick)
	defer t.Stop()
	lastCheck := h.now()
	for {
		select {
		case <-h.janitor:
			return
		case <-t.C:
		}
		now := h.now()
		h.presenceJanitor(now)
		h.mu.Lock()
		conns := make([]*conn, 0, len(h.conns))
		for c := range h.conns {
			conns = append(conns, c)
		}
		h.mu.Unlock()
		recheck := now.Sub(lastCheck) >= h.cfg.RecheckEvery
		if recheck {
			lastCheck = now
		}
		type check struct {
			id  Identity
			err error
		}
		checked := map[string]check{}
		for _, c := range conns {
			if now.Sub(time.Unix(0, c.lastRead.Load())) > h.cfg.IdleTimeout {
				c.fail(websocket.StatusPolicyViolation, fmt.Sprintf("%s for %s", ReasonIdle, h.cfg.IdleTimeout), "idle")
				continue
			}
			for _, ch := range c.channelList() {
				id := ch.identity()
				if !id.Expires.IsZero() && now.After(id.Expires) {
					c.closeChannel(ch, "Token has expired: refresh the session to keep following changes")
					continue
				}
				if !recheck {
					continue
				}
				tok := ch.token()
				if tok == "" {
					continue // the apikey's role, checked when the socket opened
				}
				ck, ok := checked[tok]
				if !ok {
					ctx, cancel := context.WithTimeout(h.ctx, 5*time.Second)
					ck.id, ck.err = h.auth.Authenticate(ctx, tok)
					cancel()
					checked[tok] = ck
				}
				err := ck.err
				if err == nil {
					if reason := allowed(ck.id, ch.topic, ch.bindings); reason != "" {
						err = errors.New(reason)
					}
				}
				switch {
				case err == nil:
					ch.setIdentity(ck.id) // the rights as they are now
				case !isTransient(err):
					c.closeChannel(ch, Reason(err))
				}
			}
		}
	}
}

// Transient is an Authenticator error that says the check could not be
// made (e.g. the database is busy), not that the token is bad.
type Transient struct{ Err error }

// Refusal is an Authenticator's answer that the client is told as it is:
// Reason is user-facing copy, kept out of Error().
type Refusal struct{ Reason string }

func (r *Refusal) Error() string { return "realtime: access refused" }

// Reason is the sentence to tell the client for err: a Refusal's reason
// (also inside a Transient), or the error's own text.
func Reason(err error) string {
	var r *Refusal
	if errors.As(err, &r) {
		return r.Reason
	}
	return err.Error()
}

func (t *Transient) Error() string { return t.Err.Error() }
func (t *Transient) Unwrap() error { return t.Err }

func isTransient(err error) bool {
	var t *Transient
	return errors.As(err, &t)
}

// validTopic checks a channel topic.
func validTopic(t string) string {
	if !strings.HasPrefix(t, topicPrefix) || len(t) == len(topicPrefix) {
		return fmt.Sprintf("unknown topic %q: channel topics are realtime:<name>", t)
	}
	if len(t) > 255 {
		return "topic too long: at most 255 bytes"
	}
	return ""
}

// Wants reports whether the hub wants the store's changes now: while any
// channel is joined, to send them or to close the channels of a session
// that ended or an operator who is no longer one. When none is, the store
// need not read inserted rows back for announcements nobody receives.
func (h *Hub) Wants() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.nChans > 0
}
