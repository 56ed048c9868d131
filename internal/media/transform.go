package media

import (
	"fmt"
	"strconv"
	"strings"

	"salaula/internal/apierr"
)

// Transform is what a request for a sized image asks, as Supabase
// Storage's image transformation options: a box (Width and Height in
// pixels, 0 for a side not given), how the image fits it (Resize), the
// encoder's quality and the answer's format.
type Transform struct {
	Width, Height int
	Resize        string // cover (the default), contain or fill
	Quality       int    // 20 to 100; 0 when not given (DefaultQuality)
	// Format is "" to answer WebP (JPEG to a client that cannot show
	// WebP), "origin" for the stored image's own type, or webp, jpeg or
	// png. A client asking avif gets what it gets without a format: this
	// server encodes no AVIF.
	Format string
}

// Bounds of a transformation, as Supabase Storage's: a side of 1 to
// MaxRenderSide pixels (the hosted service's default limit; images are
// never enlarged, so no answer is larger than its stored image), a quality
// of 20 to 100.
const (
	MaxRenderSide  = 2500
	MinQuality     = 20
	MaxQuality     = 100
	DefaultQuality = 80
)

// formats are the formats a transformation may name, each with what it
// asks (avif: as no format).
var formats = map[string]string{"": "", "origin": "origin", "webp": "webp", "jpeg": "jpeg", "png": "png", "avif": ""}

// badParam is the 400 of a transformation parameter.
func badParam(msg string) error { return apierr.Coded(apierr.Invalid, CodeInvalidRequest, msg) }

// ParseTransform reads a transformation from its parameters as supabase-js
// sends them (the query string of /render/image/..., or the transform of
// createSignedUrl): width, height, resize, quality and format; get
// returns "" for one not given. A bad value is an Invalid error naming the
// parameter.
func ParseTransform(get func(name string) string) (Transform, error) {
	var t Transform
	side := func(name string) (int, error) {
		v := strings.TrimSpace(get(name))
		if v == "" {
			return 0, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > MaxRenderSide {
			return 0, badParam(fmt.Sprintf("%s must be a whole number of pixels from 1 to %d", name, MaxRenderSide))
		}
		return n, nil
	}
	var err error
	if t.Width, err = side("width"); err != nil {
		return t, err
	}
	if t.Height, err = side("height"); err != nil {
		return t, err
	}
	switch t.Resize = strings.ToLower(strings.TrimSpace(get("resize"))); t.Resize {
	case "":
		t.Resize = "cover"
	case "cover", "contain", "fill":
	default:
		return t, badParam("resize must be cover, contain or fill")
	}
	if q := strings.TrimSpace(get("quality")); q != "" {
		if t.Quality, err = strconv.Atoi(q); err != nil || t.Quality < MinQuality || t.Quality > MaxQuality {
			return t, badParam(fmt.Sprintf("quality must be a whole number from %d to %d", MinQuality, MaxQuality))
		}
	}
	f, ok := formats[strings.ToLower(strings.TrimSpace(get("format")))]
	if !ok {
		return t, badParam("format must be origin, webp, jpeg or png")
	}
	t.Format = f
	return t, nil
}

// ParseTransformJSON reads the transform object of a createSignedUrl
// body (numbers and strings, as supabase-js sends them) as ParseTransform
// does.
func ParseTransformJSON(m map[string]any) (Transform, error) {
	return ParseTransform(func(name string) string {
		switch v := m[name].(type) {
		case string:
			return v
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64)
		case nil:
			return ""
		default:
			return "?" // a type no parameter takes: refused by name
		}
	})
}

// String is the transformation as a signed URL's token holds it and the
// X-Transformations header tells it: "width:192,height:192,resize:cover",
// with quality and format when given.
func (t Transform) String() string {
	var parts []string
	if t.Width > 0 {
		parts = append(parts, "width:"+strconv.Itoa(t.Width))
	}
	if t.Height > 0 {
		parts = append(parts, "height:"+strconv.Itoa(t.Height))
	}
	parts = append(parts, "resize:"+t.Resize)
	if t.Quality > 0 {
		parts = append(parts, "quality:"+strconv.Itoa(t.Quality))
	}
	if t.Format != "" {
		parts = append(parts, "format:"+t.Format)
	}
	return strings.Join(parts, ",")
}

// ParseTransformString reads a transformation written by String.
func ParseTransformString(s string) (Transform, error) {
	vals := map[string]string{}
	for part := range strings.SplitSeq(s, ",") {
		name, v, _ := strings.Cut(part, ":")
		vals[name] = v
	}
	return ParseTransform(func(name string) string { return vals[name] })
}

// Negotiated reports whether the answer's type depends on the client's
// Accept header (no format, or avif, asked).
func (t Transform) Negotiated() bool { return t.Format == "" }

// outputType is the content type of the answer to t for an image stored as
// stored, for a client that can (acceptsWebP) or cannot show WebP.
func (t Transform) outputType(stored string, acceptsWebP bool) string {
	switch t.Format {
	case "origin":
		return stored
	case "webp":
		return TypeWebP
	case "jpeg":
		return TypeJPEG
	case "png":
		return TypePNG
	}
	if acceptsWebP {
		return TypeWebP
	}
	return TypeJPEG
}

// quality is the encoder quality of t.
func (t Transform) quality() int {
	if t.Quality == 0 {
		return DefaultQuality
	}
	return t.Quality
}

// AcceptsWebP reports whether an Accept header names image/webp, as
// browsers that show WebP send with image requests.
func AcceptsWebP(accept string) bool {
	return strings.Contains(strings.ToLower(accept), "image/webp")
}
