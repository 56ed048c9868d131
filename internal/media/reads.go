package media

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ListQuery is what a list asks for, as storage-js sends it: the files and
// folders directly under Prefix, filtered by a name prefix (Search), sorted
// and paged.
type ListQuery struct {
	Prefix string `json:"prefix"`
	Limit  *int   `json:"limit"` // 100 when absent
	Offset int    `json:"offset"`
	Search string `json:"search"`
	SortBy struct {
		Column string `json:"column"` // name (default), created_at, updated_at or last_accessed_at
		Order  string `json:"order"`  // asc (default) or desc
	} `json:"sortBy"`
}

// Entry is one entry of a list: a file, or a folder (id, times and
// metadata null).
type Entry struct {
	Name           string         `json:"name"`
	ID             *string        `json:"id"`
	UpdatedAt      *string        `json:"updated_at"`
	CreatedAt      *string        `json:"created_at"`
	LastAccessedAt *string        `json:"last_accessed_at"`
	Metadata       map[string]any `json:"metadata"`
	path           string
	at             time.Time
}

// Limits of a list and of a signed URL.
const (
	MaxListLimit     = 1000
	defaultListLimit = 100
	MaxSignedURLAge  = 365 * 24 * time.Hour
)

// listColumns are the columns a list sorts by.
var listColumns = []string{"", "name", "created_at", "updated_at", "last_accessed_at"}

// check returns the query's limit, sort column and order, and its prefix
// without surrounding slashes, or why the query is wrong for owner.
func (q ListQuery) check(owner string) (limit int, col, order, prefix string, err error) {
	limit = defaultListLimit
	if q.Limit != nil {
		limit = *q.Limit
	}
	col, order = strings.ToLower(q.SortBy.Column), strings.ToLower(q.SortBy.Order)
	prefix = strings.Trim(q.Prefix, "/")
	switch {
	case limit < 1 || limit > MaxListLimit:
		err = invalid("limit must be 1 to 1000")
	case q.Offset < 0:
		err = invalid("offset must not be negative")
	case !slices.Contains(listColumns, col):
		err = invalid("sortBy.column must be name, created_at, updated_at or last_accessed_at")
	case order != "" && order != "asc" && order != "desc":
		err = invalid("sortBy.order must be asc or desc")
	case prefix != "" && CheckPath(prefix) != nil:
		err = CheckPath(prefix)
	case prefix != "" && Owner(prefix) != owner:
		err = ErrReadOwnFolder
	}
	return limit, col, order, prefix, err
}

// List returns the files and folders directly under q.Prefix within the
// owner's own folder (at the bucket's root, only that folder), whose names
// start with q.Search (any case), sorted and paged as q asks. A file's
// metadata holds its stored ETag.
func (l *Library) List(ctx context.Context, owner string, q ListQuery) ([]Entry, error) {
	limit, col, order, prefix, err := q.check(owner)
	if err != nil {
		return nil, err
	}
	recs, err := l.DB.MediaObjectsOf(ctx, owner)
	if err != nil {
		return nil, unavailable(err)
	}
	entries := []Entry{}
	folders := map[string]bool{}
	for _, rec := range recs {
		path, ok := strings.CutPrefix(rec.Key, Bucket+"/")
		if !ok {
			continue
		}
		rest := path
		if prefix != "" {
			if rest, ok = strings.CutPrefix(path, prefix+"/"); !ok {
				continue
			}
		}
		name, _, isFolder := strings.Cut(rest, "/")
		switch {
		case !strings.HasPrefix(strings.ToLower(name), strings.ToLower(q.Search)):
		case isFolder && !folders[name]:
			folders[name] = true
			entries = append(entries, Entry{Name: name})
		case !isFolder:
			at := rec.UpdatedAt.UTC().Format(time.RFC3339Nano)
			id := rec.ID
			entries = append(entries, Entry{Name: name, ID: &id, UpdatedAt: &at, CreatedAt: &at, LastAccessedAt: &at,
				Metadata: map[string]any{"size": rec.Size, "mimetype": rec.ContentType, "cacheControl": "max-age=31536000",
					"lastModified": at, "contentLength": rec.Size, "httpStatusCode": 200},
				path: path, at: rec.UpdatedAt})
		}
	}
	slices.SortStableFunc(entries, func(a, b Entry) int {
		c := strings.Compare(a.Name, b.Name)
		if col != "" && col != "name" {
			c = a.at.Compare(b.at)
			if c == 0 {
				c = strings.Compare(a.Name, b.Name)
			}
		}
		if order == "desc" {
			c = -c
		}
		return c
	})
	entries = entries[min(q.Offset, len(entries)):]
	entries = entries[:min(limit, len(entries))]
	for i, e := range entries {
		if e.path == "" {
			continue
		}
		// The stored file's ETag, as the public URL serves it.
		if obj, err := l.Files.Stat(ctx, Key(Bucket, e.path)); err == nil {
			entries[i].Metadata["eTag"] = obj.ETag
		}
	}
	return entries, nil
}

// Info returns the row of a file of the owner's own folder (path checked
// by ObjectPath) and its stored facts: ErrReadOwnFolder for another
// folder, ErrNoObject when there is no such file.
func (l *Library) Info(ctx context.Context, owner, path string) (ObjectRow, Object, error) {
	if Owner(path) != owner {
		return ObjectRow{}, Object{}, ErrReadOwnFolder
	}
	obj, err := l.Files.Stat(ctx, Key(Bucket, path))
	if errors.Is(err, ErrNotFound) {
		return ObjectRow{}, Object{}, ErrNoObject
	}
	if err != nil {
		return ObjectRow{}, Object{}, failed(err, "Could not read the file. Please try again.")
	}
	recs, err := l.records(ctx, []string{path})
	if err != nil {
		return ObjectRow{}, Object{}, err
	}
	return rowOf(path, recs[Key(Bucket, path)], obj), obj, nil
}

// MaxSign is the most paths one createSignedUrls signs.
const MaxSign = 1000

// SignedURLAge returns how long a signed URL asked for expiresIn seconds
// lasts: a whole number from 1 to a year.
func SignedURLAge(expiresIn string) (time.Duration, error) {
	secs, err := strconv.Atoi(expiresIn)
	if err != nil || secs < 1 || secs > int(MaxSignedURLAge/time.Second) {
		return 0, invalid("expiresIn must be a whole number of seconds from 1 to " + strconv.Itoa(int(MaxSignedURLAge.Seconds())))
	}
	return time.Duration(secs) * time.Second, nil
}
