// Package media stores uploaded files (profile photos, seller logos) by key
// ("{bucket}/{userId}/..."): on local disk under the data folder by default,
// or in an S3-compatible bucket.
package media

import (
	"context"
	"errors"
	"io"
	"time"
)

// ErrNotFound is returned when no object has the key.
var ErrNotFound = errors.New("media: object not found")

// Object is a stored file's metadata.
type Object struct {
	Key         string
	Size        int64
	ContentType string
	ETag        string
	ModTime     time.Time
}

// Store keeps objects. Put is atomic: a reader sees the old object or the
// whole new one, never part of a file.
type Store interface {
	Put(ctx context.Context, key string, r io.Reader, contentType string) (Object, error)
	// Open returns the object's content (seekable, for range requests) and metadata.
	Open(ctx context.Context, key string) (io.ReadSeekCloser, Object, error)
	Stat(ctx context.Context, key string) (Object, error)
	// Delete removes an object and its variants (see Library.Render);
	// removing a missing one is not an error.
	Delete(ctx context.Context, key string) error
	// DeleteVariants removes the variants of the object at key only.
	DeleteVariants(ctx context.Context, key string) error
}
