package media

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/sync/semaphore"

	"salaula/internal/apierr"
	"salaula/internal/store"
)

// Library holds the rules of the user-media bucket below HTTP: which
// bucket and paths exist, that a person writes only to their own folder,
// what an upload may be (an image by its content, metadata stripped), and
// that a file and its database record are kept and removed together. The
// storage API and the profile rules call it; its errors are *apierr.Error
// with the storage API's codes.
type Library struct {
	Files  Store
	DB     *store.DB
	Logger *slog.Logger

	rendersOnce sync.Once
	renders     *semaphore.Weighted // the turns of transformations (MaxRenders)
}

// ObjectPath checks the bucket and path of a request and returns the path.
func ObjectPath(bucket, path string) (string, error) {
	if bucket != Bucket {
		return "", ErrNoBucket
	}
	if err := CheckPath(path); err != nil {
		return "", err
	}
	return path, nil
}

// Upload is one file sent to the bucket.
type Upload struct {
	Path   string // checked by ObjectPath
	Owner  string // the signed-in caller's user id
	Upsert bool   // replace an existing file
	// Read reads the file and the metadata sent with it (nil when none); it
	// runs once the checks that need no file pass.
	Read func() (body, metadata []byte, err error)
}

// MaxMetadataBytes is the largest user metadata an upload may carry.
const MaxMetadataBytes = 1024

// checkMetadata returns the user metadata of an upload as it is stored: a
// JSON object of at most MaxMetadataBytes, without control characters in
// its text; '{}' for none.
func checkMetadata(raw []byte) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "{}", nil
	}
	if len(raw) > MaxMetadataBytes {
		return "", invalid("metadata must be at most 1 KB of JSON")
	}
	var obj map[string]any
	if !utf8.Valid(raw) || json.Unmarshal(raw, &obj) != nil || obj == nil {
		return "", invalid("metadata must be a JSON object")
	}
	if !plainText(obj) {
		return "", invalid("metadata must not hold control characters")
	}
	return string(raw), nil
}

// plainText tells whether every key and string in a decoded JSON value is
// text without control characters (which the JSON may hold escaped).
func plainText(v any) bool {
	ok := func(s string) bool {
		return utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f })
	}
	switch v := v.(type) {
	case string:
		return ok(v)
	case []any:
		for _, e := range v {
			if !plainText(e) {
				return false
			}
		}
	case map[string]any:
		for k, e := range v {
			if !ok(k) || !plainText(e) {
				return false
			}
		}
	}
	return true
}

// Stored is the answer to an upload: the object's key and id.
type Stored struct {
	Key string `json:"Key"`
	ID  string `json:"Id"`
}

// staleClaimAge is how old the record of an upload whose file never
// arrived (a crash between the two) must be before a new upload may take
// its path; younger, it is an upload still being written.
const staleClaimAge = 2 * time.Minute

