package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"
)

// States of an outbox e-mail.
const (
	EmailQueued  = "queued"  // written, not tried yet
	EmailFailing = "failing" // tried and failed; tried again at NextAttemptAt
	EmailSent    = "sent"    // delivered (by SMTP, or written to the log)
	EmailFailed  = "failed"  // given up after the last attempt
)

// OutboxEmail is one e-mail in the outbox table.
type OutboxEmail struct {
	ID, To, Subject, Body, Kind string
	// ListUnsubscribe is the e-mail's one-click unsubscribe address
	// (RFC 8058), "" for an e-mail about no list.
	ListUnsubscribe       string
	Status                string
	Via                   string // "smtp" or "log" once sent
	Attempts              int
	LastError             string
	NextAttemptAt, SentAt *time.Time
	CreatedAt             time.Time
}

// EnqueueEmail writes e to the outbox as queued, due at once, inside tx: it
// is kept exactly when the change it belongs to is. ID and CreatedAt are
// filled in when empty.
func (t *Tx) EnqueueEmail(ctx context.Context, e *OutboxEmail) error {
	e.Status, e.Via = EmailQueued, ""
	return t.WriteEmail(ctx, e)
}

// RecordEmailSent writes e to the outbox inside tx as delivered via via
// once tx commits (one attempt, sent at e.CreatedAt): for a delivery that
// follows the commit and cannot fail, such as writing the e-mail to the
// log, which then needs no second write to mark it sent. It is kept
// exactly when the change it belongs to is. ID and CreatedAt are filled
// in when empty.
func (t *Tx) RecordEmailSent(ctx context.Context, e *OutboxEmail, via string) error {
	e.Status, e.Via = EmailSent, via
	return t.WriteEmail(ctx, e)
}

// WriteEmail writes e to the outbox inside tx as its Status says: sent
// (EmailSent, via e.Via; see RecordEmailSent), else queued (due at once;
// see EnqueueEmail). ID and CreatedAt are filled in when empty.
func (t *Tx) WriteEmail(ctx context.Context, e *OutboxEmail) error {
	_, err := t.Exec(ctx, `INSERT INTO outbox_emails (`+emailColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.row()...)
	return err
}

// emailColumns are the columns an outbox e-mail is written with, in the
// order of its row.
const emailColumns = `id, to_address, subject, body, kind, sent_via, created_at, status, attempts, next_attempt_at, sent_at, list_unsubscribe`

// row fills in e's ID, CreatedAt, attempts and times from its Status and
// returns its values in the order of emailColumns.
func (e *OutboxEmail) row() []any {
	if e.ID == "" {
		e.ID = NewOrderedID()
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = Now()
	}
	at := e.CreatedAt
	e.Attempts, e.NextAttemptAt, e.SentAt = 0, &at, nil
	if e.Status != EmailSent {
		e.Status = EmailQueued
	} else {
		e.Attempts, e.NextAttemptAt, e.SentAt = 1, nil, &at
	}
	return []any{e.ID, e.To, e.Subject, e.Body, e.Kind, e.Via, e.CreatedAt, e.Status, e.Attempts, e.NextAttemptAt, e.SentAt, e.ListUnsubscribe}
}

const outboxColumns = `id, to_address, subject, body, kind, status, sent_via, attempts, last_error, next_attempt_at, sent_at, created_at, list_unsubscribe`

func scanOutbox(rows *sql.Rows) ([]OutboxEmail, error) {
	defer rows.Close()
	var out []OutboxEmail
	for rows.Next() {
		var e OutboxEmail
		var next, sent sql.NullTime
		if err := rows.Scan(&e.ID, &e.To, &e.Subject, &e.Body, &e.Kind, &e.Status, &e.Via, &e.Attempts, &e.LastError, &next, &sent, &e.CreatedAt, &e.ListUnsubscribe); err != nil {
			return nil, err
		}
		if next.Valid {
			t := next.Time.UTC()
			e.NextAttemptAt = &t
		}
		if sent.Valid {
			t := sent.Time.UTC()
			e.SentAt = &t
		}
		e.CreatedAt = e.CreatedAt.UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}

// ClaimEmails takes up to limit e-mails that are due (queued or failing,
// next attempt at or before now) for one delivery attempt: their attempt
// count goes up and their next attempt moves to now+lease, so no other
// sender takes them while this one works (nor after it dies, until the
// lease ends). On PostgreSQL rows another instance is claiming are skipped
// (FOR UPDATE SKIP LOCKED), so two instances never take the same e-mail.
func (db *DB) ClaimEmails(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]OutboxEmail, error) {
	return db.claimEmails(ctx, `next_attempt_at = ?`, []any{now.Add(lease)}, now, limit)
}

