package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Errors of the refresh-token and one-time-token methods.
var (
	// ErrTokenNotFound: no such token, or its session has ended.
	ErrTokenNotFound = errors.New("token not found")
	// ErrTokenReused: a rotated refresh token came back after the reuse
	// interval; its whole session has been revoked.
	ErrTokenReused = errors.New("refresh token already used")
	// ErrTokenInvalid: a one-time token that is unknown, used or expired.
	ErrTokenInvalid = errors.New("token is invalid or has expired")
	// errRaced: a concurrent rotation won; the caller retries.
	errRaced = errors.New("refresh token rotated concurrently")
)

// Kinds of one-time tokens.
const (
	TokenRecovery     = "recovery"
	TokenConfirmation = "confirmation"
	// TokenEmailProof: the link My account sends to prove the address.
	TokenEmailProof = "email_proof"
)

// Rotation is the outcome of RotateRefreshToken.
type Rotation struct {
	SessionID string
	UserID    string
	// Sealed is set when the presented token had already been rotated
	// within the reuse interval: it is the successor's sealed plaintext (as
	// the caller stored it), to hand back instead of a new token.
	Sealed string
}

// RotateRefreshToken exchanges the refresh token whose hash is oldHash:
//   - active token of an active session: it is revoked, newHash becomes the
//     session's active token and sealedNew is kept with the old one (so a
//     concurrent request within the reuse interval can be given the same
//     successor);
//   - already rotated less than reuse ago: nothing changes and Rotation.Sealed
//     holds the current active successor;
//   - already rotated longer ago: the whole session is revoked and
//     ErrTokenReused returned;
//   - unknown token or ended session: ErrTokenNotFound.
func (db *DB) RotateRefreshToken(ctx context.Context, oldHash, newHash, sealedNew string, now time.Time, reuse time.Duration) (Rotation, error) {
	var out Rotation
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = db.InTx(ctx, func(tx *Tx) error {
			r, err := rotateInTx(ctx, tx, oldHash, newHash, sealedNew, now, reuse)
			out = r
			return err
		})
		if !errors.Is(err, errRaced) {
			break
		}
	}
	if errors.Is(err, ErrTokenReused) {
		// The transaction returned an error and rolled back: revoke in a new one.
		if rerr := db.revokeSessionOfToken(ctx, oldHash, now); rerr != nil {
			return out, rerr
		}
	}
	return out, err
}

func rotateInTx(ctx context.Context, tx *Tx, oldHash, newHash, sealedNew string, now time.Time, reuse time.Duration) (Rotation, error) {
	var id, sessionID, userID string
	var revokedAt sql.NullTime
	var sessionRevoked sql.NullTime
	err := tx.QueryRow(ctx, `SELECT t.id, t.session_id, t.user_id, t.revoked_at, s.revoked_at
		FROM refresh_tokens t JOIN sessions s ON s.id = t.session_id WHERE t.token_hash = ?`, oldHash).
		Scan(&id, &sessionID, &userID, &revokedAt, &sessionRevoked)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && sessionRevoked.Valid) {
		return Rotation{}, ErrTokenNotFound
	}
	if err != nil {
		return Rotation{}, err
	}
	r := Rotation{SessionID: sessionID, UserID: userID}
	if revokedAt.Valid {
		if now.Sub(revokedAt.Time) > reuse {
			return r, ErrTokenReused
		}
		// Follow the chain to the active token; its sealed plaintext is
		// kept on the token it replaced.
		for i := 0; i < 1000; i++ {
			var next, sealed sql.NullString
			var rev sql.NullTime
			if err := tx.QueryRow(ctx, `SELECT replaced_by, successor_sealed, revoked_at FROM refresh_tokens WHERE id = ?`, id).Scan(&next, &sealed, &rev); err != nil {
				return r, err
			}
			if !rev.Valid || !next.Valid {
				break
			}
			var nextRevoked sql.NullTime
			if err := tx.QueryRow(ctx, `SELECT revoked_at FROM refresh_tokens WHERE id = ?`, next.String).Scan(&nextRevoked); err != nil {
				return r, err
			}
			if !nextRevoked.Valid {
				r.Sealed = sealed.String
				return r, nil
			}
			id = next.String
		}
		return r, ErrTokenNotFound
	}
	newID := NewID()
	if _, err := tx.Exec(ctx, `INSERT INTO refresh_tokens (id, token_hash, session_id, user_id, created_at) VALUES (?, ?, ?, ?, ?)`,
		newID, newHash, sessionID, userID, now); err != nil {
		return r, err
	}
	res, err := tx.Exec(ctx, `UPDATE refresh_tokens SET revoked_at = ?, replaced_by = ?, successor_sealed = ? WHERE id = ? AND revoked_at IS NULL`,
		now, newID, sealedNew, id)
	if err != nil {
		return r, err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return r, errRaced
	}
	if _, err := tx.Exec(ctx, `UPDATE sessions SET updated_at = ? WHERE id = ?`, now, sessionID); err != nil {
		return r, err
	}
	// Forget this session's long-spent tokens: a replay of one is then
	// refused as unknown instead of revoking the session.
	if _, err := tx.Exec(ctx, `DELETE FROM refresh_tokens WHERE session_id = ? AND revoked_at IS NOT NULL AND revoked_at < ?`,
		sessionID, now.Add(-SpentTokenRetention)); err != nil {
		return r, err
	}
	return r, nil
}

