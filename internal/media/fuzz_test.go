package media

import (
	"bytes"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"net/url"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	_ "golang.org/x/image/webp"
)

// FuzzObjectPaths checks the storage path rules on any input: a path
// CheckPath accepts is safe to join under the bucket's folder, and the
// public URL built from it leads back to the same path.
func FuzzObjectPaths(f *testing.F) {
	for _, p := range []string{"0c9a7f3e/photos/1700000000000-front.jpg", "u/logos/a.png", "", ".", "..", "u/../x", `u\x`, "u//x",
		"u/x.meta", "u/\x00", "u/\xff", strings.Repeat("a/", 9) + "x", strings.Repeat("a", 201), "u/%2e%2e/x", "u/ x .jpg",
		"u/photo\u202egpj.exe", "u/\u200bx.png", "u/x\ufeff.png", "u/\u2066x\u2069.png", "u/a\u00adb.png", "u/x\u2028.png", "u/caf\u00e9.png"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if CheckPath(p) != nil {
			return
		}
		if !utf8.ValidString(p) || len(p) > MaxPathBytes || strings.Contains(p, `\`) {
			t.Fatalf("CheckPath accepted %q", p)
		}
		for _, r := range p {
			if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) {
				t.Fatalf("CheckPath accepted %q with the control or invisible character %U", p, r)
			}
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

// FuzzStripMetadata checks metadata removal on any input: it never panics,
// what it keeps of an accepted image is still that image's type and size,
// and stripping what it kept changes nothing more.
func FuzzStripMetadata(f *testing.F) {
	jpg := sampleJPEG()
	f.Add(jpg)
	f.Add(append(insertAfterJFIF(jpg[:2:2], orientationSegment(6)), jpg[2:]...))
	f.Add(append(append([]byte(nil), jpg...), jpg...))
	f.Add(samplePNG())
	f.Add([]byte("RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ct, err := SniffImage(b)
		if err != nil {
			return
		}
		out, err := StripMetadata(ct, b)
		if err != nil {
			return
		}
		if got, err := SniffImage(out); err != nil || got != ct {
			t.Fatalf("stripped %s sniffs as %q, %v", ct, got, err)
		}
		before, _, _ := image.DecodeConfig(bytes.NewReader(b))
		after, _, _ := image.DecodeConfig(bytes.NewReader(out))
		if before.Width != after.Width || before.Height != after.Height {
			t.Fatalf("stripped %s is %dx%d, was %dx%d", ct, after.Width, after.Height, before.Width, before.Height)
		}
		again, err := StripMetadata(ct, out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("stripping twice changed the %s: %v", ct, err)
		}
	})
}
