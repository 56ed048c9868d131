// Package password holds the account password rules and their storage:
// Check says why a password is too weak (too short, only spaces, or among
// the 10,000 most common passwords shipped in common-passwords.txt, whose
// source and licence SOURCE.md states), Hash makes an argon2id PHC string
// with OWASP parameters, and Verify compares in constant time.
//
// Hashing is golang.org/x/crypto/argon2 as published. Each argon2id run
// takes 7 MiB and a core for tens of milliseconds, so at most one runs per
// core at a time (a semaphore of GOMAXPROCS slots); the rest wait in line,
// up to a deadline (ErrBusy). Callers wait before anything is allocated for
// them, so the only big allocation is argon2's own, one per run at once. A
// run's memory is garbage once it ends: a crowd signing in at once keeps at
// most one run's memory per core in use, and the garbage collector reclaims
// the rest. MemoryBudget is what the server sets as its memory limit by
// default, so that garbage is reclaimed before it piles up (decision 0241).
package password

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// MinLength is the fewest characters a password may have.
const MinLength = 8

// MaxLength is the most characters a password may have; it bounds the work
// of hashing an attacker-chosen input.
const MaxLength = 1024

// Reasons a password is weak, as the Supabase Auth contract names them in
// weak_password.reasons.
const (
	ReasonLength = "length" // shorter than MinLength
	// ReasonCharacters: nothing but spaces (supabase-js's name for a
	// password missing required characters).
	ReasonCharacters = "characters"
	ReasonPwned      = "pwned" // among the most common passwords
)

// Messages for the reasons, as the hosted auth service words them.
const (
	msgLength = "Password should be at least 8 characters."
	msgPwned  = "Password is known to be weak and easy to guess, please choose a different one."
	msgBlank  = "Password should contain characters other than spaces."
)

// Argon2id parameters: one of the OWASP Password Storage Cheat Sheet's
// recommended settings, which it counts as equally strong (7 MiB of memory,
// 5 passes, 1 lane; the others trade memory for passes, e.g. 19 MiB and 2).
// The least memory per run: every run allocates its memory afresh, so
// less memory is less garbage per sign-in. Hashes made with other
// parameters (19 MiB, 2 passes before) still verify: the parameters come
// from the hash.
const (
	memoryKiB = 7168
	passes    = 5
	lanes     = 1
	saltLen   = 16
	keyLen    = 32
)

//go:embed common-passwords.txt
var commonList string

var (
	commonOnce sync.Once
	common     map[string]struct{}
)

// commonSet returns the lower-cased list of common passwords, built once.
func commonSet() map[string]struct{} {
	commonOnce.Do(func() {
		common = make(map[string]struct{}, 10000)
		sc := bufio.NewScanner(strings.NewReader(commonList))
		for sc.Scan() {
			if w := strings.TrimSpace(sc.Text()); w != "" {
				common[strings.ToLower(w)] = struct{}{}
			}
		}
	})
	return common
}

// IsCommon reports whether pw (compared case-insensitively) is one of the
// most common passwords.
func IsCommon(pw string) bool {
	_, ok := commonSet()[strings.ToLower(pw)]
	return ok
}

// Check returns the reasons pw is too weak (too short, blank after trimming
// white space, or common; nil when it is acceptable) and the message to
// show for them.
func Check(pw string) (reasons []string, message string) {
	var msgs []string
	if utf8.RuneCountInString(pw) < MinLength {
		reasons = append(reasons, ReasonLength)
		msgs = append(msgs, msgLength)
	}
	if pw != "" && strings.TrimSpace(pw) == "" {
		reasons = append(reasons, ReasonCharacters)
		msgs = append(msgs, msgBlank)
	}
	if IsCommon(pw) {
		reasons = append(reasons, ReasonPwned)
		msgs = append(msgs, msgPwned)
	}
	return reasons, strings.Join(msgs, " ")
}

// ErrBusy is returned when no hashing slot came free before the deadline:
// the server is overloaded for a moment and the caller should try again.
var ErrBusy = errors.New("password: too many password checks at once")

// DefaultWait is how long a password check waits for a free slot.
const DefaultWait = 10 * time.Second

var (
	limitMu sync.Mutex
	slots   = make(chan struct{}, runtime.GOMAXPROCS(0))
	maxWait = DefaultWait
	// The cost Hash uses: the published parameters unless a test set
	// another (SetTestCost).
	costMemory, costPasses uint32 = memoryKiB, passes
)

// SetTestCost makes Hash use memory KiB and the given number of passes
// instead of the published parameters, and returns a function that
// restores the cost before; 0 and 0 are the published parameters. Only tests
// call it: a package whose tests make thousands of hashes may make them
// cheap, while the tests of hashing itself, and those that count on a
// hash's time, keep the published cost (decision 0246). Verify always
// takes the parameters from the hash.
func SetTestCost(memory, iterations uint32) (restore func()) {
	if memory == 0 || iterations == 0 {
		memory, iterations = memoryKiB, passes
	}
	limitMu.Lock()
	defer limitMu.Unlock()
	oldMemory, oldPasses := costMemory, costPasses
	costMemory, costPasses = memory, iterations
	return func() {
		limitMu.Lock()
		defer limitMu.Unlock()
		costMemory, costPasses = oldMemory, oldPasses
	}
}

