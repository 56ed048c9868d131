// Package jsonappend appends JSON values to a byte slice exactly as
// encoding/json writes them (its default HTML escaping included), for the
// few answers made on every sign-in, where encoding/json's reflection over
// a struct costs more than the answer's own work. Anything beyond plain
// strings, numbers, booleans and times is handed to encoding/json.
package jsonappend

import (
	"encoding/json"
	"strconv"
	"time"
)

// String appends s as a JSON string. Printable ASCII without '"', '\\',
// '<', '>' and '&' (IDs, e-mail addresses, tokens) is copied as it is;
// any other string goes through encoding/json.
func String(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s) // a string always encodes
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// Key appends "name": for a field name that needs no escaping.
func Key(dst []byte, name string) []byte {
	dst = append(dst, '"')
	dst = append(dst, name...)
	return append(dst, '"', ':')
}

// Int appends n.
func Int(dst []byte, n int64) []byte { return strconv.AppendInt(dst, n, 10) }

// Bool appends true or false.
func Bool(dst []byte, v bool) []byte { return strconv.AppendBool(dst, v) }

// Time appends t as time.Time's MarshalJSON does (RFC 3339 with
// nanoseconds, in t's own zone); a year outside 0-9999, which it refuses,
// is handed to encoding/json, and its error returned.
func Time(dst []byte, t time.Time) ([]byte, error) {
	if y := t.Year(); y < 0 || y > 9999 {
		b, err := json.Marshal(t)
		return append(dst, b...), err
	}
	dst = append(dst, '"')
	dst = t.AppendFormat(dst, time.RFC3339Nano)
	return append(dst, '"'), nil
}

// Value appends v as encoding/json encodes it (maps with their keys
// sorted, raw messages compacted and HTML-escaped).
func Value(dst []byte, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	return append(dst, b...), err
}
