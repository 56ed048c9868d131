package jsonappend

import (
	"encoding/json"
	"testing"
	"time"
)

// Every helper writes what encoding/json writes for the same value.
func TestSameBytesAsEncodingJSON(t *testing.T) {
	same := func(got []byte, v any) {
		t.Helper()
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("got %s, encoding/json %s", got, want)
		}
	}
	for _, s := range []string{"", "u-1", "a+b@example.com", "Mwila <Banda> & co", `quote " and \ slash`, "tab\there\nline\x01\x7f",
		"Chitenge – Lusaka ✓", "line\u2028sep", "bad \xff utf-8", "eyJhbGciOi.J9-_"} {
		same(String(nil, s), s)
	}
	for _, n := range []int64{0, -7, 1_800_000_000} {
		same(Int(nil, n), n)
	}
	same(Bool(nil, true), true)
	same(Bool(nil, false), false)
	cat := time.FixedZone("CAT", 2*3600)
	for _, tm := range []time.Time{time.Date(2026, 11, 26, 5, 47, 51, 123456789, time.UTC), time.Date(2026, 1, 2, 3, 4, 5, 0, cat),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 6, 1, 0, 0, 0, 120000000, time.UTC)} {
		got, err := Time(nil, tm)
		if err != nil {
			t.Fatal(err)
		}
		same(got, tm)
	}
	if _, err := Time(nil, time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)); err == nil {
		t.Fatal("a year past 9999 encoded without the error encoding/json gives")
	}
	meta := json.RawMessage(`{ "b": "<x>", "a": [1, 2] }`)
	got, err := Value(nil, meta)
	if err != nil {
		t.Fatal(err)
	}
	same(got, meta)
	if got := Key(nil, "access_token"); string(got) != `"access_token":` {
		t.Fatalf("Key = %s", got)
	}
}

// Strings of any bytes come out as encoding/json writes them.
func FuzzString(f *testing.F) {
	for _, s := range []string{"", "a@b.co", "<>&", "\x00\xff", "é", "\u2029"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := String(nil, s); string(got) != string(want) {
			t.Fatalf("String(%q) = %s, encoding/json %s", s, got, want)
		}
	})
}
