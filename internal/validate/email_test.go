package validate

import (
	"regexp"
	"strings"
	"testing"
)

// specEmail is the spec's e-mail pattern, which Email checks by hand.
var specEmail = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)

// FuzzEmailShape: Email agrees with the spec's pattern on every input.
func FuzzEmailShape(f *testing.F) {
	for _, s := range []string{
		"mwila@example.com", " mwila@example.com ", "a@b.c", "a@b.", "a@.c", "a@bc", "@b.c", "a@@b.c",
		"a@b@c.d", "a b@c.d", "a@b .c", "a@b..c", "a@.b.c", "a@b.c.", "a\t@b.c", "a@b.c\v", "a\u00a0@b.c",
		"\xff@b.c", "a@\xff.\xfe", "", ".", "@", "a@b.c@", "x@y.zw\n", "a@..", "a@...", "ä@ö.ü",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Email(s), specEmail.MatchString(strings.TrimSpace(s)); got != want {
			t.Fatalf("Email(%q) = %v, the spec's pattern says %v", s, got, want)
		}
	})
}

// One mailbox however its address is written is one key; other mailboxes
// are not.
func TestMailboxKey(t *testing.T) {
	t.Parallel()
	for _, same := range [][]string{
		{"ab@gmail.com", "a.b+x@gmail.com", "ab@googlemail.com", "AB@gmail.com.", "  A.B@GMail.Com ", "a.b+x+y@googlemail.com."},
		{"chanda@example.com", "Chanda+shop@Example.com", "c.handa@example.com"},
	} {
		for _, a := range same {
			if got := MailboxKey(a); got != same[0] {
				t.Errorf("MailboxKey(%q) = %q, want %q", a, got, same[0])
			}
		}
	}
	for _, pair := range [][2]string{
		{"ab@gmail.com", "ab@example.com"},
		{"ab@gmail.com", "abc@gmail.com"},
		{"ab@gmail.com", "ab@gmail.com.zm"},
	} {
		if MailboxKey(pair[0]) == MailboxKey(pair[1]) {
			t.Errorf("%q and %q share a key", pair[0], pair[1])
		}
	}
}
