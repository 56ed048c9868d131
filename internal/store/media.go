package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
)

// ErrMediaExists is returned by ClaimMediaObject when the key is taken.
var ErrMediaExists = errors.New("media object already exists")

// MediaObject is the record of one uploaded file.
type MediaObject struct {
	Key         string // "{bucket}/{path}"
	ID          string // a UUID, new with each upload
	OwnerID     string
	Size        int64
	ContentType string
	// Metadata is the JSON object the uploader attached ('{}' when none).
	Metadata  string
	CreatedAt time.Time // when its path was first uploaded
	UpdatedAt time.Time // when it was last uploaded
}

// RecordMediaObject notes an upload (or its replacement by an upsert).
func (db *DB) RecordMediaObject(ctx context.Context, o MediaObject) error {
	now := Now()
	_, err := db.Exec(ctx, `INSERT INTO media_objects (object_key, id, owner_id, size_bytes, content_type, user_metadata, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (object_key) DO UPDATE SET id = excluded.id, owner_id = excluded.owner_id, size_bytes = excluded.size_bytes,
		content_type = excluded.content_type, user_metadata = excluded.user_metadata, updated_at = excluded.updated_at`,
		o.Key, o.ID, o.OwnerID, o.Size, o.ContentType, metadataOf(o), now, now)
	return err
}

// ClaimMediaObject records a new upload before its file is written, as the
// arbiter of concurrent creates of one key: exactly one caller gets nil,
// the others ErrMediaExists (on either engine, across instances).
func (db *DB) ClaimMediaObject(ctx context.Context, o MediaObject) error {
	now := Now()
	res, err := db.Exec(ctx, `INSERT INTO media_objects (object_key, id, owner_id, size_bytes, content_type, user_metadata, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (object_key) DO NOTHING`,
		o.Key, o.ID, o.OwnerID, o.Size, o.ContentType, metadataOf(o), now, now)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	return ErrMediaExists
}

// TakeStaleMediaClaim takes over the record of key for o when it was last
// written before staleBefore: the claim of an upload that a crash cut off
// before its file was stored (the caller checks that no file exists). It
// reports whether it did; of concurrent callers at most one does.
func (db *DB) TakeStaleMediaClaim(ctx context.Context, o MediaObject, staleBefore time.Time) (bool, error) {
	now := Now()
	res, err := db.Exec(ctx, `UPDATE media_objects SET id = ?, owner_id = ?, size_bytes = ?, content_type = ?, user_metadata = ?, created_at = ?, updated_at = ?
		WHERE object_key = ? AND updated_at < ?`,
		o.ID, o.OwnerID, o.Size, o.ContentType, metadataOf(o), now, now, o.Key, staleBefore.UTC())
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ForgetMediaClaim removes the record of key made by the upload id (whose
// file could not be stored), and not another upload's.
func (db *DB) ForgetMediaClaim(ctx context.Context, key, id string) error {
	_, err := db.Exec(ctx, `DELETE FROM media_objects WHERE object_key = ? AND id = ?`, key, id)
	return err
}

// ForgetMediaObject removes the record of a deleted file.
func (db *DB) ForgetMediaObject(ctx context.Context, key string) error {
	_, err := db.Exec(ctx, `DELETE FROM media_objects WHERE object_key = ?`, key)
	return err
}

// metadataOf is the user metadata to store for o: '{}' when it has none.
func metadataOf(o MediaObject) string {
	if o.Metadata == "" {
		return "{}"
	}
	return o.Metadata
}

// mediaColumns are the columns scanMediaObjects reads, in its order.
const mediaColumns = `object_key, id, owner_id, size_bytes, content_type, user_metadata, created_at, updated_at`

// MediaObjectsAt returns the records of the given keys that exist, in no
// particular order.
func (db *DB) MediaObjectsAt(ctx context.Context, keys []string) ([]MediaObject, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	args := make([]any, len(keys))
	for i, k := range keys {
		args[i] = k
	}
	rows, err := db.Query(ctx, `SELECT `+mediaColumns+` FROM media_objects
		WHERE object_key IN (?`+strings.Repeat(", ?", len(keys)-1)+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanMediaObjects(rows)
}

// MediaObjectsOf lists the records of a user's uploads, oldest first.
func (db *DB) MediaObjectsOf(ctx context.Context, ownerID string) ([]MediaObject, error) {
	rows, err := db.Query(ctx, `SELECT `+mediaColumns+` FROM media_objects
		WHERE owner_id = ? ORDER BY created_at, object_key`, ownerID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanMediaObjects(rows)
}

// scanMediaObjects reads rows of upload records.
func scanMediaObjects(rows *sql.Rows) ([]MediaObject, error) {
	var out []MediaObject
	for rows.Next() {
		var o MediaObject
		if err := rows.Scan(&o.Key, &o.ID, &o.OwnerID, &o.Size, &o.ContentType, &o.Metadata, &o.CreatedAt, &o.UpdatedAt); err != nil {
			return nil, err
		}
		o.CreatedAt, o.UpdatedAt = o.CreatedAt.UTC(), o.UpdatedAt.UTC()
		out = append(out, o)
	}
	return out, rows.Err()
}