// Put stores an image under the owner's own folder: a create fails with
// ErrDuplicate when the path is taken, an upsert replaces. The file is
// accepted by its content only (JPEG, PNG, WebP), at most MaxImageSide
// pixels a side, with everything but what decoding needs removed.
func (l *Library) Put(ctx context.Context, u Upload) (Stored, error) {
	if Owner(u.Path) != u.Owner || !strings.Contains(u.Path, "/") {
		return Stored{}, ErrOwnFolder
	}
	key := Key(Bucket, u.Path)
	if !u.Upsert {
		if err := l.free(ctx, key); err != nil {
			return Stored{}, err
		}
	}
	body, rawMeta, err := u.Read()
	if err != nil {
		return Stored{}, err
	}
	meta, err := checkMetadata(rawMeta)
	if err != nil {
		return Stored{}, err
	}
	ct, err := SniffImage(body)
	if err == nil {
		body, err = StripMetadata(ct, body)
	}
	if err != nil {
		return Stored{}, err
	}
	rec := store.MediaObject{Key: key, ID: store.NewID(), OwnerID: u.Owner, Size: int64(len(body)), ContentType: ct, Metadata: meta}
	if !u.Upsert {
		if err := l.claim(ctx, rec); err != nil {
			return Stored{}, err
		}
	}
	if _, err := l.Files.Put(ctx, key, bytes.NewReader(body), ct); err != nil {
		if !u.Upsert {
			if ferr := l.DB.ForgetMediaClaim(context.WithoutCancel(ctx), key, rec.ID); ferr != nil {
				l.Logger.Error("forget upload claim", "key", key, "err", ferr)
			}
		}
		return Stored{}, failed(err, "Could not store the file. Please try again.")
	}
	if u.Upsert {
		if err := l.DB.RecordMediaObject(ctx, rec); err != nil {
			l.Logger.Error("record upload", "key", key, "err", err)
		}
		// Variants of the replaced image: never served again (they are
		// keyed by its version), so not kept either.
		if err := l.Files.DeleteVariants(ctx, key); err != nil {
			l.Logger.Error("remove variants of a replaced file", "key", key, "err", err)
		}
	}
	return Stored{Key: key, ID: rec.ID}, nil
}

// free returns ErrDuplicate when key is stored, nil when it is not.
func (l *Library) free(ctx context.Context, key string) error {
	_, err := l.Files.Stat(ctx, key)
	if err == nil {
		return ErrDuplicate
	}
	if !errors.Is(err, ErrNotFound) {
		return failed(err, "Could not check the file. Please try again.")
	}
	return nil
}

// claim makes rec the one create of its key, with the database as the
// arbiter (so concurrent creates on any instance, on disk or S3, get
// exactly one winner); ErrDuplicate when the key is taken, by a stored file
// or by an upload under way.
func (l *Library) claim(ctx context.Context, rec store.MediaObject) error {
	err := l.DB.ClaimMediaObject(ctx, rec)
	if errors.Is(err, store.ErrMediaExists) {
		if _, serr := l.Files.Stat(ctx, rec.Key); errors.Is(serr, ErrNotFound) {
			var taken bool
			if taken, err = l.DB.TakeStaleMediaClaim(ctx, rec, store.Now().Add(-staleClaimAge)); err == nil && !taken {
				err = store.ErrMediaExists
			}
		}
	}
	switch {
	case err == nil:
		// A file stored without a record (by an earlier version) also holds the key.
		if err := l.free(ctx, rec.Key); err != nil {
			l.DB.ForgetMediaClaim(context.WithoutCancel(ctx), rec.Key, rec.ID)
			return err
		}
		return nil
	case errors.Is(err, store.ErrMediaExists):
		return ErrDuplicate
	default:
		return failed(err, "Could not store the file. Please try again.")
	}
}

// Open returns a stored object of the bucket and its metadata; ErrNoObject
// when there is none.
func (l *Library) Open(ctx context.Context, path string) (io.ReadSeekCloser, Object, error) {
	f, obj, err := l.Files.Open(ctx, Key(Bucket, path))
	if errors.Is(err, ErrNotFound) {
		return nil, Object{}, ErrNoObject
	}
	if err != nil {
		return nil, Object{}, failed(err, "Could not read the file. Please try again.")
	}
	return f, obj, nil
}

// ObjectRow is an object as the storage API describes it in a remove's
// answer and a list's file: its record and stored facts.
type ObjectRow struct {
	ID             string         `json:"id"`
	Name           string         `json:"name"`
	BucketID       string         `json:"bucket_id"`
	Owner          string         `json:"owner"`
	OwnerID        string         `json:"owner_id"`
	Version        string         `json:"version"`
	CreatedAt      string         `json:"created_at"`
	UpdatedAt      string         `json:"updated_at"`
	LastAccessedAt string         `json:"last_accessed_at"`
	Metadata       map[string]any `json:"metadata"`
	UserMetadata   map[string]any `json:"user_metadata"`
}

