package media

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/semaphore"
)

// Sized images. Each variant of a stored image (a transformation of one
// version of it, in one format) is made once and kept on the store the
// media live on, under VariantsPrefix: "render/{hash of the object's
// key}/{version}-w{width}-h{height}-{resize}-q{quality}.{ext}". The
// version is the stored object's ETag, which changes with its content, so
// a replaced image never answers with its old variants; a store's Delete
// removes an object's variants with it.

// VariantsPrefix starts the store key of every variant; no bucket's keys
// start so.
const VariantsPrefix = "render/"

// MaxRenders is how many transformations to sizes shown in lists and
// pages (at most largeRender pixels) run at once; one to a larger size
// runs alone. A small one holds a decoded image (up to about 4 MB at
// MaxRenderPixels) and little else; a large one also the encoder's
// memory for every pixel it writes (about 50 MB for 1200×1600 WebP), so a
// server under load keeps to a bounded amount.
const MaxRenders = 2

// largeRender is the most pixels a transformation may ask for (a side not
// given counting as MaxImageSide) to run beside another.
const largeRender = 640 * 640

// renderCost is the share of the MaxRenders turns a transformation takes.
func renderCost(t Transform) int64 {
	side := func(n int) int64 {
		if n == 0 {
			return MaxImageSide
		}
		return int64(min(n, MaxImageSide))
	}
	if side(t.Width)*side(t.Height) > largeRender {
		return MaxRenders
	}
	return 1
}

// renderWait is how long a transformation waits for its turn before the
// request is answered busy (503).
const renderWait = 10 * time.Second

// variantsOf is the store folder (ending in "/") of the variants of the
// object at key.
func variantsOf(key string) string {
	sum := sha256.Sum256([]byte(key))
	return VariantsPrefix + hex.EncodeToString(sum[:16]) + "/"
}

// variantKey is the store key of the variant t of the object at key, of
// version obj, encoded as contentType.
func variantKey(key string, obj Object, t Transform, contentType string) string {
	version := strings.Trim(obj.ETag, `"`)
	if version == "" { // a file of an earlier version, stored without an ETag
		version = strconv.FormatInt(obj.ModTime.UnixNano(), 36) + "." + strconv.FormatInt(obj.Size, 36)
	}
	q := t.quality()
	if contentType == TypePNG {
		q = 0 // lossless: quality changes nothing
	}
	return variantsOf(key) + version + "-w" + strconv.Itoa(t.Width) + "-h" + strconv.Itoa(t.Height) +
		"-" + t.Resize + "-q" + strconv.Itoa(q) + "." + strings.TrimPrefix(contentType, "image/")
}

// isVariant reports whether key is a variant's.
func isVariant(key string) bool { return strings.HasPrefix(key, VariantsPrefix) }

// maxRenderBytes is the largest stored file a transformation reads.
const maxRenderBytes = 32 << 20

// Render returns the variant of the image at path of the bucket that t
// asks for, as WebP (JPEG for a client that cannot show it, see
// Transform.Format) and its stored facts (a strong ETag of its bytes):
// from the store when it was made before, else made now, kept and
// returned. ErrNoObject when there is no such file, ErrNotRenderable when
// it is not an image, ErrTooManyPixels when it is too large to decode;
// Unavailable when the store does not answer in time or too many
// transformations are under way.
func (l *Library) Render(ctx context.Context, path string, t Transform, acceptsWebP bool) (io.ReadSeekCloser, Object, error) {
	key := Key(Bucket, path)
	orig, err := l.Files.Stat(ctx, key)
	if errors.Is(err, ErrNotFound) {
		return nil, Object{}, ErrNoObject
	}
	if err != nil {
		return nil, Object{}, failed(err, "Could not read the file. Please try again.")
	}
	if orig.ContentType != TypeJPEG && orig.ContentType != TypePNG && orig.ContentType != TypeWebP {
		return nil, Object{}, ErrNotRenderable
	}
	out := t.outputType(orig.ContentType, acceptsWebP)
	f, obj, err := l.Files.Open(ctx, variantKey(key, orig, t, out))
	if err == nil {
		return f, obj, nil
	}
	if !errors.Is(err, ErrNotFound) {
		return nil, Object{}, failed(err, "Could not read the file. Please try again.")
	}
	release, err := l.renderTurn(ctx, renderCost(t))
	if err != nil {
		return nil, Object{}, err
	}
	body, orig, err := l.transform(ctx, key, t, out)
	release()
	if err != nil {
		return nil, Object{}, err
	}
	obj, err = l.Files.Put(ctx, variantKey(key, orig, t, out), bytes.NewReader(body), out)
	if err != nil {
		return nil, Object{}, failed(err, "Could not store the resized image. Please try again.")
	}
	return nopCloser{bytes.NewReader(body)}, obj, nil
}

// transform reads the object at key and makes its variant t as
// contentType; it returns the variant's bytes and the object's facts as
// read (its version may be newer than a Stat before).
func (l *Library) transform(ctx context.Context, key string, t Transform, contentType string) ([]byte, Object, error) {
	f, orig, err := l.Files.Open(ctx, key)
	if errors.Is(err, ErrNotFound) {
		return nil, Object{}, ErrNoObject
	}
	if err != nil {
		return nil, Object{}, failed(err, "Could not read the file. Please try again.")
	}
	defer f.Close()
	if orig.Size > maxRenderBytes {
		return nil, Object{}, ErrTooManyPixels
	}
	b, err := io.ReadAll(io.LimitReader(f, maxRenderBytes))
	if err != nil {
		return nil, Object{}, failed(err, "Could not read the file. Please try again.")
	}
	out, err := transformImage(b, t, contentType)
	if err != nil {
		return nil, Object{}, err
	}
	return out, orig, nil
}

// renderTurn waits (up to renderWait, in the order they came) until
// cost of the MaxRenders turns are free, and returns the function that
// gives them back; Unavailable when they did not come.
func (l *Library) renderTurn(ctx context.Context, cost int64) (func(), error) {
	l.rendersOnce.Do(func() { l.renders = semaphore.NewWeighted(MaxRenders) })
	ctx, cancel := context.WithTimeout(ctx, renderWait)
	defer cancel()
	if err := l.renders.Acquire(ctx, cost); err != nil {
		return nil, unavailable(fmt.Errorf("media: no turn to transform an image: %w", err))
	}
	return func() { l.renders.Release(cost) }, nil
}

// nopCloser is a bytes.Reader as an io.ReadSeekCloser.
type nopCloser struct{ *bytes.Reader }

func (nopCloser) Close() error { return nil }
