package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/google/uuid"
)

// User is an account that can sign in.
type User struct {
	ID               string
	Email            string
	PasswordHash     string
	IsAdmin          bool
	EmailConfirmedAt *time.Time
	// EmailProvenAt is when the holder proved they read Email, by opening
	// a link sent to it (nil: not proven). Rows matched to the account only
	// by its address are shown, exported or erased through it only once set.
	EmailProvenAt *time.Time
	UserMetadata  string // JSON object
	LastSignInAt  *time.Time
	CreatedAt     time.Time
	UpdatedAt     time.Time
	// HasFactors tells whether the account had an MFA factor (verified or
	// not) when it was read, so that answering it needs no second query
	// when it had none (every sign-in of an account without two-step
	// sign-in).
	HasFactors bool
}

// Session is one signed-in device of a user. Access tokens carry its id; a
// revoked session's tokens stop working at once.
type Session struct {
	ID        string
	UserID    string
	UserAgent string
	IP        string
	CreatedAt time.Time
	UpdatedAt time.Time
	RevokedAt *time.Time
}

// ErrEmailTaken is returned by CreateUser when the e-mail already has an account.
var ErrEmailTaken = errors.New("email already registered")

// NewID returns a new random UUID string.
func NewID() string { return uuid.NewString() }

// IsID reports whether s is an id as NewID and NewOrderedID write them: a
// UUID in its 36-character form, in lower case. On PostgreSQL the sign-ups' and the
// outbox's ids are of type uuid (migration 0040), which refuses any other
// text with an error; the store answers such an id from outside (a link, a
// path, a cursor) as one that names nothing.
func IsID(s string) bool {
	u, err := uuid.Parse(s)
	return err == nil && u.String() == s // 36 characters, lower case
}

// lowestID is below every id NewID and NewOrderedID return, in the order
// of both stores (text on SQLite, uuid on PostgreSQL): where a walk by id
// starts.
const lowestID = "00000000-0000-0000-0000-000000000000"

// NewOrderedID returns a new time-ordered UUID (version 7) for rows of the
// busy write tables (sign-ups, messages, outbox, sessions): consecutive
// inserts land on the same last page of the primary-key index instead of a
// random page each, so a group commit writes fewer pages. Use it only where
// the creation time the ID carries is no secret (these rows keep it anyway;
// a waitlist sign-up's ID is in the unsubscribe link its owner gets, which
// tells them only when they signed up); accounts keep random IDs.
func NewOrderedID() string {
	id, err := uuid.NewV7()
	if err != nil {
		return NewID()
	}
	return id.String()
}

// Now returns the current time in UTC, truncated to microseconds so that it
// survives a round trip through either engine unchanged.
func Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

const userColumns = `id, email, password_hash, is_admin, email_confirmed_at, email_proven_at, user_metadata, last_sign_in_at, created_at, updated_at`

// userSelect reads userColumns and whether the account has a factor (an
// index lookup on mfa_factors_user_id), in scanUser's order.
const userSelect = `SELECT ` + userColumns + `, EXISTS (SELECT 1 FROM mfa_factors f WHERE f.user_id = users.id) FROM users`

func scanUser(row interface{ Scan(...any) error }) (*User, error) {
	var u User
	var confirmed, proven, lastSignIn sql.NullTime
	err := row.Scan(&u.ID, &u.Email, &u.PasswordHash, &u.IsAdmin, &confirmed, &proven, &u.UserMetadata, &lastSignIn, &u.CreatedAt, &u.UpdatedAt, &u.HasFactors)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if confirmed.Valid {
		t := confirmed.Time.UTC()
		u.EmailConfirmedAt = &t
	}
	if proven.Valid {
		t := proven.Time.UTC()
		u.EmailProvenAt = &t
	}
	if lastSignIn.Valid {
		t := lastSignIn.Time.UTC()
		u.LastSignInAt = &t
	}
	u.CreatedAt = u.CreatedAt.UTC()
	u.UpdatedAt = u.UpdatedAt.UTC()
	return &u, nil
}

// CreateUser stores a new account. u.ID, CreatedAt and UpdatedAt are filled
// in when empty. It returns ErrEmailTaken when the e-mail is in use.
func (db *DB) CreateUser(ctx context.Context, u *User) error {
	if u.ID == "" {
		u.ID = NewID()
	}
	if u.CreatedAt.IsZero() {
		u.CreatedAt = Now()
	}
	u.UpdatedAt = u.CreatedAt
	if u.UserMetadata == "" {
		u.UserMetadata = "{}"
	}
	err := db.InTx(ctx, func(tx *Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO users (`+userColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			u.ID, u.Email, u.PasswordHash, u.IsAdmin, u.EmailConfirmedAt, u.EmailProvenAt, u.UserMetadata, u.LastSignInAt, u.CreatedAt, u.UpdatedAt); err != nil {
			return err
		}
		return tx.Announce(ctx, TableAccounts, "INSERT", `id = ?`, u.ID)
	})
	if IsUniqueViolation(err) {
		return ErrEmailTaken
	}
	return err
}

// UserByID returns the account with the given id, or ErrNotFound.
func (db *DB) UserByID(ctx context.Context, id string) (*User, error) {
	return scanUser(db.QueryRow(ctx, userSelect+` WHERE id = ?`, id))
}

// UserByEmail returns the account with the given (already normalised) e-mail, or ErrNotFound.
func (db *DB) UserByEmail(ctx context.Context, email string) (*User, error) {
	return scanUser(db.QueryRow(ctx, userSelect+` WHERE email = ?`, email))
}

// SetAdmin grants or removes the operator role of the account with the given e-mail.
func (db *DB) SetAdmin(ctx context.Context, email string, admin bool) error {
	return db.updateAccounts(ctx, `is_admin = ?, updated_at = ?`, `email = ?`, admin, Now(), email)
}

// CreateSession stores a new session for a user; ID and times are filled in when empty.
func (db *DB) CreateSession(ctx context.Context, s *Session) error {
	if s.ID == "" {
		s.ID = NewID()
	}
	if s.CreatedAt.IsZero() {
		s.CreatedAt = Now()
	}
	s.UpdatedAt = s.CreatedAt
	_, err := db.Exec(ctx, `INSERT INTO sessions (id, user_id, user_agent, ip, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
		s.ID, s.UserID, s.UserAgent, s.IP, s.CreatedAt, s.UpdatedAt)
	return err
}

// SessionActive reports whether the session exists, belongs to userID and has not been revoked.
func (db *DB) SessionActive(ctx context.Context, sessionID, userID string) (bool, error) {
	var n int
	err := db.QueryRow(ctx, `SELECT COUNT(*) FROM sessions WHERE id = ? AND user_id = ? AND revoked_at IS NULL`, sessionID, userID).Scan(&n)
	return n > 0, err
}
