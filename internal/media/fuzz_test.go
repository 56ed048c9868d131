package media

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzObjectPaths checks the storage path rules on any input: a path
// CheckPath accepts is safe to join under the bucket's folder, and the
// public URL built from it leads back to the same path.
func FuzzObjectPaths(f *testing.F) {
	for _, p := range []string{"0c9a7f3e/photos/1700000000000-front.jpg", "u/logos/a.png", "", ".", "..", "u/../x", `u\x`, "u//x",
		"u/x.meta", "u/\x00", "u/\xff", strings.Repeat("a/", 9) + "x", strings.Repeat("a", 201), "u/%2e%2e/x", "u/ x .jpg"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if CheckPath(p) != nil {
			return
		}
		if !utf8.ValidString(p) || len(p) > MaxPathBytes || strings.Contains(p, `\`) {
			t.Fatalf("CheckPath accepted %q", p)
		}
		for _, seg := range strings.Split(p, "/") {
			if seg == "" || seg == "." || seg == ".." || len(seg) > MaxSegmentBytes {
				t.Fatalf("CheckPath accepted %q with segment %q", p, seg)
			}
		}
		if Owner(p) == "" || strings.Contains(Owner(p), "/") {
			t.Fatalf("Owner(%q) = %q", p, Owner(p))
		}
		escaped := strings.Join(func() []string {
			var out []string
			for _, seg := range strings.Split(p, "/") {
				out = append(out, url.PathEscape(seg))
			}
			return out
		}(), "/")
		got, ok := PathFromPublicURL("https://salaula.example"+PublicURLPrefix+Bucket+"/"+escaped, Bucket)
		if !ok || got != p {
			t.Fatalf("public URL of %q leads to %q (ok %v)", p, got, ok)
		}
	})
}