// SpentTokenRetention is how long a rotated refresh token is remembered
// for reuse detection.
const SpentTokenRetention = 7 * 24 * time.Hour

// revokeSessionOfToken ends the session the refresh token belongs to.
func (db *DB) revokeSessionOfToken(ctx context.Context, tokenHash string, now time.Time) error {
	return db.InTx(ctx, func(tx *Tx) error {
		var sessionID string
		err := tx.QueryRow(ctx, `SELECT session_id FROM refresh_tokens WHERE token_hash = ?`, tokenHash).Scan(&sessionID)
		if err != nil {
			return err
		}
		return revokeSessions(ctx, tx, `id = ?`, now, sessionID)
	})
}

// revokeSessions ends the sessions matching where (with args), deletes
// their refresh tokens, which can never be used again, and announces each
// ended session (TableSessions) so that every instance's realtime hub
// closes its channels at once.
func revokeSessions(ctx context.Context, tx *Tx, where string, now time.Time, args ...any) error {
	if _, err := tx.Exec(ctx, `DELETE FROM refresh_tokens WHERE session_id IN (SELECT id FROM sessions WHERE `+where+`)`, args...); err != nil {
		return err
	}
	rows, err := tx.Query(ctx, `UPDATE sessions SET revoked_at = ?, updated_at = ? WHERE revoked_at IS NULL AND `+where+` RETURNING id, user_id`,
		append([]any{now, now}, args...)...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var ended []Change
	for rows.Next() {
		var id, userID string
		if err := rows.Scan(&id, &userID); err != nil {
			return err
		}
		ended = append(ended, Change{Table: TableSessions, Type: "UPDATE", Record: map[string]any{"id": id, "user_id": userID},
			OldRecord: map[string]any{"id": id}})
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows.Close()
	return tx.emit(ctx, ended)
}

// Sign-out scopes.
const (
	ScopeGlobal = "global" // every session of the user
	ScopeLocal  = "local"  // the current session only
	ScopeOthers = "others" // every session but the current one
)

// RevokeSessions ends sessions of userID by scope, relative to the current
// session: their access tokens stop working and their refresh tokens are refused.
func (db *DB) RevokeSessions(ctx context.Context, userID, currentSessionID, scope string) error {
	now := Now()
	return db.InTx(ctx, func(tx *Tx) error {
		switch scope {
		case ScopeLocal:
			return revokeSessions(ctx, tx, `id = ? AND user_id = ?`, now, currentSessionID, userID)
		case ScopeOthers:
			return revokeSessions(ctx, tx, `user_id = ? AND id <> ?`, now, userID, currentSessionID)
		default:
			return revokeSessions(ctx, tx, `user_id = ?`, now, userID)
		}
	})
}

// SetPassword stores a new password hash for the user and spends the
// user's unused reset links (a reset link works until a password is set).
func (db *DB) SetPassword(ctx context.Context, userID, hash string) error {
	return db.InTx(ctx, func(tx *Tx) error { return tx.setPassword(ctx, userID, hash, false, Now()) })
}

// ResetPassword is the step a reset link ends with: it stores the new
// password hash, spends the user's reset links, records the address as
// confirmed and proven (see ProveEmail) and ends every session of the user
// but sessionID (the reset link's), in one transaction. Opening a reset
// link proves nothing before this step, so no other session of the account
// ever reads what the address sent (docs/decisions/0229-reset-proves-on-new-password.md).
func (db *DB) ResetPassword(ctx context.Context, userID, hash, sessionID string) error {
	now := Now()
	return db.InTx(ctx, func(tx *Tx) error {
		if err := tx.setPassword(ctx, userID, hash, true, now); err != nil {
			return err
		}
		return revokeSessions(ctx, tx, `user_id = ? AND id <> ?`, now, userID, sessionID)
	})
}

// setPassword is SetPassword inside t; prove also records the address as
// confirmed and proven at now (earlier times kept).
func (t *Tx) setPassword(ctx context.Context, userID, hash string, prove bool, now time.Time) error {
	q, args := `UPDATE users SET password_hash = ?, updated_at = ?`, []any{hash, now}
	if prove {
		q, args = q+`, email_confirmed_at = COALESCE(email_confirmed_at, ?), email_proven_at = COALESCE(email_proven_at, ?)`, append(args, now, now)
	}
	res, err := t.Exec(ctx, q+` WHERE id = ?`, append(args, userID)...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return ErrNotFound
	}
	if _, err := t.Exec(ctx, `UPDATE one_time_tokens SET used_at = ? WHERE user_id = ? AND kind = ? AND used_at IS NULL`,
		now, userID, TokenRecovery); err != nil {
		return err
	}
	return t.Announce(ctx, TableAccounts, "UPDATE", `id = ?`, userID)
}

// ProveEmail records that the user opened a link sent to their address at
// the given time: the address is confirmed (for sign-in) and proven (the
// rows sent with it belong to the account). Earlier times are kept.
func (db *DB) ProveEmail(ctx context.Context, userID string, at time.Time) error {
	err := db.updateAccounts(ctx, `email_confirmed_at = COALESCE(email_confirmed_at, ?), email_proven_at = COALESCE(email_proven_at, ?), updated_at = ?`,
		`id = ? AND (email_confirmed_at IS NULL OR email_proven_at IS NULL)`, at, at, at, userID)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// ProveEmailWithToken spends userID's e-mail proof token whose hash is
// tokenHash and records the address as proven (see ProveEmail), in one
// transaction. ErrTokenInvalid when userID has no such unused, unexpired
// token (another account's token is refused and stays unspent).
func (db *DB) ProveEmailWithToken(ctx context.Context, userID, tokenHash string, now time.Time) error {
	return db.InTx(ctx, func(tx *Tx) error {
		res, err := tx.Exec(ctx, `UPDATE one_time_tokens SET used_at = ? WHERE token_hash = ? AND user_id = ? AND kind = ? AND used_at IS NULL AND expires_at > ?`,
			now, tokenHash, userID, TokenEmailProof, now)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n != 1 {
			return ErrTokenInvalid
		}
		if _, err := tx.Exec(ctx, `UPDATE one_time_tokens SET used_at = ? WHERE user_id = ? AND kind = ? AND used_at IS NULL`, now, userID, TokenEmailProof); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, ?), email_proven_at = COALESCE(email_proven_at, ?), updated_at = ? WHERE id = ?`,
			now, now, now, userID); err != nil {
			return err
		}
		return tx.Announce(ctx, TableAccounts, "UPDATE", `id = ?`, userID)
	})
}

// RecordSignIn sets the user's last sign-in time.
func (db *DB) RecordSignIn(ctx context.Context, userID string, at time.Time) error {
	err := db.updateAccounts(ctx, `last_sign_in_at = ?`, `id = ?`, at, userID)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// SetUserMetadata replaces the user's metadata (a JSON object).
func (db *DB) SetUserMetadata(ctx context.Context, userID, metadata string) error {
	return db.updateUser(ctx, `user_metadata = ?`, metadata, userID)
}

func (db *DB) updateUser(ctx context.Context, set string, value any, userID string) error {
	return db.updateAccounts(ctx, set+`, updated_at = ?`, `id = ?`, value, Now(), userID)
}

// AddOneTimeToken stores the hash of a single-use token of kind for the
// user, valid until expiresAt.
func (db *DB) AddOneTimeToken(ctx context.Context, userID, kind, tokenHash string, expiresAt time.Time) error {
	// The user's spent and expired tokens are of no further use.
	if _, err := db.Exec(ctx, `DELETE FROM one_time_tokens WHERE user_id = ? AND (used_at IS NOT NULL OR expires_at < ?)`, userID, Now()); err != nil {
		return err
	}
	_, err := db.Exec(ctx, `INSERT INTO one_time_tokens (token_hash, user_id, kind, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
		tokenHash, userID, kind, Now(), expiresAt)
	return err
}

// UseOneTimeToken spends the token of kind whose hash is tokenHash and
// returns its user; every other unused token of that kind for the user is
// spent too. ErrTokenInvalid when it is unknown, used or expired.
func (db *DB) UseOneTimeToken(ctx context.Context, kind, tokenHash string, now time.Time) (userID string, err error) {
	err = db.InTx(ctx, func(tx *Tx) error {
		err := tx.QueryRow(ctx, `SELECT user_id FROM one_time_tokens WHERE token_hash = ? AND kind = ? AND used_at IS NULL AND expires_at > ?`,
			tokenHash, kind, now).Scan(&userID)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrTokenInvalid
		}
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE one_time_tokens SET used_at = ? WHERE user_id = ? AND kind = ? AND used_at IS NULL`, now, userID, kind)
		return err
	})
	return userID, err
}

// OneTimeTokenUser returns the user of the unused, unexpired token of kind
// whose hash is tokenHash without spending it (a page that asks before it
// acts); ErrTokenInvalid when there is none.
func (db *DB) OneTimeTokenUser(ctx context.Context, kind, tokenHash string, now time.Time) (string, error) {
	var userID string
	err := db.QueryRow(ctx, `SELECT user_id FROM one_time_tokens WHERE token_hash = ? AND kind = ? AND used_at IS NULL AND expires_at > ?`,
		tokenHash, kind, now).Scan(&userID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrTokenInvalid
	}
	return userID, err
}

// StartSession stores a new session of userID signed in by method
// ("password", "recovery", "otp") together with the hash of its first
// refresh token, records the time as the user's last sign-in, and fills in
// s.ID and times: one commit for the whole sign-in.
func (db *DB) StartSession(ctx context.Context, s *Session, method, refreshHash string) error {
	s.ID = NewOrderedID()
	s.CreatedAt = Now()
	s.UpdatedAt = s.CreatedAt
	refreshID := NewOrderedID()
	return db.InTx(ctx, func(tx *Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE users SET last_sign_in_at = ? WHERE id = ?`, s.CreatedAt, s.UserID); err != nil {
			return err
		}
		if err := tx.announceKey(ctx, TableAccounts, "UPDATE", s.UserID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO sessions (id, user_id, user_agent, ip, created_at, updated_at, auth_method) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			s.ID, s.UserID, s.UserAgent, s.IP, s.CreatedAt, s.UpdatedAt, method); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO refresh_tokens (id, token_hash, session_id, user_id, created_at) VALUES (?, ?, ?, ?, ?)`,
			refreshID, refreshHash, s.ID, s.UserID, s.CreatedAt)
		return err
	})
}

// SessionMethod returns how the session was signed in and when.
func (db *DB) SessionMethod(ctx context.Context, sessionID string) (method string, createdAt time.Time, err error) {
	err = db.QueryRow(ctx, `SELECT auth_method, created_at FROM sessions WHERE id = ?`, sessionID).Scan(&method, &createdAt)
	if errors.Is(err, sql.ErrNoRows) {
		return "", time.Time{}, ErrNotFound
	}
	return method, createdAt.UTC(), err
}

// RevokeUserSessions ends every session of userID inside tx (so a caller
// can record why in the same transaction) and reports how many were active.
func RevokeUserSessions(ctx context.Context, tx *Tx, userID string) (int, error) {
	var active int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM sessions WHERE user_id = ? AND revoked_at IS NULL`, userID).Scan(&active); err != nil {
		return 0, err
	}
	return active, revokeSessions(ctx, tx, `user_id = ?`, Now(), userID)
}
