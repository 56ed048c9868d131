package store

import (
	"context"
	"database/sql"
	"time"
)

// Consent is one thing a person agreed to: the kind ("terms",
// "privacy_policy", "wardrobe_clearance", "parental_consent"), the version
// they saw (the document's 'last updated' date) and when.
type Consent struct {
	Kind        string     `json:"kind"`
	Version     string     `json:"version"`
	AcceptedAt  time.Time  `json:"accepted_at"`
	WithdrawnAt *time.Time `json:"withdrawn_at"`
}

// RecordConsents stores that userID accepted each (kind, version) at the
// given time. A version already accepted keeps its first time; one that was
// withdrawn is accepted again from now.
func (db *DB) RecordConsents(ctx context.Context, userID string, at time.Time, consents ...Consent) error {
	return db.InTx(ctx, func(tx *Tx) error {
		for _, c := range consents {
			if _, err := tx.Exec(ctx, `INSERT INTO consents (id, user_id, kind, version, accepted_at) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (user_id, kind, version) DO UPDATE SET
				accepted_at = CASE WHEN consents.withdrawn_at IS NULL THEN consents.accepted_at ELSE excluded.accepted_at END,
				withdrawn_at = NULL`, NewID(), userID, c.Kind, c.Version, at); err != nil {
				return err
			}
		}
		return nil
	})
}

// WithdrawConsent marks every active consent of kind of userID as withdrawn at the given time.
func (db *DB) WithdrawConsent(ctx context.Context, userID, kind string, at time.Time) error {
	_, err := db.Exec(ctx, `UPDATE consents SET withdrawn_at = ? WHERE user_id = ? AND kind = ? AND withdrawn_at IS NULL`, at, userID, kind)
	return err
}

