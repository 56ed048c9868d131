package mail

import (
	"regexp"
	"slices"
	"testing"
)

// linkPattern is what the log's links are: every http or https URL up to
// the next white space.
var linkPattern = regexp.MustCompile(`https?://\S+`)

// FuzzLinks: links finds what the pattern finds, in order, at most n.
func FuzzLinks(f *testing.F) {
	for _, s := range []string{
		"Confirm: https://salaula.example/auth/v1/verify?token=abc&type=signup\n\nThanks",
		"http://a http://b https://c http://d https://e http://f",
		"https:// x", "http://", "https://", "httphttp://x", "hhttps://x.y", "http:/x", "https:x",
		"(see https://x.y/z).", "https://\xff\xfe", "a\thttp://b\fc", "HTTP://upper", "https://x\rhttp://y",
		"", "http", "https://https://x",
	} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, body string, n int) {
		n = n%8 + 1
		if n < 1 {
			n += 8
		}
		got, want := links(body, n), linkPattern.FindAllString(body, n)
		if !slices.Equal(got, want) {
			t.Fatalf("links(%q, %d) = %q, the pattern finds %q", body, n, got, want)
		}
	})
}
