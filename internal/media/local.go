package media

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Local stores objects as files under Dir. Each file starts with a small
// header holding the object's content type and ETag, so data and metadata
// are replaced together by one rename: a reader sees one upload or the
// other, whole. Uploads are written to temporary files in Dir/.tmp, outside
// every key, and renamed into place.
type Local struct {
	Dir string
}

// tmpDir is the folder (inside Dir) of files being written; no key maps there.
const tmpDir = ".tmp"

// leftoverAge is how old a temporary file must be for NewLocal to remove
// it as the leftover of an interrupted upload (a write takes seconds; a
// younger file may belong to another process using the same folder).
const leftoverAge = 10 * time.Minute

// NewLocal returns a Local store rooted at dir, creating it, and removes
// leftovers of uploads that a crash interrupted.
func NewLocal(dir string) (*Local, error) {
	if err := os.MkdirAll(filepath.Join(dir, tmpDir), 0o750); err != nil {
		return nil, err
	}
	l := &Local{Dir: dir}
	if err := l.RemoveLeftovers(time.Now().Add(-leftoverAge)); err != nil {
		return nil, fmt.Errorf("media: remove leftovers of interrupted uploads: %w", err)
	}
	return l, nil
}

// RemoveLeftovers deletes the temporary files of uploads last written
// before cutoff.
func (l *Local) RemoveLeftovers(cutoff time.Time) error {
	entries, err := os.ReadDir(filepath.Join(l.Dir, tmpDir))
	if err != nil {
		return err
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.ModTime().Before(cutoff) {
			if err := os.Remove(filepath.Join(l.Dir, tmpDir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

type meta struct {
	ContentType string `json:"content_type"`
	ETag        string `json:"etag"`
}

// headerMagic starts a stored file; then a 4-byte big-endian length and
// that many bytes of JSON meta, then the object's bytes. Files without it
// were written by earlier versions, with the meta in a ".meta" file beside.
const headerMagic = "SALAULA\x01"

func (l *Local) path(key string) (string, error) {
	if err := CheckPath(key); err != nil {
		return "", fmt.Errorf("media: bad key %q: %w", key, err)
	}
	if strings.HasPrefix(key, ".") {
		return "", fmt.Errorf("media: bad key %q: hidden top folder", key)
	}
	return filepath.Join(l.Dir, filepath.FromSlash(key)), nil
}

// Put writes the header and r to a temporary file, syncs it and renames it
// into place.
func (l *Local) Put(ctx context.Context, key string, r io.Reader, contentType string) (Object, error) {
	p, err := l.path(key)
	if err != nil {
		return Object{}, err
	}
	body, err := io.ReadAll(r)
	if err != nil {
		return Object{}, err
	}
	sum := sha256.Sum256(body)
	m := meta{ContentType: contentType, ETag: `"` + hex.EncodeToString(sum[:])[:32] + `"`}
	mb, _ := json.Marshal(m)
	head := binary.BigEndian.AppendUint32([]byte(headerMagic), uint32(len(mb)))
	head = append(head, mb...)
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return Object{}, err
	}
	tmp, err := os.CreateTemp(filepath.Join(l.Dir, tmpDir), "upload-*")
	if err != nil {
		return Object{}, err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	_, err = tmp.Write(head)
	if err == nil {
		_, err = tmp.Write(body)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Object{}, err
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		return Object{}, err
	}
	syncDir(filepath.Dir(p))
	os.Remove(p + ".meta") // of a file an earlier version wrote
	st, err := os.Stat(p)
	if err != nil {
		return Object{}, err
	}
	return Object{Key: key, Size: int64(len(body)), ContentType: contentType, ETag: m.ETag, ModTime: st.ModTime()}, nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Stat returns an object's metadata.
func (l *Local) Stat(ctx context.Context, key string) (Object, error) {
	f, obj, err := l.Open(ctx, key)
	if err != nil {
		return Object{}, err
	}
	f.Close()
	return obj, nil
}

// localObject is an open stored file read from after its header.
type localObject struct {
	*io.SectionReader
	f *os.File
}

func (o localObject) Close() error { return o.f.Close() }

// Open returns the object's content and metadata, both read from the one
// file it opens.
func (l *Local) Open(ctx context.Context, key string) (io.ReadSeekCloser, Object, error) {
	p, err := l.path(key)
	if err != nil {
		return nil, Object{}, ErrNotFound
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Object{}, ErrNotFound
	}
	if err != nil {
		return nil, Object{}, err
	}
	st, err := f.Stat()
	if err == nil && st.IsDir() {
		err = ErrNotFound
	}
	var m meta
	var off int64
	if err == nil {
		m, off, err = readHeader(f, p, st.Size())
	}
	if err != nil {
		f.Close()
		return nil, Object{}, err
	}
	obj := Object{Key: key, Size: st.Size() - off, ContentType: m.ContentType, ETag: m.ETag, ModTime: st.ModTime()}
	return localObject{io.NewSectionReader(f, off, obj.Size), f}, obj, nil
}

// readHeader reads the meta at the start of a stored file and returns it
// with the offset of the object's bytes; a file without the header (an
// earlier version's) has its meta in the ".meta" file beside it.
func readHeader(f *os.File, p string, size int64) (meta, int64, error) {
	var m meta
	head := make([]byte, len(headerMagic)+4)
	n, err := f.ReadAt(head, 0)
	if n < len(head) || !bytes.HasPrefix(head, []byte(headerMagic)) {
		if b, err := os.ReadFile(p + ".meta"); err == nil {
			json.Unmarshal(b, &m)
		}
		return m, 0, nil
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return m, 0, err
	}
	mlen := int64(binary.BigEndian.Uint32(head[len(headerMagic):]))
	off := int64(len(head)) + mlen
	if mlen > 4096 || off > size {
		return m, 0, fmt.Errorf("media: %s: damaged header", p)
	}
	mb := make([]byte, mlen)
	if _, err := f.ReadAt(mb, int64(len(head))); err != nil {
		return m, 0, err
	}
	if err := json.Unmarshal(mb, &m); err != nil {
		return m, 0, fmt.Errorf("media: %s: damaged header: %w", p, err)
	}
	return m, off, nil
}

// Delete removes an object and the folder of its variants; removing a
// missing one is not an error.
func (l *Local) Delete(ctx context.Context, key string) error {
	p, err := l.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	os.Remove(p + ".meta")
	return l.DeleteVariants(ctx, key)
}

// DeleteVariants removes the folder of the variants of the object at key.
func (l *Local) DeleteVariants(ctx context.Context, key string) error {
	if isVariant(key) {
		return nil
	}
	return os.RemoveAll(filepath.Join(l.Dir, filepath.FromSlash(variantsOf(key))))
}
