package store

import (
	"context"
	"database/sql"
	"time"
)

// MediaObject is the record of one uploaded file.
type MediaObject struct {
	Key         string // "{bucket}/{path}"
	ID          string // a UUID, new with each upload
	OwnerID     string
	Size        int64
	ContentType string
	UpdatedAt   time.Time // when it was last uploaded
}

// RecordMediaObject notes an upload (or its replacement by an upsert).
func (db *DB) RecordMediaObject(ctx context.Context, o MediaObject) error {
	now := Now()
	_, err := db.Exec(ctx, `INSERT INTO media_objects (object_key, id, owner_id, size_bytes, content_type, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (object_key) DO UPDATE SET id = excluded.id, owner_id = excluded.owner_id, size_bytes = excluded.size_bytes,
		content_type = excluded.content_type, updated_at = excluded.updated_at`,
		o.Key, o.ID, o.OwnerID, o.Size, o.ContentType, now, now)
	return err
}

// ForgetMediaObject removes the record of a deleted file.
func (db *DB) ForgetMediaObject(ctx context.Context, key string) error {
	_, err := db.Exec(ctx, `DELETE FROM media_objects WHERE object_key = ?`, key)
	return err
}

// MediaObjectsOf lists the records of a user's uploads, oldest first.
func (db *DB) MediaObjectsOf(ctx context.Context, ownerID string) ([]MediaObject, error) {
	rows, err := db.Query(ctx, `SELECT object_key, id, owner_id, size_bytes, content_type, updated_at FROM media_objects
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
		if err := rows.Scan(&o.Key, &o.ID, &o.OwnerID, &o.Size, &o.ContentType, &o.UpdatedAt); err != nil {
			return nil, err
		}
		o.UpdatedAt = o.UpdatedAt.UTC()
		out = append(out, o)
	}
	return out, rows.Err()
}
