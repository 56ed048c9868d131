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

func TestMailboxKeyFoldsOneMailboxWrittenManyWays(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"x@gmail.com", "x@gmail.com"},
		{"x@googlemail.com", "x@gmail.com"},
		{"x@gmail.com.", "x@gmail.com"},
		{" X.Y+news@GoogleMail.com. ", "xy@gmail.com"},
		{"mwila.banda+wl@example.com", "mwila.banda@example.com"},
		{"+tag@example.com", "+tag@example.com"},
		{"not-an-address", "not-an-address"},
	} {
		if got := MailboxKey(c.in); got != c.want {
			t.Errorf("MailboxKey(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
