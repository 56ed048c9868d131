package store

import (
	"slices"
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

// A group's rows go out in one statement of exactly their number up to
// 16, and beyond that in chunks of 64 and 16 with the rest in one.
func TestEachChunkCutsRows(t *testing.T) {
	for n, want := range map[int][]int{
		0: nil, 1: {1}, 7: {7}, 16: {16}, 17: {16, 1}, 40: {16, 16, 8},
		64: {64}, 100: {64, 16, 16, 4}, 255: {64, 64, 64, 16, 16, 16, 15},
	} {
		var got []int
		next := 0
		if err := eachChunk(n, func(i, size int) error {
			if i != next {
				t.Errorf("n=%d: chunk starts at %d, want %d", n, i, next)
			}
			next += size
			got = append(got, size)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("n=%d: chunks %v, want %v", n, got, want)
		}
	}
}
