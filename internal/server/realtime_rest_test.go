package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// REST broadcast (POST /realtime/v1/api/broadcast and
// /realtime/v1/api/broadcast/{topic}/events/{event}) answers 202 and
// delivers to the topic's sockets; every bad request is refused with its
// reason and delivers nothing.
func TestRealtimeRESTBroadcastDeliversAndRefusesBadInput(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		a := newUser(t, env, "a@example.com")
		b := newUser(t, env, "b@example.com")
		cb := env.realtimeDial(t, "", true)
		if status, resp := cb.join("room", b.Token); status != "ok" {
			t.Fatalf("join: %v", resp)
		}
		hdr := map[string]string{"apikey": env.anonKey(t), "Authorization": "Bearer " + a.Token}

		for _, tc := range []struct {
			name, path string
			body       any
			headers    map[string]string
			status     int
			reason     string
		}{
			{"no apikey", "/realtime/v1/api/broadcast", map[string]any{"messages": []any{}}, map[string]string{"Authorization": "Bearer " + a.Token}, 401, "apikey"},
			{"no token", "/realtime/v1/api/broadcast", map[string]any{"messages": []any{}}, map[string]string{"apikey": env.anonKey(t)}, 401, "Sign in"},
			{"anon key as token", "/realtime/v1/api/broadcast", map[string]any{"messages": []any{}},
				map[string]string{"apikey": env.anonKey(t), "Authorization": "Bearer " + env.anonKey(t)}, 401, "Sign in"},
			{"not JSON", "/realtime/v1/api/broadcast", "{messages:", hdr, 400, "not valid JSON"},
			{"no messages", "/realtime/v1/api/broadcast", map[string]any{"messages": []any{}}, hdr, 400, "messages is empty"},
			{"no event", "/realtime/v1/api/broadcast", map[string]any{"messages": []any{map[string]any{"topic": "room", "payload": map[string]any{}}}}, hdr, 400, "event must be"},
			{"no topic", "/realtime/v1/api/broadcast", map[string]any{"messages": []any{map[string]any{"event": "wave"}}}, hdr, 400, "channel topics are realtime:<name>"},
			{"one bad of two", "/realtime/v1/api/broadcast", map[string]any{"messages": []any{
				map[string]any{"topic": "room", "event": "wave", "payload": map[string]any{"n": "first"}},
				map[string]any{"topic": "console", "event": "wave"}}}, hdr, 403, "Salaula team's"},
			{"private", "/realtime/v1/api/broadcast", map[string]any{"messages": []any{map[string]any{"topic": "room", "event": "wave", "private": true}}}, hdr, 403, "private channels"},
			{"another's topic", "/realtime/v1/api/broadcast/profile:" + b.ID + "/events/wave", map[string]any{}, hdr, 403, "another person's"},
			{"payload not JSON", "/realtime/v1/api/broadcast/room/events/wave", "{", hdr, 400, "not valid JSON"},
			{"too many", "/realtime/v1/api/broadcast", map[string]any{"messages": manyMessages(101)}, hdr, 400, "too many messages"},
			{"too large", "/realtime/v1/api/broadcast/room/events/wave", `"` + strings.Repeat("x", 70<<10) + `"`, hdr, 413, "too large"},
		} {
			res := env.do(t, http.MethodPost, tc.path, tc.body, tc.headers)
			got := decode(t, res)
			if res.StatusCode != tc.status || !strings.Contains(fmt.Sprint(got["message"]), tc.reason) {
				t.Errorf("%s: %d %v, want %d with %q", tc.name, res.StatusCode, got, tc.status, tc.reason)
			}
		}

		// A good batch and an httpSend: 202, delivered in order.
		res := env.do(t, http.MethodPost, "/realtime/v1/api/broadcast", map[string]any{"messages": []any{
			map[string]any{"topic": "room", "event": "wave", "payload": map[string]any{"n": 1}}}}, hdr)
		if res.StatusCode != http.StatusAccepted {
			t.Fatalf("batch: %d %v", res.StatusCode, decode(t, res))
		}
		res = env.do(t, http.MethodPost, "/realtime/v1/api/broadcast/room/events/wave", map[string]any{"n": 2}, hdr)
		if res.StatusCode != http.StatusAccepted {
			t.Fatalf("httpSend: %d %v", res.StatusCode, decode(t, res))
		}
		cb.wait("the second broadcast", func(m rtMsg) bool { return m.Binary && m.BcastPayload == `{"n":2}` })
		// Only the two good messages arrived: none of the refused ones.
		if n := cb.count(func(m rtMsg) bool { return m.Binary }); n != 2 {
			t.Fatalf("%d broadcasts arrived, want 2", n)
		}
		if first := cb.count(func(m rtMsg) bool { return m.Binary && m.BcastPayload == `{"n":1}` }); first != 1 {
			t.Fatal("the batch's message did not arrive")
		}
	})
}

func manyMessages(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = map[string]any{"topic": "room", "event": "wave"}
	}
	return out
}
