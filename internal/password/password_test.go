package password

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/argon2"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pw      string
		reasons []string
	}{
		{"", []string{ReasonLength}},
		{"short7!", []string{ReasonLength}},
		{"password", []string{ReasonPwned}},
		{"PassWord", []string{ReasonPwned}}, // case-insensitive
		{"12345678", []string{ReasonPwned}},
		{"qwerty", []string{ReasonLength, ReasonPwned}},
		{"chitenge-lusaka-42", nil},
		{"ñandú-ñandú", nil}, // counted in characters, not bytes
		{"ñandú", []string{ReasonLength}},
		{"        ", []string{ReasonCharacters}}, // blank after trimming
		{" \t\u00a0 ", []string{ReasonLength, ReasonCharacters}},
		{"  a       ", nil},
	}
	for _, c := range cases {
		got, msg := Check(c.pw)
		if strings.Join(got, ",") != strings.Join(c.reasons, ",") {
			t.Errorf("Check(%q) reasons = %v, want %v", c.pw, got, c.reasons)
		}
		if (len(got) == 0) != (msg == "") {
			t.Errorf("Check(%q) message %q with reasons %v", c.pw, msg, got)
		}
	}
	if _, msg := Check("abc"); msg != "Password should be at least 8 characters." {
		t.Errorf("length message = %q", msg)
	}
}

func TestCommonListIsLoaded(t *testing.T) {
	t.Parallel()
	if n := len(commonSet()); n < 9000 {
		t.Fatalf("common list has %d entries, want about 10,000", n)
	}
	// The last entry of the shipped list is in the set too.
	lines := strings.Split(strings.TrimSpace(commonList), "\n")
	if !IsCommon(strings.TrimSpace(lines[len(lines)-1])) {
		t.Fatal("last entry of the list is not found")
	}
}

func TestHashAndVerify(t *testing.T) {
	t.Parallel()
	h, err := Hash("chitenge-lusaka-42")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=7168,t=5,p=1$") {
		t.Fatalf("hash %q is not an argon2id PHC string with OWASP parameters", h)
	}
	h2, _ := Hash("chitenge-lusaka-42")
	if h == h2 {
		t.Fatal("two hashes of one password are equal: the salt is not random")
	}
	if ok, err := Verify("chitenge-lusaka-42", h); !ok || err != nil {
		t.Fatalf("Verify(right) = %v, %v", ok, err)
	}
	if ok, err := Verify("chitenge-lusaka-43", h); ok || err != nil {
		t.Fatalf("Verify(wrong) = %v, %v", ok, err)
	}
	salt, key := "c2FsdHNhbHRzYWx0c2FsdA", "a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U"
	for _, bad := range []string{"", "hash", "$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5a2V5", "$argon2id$v=19$m=0,t=2,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5", "$argon2id$v=19$m=19456,t=2,p=1$!!$a2V5",
		// parameters that are not three plain decimal numbers in order
		"$argon2id$v=19$m=7168,t=5$" + salt + "$" + key, "$argon2id$v=19$t=5,m=7168,p=1$" + salt + "$" + key,
		"$argon2id$v=19$m=7168,t=5,p=1,x=2$" + salt + "$" + key, "$argon2id$v=19$m=+7168,t=5,p=1$" + salt + "$" + key,
		"$argon2id$v=19$m=7168,t=-5,p=1$" + salt + "$" + key, "$argon2id$v=19$m=7168,t=5,p=256$" + salt + "$" + key,
		"$argon2id$v=19$m=99999999999,t=5,p=1$" + salt + "$" + key, "$argon2id$v=19$m=7168,t=5,p=1x$" + salt + "$" + key,
		"$argon2id$v=18$m=7168,t=5,p=1$" + salt + "$" + key, "$argon2id$v=$m=7168,t=5,p=1$" + salt + "$" + key,
		"$argon2id$19$m=7168,t=5,p=1$" + salt + "$" + key, "$argon2id$v=19$m=,t=5,p=1$" + salt + "$" + key,
	} {
		if ok, err := Verify("x", bad); ok || err == nil {
			t.Errorf("Verify(%q) = %v, %v; want ErrBadHash", bad, ok, err)
		}
	}
}

// A hash stored with the earlier parameters (19 MiB, 2 passes) still
// verifies, right and wrong: the parameters come from the hash.
func TestOlderBiggerHashStillVerifies(t *testing.T) {
	t.Parallel()
	salt := []byte("sixteen-byte-slt")
	key := argon2.IDKey([]byte("chitenge-lusaka-42"), salt, 2, 19456, 1, 32)
	b64 := base64.RawStdEncoding
	old := "$argon2id$v=19$m=19456,t=2,p=1$" + b64.EncodeToString(salt) + "$" + b64.EncodeToString(key)
	if ok, err := Verify("chitenge-lusaka-42", old); !ok || err != nil {
		t.Fatalf("Verify(right, old hash) = %v, %v", ok, err)
	}
	if ok, err := Verify("chitenge-lusaka-43", old); ok || err != nil {
		t.Fatalf("Verify(wrong, old hash) = %v, %v", ok, err)
	}
}

