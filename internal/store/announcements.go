package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"
)

// States of an announcement.
const (
	AnnouncementDraft     = "draft"     // written, not sent
	AnnouncementSending   = "sending"   // its e-mails are being queued and sent
	AnnouncementPaused    = "paused"    // no more e-mails queued until resumed
	AnnouncementCancelled = "cancelled" // stopped for good; unsent e-mails dropped
	AnnouncementDone      = "done"      // every recipient's e-mail delivered or given up
)

// TableAnnouncements is the change table of announcements: the console
// follows it for the progress of a sending.
const TableAnnouncements = "announcements"

// Announcement is one e-mail to a program's waitlist, with its progress.
type Announcement struct {
	ID            string     `json:"id"`
	Program       string     `json:"program"`
	Subject       string     `json:"subject"`
	Body          string     `json:"body"`
	Status        string     `json:"status"`
	RatePerSecond int        `json:"ratePerSecond"`
	Cursor        string     `json:"-"`
	AllQueued     bool       `json:"allQueued"`
	Recipients    int        `json:"recipients"` // e-mails queued so far
	Total         int        `json:"total"`      // e-mails in all (CountAnnouncementTotals)
	Skipped       int        `json:"skipped"`    // subscribed but bouncing
	Queued        int        `json:"queued"`
	Sent          int        `json:"sent"`
	Failing       int        `json:"failing"`
	Bounced       int        `json:"bounced"`
	Failed        int        `json:"failed"`
	CreatedBy     string     `json:"createdBy"`
	CreatedAt     time.Time  `json:"createdAt"`
	UpdatedAt     time.Time  `json:"updatedAt"`
	StartedAt     *time.Time `json:"startedAt"`
	FinishedAt    *time.Time `json:"finishedAt"`
}

const announcementColumns = `id, program, subject, body, status, rate_per_second, cursor, all_queued, recipients, skipped,
	queued, sent, failing, bounced, failed, created_by, created_at, updated_at, started_at, finished_at`

func scanAnnouncement(row interface{ Scan(...any) error }) (*Announcement, error) {
	var a Announcement
	var all int
	var started, finished sql.NullTime
	err := row.Scan(&a.ID, &a.Program, &a.Subject, &a.Body, &a.Status, &a.RatePerSecond, &a.Cursor, &all, &a.Recipients, &a.Skipped,
		&a.Queued, &a.Sent, &a.Failing, &a.Bounced, &a.Failed, &a.CreatedBy, &a.CreatedAt, &a.UpdatedAt, &started, &finished)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	a.AllQueued = all == 1
	a.CreatedAt, a.UpdatedAt = a.CreatedAt.UTC(), a.UpdatedAt.UTC()
	if started.Valid {
		t := started.Time.UTC()
		a.StartedAt = &t
	}
	if finished.Valid {
		t := finished.Time.UTC()
		a.FinishedAt = &t
	}
	return &a, nil
}

