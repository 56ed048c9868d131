package media

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"salaula/internal/apierr"
)

// Bucket is the one storage bucket the product uses.
const Bucket = "user-media"

// Limits of an object path inside a bucket.
const (
	MaxPathBytes    = 512 // the whole path
	MaxSegmentBytes = 200 // one folder or file name
	MaxPathSegments = 8
)

// CheckPath reports why p (an object path inside a bucket, such as
// "{userId}/photos/1700000000-me.jpg") is unsafe, or nil when it is fine:
// no empty, "." or ".." segments, no backslashes, no control, invisible
// (see invisible) or invalid UTF-8 characters, no ".meta" suffix, no
// ".upload-" or ".meta-" prefix (temporary files), and sane lengths.
func CheckPath(p string) error {
	badPath := func(msg string) error { return apierr.Coded(apierr.Invalid, CodeInvalidKey, msg) }
	switch {
	case p == "":
		return badPath("The object path is empty")
	case len(p) > MaxPathBytes:
		return badPath("The object path is too long")
	case !utf8.ValidString(p):
		return badPath("The object path is not valid UTF-8")
	case strings.Contains(p, `\`):
		return badPath("The object path must not contain backslashes")
	case strings.HasSuffix(p, ".meta"):
		return badPath("The object name must not end in .meta")
	}
	for _, r := range p {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return badPath("The object path must not contain control characters")
		}
		if invisible(r) {
			return badPath("The object path must not contain invisible or direction-changing characters (such as right-to-left marks or zero-width spaces)")
		}
	}
	segs := strings.Split(p, "/")
	if len(segs) > MaxPathSegments {
		return badPath("The object path has too many folders")
	}
	for _, s := range segs {
		switch {
		case s == "":
			return badPath("The object path must not have empty folder names")
		case s == "." || s == "..":
			return badPath("The object path must not contain . or .. segments")
		case len(s) > MaxSegmentBytes:
			return badPath("A folder or file name in the object path is too long")
		case strings.HasPrefix(s, ".upload-") || strings.HasPrefix(s, ".meta-"):
			// Temporary files of interrupted uploads of earlier versions.
			return badPath("The object name must not start with .upload- or .meta-")
		}
	}
	return nil
}

// invisible reports whether r changes how text around it is shown without
// being seen itself: a format character (Unicode category Cf: the
// right-to-left override U+202E that turns "gpj.exe" around, other bidi
// marks and isolates, zero-width spaces and joiners, the byte order mark,
// the soft hyphen) or a line or paragraph separator. A file name holding
// one can look like another name.
func invisible(r rune) bool {
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// Key is the store key of path in bucket.
func Key(bucket, path string) string { return bucket + "/" + path }

// Owner returns the first folder of an object path: the id of the user who
// owns it.
func Owner(path string) string {
	owner, _, _ := strings.Cut(path, "/")
	return owner
}

// PublicURLPrefix is the path under which the server serves public objects:
// PublicURLPrefix + bucket + "/" + path, as supabase-js getPublicUrl builds it.
const PublicURLPrefix = "/storage/v1/object/public/"

// PathFromPublicURL returns the object path inside bucket that a public URL
// (of any host) points to, or ok false when it is not such a URL or the path
// is unsafe.
func PathFromPublicURL(raw, bucket string) (path string, ok bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", false
	}
	rest, found := strings.CutPrefix(u.Path, PublicURLPrefix+bucket+"/")
	if !found || CheckPath(rest) != nil {
		return "", false
	}
	return rest, true
}