// A hash stored by an earlier build, with the current parameters, still
// verifies, right and wrong.
func TestStoredHashStillVerifies(t *testing.T) {
	t.Parallel()
	stored := "$argon2id$v=19$m=7168,t=5,p=1$Gk/rLcd8vzHLSNCI3cWtJg$sb8xO3D3fvAvvtoGXpdPJwEztJ1575sC1AMA/I+TiPY"
	if ok, err := Verify("chitenge-lusaka-42", stored); !ok || err != nil {
		t.Fatalf("Verify(right, stored hash) = %v, %v", ok, err)
	}
	if ok, err := Verify("chitenge-lusaka-43", stored); ok || err != nil {
		t.Fatalf("Verify(wrong, stored hash) = %v, %v", ok, err)
	}
}

// When no hashing slot comes free within the wait, or the caller gives
// up first, a check returns ErrBusy; with a slot free it runs.
// Not parallel: it changes the package's limits, which the parallel tests
// run after it.
func TestChecksWaitForASlotUpToTheDeadline(t *testing.T) {
	stored := Dummy()
	restore := SetLimits(0, 20*time.Millisecond) // no slot ever frees
	if _, err := Hash("chitenge-lusaka-42"); err != ErrBusy {
		t.Fatalf("Hash with no slot: err = %v, want ErrBusy", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	SetLimits(0, time.Minute)
	if _, err := VerifyContext(ctx, "chitenge-lusaka-42", stored); err != ErrBusy {
		t.Fatalf("Verify with no slot after the caller gave up: err = %v, want ErrBusy", err)
	}
	restore()
	if _, err := HashContext(context.Background(), "chitenge-lusaka-42"); err != nil {
		t.Fatalf("Hash with slots free: %v", err)
	}
}

func TestDummyIsAValidHash(t *testing.T) {
	t.Parallel()
	if ok, err := Verify("anything", Dummy()); ok || err != nil {
		t.Fatalf("Verify against dummy = %v, %v; want false, nil", ok, err)
	}
	if first, again := Dummy(), Dummy(); first != again {
		t.Fatal("dummy hash is made more than once")
	}
}

func BenchmarkHash(b *testing.B) {
	for b.Loop() {
		Hash("chitenge-lusaka-42")
	}
}

func TestMemoryBudgetFollowsHashesAtOnce(t *testing.T) {
	defer SetLimits(2, time.Second)()
	if got, want := MemoryBudget(), int64(60<<20); got != want {
		t.Errorf("2 hashes at once: budget %d, want %d (32 MiB + 2 x 2 x 7 MiB)", got, want)
	}
	defer SetLimits(4, time.Second)()
	if got, want := MemoryBudget(), int64(88<<20); got != want {
		t.Errorf("4 hashes at once: budget %d, want %d", got, want)
	}
}

// A test cost makes hashes with its parameters, which verify; restored,
// and with 0 and 0, hashes have the published parameters again. Not in
// parallel: the other tests of hashing count on the published cost.
func TestSetTestCostChangesOnlyNewHashes(t *testing.T) {
	published, err := Hash("chitenge-lusaka-42")
	if err != nil {
		t.Fatal(err)
	}
	restore := SetTestCost(64, 1)
	cheap, err := Hash("chitenge-lusaka-42")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(cheap, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Fatalf("hash with the test cost: %q", cheap)
	}
	for _, h := range []string{cheap, published} {
		if ok, err := Verify("chitenge-lusaka-42", h); !ok || err != nil {
			t.Fatalf("Verify(right, %q) = %v, %v", h, ok, err)
		}
		if ok, err := Verify("chitenge-lusaka-43", h); ok || err != nil {
			t.Fatalf("Verify(wrong, %q) = %v, %v", h, ok, err)
		}
	}
	restore()
	wantPublished := func(when string) {
		t.Helper()
		if h, err := Hash("chitenge-lusaka-42"); err != nil || !strings.HasPrefix(h, "$argon2id$v=19$m=7168,t=5,p=1$") {
			t.Fatalf("%s: hash %q, %v; want the published parameters", when, h, err)
		}
	}
	wantPublished("restored")
	defer SetTestCost(64, 1)()
	defer SetTestCost(0, 0)()
	wantPublished("set to 0 and 0")
}
