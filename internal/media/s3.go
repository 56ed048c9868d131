package media

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"salaula/internal/config"
)

// S3 stores objects in a bucket of an S3-compatible service (AWS S3, MinIO,
// Cloudflare R2, Backblaze B2...). A PUT of a whole object is atomic there:
// readers see the old object or the new one.
type S3 struct {
	client  *minio.Client
	bucket  string
	timeout time.Duration // each request, and a whole read or upload (see S3Config.Timeout)
}

// DefaultS3Timeout is how long one S3 request may take when the settings
// do not say (SALAULA_S3_TIMEOUT).
const DefaultS3Timeout = 20 * time.Second

// s3Retries is how many times a failed request is tried in all (minio-go
// would try 10 times, with backoff: minutes against a hung service).
const s3Retries = 2

// NewS3 connects to the bucket described by cfg. It does not contact the
// service: the first request does.
func NewS3(cfg config.S3Config) (*S3, error) {
	if cfg.AccessKey == "" || cfg.SecretKey == "" {
		return nil, errors.New("S3 media storage needs SALAULA_S3_ACCESS_KEY and SALAULA_S3_SECRET_KEY")
	}
	client, timeout, err := S3Client(cfg)
	if err != nil {
		return nil, err
	}
	return &S3{client: client, bucket: cfg.Bucket, timeout: timeout}, nil
}

// S3Client is a client of the service cfg describes, whose requests time
// out after the returned timeout without an answer (cfg.Timeout, or
// DefaultS3Timeout) and are tried s3Retries times. Off-site backups use it too.
func S3Client(cfg config.S3Config) (*minio.Client, time.Duration, error) {
	endpoint := cfg.Endpoint
	if endpoint == "" {
		endpoint = "https://s3." + cfg.Region + ".amazonaws.com"
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
		return nil, 0, fmt.Errorf("the S3 endpoint must look like https://host[:port], got %q (SALAULA_S3_ENDPOINT)", cfg.Endpoint)
	}
	lookup := minio.BucketLookupDNS
	if cfg.UsePathStyle {
		lookup = minio.BucketLookupPath
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultS3Timeout
	}
	// A service that accepts connections and never answers fails each
	// request here: connecting, TLS and the response's headers are bounded.
	transport := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: min(timeout, 10*time.Second), KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   min(timeout, 10*time.Second),
		ResponseHeaderTimeout: timeout,
		ExpectContinueTimeout: time.Second,
		MaxIdleConnsPerHost:   32,
		IdleConnTimeout:       90 * time.Second,
	}
	client, err := minio.New(u.Host, &minio.Options{
		Creds:        credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""),
		Secure:       u.Scheme == "https",
		Region:       cfg.Region,
		BucketLookup: lookup,
		Transport:    transport,
		MaxRetries:   s3Retries,
	})
	if err != nil {
		return nil, 0, fmt.Errorf("S3: %w", err)
	}
	return client, timeout, nil
}

