package realtime

import (
	"encoding/json"
	"fmt"
)

// Message is one broadcast sent over HTTP (POST
// /realtime/v1/api/broadcast): the channel's name without "realtime:",
// the event, the payload (JSON, or raw bytes when JSON is false) and
// whether the client asked for a private channel.
type Message struct {
	Topic   string
	Event   string
	Payload []byte
	JSON    bool
	Private bool
}

// Refused is why Send sent nothing: Forbidden when the access rules
// refuse the sender, TooMany when a topic has delivered its messages for
// this second, else the messages are malformed or too large.
type Refused struct {
	Forbidden bool
	TooMany   bool
	Reason    string
}

func (r *Refused) Error() string { return r.Reason }

// MaxSendMessages bounds the messages of one Send.
const MaxSendMessages = 100

// Send delivers msgs, as id, to every channel of their topics on every
// instance, under the socket's rules (the topic's access rule, no private
// channels, the topics' messages a second). It checks every message
// first and sends none when one is refused.
func (h *Hub) Send(id Identity, msgs []Message) error {
	if len(msgs) == 0 {
		return &Refused{Reason: "messages is empty: send at least one {topic, event, payload}"}
	}
	if len(msgs) > MaxSendMessages {
		return &Refused{Reason: fmt.Sprintf("too many messages in one request (limit %d)", MaxSendMessages)}
	}
	relays := make([]string, len(msgs))
	for i, m := range msgs {
		topic := topicPrefix + m.Topic
		if reason := validTopic(topic); reason != "" {
			return &Refused{Reason: fmt.Sprintf("message %d: %s", i, reason)}
		}
		if m.Event == "" || len(m.Event) > 255 {
			return &Refused{Reason: fmt.Sprintf("message %d: event must be a name of 1 to 255 bytes", i)}
		}
		if m.JSON && !json.Valid(m.Payload) {
			return &Refused{Reason: fmt.Sprintf("message %d: payload is not valid JSON", i)}
		}
		if m.Private {
			return &Refused{Forbidden: true, Reason: msgNoPrivate}
		}
		if reason := topicRule(id, topic); reason != "" {
			return &Refused{Forbidden: true, Reason: reason}
		}
		msg, err := h.relayBroadcast(topic, &broadcast{Event: m.Event, Payload: m.Payload, JSON: m.JSON})
		if err != nil {
			return &Refused{Reason: fmt.Sprintf("message %d: payload %s", i, err)}
		}
		relays[i] = msg
	}
	targets := make([][]*channel, len(msgs))
	for i, m := range msgs {
		topic := topicPrefix + m.Topic
		h.mu.Lock()
		targets[i] = h.onTopicLocked(topic, false)
		h.mu.Unlock()
		if ok, _ := h.perTopic.AllowN(topic, messages(len(targets[i]), len(m.Payload))); !ok {
			h.refused.WithLabelValues("topic_rate").Inc()
			return &Refused{TooMany: true, Reason: fmt.Sprintf("message %d: "+msgTopicRate, i, topic, h.cfg.TopicMessagesPerSecond)}
		}
	}
	for i, m := range msgs {
		topic := topicPrefix + m.Topic
		bc := &broadcast{Event: m.Event, Payload: m.Payload, JSON: m.JSON}
		deliver(targets[i], "broadcast", func(vsn2 bool) (frame, bool) { return encodeBroadcast(vsn2, topic, bc) })
		h.relay(relays[i])
	}
	return nil
}