// CreateAnnouncement stores a as a draft, filling in its ID and times;
// then, when not nil, runs in the same transaction (the audit entry).
func (db *DB) CreateAnnouncement(ctx context.Context, a *Announcement, then func(*Tx) error) error {
	if a.ID == "" {
		a.ID = NewOrderedID()
	}
	a.Status, a.CreatedAt = AnnouncementDraft, Now()
	a.UpdatedAt = a.CreatedAt
	return db.InTx(ctx, func(tx *Tx) error {
		if _, err := tx.insertAnnounced(ctx, TableAnnouncements, `INSERT INTO announcements (id, program, subject, body, status,
			rate_per_second, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			a.ID, a.Program, a.Subject, a.Body, a.Status, a.RatePerSecond, a.CreatedBy, a.CreatedAt, a.UpdatedAt); err != nil {
			return err
		}
		if then != nil {
			return then(tx)
		}
		return nil
	})
}

// EditAnnouncement changes the subject, text and rate of a draft.
// ErrNotFound when there is no draft with this id.
func (db *DB) EditAnnouncement(ctx context.Context, id, subject, body string, rate int) (*Announcement, error) {
	err := db.InTx(ctx, func(tx *Tx) error {
		res, err := tx.Exec(ctx, `UPDATE announcements SET subject = ?, body = ?, rate_per_second = ?, updated_at = ?
			WHERE id = ? AND status = ?`, subject, body, rate, Now(), id, AnnouncementDraft)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return tx.Announce(ctx, TableAnnouncements, "UPDATE", `id = ?`, id)
	})
	if err != nil {
		return nil, err
	}
	return db.AnnouncementByID(ctx, id)
}

// AnnouncementByID returns the announcement with this id, or ErrNotFound.
func (db *DB) AnnouncementByID(ctx context.Context, id string) (*Announcement, error) {
	return scanAnnouncement(db.QueryRow(ctx, `SELECT `+announcementColumns+` FROM announcements WHERE id = ?`, id))
}

// Announcements lists the announcements, newest first; only those in
// status when it is not empty.
func (db *DB) Announcements(ctx context.Context, status string, limit int) ([]Announcement, error) {
	q, args := `SELECT `+announcementColumns+` FROM announcements`, []any{}
	if status != "" {
		q, args = q+` WHERE status = ?`, append(args, status)
	}
	rows, err := db.Query(ctx, q+` ORDER BY created_at DESC, id LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Announcement{}
	for rows.Next() {
		a, err := scanAnnouncement(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *a)
	}
	return out, rows.Err()
}

// CountAnnouncementTotals fills in the Total of each announcement: its
// recipients so far, plus, while some are not queued yet (a draft, or a
// sending paused or under way), the subscribed sign-ups of its program after
// its cursor whose address is not bouncing, counted once for each program
// and cursor.
func (db *DB) CountAnnouncementTotals(ctx context.Context, list ...*Announcement) error {
	left := map[[2]string]int{}
	for _, a := range list {
		a.Total = a.Recipients
		if a.AllQueued || a.Status == AnnouncementDone || a.Status == AnnouncementCancelled {
			continue
		}
		key := [2]string{a.Program, a.Cursor}
		n, ok := left[key]
		if !ok {
			after := a.Cursor
			if after == "" {
				after = lowestID
			}
			if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM waitlist_signups s WHERE s.program = ? AND s.unsubscribed_at IS NULL
				AND s.id > ? AND NOT EXISTS (SELECT 1 FROM email_bounces b WHERE b.email = s.email)`, ProgramCode(a.Program), after).Scan(&n); err != nil {
				return err
			}
			left[key] = n
		}
		a.Total += n
	}
	return nil
}

// ErrWrongState is returned when an announcement is not in a state the
// change may start from.
var ErrWrongState = errors.New("store: the announcement is not in a state this change starts from")

// MoveAnnouncement changes the status of the announcement id from one of
// from to to (sending sets started_at the first time; cancelled drops the
// e-mails it queued that no sender has taken yet), and runs then in the
// same transaction. ErrNotFound when there is no such announcement,
// ErrWrongState when it is in none of from.
func (db *DB) MoveAnnouncement(ctx context.Context, id string, from []string, to string, then func(*Tx, *Announcement) error) (*Announcement, error) {
	err := db.InTx(ctx, func(tx *Tx) error {
		a, err := scanAnnouncement(tx.QueryRow(ctx, `SELECT `+announcementColumns+` FROM announcements WHERE id = ?`, id))
		if err != nil {
			return err
		}
		ok := false
		for _, f := range from {
			ok = ok || a.Status == f
		}
		if !ok {
			return ErrWrongState
		}
		now := Now()
		res, err := tx.Exec(ctx, `UPDATE announcements SET status = ?, updated_at = ?, started_at = COALESCE(started_at, ?)
			WHERE id = ? AND status = ?`, to, now, startedAt(to, now), id, a.Status)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrWrongState
		}
		if to == AnnouncementCancelled {
			// The e-mails no sender has taken go, with their deliveries
			// (a delivery whose e-mail is not in the outbox counts as sent).
			rows, err := tx.Query(ctx, `DELETE FROM outbox_emails WHERE status = ? AND next_attempt_at <= ?
				AND id IN (SELECT email_id FROM announcement_deliveries WHERE announcement_id = ?) RETURNING id`, EmailQueued, now, id)
			if err != nil {
				return err
			}
			var gone []any
			for rows.Next() {
				var emailID string
				if err := rows.Scan(&emailID); err != nil {
					rows.Close()
					return err
				}
				gone = append(gone, emailID)
			}
			if err := errors.Join(rows.Err(), rows.Close()); err != nil {
				return err
			}
			for chunk := range slices.Chunk(gone, 500) {
				if _, err := tx.Exec(ctx, `DELETE FROM announcement_deliveries WHERE announcement_id = ? AND email_id IN (?`+
					strings.Repeat(", ?", len(chunk)-1)+`)`, append([]any{id}, chunk...)...); err != nil {
					return err
				}
			}
		}

		a.Status = to
		if err := tx.Announce(ctx, TableAnnouncements, "UPDATE", `id = ?`, id); err != nil {
			return err
		}
		if then != nil {
			return then(tx, a)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return db.AnnouncementByID(ctx, id)
}

func startedAt(to string, now time.Time) any {
	if to == AnnouncementSending {
		return now
	}
	return nil
}

// Recipient is one subscribed sign-up an announcement goes to.
type Recipient struct {
	SignupID, Email string
}

// AnnouncementEmail is the e-mail of one recipient and the SHA-256 of its
// unsubscribe token.
type AnnouncementEmail struct {
	Email           *OutboxEmail
	UnsubscribeHash string
}

// errMoved undoes a batch whose announcement another sender moved on.
var errMoved = errors.New("store: announcement moved on")

// QueueAnnouncementBatch queues the e-mails of the next up to limit
// subscribed sign-ups of a sending announcement's program (in sign-up id
// order after its cursor; addresses listed as bouncing are skipped and
// counted), each built by build, and moves the cursor past them, all in one
// transaction: a restart goes on after the last batch committed, and the
// unique (announcement, sign-up) key keeps anyone from being queued twice.
// It returns how many e-mails it queued; when fewer sign-ups than limit
// were left the announcement is marked all queued. Nothing is queued for
// an announcement that is not sending, or that another sender moved on.
func (db *DB) QueueAnnouncementBatch(ctx context.Context, id string, limit int, build func(Recipient) (AnnouncementEmail, error)) (int, error) {
	queued := 0
	err := db.InTx(ctx, func(tx *Tx) error {
		queued = 0
		var program, status, cursor string
		err := tx.QueryRow(ctx, `SELECT program, status, cursor FROM announcements WHERE id = ?`, id).Scan(&program, &status, &cursor)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil || status != AnnouncementSending {
			return err
		}
		after := cursor
		if after == "" { // none queued yet: from the lowest id
			after = lowestID
		}
		rows, err := tx.Query(ctx, `SELECT s.id, s.email, CASE WHEN b.email IS NULL THEN 0 ELSE 1 END FROM waitlist_signups s
			LEFT JOIN email_bounces b ON b.email = s.email
			WHERE s.program = ? AND s.unsubscribed_at IS NULL AND s.id > ? ORDER BY s.id LIMIT ?`, ProgramCode(program), after, limit)
		if err != nil {
			return err
		}
		type rcpt struct {
			Recipient
			bouncing bool
		}
		var batch []rcpt
		for rows.Next() {
			var r rcpt
			var b int
			if err := rows.Scan(&r.SignupID, &r.Email, &b); err != nil {
				rows.Close()
				return err
			}
			r.bouncing = b == 1
			batch = append(batch, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		skipped, next := 0, cursor
		for _, r := range batch {
			next = r.SignupID
			if r.bouncing {
				skipped++
				continue
			}
			m, err := build(r.Recipient)
			if err != nil {
				return err
			}
			m.Email.Status = EmailQueued
			m.Email.row() // fills in its id
			res, err := tx.Exec(ctx, `INSERT INTO announcement_deliveries (announcement_id, signup_id, email_id, unsubscribe_token_hash)
				VALUES (?, ?, ?, ?) ON CONFLICT (announcement_id, signup_id) DO NOTHING`, id, r.SignupID, m.Email.ID, m.UnsubscribeHash)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				continue
			}
			if err := tx.EnqueueEmail(ctx, m.Email); err != nil {
				return err
			}
			queued++
		}
		all := 0
		if len(batch) < limit {
			all = 1
		}
		res, err := tx.Exec(ctx, `UPDATE announcements SET cursor = ?, all_queued = ?, recipients = recipients + ?, skipped = skipped + ?,
			updated_at = ? WHERE id = ? AND cursor = ? AND status = ?`, next, all, queued, skipped, Now(), id, cursor, AnnouncementSending)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errMoved
		}
		return tx.Announce(ctx, TableAnnouncements, "UPDATE", `id = ?`, id)
	})
	if errors.Is(err, errMoved) {
		return 0, nil
	}
	return queued, err
}

// AnnouncementCounts are the delivery states of an announcement's e-mails.
type AnnouncementCounts struct {
	Queued, Sent, Failing, Bounced, Failed int
}

// CountAnnouncement counts the delivery states of the e-mails an
// announcement queued, from the outbox: those no longer in it were sent
// (a sent e-mail leaves it), bounced are those given up whose address is
// listed as bouncing.
func (db *DB) CountAnnouncement(ctx context.Context, id string) (AnnouncementCounts, error) {
	var c AnnouncementCounts
	status := `COALESCE(o.status, '` + EmailSent + `')`
	rows, err := db.Query(ctx, `SELECT `+status+`, CASE WHEN b.email IS NULL THEN 0 ELSE 1 END, COUNT(*)
		FROM announcement_deliveries d LEFT JOIN outbox_emails o ON o.id = d.email_id LEFT JOIN email_bounces b ON b.email = o.to_address
		WHERE d.announcement_id = ? GROUP BY `+status+`, CASE WHEN b.email IS NULL THEN 0 ELSE 1 END`, id)
	if err != nil {
		return c, err
	}
	defer rows.Close()
	for rows.Next() {
		var status string
		var bounced, n int
		if err := rows.Scan(&status, &bounced, &n); err != nil {
			return c, err
		}
		switch {
		case status == EmailSent:
			c.Sent += n
		case status == EmailFailing:
			c.Failing += n
		case status == EmailFailed && bounced == 1:
			c.Bounced += n
		case status == EmailFailed:
			c.Failed += n
		default:
			c.Queued += n
		}
	}
	return c, rows.Err()
}

// SaveAnnouncementCounts writes c as the announcement's progress when it
// differs from what the row holds (announcing the change to the console),
// and marks a sending announcement whose e-mails are all queued and none
// waiting done. It reports whether the row changed.
func (db *DB) SaveAnnouncementCounts(ctx context.Context, id string, c AnnouncementCounts) (bool, error) {
	changed := false
	err := db.InTx(ctx, func(tx *Tx) error {
		a, err := scanAnnouncement(tx.QueryRow(ctx, `SELECT `+announcementColumns+` FROM announcements WHERE id = ?`, id))
		if err != nil {
			return err
		}
		done := a.Status == AnnouncementSending && a.AllQueued && c.Queued+c.Failing == 0
		if !done && (AnnouncementCounts{a.Queued, a.Sent, a.Failing, a.Bounced, a.Failed}) == c {
			return nil
		}
		now := Now()
		status, finished := a.Status, any(a.FinishedAt)
		if done {
			status, finished = AnnouncementDone, now
		}
		if _, err := tx.Exec(ctx, `UPDATE announcements SET queued = ?, sent = ?, failing = ?, bounced = ?, failed = ?, updated_at = ?,
			status = ?, finished_at = ? WHERE id = ?`, c.Queued, c.Sent, c.Failing, c.Bounced, c.Failed, now, status, finished, id); err != nil {
			return err
		}
		changed = true
		return tx.Announce(ctx, TableAnnouncements, "UPDATE", `id = ?`, id)
	})
	return changed, err
}

// AnnouncementDelivery returns the sign-up id of the delivery of an
// announcement to a sign-up whose unsubscribe token has this hash, or
// ErrNotFound.
func (db *DB) AnnouncementDelivery(ctx context.Context, announcementID, signupID, tokenHash string) error {
	if !IsID(signupID) {
		return ErrNotFound
	}
	var n int
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM announcement_deliveries WHERE announcement_id = ? AND signup_id = ?
		AND unsubscribe_token_hash = ?`, announcementID, signupID, tokenHash).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// WaitlistSignupByID returns the sign-up with this id, or ErrNotFound.
func (db *DB) WaitlistSignupByID(ctx context.Context, id string) (*WaitlistSignup, error) {
	if !IsID(id) {
		return nil, ErrNotFound
	}
	return scanWaitlist(db.QueryRow(ctx, `SELECT `+waitlistColumns+` FROM waitlist_signups WHERE id = ?`, id))
}

// SubscribedCount returns how many subscribed sign-ups program has (from
// the roll-up, inside t).
func (t *Tx) SubscribedCount(ctx context.Context, program string) (int, error) {
	var n int
	err := t.QueryRow(ctx, `SELECT COALESCE(SUM(subscribed), 0) FROM waitlist_counts WHERE program = ?`, program).Scan(&n)
	return n, err
}
