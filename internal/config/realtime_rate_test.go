package config

import (
	"io"
	"strings"
	"testing"
)

func TestRealtimeRateLimits(t *testing.T) {
	t.Parallel()
	parse := func(env map[string]string) (*Config, error) {
		return Parse("serve", nil, func(k string) string { return env[k] }, io.Discard)
	}
	c, err := parse(nil)
	if err != nil || c.Realtime.EventsPerSecond != 10 || c.Realtime.TopicMessagesPerSecond != 1000 {
		t.Fatalf("defaults: %+v, %v", c.Realtime, err)
	}
	c, err = parse(map[string]string{"SALAULA_REALTIME_EVENTS_PER_SECOND": "25", "SALAULA_REALTIME_TOPIC_MESSAGES_PER_SECOND": "5000"})
	if err != nil || c.Realtime.EventsPerSecond != 25 || c.Realtime.TopicMessagesPerSecond != 5000 {
		t.Fatalf("set: %+v, %v", c.Realtime, err)
	}
	for _, v := range []string{"0", "-3", "ten"} {
		_, err := parse(map[string]string{"SALAULA_REALTIME_EVENTS_PER_SECOND": v})
		if err == nil || !strings.Contains(err.Error(), "SALAULA_REALTIME_EVENTS_PER_SECOND") {
			t.Errorf("%q: %v, want an error naming the variable", v, err)
		}
	}
}