// TakeEmailsAsSent takes up to limit due e-mails and marks them sent via
// at now in the same step, for a delivery that cannot fail (writing to the
// log): one write per e-mail instead of a claim and a mark. The e-mails
// come back whole; with clearBody their stored body and List-Unsubscribe
// address are emptied in that write (see MarkEmailSent).
func (db *DB) TakeEmailsAsSent(ctx context.Context, now time.Time, via string, limit int, clearBody bool) ([]OutboxEmail, error) {
	set := `status = ?, sent_via = ?, sent_at = ?, next_attempt_at = NULL, last_error = ''`
	if clearBody {
		set += sentBodyCleared
	}
	return db.claimEmails(ctx, set, []any{EmailSent, via, now}, now, limit)
}

// sentBodyCleared is the part of a mark as sent that empties what only
// sending needed: the body and the List-Unsubscribe address (both hold the
// unsubscribe link).
const sentBodyCleared = `, body = '', list_unsubscribe = ''`

func (db *DB) claimEmails(ctx context.Context, set string, setArgs []any, now time.Time, limit int) ([]OutboxEmail, error) {
	lock := ""
	if db.dialect == Postgres {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	var out []OutboxEmail
	err := db.InTx(ctx, func(tx *Tx) error {
		rows, err := tx.Query(ctx, `UPDATE outbox_emails SET attempts = attempts + 1, `+set+`
			WHERE id IN (SELECT id FROM (`+dueEmails(EmailQueued, lock)+` UNION ALL `+dueEmails(EmailFailing, lock)+`) due ORDER BY next_attempt_at LIMIT ?)
			RETURNING `+outboxColumns, append(setArgs, now, limit, now, limit, limit)...)
		if err != nil {
			return err
		}
		out, err = scanOutbox(rows)
		return err
	})
	return out, err
}

// dueEmails selects the ids of the e-mails in status due at or before now
// (its first argument), earliest first, up to a limit (its second), with
// the row lock lock. They are read in the order of the due index
// (outbox_emails_due: status, next_attempt_at, for the e-mails with a next
// attempt, which the condition here implies): on PostgreSQL an index scan
// in order marks the entries of e-mails sent since as dead as it passes
// them, so later scans skip them, where a scan of both states at once (a
// bitmap scan and a sort) visited every e-mail ever sent whose row was not
// yet vacuumed (33,000 table pages, 9 ms a claim, after 30 s of sign-ups
// with autovacuum off, and growing).
func dueEmails(status, lock string) string {
	return `SELECT id, next_attempt_at FROM (SELECT id, next_attempt_at FROM outbox_emails
		WHERE status = '` + status + `' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?` + lock + `) ` + status
}

// MarkEmailSent records that the e-mail with this id was delivered via
// ("smtp" or "log") at the given time: one small write, made as soon as
// the SMTP server has accepted that e-mail, so a sender that dies later in
// its batch never sends it again. With clearBody the same write empties
// the body and the List-Unsubscribe address, kept otherwise until
// ClearSentBodies.
func (db *DB) MarkEmailSent(ctx context.Context, id, via string, at time.Time, clearBody bool) error {
	set := `status = ?, sent_via = ?, sent_at = ?, next_attempt_at = NULL, last_error = ''`
	if clearBody {
		set += sentBodyCleared
	}
	_, err := db.Exec(ctx, `UPDATE outbox_emails SET `+set+` WHERE id = ?`, EmailSent, via, at, id)
	return err
}

// MarkEmailFailed records a failed attempt: the e-mail is tried again at
// next, or given up (status failed) when next is nil.
func (db *DB) MarkEmailFailed(ctx context.Context, id, reason string, next *time.Time) error {
	status := EmailFailing
	if next == nil {
		status = EmailFailed
	}
	if len(reason) > 1000 {
		reason = reason[:1000]
	}
	_, err := db.Exec(ctx, `UPDATE outbox_emails SET status = ?, last_error = ?, next_attempt_at = ? WHERE id = ?`, status, reason, next, id)
	return err
}

// DeleteEmailsTo deletes the outbox e-mails to an address (an account's,
// when it is deleted) and returns how many went. The outbox has no index
// by address (migration 0018: it cost every queued e-mail a page write),
// so the e-mails are found by reading the table from a reader, off the
// writer, and deleted by id.
func (db *DB) DeleteEmailsTo(ctx context.Context, to string) (int64, error) {
	return db.writeByIDs(ctx, `SELECT id FROM outbox_emails WHERE to_address = ?`, []any{to}, `DELETE FROM outbox_emails WHERE`)
}

// writeByIDs reads the ids query selects, from a reader (off the writer),
// and runs stmt (ending where its WHERE condition goes) on them by id, 500
// to a write. It returns how many rows the writes changed.
func (db *DB) writeByIDs(ctx context.Context, query string, args []any, stmt string) (int64, error) {
	rows, err := db.Query(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	var ids []any
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, err
		}
		ids = append(ids, id)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return 0, err
	}
	var changed int64
	for chunk := range slices.Chunk(ids, 500) {
		res, err := db.Exec(ctx, stmt+` id IN (?`+strings.Repeat(", ?", len(chunk)-1)+`)`, chunk...)
		if err != nil {
			return changed, err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return changed, err
		}
		changed += n
	}
	return changed, nil
}