// ConsentsOf lists userID's consent records, oldest first.
func (db *DB) ConsentsOf(ctx context.Context, userID string) ([]Consent, error) {
	rows, err := db.Query(ctx, `SELECT kind, version, accepted_at, withdrawn_at FROM consents WHERE user_id = ? ORDER BY accepted_at, kind, version`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Consent{}
	for rows.Next() {
		var c Consent
		var w sql.NullTime
		if err := rows.Scan(&c.Kind, &c.Version, &c.AcceptedAt, &w); err != nil {
			return nil, err
		}
		c.AcceptedAt = c.AcceptedAt.UTC()
		if w.Valid {
			t := w.Time.UTC()
			c.WithdrawnAt = &t
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// ActiveSessionsOf lists userID's sessions that have not ended, oldest first.
// UpdatedAt is when the session last signed in or refreshed its token.
func (db *DB) ActiveSessionsOf(ctx context.Context, userID string) ([]Session, error) {
	rows, err := db.Query(ctx, `SELECT id, user_id, user_agent, ip, created_at, updated_at FROM sessions
		WHERE user_id = ? AND revoked_at IS NULL ORDER BY created_at, id`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Session{}
	for rows.Next() {
		var s Session
		if err := rows.Scan(&s.ID, &s.UserID, &s.UserAgent, &s.IP, &s.CreatedAt, &s.UpdatedAt); err != nil {
			return nil, err
		}
		s.CreatedAt, s.UpdatedAt = s.CreatedAt.UTC(), s.UpdatedAt.UTC()
		out = append(out, s)
	}
	return out, rows.Err()
}

// ContactMessagesFrom lists the contact messages sent from email, oldest first.
func (db *DB) ContactMessagesFrom(ctx context.Context, email string) ([]ContactMessage, error) {
	rows, err := db.Query(ctx, `SELECT id, first_name, last_name, email, phone_number, subject, message, created_at
		FROM contact_messages WHERE email = ? ORDER BY created_at, id`, email)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []ContactMessage{}
	for rows.Next() {
		var m ContactMessage
		if err := rows.Scan(&m.ID, &m.FirstName, &m.LastName, &m.Email, &m.PhoneNumber, &m.Subject, &m.Message, &m.CreatedAt); err != nil {
			return nil, err
		}
		m.CreatedAt = m.CreatedAt.UTC()
		out = append(out, m)
	}
	return out, rows.Err()
}

// WaitlistSignupsOf lists the waitlist sign-ups of email, oldest first.
func (db *DB) WaitlistSignupsOf(ctx context.Context, email string) ([]WaitlistSignup, error) {
	rows, err := db.Query(ctx, `SELECT `+waitlistColumns+` FROM waitlist_signups WHERE email = ? ORDER BY created_at, id`, email)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []WaitlistSignup{}
	for rows.Next() {
		s, err := scanWaitlist(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *s)
	}
	return out, rows.Err()
}

// PersonTables are the tables DeletePerson removes rows from, in the order
// it deletes them.
var PersonTables = []string{"refresh_tokens", "one_time_tokens", "sessions", "consents", "media_objects",
	"profiles", "waitlist_signups", "contact_messages", "users"}

// DeletePerson removes, in one transaction, the account userID and
// everything held about it: refresh and one-time tokens, sessions, consent
// records, upload records, the profile and, when byAddress is set, the
// waitlist sign-ups and contact messages under its e-mail (rows the account
// did not make: only when its holder proved the address, or for an
// operator). It returns how many rows went from each table (by
// PersonTables; the address's tables are absent when byAddress is unset),
// or ErrNotFound when there is no such account. The uploaded files
// themselves are the caller's to delete.
func (db *DB) DeletePerson(ctx context.Context, userID string, byAddress bool) (map[string]int64, error) {
	deleted := map[string]int64{}
	err := db.InTx(ctx, func(tx *Tx) error {
		var email string
		if err := tx.QueryRow(ctx, `SELECT email FROM users WHERE id = ?`, userID).Scan(&email); err == sql.ErrNoRows {
			return ErrNotFound
		} else if err != nil {
			return err
		}
		for _, table := range PersonTables {
			where, arg := `user_id = ?`, userID
			switch table {
			case "media_objects":
				where = `owner_id = ?`
			case "waitlist_signups", "contact_messages":
				if !byAddress {
					continue
				}
				where, arg = `email = ?`, email
			case "users":
				where = `id = ?`
			}
			if ct := changeTableOf(table); ct != "" {
				if err := tx.Announce(ctx, ct, "DELETE", where, arg); err != nil {
					return err
				}
			}
			if table == "waitlist_signups" {
				n, err := deleteWaitlistCounted(ctx, tx, email)
				if err != nil {
					return err
				}
				deleted[table] = n
				continue
			}
			res, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE `+where, arg)
			if err != nil {
				return err
			}
			deleted[table], _ = res.RowsAffected()
		}
		return nil
	})
	return deleted, err
}

// DeleteContactMessagesBefore deletes the contact messages sent before t
// (the retention of contact messages) and returns how many went.
func (db *DB) DeleteContactMessagesBefore(ctx context.Context, t time.Time) (int64, error) {
	var n int64
	err := db.InTx(ctx, func(tx *Tx) error {
		if err := tx.Announce(ctx, TableMessages, "DELETE", `created_at < ?`, t); err != nil {
			return err
		}
		res, err := tx.Exec(ctx, `DELETE FROM contact_messages WHERE created_at < ?`, t)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}

// UnconfirmedUsersBefore lists the ids of accounts created before t whose
// e-mail was never confirmed.
func (db *DB) UnconfirmedUsersBefore(ctx context.Context, t time.Time) ([]string, error) {
	rows, err := db.Query(ctx, `SELECT id FROM users WHERE email_confirmed_at IS NULL AND created_at < ? ORDER BY created_at`, t)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// MediaObjectsBefore lists the upload records last written before t, oldest first.
func (db *DB) MediaObjectsBefore(ctx context.Context, t time.Time) ([]MediaObject, error) {
	rows, err := db.Query(ctx, `SELECT `+mediaColumns+` FROM media_objects
		WHERE updated_at < ? ORDER BY updated_at, object_key`, t)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanMediaObjects(rows)
}
