package store

import (
	"testing"
	"time"
)

// Two count keys are spelt alike exactly when their values and types are:
// a group's counts of one key add up, and keys that only look alike (a
// string "1" and the number 1, "a" then "bc" and "ab" then "c") stay apart.
func TestKeyStringTellsKeysApart(t *testing.T) {
	day := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	same := [][2][]any{
		{{"2026-11-26", "waitlist_joined"}, {"2026-11-26", "waitlist_joined"}},
		{{int64(3), true, day}, {int64(3), true, day}},
	}
	for _, p := range same {
		if keyString(p[0]) != keyString(p[1]) {
			t.Errorf("%#v and %#v spelt apart", p[0], p[1])
		}
	}
	apart := [][2][]any{
		{{"1"}, {int64(1)}},
		{{int64(1)}, {1}},
		{{"a", "bc"}, {"ab", "c"}},
		{{"a\x00s1:b"}, {"a", "b"}},
		{{true}, {"true"}},
		{{day}, {day.Add(time.Nanosecond)}},
		{{day}, {day.In(time.FixedZone("CAT", 2*3600))}},
		{{"x"}, {"x", ""}},
	}
	for _, p := range apart {
		if keyString(p[0]) == keyString(p[1]) {
			t.Errorf("%#v and %#v spelt alike: %q", p[0], p[1], keyString(p[0]))
		}
	}
}