// bounded gives ctx the store's deadline, the timeout (SALAULA_S3_TIMEOUT)
// for a whole call with its retry, and returns the limit that applies: the
// caller's own deadline when sooner. A call that takes longer fails with an
// error saying so.
func (s *S3) bounded(ctx context.Context) (context.Context, context.CancelFunc, time.Duration) {
	limit := s.timeout
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < limit {
		limit = time.Until(dl).Round(100 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	return ctx, cancel, limit
}

// NoAnswerError is a call the media store did not answer within Limit.
type NoAnswerError struct{ Limit time.Duration }

func (e *NoAnswerError) Error() string { return fmt.Sprintf("S3 did not answer within %s", e.Limit) }

// failed wraps err from the S3 call op on key, saying plainly when S3 did
// not answer within limit (a *NoAnswerError).
func (s *S3) failed(ctx context.Context, op, key string, limit time.Duration, err error) error {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) || isTimeout(err) {
		return fmt.Errorf("media: S3 %s %s: %w: %w", op, key, &NoAnswerError{Limit: limit}, err)
	}
	return fmt.Errorf("media: S3 %s %s: %w", op, key, err)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// isNotFound reports whether err is S3's answer for a missing object.
func isNotFound(err error) bool {
	resp := minio.ToErrorResponse(err)
	return resp.StatusCode == http.StatusNotFound || resp.Code == "NoSuchKey"
}

// quoteETag returns an ETag in the quoted form HTTP uses.
func quoteETag(etag string) string {
	if etag == "" || strings.HasPrefix(etag, `"`) {
		return etag
	}
	return `"` + etag + `"`
}

// Put uploads the whole object in one PUT request.
func (s *S3) Put(ctx context.Context, key string, r io.Reader, contentType string) (Object, error) {
	if err := CheckPath(key); err != nil {
		return Object{}, fmt.Errorf("media: bad key %q: %w", key, err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return Object{}, err
	}
	ctx, cancel, limit := s.bounded(ctx)
	defer cancel()
	info, err := s.client.PutObject(ctx, s.bucket, key, bytes.NewReader(b), int64(len(b)),
		minio.PutObjectOptions{ContentType: contentType, DisableMultipart: true})
	if err != nil {
		return Object{}, s.failed(ctx, "put", key, limit, err)
	}
	return Object{Key: key, Size: info.Size, ContentType: contentType, ETag: quoteETag(info.ETag), ModTime: info.LastModified}, nil
}

// Stat returns an object's metadata (a HEAD request).
func (s *S3) Stat(ctx context.Context, key string) (Object, error) {
	if CheckPath(key) != nil {
		return Object{}, ErrNotFound
	}
	ctx, cancel, limit := s.bounded(ctx)
	defer cancel()
	info, err := s.client.StatObject(ctx, s.bucket, key, minio.StatObjectOptions{})
	if isNotFound(err) {
		return Object{}, ErrNotFound
	}
	if err != nil {
		return Object{}, s.failed(ctx, "stat", key, limit, err)
	}
	return Object{Key: key, Size: info.Size, ContentType: info.ContentType, ETag: quoteETag(info.ETag), ModTime: info.LastModified}, nil
}

// Open returns a seekable reader of the object: each read after a seek is a
// ranged GET, so range requests fetch only what they need. The metadata
// comes from the reader's own first request, and its later requests ask
// for that ETag only (If-Match): an object replaced meanwhile fails the
// read instead of pairing one upload's type and ETag with another's bytes.
func (s *S3) Open(ctx context.Context, key string) (io.ReadSeekCloser, Object, error) {
	if CheckPath(key) != nil {
		return nil, Object{}, ErrNotFound
	}
	// The deadline covers the first request and the reads after it; Close
	// releases it.
	ctx, cancel, limit := s.bounded(ctx)
	o, err := s.client.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		cancel()
		return nil, Object{}, s.failed(ctx, "get", key, limit, err)
	}
	info, err := o.Stat()
	if err != nil {
		o.Close()
		cancel()
		if isNotFound(err) {
			return nil, Object{}, ErrNotFound
		}
		return nil, Object{}, s.failed(ctx, "get", key, limit, err)
	}
	return &oneGetReader{obj: o, size: info.Size, etag: info.ETag, cancel: cancel}, Object{Key: key, Size: info.Size, ContentType: info.ContentType, ETag: quoteETag(info.ETag), ModTime: info.LastModified}, nil
}

// wholeReadLimit is the largest object a read from its start takes in one
// piece and checks against its ETag (uploads are at most 10 MB by default).
const wholeReadLimit = 16 << 20

// oneGetReader reads an S3 object from the response of its first GET, the
// one its metadata came from: a seek only notes the position. A read from
// the start takes the whole object at once and checks it against the ETag
// (the MD5 of a single-part upload) before giving any of it out, so a reader
// sees one upload or the other, whole, even while it is being replaced and
// with an S3 server that rewrites objects in place or ignores If-Match. A
// read elsewhere (a Range request) asks S3 for that range, with If-Match.
type oneGetReader struct {
	obj    *minio.Object
	cancel context.CancelFunc // ends the read's deadline
	size   int64
	etag   string
	buf    []byte // the whole object, once read and checked
	pos    int64  // where the next read starts
	at     int64  // where the object's own stream stands
}

func (r *oneGetReader) Read(p []byte) (int, error) {
	if r.buf == nil && r.pos == 0 && r.at == 0 && r.size <= wholeReadLimit {
		data := make([]byte, r.size)
		if _, err := io.ReadFull(r.obj, data); err != nil {
			return 0, fmt.Errorf("media: S3 read: %w", err)
		}
		r.at = r.size
		if sum := md5.Sum(data); isMD5(r.etag) && hex.EncodeToString(sum[:]) != strings.ToLower(strings.Trim(r.etag, `"`)) {
			return 0, errors.New("media: the object changed while it was read")
		}
		r.buf = data
	}
	if r.buf != nil {
		if r.pos >= int64(len(r.buf)) {
			return 0, io.EOF
		}
		n := copy(p, r.buf[r.pos:])
		r.pos += int64(n)
		return n, nil
	}
	if r.pos != r.at {
		if _, err := r.obj.Seek(r.pos, io.SeekStart); err != nil {
			return 0, err
		}
		r.at = r.pos
	}
	n, err := r.obj.Read(p)
	r.pos += int64(n)
	r.at = r.pos
	return n, err
}

// isMD5 reports whether an ETag is a plain MD5 (not a multipart upload's).
func isMD5(etag string) bool {
	e := strings.Trim(etag, `"`)
	if len(e) != 32 {
		return false
	}
	_, err := hex.DecodeString(e)
	return err == nil
}

func (r *oneGetReader) Seek(offset int64, whence int) (int64, error) {
	abs := offset
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		abs += r.pos
	case io.SeekEnd:
		abs += r.size
	default:
		return 0, fmt.Errorf("media: seek: bad whence %d", whence)
	}
	if abs < 0 {
		return 0, fmt.Errorf("media: seek to a negative position")
	}
	r.pos = abs
	return abs, nil
}

func (r *oneGetReader) Close() error {
	defer r.cancel()
	return r.obj.Close()
}

// Delete removes an object and its variants; removing a missing one is
// not an error.
func (s *S3) Delete(ctx context.Context, key string) error {
	if err := CheckPath(key); err != nil {
		return fmt.Errorf("media: bad key %q: %w", key, err)
	}
	if err := s.remove(ctx, key); err != nil {
		return err
	}
	return s.DeleteVariants(ctx, key)
}

// remove deletes the object at key (a DELETE request).
func (s *S3) remove(ctx context.Context, key string) error {
	ctx, cancel, limit := s.bounded(ctx)
	defer cancel()
	err := s.client.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{})
	if err != nil && !isNotFound(err) {
		return s.failed(ctx, "delete", key, limit, err)
	}
	return nil
}

// DeleteVariants lists the variants of the object at key and removes
// each, within the store's timeout for the listing.
func (s *S3) DeleteVariants(ctx context.Context, key string) error {
	if isVariant(key) {
		return nil
	}
	prefix := variantsOf(key)
	lctx, cancel, limit := s.bounded(ctx)
	defer cancel()
	var keys []string
	for o := range s.client.ListObjects(lctx, s.bucket, minio.ListObjectsOptions{Prefix: prefix, Recursive: true}) {
		if o.Err != nil {
			return s.failed(lctx, "list", prefix, limit, o.Err)
		}
		keys = append(keys, o.Key)
	}
	for _, k := range keys {
		if err := s.remove(ctx, k); err != nil {
			return err
		}
	}
	return nil
}