// DeleteEmailsBefore deletes the outbox e-mails created before t (the
// outbox's retention) and returns how many went.
func (db *DB) DeleteEmailsBefore(ctx context.Context, t time.Time) (int64, error) {
	res, err := db.Exec(ctx, `DELETE FROM outbox_emails WHERE created_at < ?`, t)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// EmailsTo returns the newest outbox e-mails to an address, newest first
// (read from the whole outbox: it has no index by address, see
// DeleteEmailsTo).
func (db *DB) EmailsTo(ctx context.Context, to string, limit int) ([]OutboxEmail, error) {
	rows, err := db.Query(ctx, `SELECT `+outboxColumns+` FROM outbox_emails WHERE to_address = ? ORDER BY created_at DESC, id LIMIT ?`, to, limit)
	if err != nil {
		return nil, err
	}
	return scanOutbox(rows)
}

// OutboxCounts returns how many e-mails the outbox holds in each state
// (queued, failing, failed, sent), for the metrics.
func (db *DB) OutboxCounts(ctx context.Context) (map[string]int, error) {
	rows, err := db.Query(ctx, `SELECT status, COUNT(*) FROM outbox_emails GROUP BY status`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var status string
		var n int
		if err := rows.Scan(&status, &n); err != nil {
			return nil, err
		}
		out[status] = n
	}
	return out, rows.Err()
}

// ImportEmails writes e-mails as they are (ids, states and times set),
// several to a statement, inside tx. It is for filling a database quickly
// (tests, benchmarks).
func (t *Tx) ImportEmails(ctx context.Context, emails []OutboxEmail) error {
	const cols = `id, to_address, subject, body, kind, status, sent_via, attempts, last_error, next_attempt_at, sent_at, created_at, list_unsubscribe`
	for chunk := range slices.Chunk(emails, 200) {
		q := `INSERT INTO outbox_emails (` + cols + `) VALUES ` + strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), ", len(chunk)), ", ")
		args := make([]any, 0, len(chunk)*13)
		for _, e := range chunk {
			args = append(args, e.ID, e.To, e.Subject, e.Body, e.Kind, e.Status, e.Via, e.Attempts, e.LastError, e.NextAttemptAt,
				e.SentAt, e.CreatedAt, e.ListUnsubscribe)
		}
		if _, err := t.Exec(ctx, q, args...); err != nil {
			return err
		}
	}
	return nil
}

// ClearSentBodies empties the body and the List-Unsubscribe address of
// the e-mails sent before t, both needed only to send them (they hold the
// unsubscribe link), keeping what the console and `salaula admin mail`
// show of them (recipient, subject, kind, state, times), and returns how
// many it cleared. The e-mails are found from a reader, off the writer
// (the outbox has no index by time), and cleared by id, 500 to a write.
func (db *DB) ClearSentBodies(ctx context.Context, t time.Time) (int64, error) {
	return db.writeByIDs(ctx, `SELECT id FROM outbox_emails WHERE status = ? AND sent_at < ? AND (body <> '' OR list_unsubscribe <> '')`,
		[]any{EmailSent, t}, `UPDATE outbox_emails SET body = '', list_unsubscribe = '' WHERE`)
}
