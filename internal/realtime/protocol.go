package realtime

import (
	"bytes"
	"encoding/json"
	"errors"
)

// The Phoenix channel messages realtime-js speaks. With vsn 1.0.0 a
// message is a JSON object {join_ref, ref, topic, event, payload}; with vsn
// 2.0.0 a JSON array [join_ref, ref, topic, event, payload], and a user's
// broadcast may come as a binary frame (kind 3, "user broadcast push") and
// goes out as one (kind 4, "user broadcast"). Refs are echoed exactly as
// the client sent them.

// Phoenix and Supabase Realtime event names.
const (
	evJoin         = "phx_join"
	evLeave        = "phx_leave"
	evReply        = "phx_reply"
	evClose        = "phx_close"
	evError        = "phx_error"
	evHeartbeat    = "heartbeat"
	evAccessToken  = "access_token"
	evBroadcast    = "broadcast"
	evPresence     = "presence"
	evPresenceSt   = "presence_state"
	evPresenceDiff = "presence_diff"
	evChanges      = "postgres_changes"
	evSystem       = "system"
	topicPhoenix   = "phoenix"
	topicPrefix    = "realtime:"
)

// Binary frame kinds of vsn 2.0.0.
const (
	kindUserBroadcastPush = 3
	kindUserBroadcast     = 4
)

// message is one decoded Phoenix message. JoinRef and Ref hold the raw
// JSON the client sent (nil: null).
type message struct {
	JoinRef json.RawMessage
	Ref     json.RawMessage
	Topic   string
	Event   string
	Payload json.RawMessage
	// bcast is set for a binary user broadcast: its event and payload.
	bcast *broadcast
}

// broadcast is a user's broadcast: its event name and payload, JSON (json
// true) or raw bytes.
type broadcast struct {
	Event   string
	Payload []byte
	JSON    bool
}

var (
	errNotJSON  = errors.New("the message is not valid JSON")
	errBadShape = errors.New("want [join_ref, ref, topic, event, payload] or {topic, event, payload, ref}: topic and event strings")
	errBadFrame = errors.New("the binary frame is not a vsn 2.0.0 user broadcast push")
)

// decodeText reads a JSON message in either vsn's shape.
func decodeText(b []byte) (message, error) {
	var m message
	b = bytes.TrimSpace(b)
	if !json.Valid(b) {
		return m, errNotJSON
	}
	switch {
	case len(b) > 0 && b[0] == '[':
		var arr []json.RawMessage
		if err := json.Unmarshal(b, &arr); err != nil || len(arr) != 5 {
			return m, errBadShape
		}
		m.JoinRef, m.Ref, m.Payload = nullable(arr[0]), nullable(arr[1]), arr[4]
		if json.Unmarshal(arr[2], &m.Topic) != nil || json.Unmarshal(arr[3], &m.Event) != nil {
			return m, errBadShape
		}
	case len(b) > 0 && b[0] == '{':
		var obj struct {
			Topic   *string         `json:"topic"`
			Event   *string         `json:"event"`
			Payload json.RawMessage `json:"payload"`
			Ref     json.RawMessage `json:"ref"`
			JoinRef json.RawMessage `json:"join_ref"`
		}
		if err := json.Unmarshal(b, &obj); err != nil || obj.Topic == nil || obj.Event == nil {
			return m, errBadShape
		}
		m.Topic, m.Event, m.Payload = *obj.Topic, *obj.Event, obj.Payload
		m.JoinRef, m.Ref = nullable(obj.JoinRef), nullable(obj.Ref)
	default:
		return m, errBadShape
	}
	if m.Topic == "" || m.Event == "" {
		return m, errBadShape
	}
	if len(m.Payload) == 0 || string(m.Payload) == "null" {
		m.Payload = json.RawMessage("{}")
	}
	return m, nil
}

func nullable(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return raw
}