// SetLimits lets at most n argon2id runs go at once, each waiting at most
// wait for its turn, and returns a function that restores the previous
// limits. The default is one per core (GOMAXPROCS at start) and
// DefaultWait; n = 0 (for tests) makes every check wait and fail with
// ErrBusy.
func SetLimits(n int, wait time.Duration) (restore func()) {
	limitMu.Lock()
	defer limitMu.Unlock()
	oldSlots, oldWait := slots, maxWait
	slots, maxWait = make(chan struct{}, max(n, 0)), wait
	return func() {
		limitMu.Lock()
		defer limitMu.Unlock()
		slots, maxWait = oldSlots, oldWait
	}
}

// RunMemory is the memory one argon2id run of Hash allocates.
const RunMemory = memoryKiB << 10

// MemoryBudget is a soft memory limit for the whole Go heap, in bytes: 32
// MiB for everything but hashing, plus twice the memory of the argon2id
// runs that may go at once (what is in use and the garbage of the runs
// before). With 2 cores: 60 MiB.
func MemoryBudget() int64 {
	limitMu.Lock()
	n := cap(slots)
	limitMu.Unlock()
	return 32<<20 + 2*int64(n)*RunMemory
}

// withSlot runs fn once a hashing slot is free, or returns ErrBusy when
// none comes free within the wait (or ctx ends first).
func withSlot(ctx context.Context, fn func()) error {
	limitMu.Lock()
	sl, wait := slots, maxWait
	limitMu.Unlock()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case sl <- struct{}{}:
	case <-t.C:
		return ErrBusy
	case <-ctx.Done():
		return ErrBusy
	}
	defer func() { <-sl }()
	fn()
	return nil
}

// Hash returns the argon2id PHC string of pw with a fresh random salt:
// $argon2id$v=19$m=7168,t=5,p=1$<salt>$<key> (unpadded base64).
func Hash(pw string) (string, error) { return HashContext(context.Background(), pw) }

// HashContext is Hash waiting for a hashing slot at most until ctx ends or
// the wait passes (ErrBusy).
func HashContext(ctx context.Context, pw string) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	limitMu.Lock()
	m, t := costMemory, costPasses
	limitMu.Unlock()
	var key []byte
	if err := withSlot(ctx, func() { key = argon2.IDKey([]byte(pw), salt, t, m, lanes, keyLen) }); err != nil {
		return "", err
	}
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, m, t, lanes, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// ErrBadHash is returned by Verify for a stored hash it cannot read.
var ErrBadHash = errors.New("password: stored hash is not an argon2id PHC string")

// Verify reports whether pw matches the PHC string encoded, comparing the
// derived keys in constant time. The parameters come from encoded, so
// hashes made with stronger parameters later still verify.
func Verify(pw, encoded string) (bool, error) {
	return VerifyContext(context.Background(), pw, encoded)
}

// VerifyContext is Verify waiting for a hashing slot at most until ctx ends
// or the wait passes (ErrBusy).
func VerifyContext(ctx context.Context, pw, encoded string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, ErrBadHash
	}
	if version, ok := phcNumber(parts[2], "v=", 32); !ok || version != argon2.Version {
		return false, ErrBadHash
	}
	m, t, p, ok := phcParams(parts[3])
	if !ok || m == 0 || t == 0 || p == 0 || m > 1<<22 || t > 64 {
		return false, ErrBadHash
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil || len(salt) < 8 {
		return false, ErrBadHash
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) < 16 || len(want) > 128 {
		return false, ErrBadHash
	}
	var got []byte
	if err := withSlot(ctx, func() { got = argon2.IDKey([]byte(pw), salt, t, m, p, uint32(len(want))) }); err != nil {
		return false, err
	}
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// phcParams reads a PHC string's parameters, "m=<memory KiB>,t=<passes>,p=<lanes>".
func phcParams(s string) (m, t uint32, p uint8, ok bool) {
	ms, rest, ok1 := strings.Cut(s, ",")
	ts, ps, ok2 := strings.Cut(rest, ",")
	mv, okM := phcNumber(ms, "m=", 32)
	tv, okT := phcNumber(ts, "t=", 32)
	pv, okP := phcNumber(ps, "p=", 8)
	return uint32(mv), uint32(tv), uint8(pv), ok1 && ok2 && okM && okT && okP
}

// phcNumber reads "<name><decimal>", a number of at most bits bits.
func phcNumber(s, name string, bits int) (uint64, bool) {
	digits, ok := strings.CutPrefix(s, name)
	if !ok || digits == "" || digits[0] < '0' || digits[0] > '9' {
		return 0, false
	}
	n, err := strconv.ParseUint(digits, 10, bits)
	return n, err == nil
}

var (
	dummyOnce sync.Once
	dummy     string
)

// Dummy returns a valid hash of a random password, made once. Verifying
// against it when an e-mail has no account makes that answer take as long
// as a wrong password.
func Dummy() string {
	dummyOnce.Do(func() {
		raw := make([]byte, 24)
		rand.Read(raw)
		h, err := Hash(base64.RawStdEncoding.EncodeToString(raw))
		if err != nil {
			panic("password: cannot make the dummy hash: " + err.Error())
		}
		dummy = h
	})
	return dummy
}
