package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// ContactMessage is one message sent through the Contact Us form.
type ContactMessage struct {
	ID          string
	FirstName   string
	LastName    string
	Email       string
	PhoneNumber string
	Subject     string
	Message     string
	CreatedAt   time.Time
}

// CreateContactMessage stores m, filling in its ID and CreatedAt when
// empty. then, when not nil, runs in the same transaction (e.g. to queue the
// e-mail about m), so both are kept or neither is.
func (db *DB) CreateContactMessage(ctx context.Context, m *ContactMessage, then func(*Tx) error) error {
	if m.ID == "" {
		m.ID = NewOrderedID()
	}
	if m.CreatedAt.IsZero() {
		m.CreatedAt = Now()
	}
	return db.InTx(ctx, func(tx *Tx) error {
		if _, err := tx.insertAnnounced(ctx, TableMessages, `INSERT INTO contact_messages
			(id, first_name, last_name, email, phone_number, subject, message, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			m.ID, m.FirstName, m.LastName, m.Email, m.PhoneNumber, m.Subject, m.Message, m.CreatedAt); err != nil {
			return err
		}
		if then != nil {
			return then(tx)
		}
		return nil
	})
}

// EachContactMessage calls fn for every contact message, oldest first,
// stopping at the first error fn returns.
func (db *DB) EachContactMessage(ctx context.Context, fn func(*ContactMessage) error) error {
	rows, err := db.Query(ctx, `SELECT id, first_name, last_name, email, phone_number, subject, message, created_at
		FROM contact_messages ORDER BY created_at, id`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var m ContactMessage
		if err := rows.Scan(&m.ID, &m.FirstName, &m.LastName, &m.Email, &m.PhoneNumber, &m.Subject, &m.Message, &m.CreatedAt); err != nil {
			return err
		}
		m.CreatedAt = m.CreatedAt.UTC()
		if err := fn(&m); err != nil {
			return err
		}
	}
	return rows.Err()
}

// WaitlistSignup is one e-mail address on the waitlist of one program, with
// where the sign-up came from.
type WaitlistSignup struct {
	ID          string
	Email       string // trimmed and lower-cased
	Program     string
	PagePath    string // the app's page the form was on
	Referrer    string // document.referrer of that page
	UTMSource   string
	UTMMedium   string
	UTMCampaign string
	UTMTerm     string
	UTMContent  string
	// UnsubscribeTokenHash is the SHA-256 (hex) of the token in the
	// confirmation e-mail's unsubscribe link.
	UnsubscribeTokenHash string
	UnsubscribedAt       *time.Time
	CreatedAt            time.Time
}

const waitlistColumns = `id, email, program, page_path, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content,
	unsubscribe_token_hash, unsubscribed_at, created_at`

func scanWaitlist(row interface{ Scan(...any) error }) (*WaitlistSignup, error) {
	var s WaitlistSignup
	var unsub sql.NullTime
	err := row.Scan(&s.ID, &s.Email, &s.Program, &s.PagePath, &s.Referrer, &s.UTMSource, &s.UTMMedium, &s.UTMCampaign,
		&s.UTMTerm, &s.UTMContent, &s.UnsubscribeTokenHash, &unsub, &s.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if unsub.Valid {
		t := unsub.Time.UTC()
		s.UnsubscribedAt = &t
	}
	s.CreatedAt = s.CreatedAt.UTC()
	return &s, nil
}

// JoinWaitlist stores s unless its (e-mail, program) is already on the
// list, and reports whether s was stored: the first sign-up of that address
// for that program ever. onJoin, when not nil, runs in the same transaction
// only then (e.g. to queue the confirmation e-mail), so it happens at most
// once per address and program, however many times or how concurrently the
// address signs up. A sign-up that was unsubscribed is subscribed again,
// keeping its first unsubscribe token (the link of the one confirmation
// works again), and reported as not joined; an active one is left exactly
// as it is.
func (db *DB) JoinWaitlist(ctx context.Context, s *WaitlistSignup, onJoin func(*Tx) error) (joined bool, err error) {
	if s.ID == "" {
		s.ID = NewOrderedID()
	}
	if s.CreatedAt.IsZero() {
		s.CreatedAt = Now()
	}
	// What a new sign-up adds in the same transaction: its roll-up, then
	// whatever onJoin does.
	join := func(tx *Tx) error {
		joined = true
		if err := countWaitlistJoin(ctx, tx, s); err != nil {
			return err
		}
		if onJoin != nil {
			return onJoin(tx)
		}
		return nil
	}
	err = db.InTx(ctx, func(tx *Tx) error {
		joined = false
		// The insert returns the row it stored for its announcement.
		n, err := tx.insertAnnounced(ctx, TableWaitlist, `INSERT INTO waitlist_signups (id, email, program, page_path, referrer,
			utm_source, utm_medium, utm_campaign, utm_term, utm_content, unsubscribe_token_hash, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (email, program) DO NOTHING`, s.ID, s.Email, s.Program, s.PagePath, s.Referrer, s.UTMSource, s.UTMMedium,
			s.UTMCampaign, s.UTMTerm, s.UTMContent, s.UnsubscribeTokenHash, s.CreatedAt)
		if err != nil {
			return err
		}
		if n == 1 {
			return join(tx)
		}
		res, err := tx.Exec(ctx, `UPDATE waitlist_signups SET unsubscribed_at = NULL
			WHERE email = ? AND program = ? AND unsubscribed_at IS NOT NULL`, s.Email, s.Program)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			if err := tx.Announce(ctx, TableWaitlist, "UPDATE", `email = ? AND program = ?`, s.Email, s.Program); err != nil {
				return err
			}
			return countWaitlistMove(ctx, tx, 1, `email = ? AND program = ?`, s.Email, s.Program)
		}
		return nil
	})
	return joined && err == nil, err
}

// UnsubscribeWaitlist marks the sign-up with this ID and token hash as
// unsubscribed (keeping the first time when it already was) and returns it;
// ErrNotFound when no sign-up has both. An empty id is for links made
// before they carried the sign-up's ID (migration 0019): the sign-up is then
// found by the hash alone, which has no index any more, so it is read on a
// reader, never in the writer.
func (db *DB) UnsubscribeWaitlist(ctx context.Context, id, tokenHash string) (*WaitlistSignup, error) {
	if id == "" {
		err := db.QueryRow(ctx, `SELECT id FROM waitlist_signups WHERE unsubscribe_token_hash = ?`, tokenHash).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, ErrNotFound
		}
		if err != nil {
			return nil, err
		}
	}
	if err := db.InTx(ctx, func(tx *Tx) error {
		res, err := tx.Exec(ctx, `UPDATE waitlist_signups SET unsubscribed_at = ?
		WHERE id = ? AND unsubscribe_token_hash = ? AND unsubscribed_at IS NULL`, Now(), id, tokenHash)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			if err := tx.Announce(ctx, TableWaitlist, "UPDATE", `id = ?`, id); err != nil {
				return err
			}
			return countWaitlistMove(ctx, tx, -1, `id = ?`, id)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	return db.WaitlistSignupByLink(ctx, id, tokenHash)
}

// WaitlistSignupByLink returns, changing nothing, the sign-up an
// unsubscribe link names by its ID and token hash (or, for a link without
// an ID, by the hash alone; see UnsubscribeWaitlist); ErrNotFound when none.
func (db *DB) WaitlistSignupByLink(ctx context.Context, id, tokenHash string) (*WaitlistSignup, error) {
	if id == "" {
		return scanWaitlist(db.QueryRow(ctx, `SELECT `+waitlistColumns+` FROM waitlist_signups WHERE unsubscribe_token_hash = ?`, tokenHash))
	}
	return scanWaitlist(db.QueryRow(ctx, `SELECT `+waitlistColumns+` FROM waitlist_signups WHERE id = ? AND unsubscribe_token_hash = ?`, id, tokenHash))
}

// WaitlistSignupByEmail returns the sign-up of email for program, or ErrNotFound.
func (db *DB) WaitlistSignupByEmail(ctx context.Context, email, program string) (*WaitlistSignup, error) {
	return scanWaitlist(db.QueryRow(ctx, `SELECT `+waitlistColumns+` FROM waitlist_signups WHERE email = ? AND program = ?`, email, program))
}

// EachWaitlistSignup calls fn for every sign-up, oldest first, only those of
// program when it is not empty, stopping at the first error fn returns.
func (db *DB) EachWaitlistSignup(ctx context.Context, program string, fn func(*WaitlistSignup) error) error {
	q, args := `SELECT `+waitlistColumns+` FROM waitlist_signups`, []any{}
	if program != "" {
		q, args = q+` WHERE program = ?`, append(args, program)
	}
	rows, err := db.Query(ctx, q+` ORDER BY created_at, id`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		s, err := scanWaitlist(rows)
		if err != nil {
			return err
		}
		if err := fn(s); err != nil {
			return err
		}
	}
	return rows.Err()
}
