package media

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Local stores objects as files under Dir, each with a small ".meta" JSON
// file beside it holding its content type and ETag.
type Local struct {
	Dir string
}

// NewLocal returns a Local store rooted at dir, creating it.
func NewLocal(dir string) (*Local, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	return &Local{Dir: dir}, nil
}

type meta struct {
	ContentType string `json:"content_type"`
	ETag        string `json:"etag"`
}

func (l *Local) path(key string) (string, error) {
	if err := CheckPath(key); err != nil {
		return "", fmt.Errorf("media: bad key %q: %w", key, err)
	}
	return filepath.Join(l.Dir, filepath.FromSlash(key)), nil
}

// Put writes r to a temporary file, syncs it and renames it into place.
func (l *Local) Put(ctx context.Context, key string, r io.Reader, contentType string) (Object, error) {
	p, err := l.path(key)
	if err != nil {
		return Object{}, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return Object{}, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".upload-*")
	if err != nil {
		return Object{}, err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), r)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Object{}, err
	}
	m := meta{ContentType: contentType, ETag: `"` + hex.EncodeToString(h.Sum(nil))[:32] + `"`}
	mb, _ := json.Marshal(m)
	if err := writeFileAtomic(p+".meta", mb); err != nil {
		return Object{}, err
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		return Object{}, err
	}
	syncDir(filepath.Dir(p))
	st, err := os.Stat(p)
	if err != nil {
		return Object{}, err
	}
	return Object{Key: key, Size: n, ContentType: contentType, ETag: m.ETag, ModTime: st.ModTime()}, nil
}

func writeFileAtomic(p string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(p), ".meta-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Stat returns an object's metadata.
func (l *Local) Stat(ctx context.Context, key string) (Object, error) {
	p, err := l.path(key)
	if err != nil {
		return Object{}, ErrNotFound
	}
	st, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && st.IsDir()) {
		return Object{}, ErrNotFound
	}
	if err != nil {
		return Object{}, err
	}
	var m meta
	if b, err := os.ReadFile(p + ".meta"); err == nil {
		json.Unmarshal(b, &m)
	}
	return Object{Key: key, Size: st.Size(), ContentType: m.ContentType, ETag: m.ETag, ModTime: st.ModTime()}, nil
}

// Open returns the object's file.
func (l *Local) Open(ctx context.Context, key string) (io.ReadSeekCloser, Object, error) {
	obj, err := l.Stat(ctx, key)
	if err != nil {
		return nil, Object{}, err
	}
	p, _ := l.path(key)
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Object{}, ErrNotFound
	}
	return f, obj, err
}

// Delete removes an object; removing a missing one is not an error.
func (l *Local) Delete(ctx context.Context, key string) error {
	p, err := l.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	os.Remove(p + ".meta")
	return nil
}