// rowOf describes the object at path from its record rec and its stored
// facts obj. A record's id is new with each upload, so it is also the
// object's version. A file stored without a record (by an earlier
// version) takes its times from the file and has no id.
func rowOf(path string, rec store.MediaObject, obj Object) ObjectRow {
	at := func(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
	if rec.Key == "" {
		rec.OwnerID, rec.CreatedAt, rec.UpdatedAt = Owner(path), obj.ModTime, obj.ModTime
	}
	var user map[string]any
	if json.Unmarshal([]byte(rec.Metadata), &user) != nil || user == nil {
		user = map[string]any{}
	}
	return ObjectRow{ID: rec.ID, Name: path, BucketID: Bucket, Owner: rec.OwnerID, OwnerID: rec.OwnerID, Version: rec.ID,
		CreatedAt: at(rec.CreatedAt), UpdatedAt: at(rec.UpdatedAt), LastAccessedAt: at(rec.UpdatedAt),
		Metadata: map[string]any{"eTag": obj.ETag, "size": obj.Size, "mimetype": obj.ContentType,
			"cacheControl": "max-age=31536000", "lastModified": at(obj.ModTime), "contentLength": obj.Size, "httpStatusCode": 200},
		UserMetadata: user}
}

// MaxRemove is the most paths one Remove takes.
const MaxRemove = 1000

// Remove deletes objects of the owner's own folder and returns the rows of
// those that existed and are now gone, as they were. Every path is checked
// before any is removed.
func (l *Library) Remove(ctx context.Context, owner string, paths []string) ([]ObjectRow, error) {
	if len(paths) == 0 || len(paths) > MaxRemove {
		return nil, apierr.Coded(apierr.Invalid, CodeInvalidRequest, "prefixes must list 1 to 1000 object paths")
	}
	for i, p := range paths {
		p = strings.Trim(p, "/")
		if err := CheckPath(p); err != nil {
			return nil, err
		}
		if Owner(p) != owner {
			return nil, ErrOwnFolder
		}
		paths[i] = p
	}
	recs, err := l.records(ctx, paths)
	if err != nil {
		return nil, err
	}
	removed := []ObjectRow{}
	for _, p := range paths {
		obj, err := l.Files.Stat(ctx, Key(Bucket, p))
		if err != nil {
			continue
		}
		if err := l.Delete(ctx, p); err != nil {
			return nil, failed(err, "Could not remove the file. Please try again.")
		}
		removed = append(removed, rowOf(p, recs[Key(Bucket, p)], obj))
	}
	return removed, nil
}

// records returns the records of the objects at paths of the bucket, by key.
func (l *Library) records(ctx context.Context, paths []string) (map[string]store.MediaObject, error) {
	keys := make([]string, len(paths))
	for i, p := range paths {
		keys[i] = Key(Bucket, p)
	}
	recs, err := l.DB.MediaObjectsAt(ctx, keys)
	if err != nil {
		return nil, unavailable(err)
	}
	out := make(map[string]store.MediaObject, len(recs))
	for _, r := range recs {
		out[r.Key] = r
	}
	return out, nil
}

// Delete removes the object at path of the bucket and its record.
func (l *Library) Delete(ctx context.Context, path string) error {
	key := Key(Bucket, path)
	if err := l.Files.Delete(ctx, key); err != nil {
		return err
	}
	return l.DB.ForgetMediaObject(ctx, key)
}

// FirstMissing returns the index of the first path with no stored object
// in the bucket, or -1 when all exist.
func (l *Library) FirstMissing(ctx context.Context, paths []string) (int, error) {
	for i, p := range paths {
		_, err := l.Files.Stat(ctx, Key(Bucket, p))
		if errors.Is(err, ErrNotFound) {
			return i, nil
		}
		if err != nil {
			return 0, err
		}
	}
	return -1, nil
}
