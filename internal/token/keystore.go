package token

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"salaula/internal/seal"
	"salaula/internal/store"
)

// SealPurpose names the key that seals private signing keys at rest.
const SealPurpose = "salaula signing keys"

// LoadES256 returns the keyring of the ES256 keys stored in db, their
// private halves opened with box. When no key is stored yet (first start)
// it makes and stores one. A key retired more than keep ago (so every token
// it signed has expired) is left out.
func LoadES256(ctx context.Context, db *store.DB, box *seal.Box, keep time.Duration, now time.Time) (*Keyring, error) {
	stored, err := db.SigningKeys(ctx)
	if err != nil {
		return nil, err
	}
	if len(stored) == 0 {
		_, row, err := newStoredKey(box, now)
		if err != nil {
			return nil, err
		}
		if _, err := db.AddFirstSigningKey(ctx, *row); err != nil {
			return nil, err
		}
		if stored, err = db.SigningKeys(ctx); err != nil {
			return nil, err
		}
	}
	var keys []*Key
	for _, sk := range stored {
		if sk.RetiredAt != nil && now.Sub(*sk.RetiredAt) > keep {
			continue
		}
		if sk.Alg != "ES256" {
			return nil, fmt.Errorf("signing key %s: unsupported algorithm %s", sk.ID, sk.Alg)
		}
		der, err := box.Open(sk.PrivateSealed)
		if err != nil {
			return nil, fmt.Errorf("signing key %s: %w (was the server secret in DATA/jwt-secret changed?)", sk.ID, err)
		}
		priv, err := ParseES256Private(der)
		if err != nil {
			return nil, fmt.Errorf("signing key %s: %w", sk.ID, err)
		}
		keys = append(keys, &Key{ID: sk.ID, Alg: "ES256", Private: priv, CreatedAt: sk.CreatedAt, RetiredAt: sk.RetiredAt})
	}
	return NewKeyring(keys)
}

// Rotate makes a new ES256 key that signs from now on; the keys it replaces
// are retired, and still verify until their tokens have expired.
func Rotate(ctx context.Context, db *store.DB, box *seal.Box, now time.Time) (*Key, error) {
	return addKey(ctx, db, box, now, true)
}

// ErrNoSuchKey: no stored signing key has this kid.
var ErrNoSuchKey = errors.New("no signing key has this kid")

// Revoke deletes the stored key kid, for a key that leaked: from each
// instance's next look at the stored keys (within a second) no token it
// signed verifies. A key that still signs (not retired) is replaced in the
// same transaction by a new key, which Revoke returns, so that some key
// always signs and the revoked one never again; for a retired key it
// returns nil. ErrNoSuchKey when no stored key has this kid.
func Revoke(ctx context.Context, db *store.DB, box *seal.Box, kid string, now time.Time) (*Key, error) {
	stored, err := db.SigningKeys(ctx)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(stored, func(sk store.SigningKey) bool { return sk.ID == kid })
	if i < 0 {
		return nil, ErrNoSuchKey
	}
	var next *Key
	var row *store.SigningKey
	if stored[i].RetiredAt == nil {
		if next, row, err = newStoredKey(box, now); err != nil {
			return nil, err
		}
	}
	err = db.RevokeSigningKey(ctx, kid, row)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNoSuchKey // revoked by someone else meanwhile
	}
	if err != nil {
		return nil, err
	}
	return next, nil
}

func addKey(ctx context.Context, db *store.DB, box *seal.Box, now time.Time, retireOthers bool) (*Key, error) {
	k, row, err := newStoredKey(box, now)
	if err != nil {
		return nil, err
	}
	return k, db.AddSigningKey(ctx, *row, retireOthers)
}

// newStoredKey makes a new ES256 key and its row for the store, the
// private half sealed with box.
func newStoredKey(box *seal.Box, now time.Time) (*Key, *store.SigningKey, error) {
	k, err := NewES256Key(now.UTC().Truncate(time.Microsecond))
	if err != nil {
		return nil, nil, err
	}
	der, err := k.MarshalPrivate()
	if err != nil {
		return nil, nil, err
	}
	sealed, err := box.Seal(der)
	if err != nil {
		return nil, nil, err
	}
	jwk, err := json.Marshal(k.PublicJWK())
	if err != nil {
		return nil, nil, err
	}
	return k, &store.SigningKey{ID: k.ID, Alg: k.Alg, PrivateSealed: sealed, PublicJWK: string(jwk), CreatedAt: k.CreatedAt}, nil
}
