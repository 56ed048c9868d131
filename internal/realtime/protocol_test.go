package realtime

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDecodeReadsBothVersionsAndRefusesTheRest(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`["1","2","realtime:x","phx_join",{"config":{}}]`,
		`{"topic":"realtime:x","event":"phx_join","payload":{},"ref":"2","join_ref":"1"}`,
	} {
		m, err := decodeText([]byte(in))
		if err != nil || m.Topic != "realtime:x" || m.Event != "phx_join" || string(m.Ref) != `"2"` || string(m.JoinRef) != `"1"` {
			t.Errorf("%s: %+v %v", in, m, err)
		}
	}
	for in, want := range map[string]error{
		``: errNotJSON, `{`: errNotJSON, `"hi"`: errBadShape, `[1,2,3]`: errBadShape, `[null,null,1,"e",{}]`: errBadShape,
		`{"event":"x"}`: errBadShape, `{"topic":"","event":"x"}`: errBadShape, `null`: errBadShape,
	} {
		if _, err := decodeText([]byte(in)); err != want {
			t.Errorf("%q: %v, want %v", in, err, want)
		}
	}
	topic, event, payload := "realtime:room", "wave", `{"n":1}`
	frame := append([]byte{3, 1, 1, byte(len(topic)), byte(len(event)), 0, 1}, "12"+topic+event+payload...)
	m, err := decodeBinary(frame)
	if err != nil || m.Topic != topic || m.bcast.Event != event || string(m.bcast.Payload) != payload || !m.bcast.JSON {
		t.Fatalf("%+v %v", m, err)
	}
	for _, bad := range [][]byte{nil, {3}, {4, 0, 0, 0, 0, 0, 1}, {3, 0, 0, 200, 1, 0, 1, 'x'}, {3, 0, 0, 1, 1, 0, 7, 'a', 'b'}} {
		if _, err := decodeBinary(bad); err == nil {
			t.Errorf("%v decoded", bad)
		}
	}
	if f := encode(true, nil, json.RawMessage(`"7"`), "phoenix", "phx_reply", reply("ok", nil)); string(f.data) != `[null,"7","phoenix","phx_reply",{"response":{},"status":"ok"}]` {
		t.Fatalf("%s", f.data)
	}
	if f := encode(false, json.RawMessage(`"1"`), nil, "realtime:x", "phx_reply", reply("ok", nil)); string(f.data) != `{"join_ref":"1","ref":null,"topic":"realtime:x","event":"phx_reply","payload":{"response":{},"status":"ok"}}` {
		t.Fatalf("%s", f.data)
	}
	if r := closeReason(strings.Repeat("é", 100)); len(r) > 123 {
		t.Fatalf("reason of %d bytes", len(r))
	}
}

// FuzzDecode: no input makes the decoder panic, and what it accepts has a
// topic and an event.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`["1","2","realtime:x","phx_join",{"config":{}}]`))
	f.Add([]byte(`{"topic":"phoenix","event":"heartbeat","payload":{},"ref":"1"}`))
	f.Add([]byte{3, 1, 1, 5, 1, 0, 1, '1', '2', 'r', 'e', 'a', 'l', 't', 'e', '{', '}'})
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, dec := range []func([]byte) (message, error){decodeText, decodeBinary} {
			if m, err := dec(b); err == nil && (m.Topic == "" || m.Event == "") {
				t.Fatalf("accepted %q without topic or event", b)
			}
		}
	})
}
