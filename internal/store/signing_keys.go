package store

import (
	"context"
	"database/sql"
	"time"
)

// SigningKey is a stored access-token signing key: its private half sealed
// by the caller, its public half as a JWK.
type SigningKey struct {
	ID            string
	Alg           string
	PrivateSealed string
	PublicJWK     string
	CreatedAt     time.Time
	RetiredAt     *time.Time
}

// SigningKeys returns every stored signing key: the active ones first, newest first.
func (db *DB) SigningKeys(ctx context.Context) ([]SigningKey, error) {
	rows, err := db.Query(ctx, `SELECT id, alg, private_sealed, public_jwk, created_at, retired_at FROM signing_keys ORDER BY CASE WHEN retired_at IS NULL THEN 0 ELSE 1 END, created_at DESC`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SigningKey
	for rows.Next() {
		var k SigningKey
		var retired sql.NullTime
		if err := rows.Scan(&k.ID, &k.Alg, &k.PrivateSealed, &k.PublicJWK, &k.CreatedAt, &retired); err != nil {
			return nil, err
		}
		k.CreatedAt = k.CreatedAt.UTC()
		if retired.Valid {
			t := retired.Time.UTC()
			k.RetiredAt = &t
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// AddSigningKey stores k; when retireOthers, every key still active is
// retired at k's creation time, in the same transaction, so exactly one key
// signs afterwards.
func (db *DB) AddSigningKey(ctx context.Context, k SigningKey, retireOthers bool) error {
	return db.InTx(ctx, func(tx *Tx) error { return addSigningKey(ctx, tx, k, retireOthers) })
}

// firstKeyLockID is the PostgreSQL advisory lock held while the first
// signing key is stored, so instances starting together on an empty
// database store one key between them.
const firstKeyLockID = 0x5a1a01b

// AddFirstSigningKey stores k when no signing key is stored yet, and
// reports whether it did; when another instance stored one meanwhile, k is
// dropped and the caller reads that one.
func (db *DB) AddFirstSigningKey(ctx context.Context, k SigningKey) (added bool, err error) {
	err = db.InTx(ctx, func(tx *Tx) error {
		added = false
		if db.dialect == Postgres {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(?)`, firstKeyLockID); err != nil {
				return err
			}
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM signing_keys`).Scan(&n); err != nil || n > 0 {
			return err
		}
		added = true
		return addSigningKey(ctx, tx, k, false)
	})
	return added, err
}

func addSigningKey(ctx context.Context, tx *Tx, k SigningKey, retireOthers bool) error {
	if retireOthers {
		if _, err := tx.Exec(ctx, `UPDATE signing_keys SET retired_at = ? WHERE retired_at IS NULL`, k.CreatedAt); err != nil {
			return err
		}
	}
	_, err := tx.Exec(ctx, `INSERT INTO signing_keys (id, alg, private_sealed, public_jwk, created_at) VALUES (?, ?, ?, ?, ?)`,
		k.ID, k.Alg, k.PrivateSealed, k.PublicJWK, k.CreatedAt)
	return err
}

// RevokeSigningKey deletes the key id, so that nothing it signed verifies
// any more. With next, next is stored in the same transaction and every
// other key still active retired, as AddSigningKey does: a key that signs
// is replaced at the instant it goes. ErrNotFound, and nothing changed,
// when no key has this id.
func (db *DB) RevokeSigningKey(ctx context.Context, id string, next *SigningKey) error {
	return db.InTx(ctx, func(tx *Tx) error {
		res, err := tx.Exec(ctx, `DELETE FROM signing_keys WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return ErrNotFound
		}
		if next == nil {
			return nil
		}
		return addSigningKey(ctx, tx, *next, true)
	})
}

// DeleteSigningKeysRetiredBefore forgets keys retired before t (their tokens
// have all expired) and says how many.
func (db *DB) DeleteSigningKeysRetiredBefore(ctx context.Context, t time.Time) (int64, error) {
	res, err := db.Exec(ctx, `DELETE FROM signing_keys WHERE retired_at IS NOT NULL AND retired_at < ?`, t)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