// decodeBinary reads a vsn 2.0.0 user broadcast push: kind, the lengths of
// join_ref, ref, topic, event and metadata, the payload's encoding (0
// binary, 1 JSON), those strings, then the payload.
func decodeBinary(b []byte) (message, error) {
	var m message
	const head = 7
	if len(b) < head || b[0] != kindUserBroadcastPush {
		return m, errBadFrame
	}
	lens := []int{int(b[1]), int(b[2]), int(b[3]), int(b[4]), int(b[5])}
	total := head
	for _, l := range lens {
		total += l
	}
	if len(b) < total || b[6] > 1 {
		return m, errBadFrame
	}
	parts := make([]string, len(lens))
	off := head
	for i, l := range lens {
		parts[i] = string(b[off : off+l])
		off += l
	}
	payload := b[off:]
	isJSON := b[6] == 1
	if isJSON && !json.Valid(payload) {
		return m, errNotJSON
	}
	if parts[2] == "" || parts[3] == "" {
		return m, errBadFrame
	}
	if parts[0] != "" {
		m.JoinRef, _ = json.Marshal(parts[0])
	}
	if parts[1] != "" {
		m.Ref, _ = json.Marshal(parts[1])
	}
	m.Topic, m.Event = parts[2], evBroadcast
	m.bcast = &broadcast{Event: parts[3], Payload: append([]byte(nil), payload...), JSON: isJSON}
	m.Payload = json.RawMessage("{}")
	return m, nil
}

// frame is one WebSocket message ready to write.
type frame struct {
	data   []byte
	binary bool
}

// outgoing is a message in vsn 1.0.0's shape; vsn 2.0.0 sends the same
// five values as an array. A nil ref is null.
type outgoing struct {
	JoinRef json.RawMessage `json:"join_ref"`
	Ref     json.RawMessage `json:"ref"`
	Topic   string          `json:"topic"`
	Event   string          `json:"event"`
	Payload json.RawMessage `json:"payload"`
}

// encode writes a message in the socket's vsn. payload must marshal (one
// that does not is sent as {}).
func encode(vsn2 bool, joinRef, ref json.RawMessage, topic, event string, payload any) frame {
	p, err := json.Marshal(payload)
	if err != nil {
		p = []byte(`{}`)
	}
	var msg any = outgoing{JoinRef: joinRef, Ref: ref, Topic: topic, Event: event, Payload: p}
	if vsn2 {
		msg = [5]any{joinRef, ref, topic, event, json.RawMessage(p)}
	}
	// Cannot fail: the refs are JSON checked when decoded, p is marshalled.
	b, _ := json.Marshal(msg)
	return frame{data: b}
}

// encodeBroadcast writes a user's broadcast to a socket: a binary user
// broadcast frame (kind 4) for vsn 2.0.0, a JSON message for 1.0.0 (which
// cannot carry a binary payload: ok false).
func encodeBroadcast(vsn2 bool, topic string, bc *broadcast) (frame, bool) {
	if vsn2 {
		if len(topic) > 255 || len(bc.Event) > 255 {
			return frame{}, false
		}
		var b bytes.Buffer
		b.Grow(5 + len(topic) + len(bc.Event) + len(bc.Payload))
		enc := byte(0)
		if bc.JSON {
			enc = 1
		}
		b.Write([]byte{kindUserBroadcast, byte(len(topic)), byte(len(bc.Event)), 0, enc})
		b.WriteString(topic)
		b.WriteString(bc.Event)
		b.Write(bc.Payload)
		return frame{data: b.Bytes(), binary: true}, true
	}
	if !bc.JSON {
		return frame{}, false
	}
	return encode(false, nil, nil, topic, evBroadcast, map[string]any{
		"type": evBroadcast, "event": bc.Event, "payload": json.RawMessage(bc.Payload),
	}), true
}

// reply is a phx_reply's payload.
func reply(status string, response any) map[string]any {
	if response == nil {
		response = struct{}{}
	}
	return map[string]any{"status": status, "response": response}
}

// errorReply is a phx_reply refusing a push, with a reason a person can act on.
func errorReply(reason string) map[string]any {
	return reply("error", map[string]string{"reason": reason})
}
