package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// SiteSettings returns every stored site setting (name to value); a
// setting never set is absent.
func (db *DB) SiteSettings(ctx context.Context) (map[string]string, error) {
	rows, err := db.Query(ctx, `SELECT name, value FROM site_settings`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, rows.Err()
}

// SiteSetting reads setting name inside tx; ok is false when it was never set.
func (t *Tx) SiteSetting(ctx context.Context, name string) (value string, ok bool, err error) {
	err = t.QueryRow(ctx, `SELECT value FROM site_settings WHERE name = ?`, name).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return value, err == nil, err
}

// PutSiteSetting stores value for setting name, set by by at at.
func (t *Tx) PutSiteSetting(ctx context.Context, name, value, by string, at time.Time) error {
	_, err := t.Exec(ctx, `INSERT INTO site_settings (name, value, updated_by, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
		name, value, by, at)
	return err
}
