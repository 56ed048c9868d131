package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Factor is a person's second factor (TOTP).
type Factor struct {
	ID               string
	UserID           string
	FriendlyName     string
	Type             string // "totp"
	Status           string // "unverified" or "verified"
	SecretSealed     string
	LastStep         int64
	CreatedAt        time.Time
	UpdatedAt        time.Time
	LastChallengedAt *time.Time
}

// Factor statuses.
const (
	FactorUnverified = "unverified"
	FactorVerified   = "verified"
)

// Errors of the factor methods.
var (
	// ErrCodeReused: the code's step is not after the last accepted one.
	ErrCodeReused = errors.New("code already used")
	// ErrChallengeGone: the challenge is unknown, of another factor, or used.
	ErrChallengeGone = errors.New("challenge not found")
	// ErrFactorLocked: the account refuses codes until the end of its wait.
	ErrFactorLocked = errors.New("account refuses codes for now")
)

const factorColumns = `id, user_id, friendly_name, factor_type, status, secret_sealed, last_step, created_at, updated_at, last_challenged_at`

func scanFactor(row interface{ Scan(...any) error }) (*Factor, error) {
	var f Factor
	var ch sql.NullTime
	err := row.Scan(&f.ID, &f.UserID, &f.FriendlyName, &f.Type, &f.Status, &f.SecretSealed, &f.LastStep, &f.CreatedAt, &f.UpdatedAt, &ch)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	f.CreatedAt, f.UpdatedAt = f.CreatedAt.UTC(), f.UpdatedAt.UTC()
	if ch.Valid {
		t := ch.Time.UTC()
		f.LastChallengedAt = &t
	}
	return &f, nil
}

