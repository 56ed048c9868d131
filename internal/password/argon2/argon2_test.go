package argon2

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"testing"

	xargon2 "golang.org/x/crypto/argon2"
)

// One Memory, reused across runs of different sizes, passwords and salts,
// gives exactly what x/crypto's argon2.IDKey gives for the same arguments
// (so leftovers of a previous run never leak into the next).
func TestReusedMemoryMatchesXCrypto(t *testing.T) {
	var m Memory
	cases := []struct {
		time, memory uint32
		threads      uint8
	}{
		{2, 19456, 1}, {1, 64, 1}, {3, 1024, 2}, {2, 19456, 1}, {5, 7168, 1}, {2, 300, 4}, {1, 19456, 1},
	}
	for i, c := range cases {
		pw, salt := make([]byte, 1+i*7), make([]byte, 16)
		rand.Read(pw)
		rand.Read(salt)
		want := xargon2.IDKey(pw, salt, c.time, c.memory, c.threads, 32)
		got := m.IDKey(pw, salt, c.time, c.memory, c.threads, 32)
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d %+v: got %x, x/crypto %x", i, c, got, want)
		}
	}
	if m.Size() != 19456*1024 {
		t.Fatalf("memory holds %d bytes, want the largest run's 19456 KiB", m.Size())
	}
}

// The RFC 9106 test vector for Argon2id has a secret and associated data,
// which this package does not take; this one is from the reference
// implementation's own tests (argon2id, v=19, t=2, m=65536, p=1,
// "password", "somesalt").
func TestReferenceVector(t *testing.T) {
	var m Memory
	got := hex.EncodeToString(m.IDKey([]byte("password"), []byte("somesalt"), 2, 65536, 1, 32))
	if want := "09316115d5cf24ed5a15a31a3ba326e5cf32edc24702987c02b6566f61913cf7"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func BenchmarkIDKeyReused(b *testing.B) {
	var m Memory
	for b.Loop() {
		m.IDKey([]byte("chitenge-lusaka-42"), []byte("somesalt-16bytes"), 2, 19456, 1, 32)
	}
}

func BenchmarkIDKeyXCrypto(b *testing.B) {
	for b.Loop() {
		xargon2.IDKey([]byte("chitenge-lusaka-42"), []byte("somesalt-16bytes"), 2, 19456, 1, 32)
	}
}

// Pause is called between the segments of a one-lane run (four a pass,
// none after the last) and changes nothing in the result; a run with
// several lanes, whose segments run side by side, does not call it.
func TestPauseBetweenSegments(t *testing.T) {
	pw, salt := []byte("chitenge-lusaka-42"), []byte("0123456789abcdef")
	for _, c := range []struct {
		time    uint32
		threads uint8
		pauses  int
	}{{5, 1, 5*4 - 1}, {1, 1, 3}, {2, 2, 0}} {
		calls := 0
		m := Memory{Pause: func() { calls++ }}
		got := m.IDKey(pw, salt, c.time, 1024, c.threads, 32)
		if want := xargon2.IDKey(pw, salt, c.time, 1024, c.threads, 32); !bytes.Equal(got, want) {
			t.Fatalf("t=%d p=%d: got %x, x/crypto %x", c.time, c.threads, got, want)
		}
		if calls != c.pauses {
			t.Fatalf("t=%d p=%d: Pause called %d times, want %d", c.time, c.threads, calls, c.pauses)
		}
	}
}