// Factors returns the user's factors, oldest first.
func (db *DB) Factors(ctx context.Context, userID string) ([]Factor, error) {
	rows, err := db.Query(ctx, `SELECT `+factorColumns+` FROM mfa_factors WHERE user_id = ? ORDER BY created_at, id`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Factor
	for rows.Next() {
		f, err := scanFactor(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *f)
	}
	return out, rows.Err()
}

// FactorOf returns the user's factor id; ErrNotFound when the user has no such factor.
func (db *DB) FactorOf(ctx context.Context, userID, id string) (*Factor, error) {
	return scanFactor(db.QueryRow(ctx, `SELECT `+factorColumns+` FROM mfa_factors WHERE id = ? AND user_id = ?`, id, userID))
}

// AddFactor stores a new (unverified) factor and fills in its id and times.
func (db *DB) AddFactor(ctx context.Context, f *Factor) error {
	f.ID = NewID()
	f.CreatedAt = Now()
	f.UpdatedAt = f.CreatedAt
	_, err := db.Exec(ctx, `INSERT INTO mfa_factors (id, user_id, friendly_name, factor_type, status, secret_sealed, last_step, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)`,
		f.ID, f.UserID, f.FriendlyName, f.Type, f.Status, f.SecretSealed, f.CreatedAt, f.UpdatedAt)
	return err
}

// DeleteFactor removes the user's factor; ErrNotFound when there is none.
func (db *DB) DeleteFactor(ctx context.Context, userID, id string) error {
	res, err := db.Exec(ctx, `DELETE FROM mfa_factors WHERE id = ? AND user_id = ?`, id, userID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// DeleteFactors removes every factor of the user and says how many, and
// brings the user's sessions back to aal1.
func (db *DB) DeleteFactors(ctx context.Context, userID string) (int64, error) {
	var n int64
	err := db.InTx(ctx, func(tx *Tx) error {
		res, err := tx.Exec(ctx, `DELETE FROM mfa_factors WHERE user_id = ?`, userID)
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		_, err = tx.Exec(ctx, `UPDATE sessions SET aal = 'aal1', mfa_at = NULL WHERE user_id = ?`, userID)
		return err
	})
	return n, err
}

// AddChallenge stores a challenge of the factor and returns its id.
func (db *DB) AddChallenge(ctx context.Context, factorID, ip string, now time.Time) (string, error) {
	id := NewID()
	err := db.InTx(ctx, func(tx *Tx) error {
		// Challenges long expired are of no use: forget them.
		if _, err := tx.Exec(ctx, `DELETE FROM mfa_challenges WHERE factor_id = ? AND created_at < ?`, factorID, now.Add(-24*time.Hour)); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO mfa_challenges (id, factor_id, ip, created_at) VALUES (?, ?, ?, ?)`, id, factorID, ip, now); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE mfa_factors SET last_challenged_at = ? WHERE id = ?`, now, factorID)
		return err
	})
	return id, err
}

// ChallengeCreatedAt returns when the factor's unused challenge was made;
// ErrChallengeGone when there is no such challenge.
func (db *DB) ChallengeCreatedAt(ctx context.Context, factorID, challengeID string) (time.Time, error) {
	var at time.Time
	err := db.QueryRow(ctx, `SELECT created_at FROM mfa_challenges WHERE id = ? AND factor_id = ? AND verified_at IS NULL`, challengeID, factorID).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return at, ErrChallengeGone
	}
	return at.UTC(), err
}

// CompleteChallenge records a correct code of step for the challenge, in
// one transaction: the challenge is spent, the factor's last step moves to
// step (ErrCodeReused when it is not after the last one), the account's
// wrong codes in a row go back to none, the factor is verified, the user's
// other unverified factors are removed, and the session is raised to aal2.
// An account that refuses codes at now (its wait not over) changes nothing
// and answers ErrFactorLocked.
func (db *DB) CompleteChallenge(ctx context.Context, userID, factorID, challengeID, sessionID string, step int64, now time.Time) error {
	return db.InTx(ctx, func(tx *Tx) error {
		res, err := tx.Exec(ctx, `UPDATE mfa_challenges SET verified_at = ? WHERE id = ? AND factor_id = ? AND verified_at IS NULL`, now, challengeID, factorID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return ErrChallengeGone
		}
		res, err = tx.Exec(ctx, `UPDATE users SET mfa_failed_attempts = 0, mfa_locked_until = NULL
			WHERE id = ? AND (mfa_locked_until IS NULL OR mfa_locked_until <= ?)`, userID, now)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			if _, err := lockedAt(ctx, tx, userID, now); err != nil {
				return err
			}
			return ErrNotFound
		}
		res, err = tx.Exec(ctx, `UPDATE mfa_factors SET last_step = ?, status = ?, updated_at = ?
			WHERE id = ? AND user_id = ? AND last_step < ?`,
			step, FactorVerified, now, factorID, userID, step)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return ErrCodeReused
		}
		if _, err := tx.Exec(ctx, `DELETE FROM mfa_factors WHERE user_id = ? AND status = ?`, userID, FactorUnverified); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE sessions SET aal = 'aal2', mfa_at = ?, updated_at = ? WHERE id = ? AND user_id = ?`, now, now, sessionID, userID)
		return err
	})
}

// MFALockedUntil returns until when the user's account refuses two-step
// codes (nil when it does not); ErrNotFound when there is no such user.
func (db *DB) MFALockedUntil(ctx context.Context, userID string) (*time.Time, error) {
	var until sql.NullTime
	err := db.QueryRow(ctx, `SELECT mfa_locked_until FROM users WHERE id = ?`, userID).Scan(&until)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil || !until.Valid {
		return nil, err
	}
	t := until.Time.UTC()
	return &t, nil
}

// RecordWrongCode counts a wrong code tried against any factor of the user
// at now, in one transaction: the account's wrong codes in a row go up by
// one to n; when delay(n) is more than zero, the account refuses codes
// until now plus that delay; then, when not nil, runs with n (to queue an
// e-mail with the change). It returns n and the end of the refusal (zero
// when none). An account that refuses codes at now counts nothing and
// answers ErrFactorLocked with the end of its refusal; ErrNotFound when
// there is no such user.
func (db *DB) RecordWrongCode(ctx context.Context, userID string, now time.Time, delay func(n int) time.Duration, then func(tx *Tx, n int) error) (int, time.Time, error) {
	var n int
	var until time.Time
	err := db.InTx(ctx, func(tx *Tx) error {
		n, until = 0, time.Time{}
		err := tx.QueryRow(ctx, `UPDATE users SET mfa_failed_attempts = mfa_failed_attempts + 1
			WHERE id = ? AND (mfa_locked_until IS NULL OR mfa_locked_until <= ?) RETURNING mfa_failed_attempts`, userID, now).Scan(&n)
		if errors.Is(err, sql.ErrNoRows) {
			if until, err = lockedAt(ctx, tx, userID, now); err != nil {
				return err
			}
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if d := delay(n); d > 0 {
			until = now.Add(d)
			if _, err := tx.Exec(ctx, `UPDATE users SET mfa_locked_until = ? WHERE id = ?`, until, userID); err != nil {
				return err
			}
		}
		if then != nil {
			return then(tx, n)
		}
		return nil
	})
	return n, until, err
}

// lockedAt returns ErrFactorLocked and the end of the refusal when the
// user's account refuses codes at now, ErrNotFound when there is no such
// user, and nil otherwise.
func lockedAt(ctx context.Context, tx *Tx, userID string, now time.Time) (time.Time, error) {
	var until sql.NullTime
	err := tx.QueryRow(ctx, `SELECT mfa_locked_until FROM users WHERE id = ?`, userID).Scan(&until)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, ErrNotFound
	}
	if err != nil {
		return time.Time{}, err
	}
	if until.Valid && until.Time.After(now) {
		return until.Time.UTC(), ErrFactorLocked
	}
	return time.Time{}, nil
}

// SessionAuth is how a session was signed in: its first method and time,
// and its assurance level (aal2 with the time of the second factor).
type SessionAuth struct {
	Method    string
	CreatedAt time.Time
	AAL       string
	MFAAt     *time.Time
}

// SessionAuthOf returns how the session was signed in.
func (db *DB) SessionAuthOf(ctx context.Context, sessionID string) (SessionAuth, error) {
	var a SessionAuth
	var mfaAt sql.NullTime
	err := db.QueryRow(ctx, `SELECT auth_method, created_at, aal, mfa_at FROM sessions WHERE id = ?`, sessionID).Scan(&a.Method, &a.CreatedAt, &a.AAL, &mfaAt)
	if errors.Is(err, sql.ErrNoRows) {
		return a, ErrNotFound
	}
	a.CreatedAt = a.CreatedAt.UTC()
	if mfaAt.Valid {
		t := mfaAt.Time.UTC()
		a.MFAAt = &t
	}
	return a, err
}

// ReplaceRefreshToken gives the session a new active refresh token (hash
// newHash): the active ones are rotated to it (their successor sealed as
// sealedNew), so a tab still holding one within the reuse interval gets
// the new one.
func (db *DB) ReplaceRefreshToken(ctx context.Context, sessionID, userID, newHash, sealedNew string, now time.Time) error {
	return db.InTx(ctx, func(tx *Tx) error {
		id := NewID()
		if _, err := tx.Exec(ctx, `INSERT INTO refresh_tokens (id, token_hash, session_id, user_id, created_at) VALUES (?, ?, ?, ?, ?)`,
			id, newHash, sessionID, userID, now); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE refresh_tokens SET revoked_at = ?, replaced_by = ?, successor_sealed = ? WHERE session_id = ? AND revoked_at IS NULL AND id <> ?`,
			now, id, sealedNew, sessionID, id)
		return err
	})
}
