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

// The outbox (outbox_emails) holds the e-mails to send (queued, failing)
// and those given up (failed). A sent e-mail leaves it, in the write that
// records it sent, for the lighter record of sent_emails (migration 0043):
// recipient, subject, kind, how and when it went, and its body while kept,
// without an id, a key or a schedule.

// OutboxEmail is one e-mail of the outbox, or the record of a sent one
// (Status EmailSent, no ID, Attempts not kept).
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

// RecordEmailSent records e inside tx as delivered via via once tx
// commits (one attempt, sent at e.CreatedAt): for a delivery that
// follows the commit and cannot fail, such as writing the e-mail to the
// log, which then needs no second write to mark it sent. It is kept
// exactly when the change it belongs to is. ID and CreatedAt are filled
// in when empty.
func (t *Tx) RecordEmailSent(ctx context.Context, e *OutboxEmail, via string) error {
	e.Status, e.Via = EmailSent, via
	return t.WriteEmail(ctx, e)
}

// QueueEmail writes e inside tx (WriteEmail), when not nil, and has after
// run once tx commits, when not nil: the e-mail, as mail.Outbox.Outboxed
// makes it, is kept exactly when the change it is about is.
func (t *Tx) QueueEmail(ctx context.Context, e *OutboxEmail, after func()) error {
	if e != nil {
		if err := t.WriteEmail(ctx, e); err != nil {
			return err
		}
	}
	if after != nil {
		t.AfterCommit(after)
	}
	return nil
}

// WriteEmail writes e inside tx as its Status says: sent (EmailSent, via
// e.Via; see RecordEmailSent) to the record of sent e-mails, else queued
// (due at once; see EnqueueEmail) to the outbox. ID and CreatedAt are
// filled in when empty.
func (t *Tx) WriteEmail(ctx context.Context, e *OutboxEmail) error {
	q, args := e.insert()
	_, err := t.Exec(ctx, q, args...)
	return err
}

// insert fills in e as row does and returns the statement that writes it
// (to sent_emails when sent, else to outbox_emails) with its values.
func (e *OutboxEmail) insert() (string, []any) {
	args := e.row()
	if e.Status == EmailSent { // row filled in its times and attempts
		return `INSERT INTO sent_emails (` + sentColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, e.sentRow()
	}
	return `INSERT INTO outbox_emails (` + emailColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, args
}

// sentColumns are the columns of a sent e-mail's record, in the order of
// its row.
const sentColumns = `created_at, sent_at, to_address, subject, kind, sent_via, body, list_unsubscribe`

// sentRow is e's values in the order of sentColumns (sent at its
// CreatedAt when SentAt is not set).
func (e *OutboxEmail) sentRow() []any {
	at := e.CreatedAt
	if e.SentAt != nil {
		at = *e.SentAt
	}
	return []any{e.CreatedAt, at, e.To, e.Subject, e.Kind, e.Via, e.Body, e.ListUnsubscribe}
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
	var out []OutboxEmail
	err := db.InTx(ctx, func(tx *Tx) error {
		rows, err := tx.Query(ctx, `DELETE FROM outbox_emails WHERE `+db.due(), now, limit, now, limit, limit)
		if err != nil {
			return err
		}
		if out, err = scanOutbox(rows); err != nil {
			return err
		}
		for i := range out {
			out[i].Attempts++ // this delivery
		}
		return tx.recordSent(ctx, out, via, now, clearBody)
	})
	return out, err
}

func (db *DB) claimEmails(ctx context.Context, set string, setArgs []any, now time.Time, limit int) ([]OutboxEmail, error) {
	var out []OutboxEmail
	err := db.InTx(ctx, func(tx *Tx) error {
		rows, err := tx.Query(ctx, `UPDATE outbox_emails SET attempts = attempts + 1, `+set+` WHERE `+db.due(),
			append(setArgs, now, limit, now, limit, limit)...)
		if err != nil {
			return err
		}
		out, err = scanOutbox(rows)
		return err
	})
	return out, err
}

// due is the condition "among the limit e-mails due first at now" with
// RETURNING the e-mails, for a statement on outbox_emails; its arguments
// are now, limit, now, limit, limit. On PostgreSQL rows another instance
// is taking are skipped (FOR UPDATE SKIP LOCKED).
func (db *DB) due() string {
	lock := ""
	if db.dialect == Postgres {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	return `id IN (SELECT id FROM (` + dueEmails(EmailQueued, lock) + ` UNION ALL ` + dueEmails(EmailFailing, lock) + `) due ORDER BY next_attempt_at LIMIT ?)
		RETURNING ` + outboxColumns
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
	return db.InTx(ctx, func(tx *Tx) error {
		rows, err := tx.Query(ctx, `DELETE FROM outbox_emails WHERE id = ? RETURNING `+outboxColumns, id)
		if err != nil {
			return err
		}
		gone, err := scanOutbox(rows)
		if err != nil || len(gone) == 0 {
			return err // gone already (erased)
		}
		return tx.recordSent(ctx, gone, via, at, clearBody)
	})
}

// recordSent writes the records of emails, just taken from the outbox, as
// sent via at at, their bodies and List-Unsubscribe addresses emptied with
// clearBody; emails themselves are updated to their sent state (bodies
// kept, for the caller to deliver).
func (t *Tx) recordSent(ctx context.Context, emails []OutboxEmail, via string, at time.Time, clearBody bool) error {
	records := make([]OutboxEmail, len(emails))
	for i := range emails {
		e := &emails[i]
		e.Status, e.Via, e.NextAttemptAt, e.LastError, e.SentAt = EmailSent, via, nil, "", &at
		records[i] = *e
		if clearBody {
			records[i].Body, records[i].ListUnsubscribe = "", ""
		}
	}
	return t.importRows(ctx, `sent_emails (`+sentColumns+`)`, 8, len(records), func(i int) []any { return records[i].sentRow() })
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

// Bounce is an address a mail server refused permanently.
type Bounce struct {
	Email     string    `json:"email"`
	Reason    string    `json:"reason"`
	CreatedAt time.Time `json:"createdAt"`
}

// Bounces lists the bouncing addresses, newest first.
func (db *DB) Bounces(ctx context.Context, limit int) ([]Bounce, error) {
	rows, err := db.Query(ctx, `SELECT email, reason, created_at FROM email_bounces ORDER BY created_at DESC, email LIMIT ?`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Bounce{}
	for rows.Next() {
		var b Bounce
		if err := rows.Scan(&b.Email, &b.Reason, &b.CreatedAt); err != nil {
			return nil, err
		}
		b.CreatedAt = b.CreatedAt.UTC()
		out = append(out, b)
	}
	return out, rows.Err()
}

// MarkEmailBounced records that the mail server refused the outbox e-mail
// id to its address for good: the e-mail is given up (failed) and the
// address is listed as bouncing (announcements skip it).
func (db *DB) MarkEmailBounced(ctx context.Context, id, to, reason string) error {
	if len(reason) > 1000 {
		reason = reason[:1000]
	}
	return db.InTx(ctx, func(tx *Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE outbox_emails SET status = ?, last_error = ?, next_attempt_at = NULL WHERE id = ?`,
			EmailFailed, reason, id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO email_bounces (email, reason, created_at) VALUES (?, ?, ?) ON CONFLICT (email) DO NOTHING`,
			to, reason, Now())
		return err
	})
}

// DeleteEmailsTo deletes the e-mails to an address, queued or sent (an
// account's, when it is deleted), and returns how many went. Neither table
// has an index by address (migration 0018: it cost every queued e-mail a
// page write), so the outbox's are found by reading the table from a
// reader, off the writer, and deleted by id; the sent records as
// writeSent does.
func (db *DB) DeleteEmailsTo(ctx context.Context, to string) (int64, error) {
	n, err := db.writeByKeys(ctx, "id", `SELECT id FROM outbox_emails WHERE to_address = ?`, []any{to}, `DELETE FROM outbox_emails WHERE`)
	if err != nil {
		return n, err
	}
	sent, err := db.writeSent(ctx, `DELETE FROM sent_emails WHERE`, `to_address = ?`, to)
	return n + sent, err
}

// writeByKeys reads the keys (column key) query selects, from a reader
// (off the writer), and runs stmt (ending where its WHERE condition goes)
// on those rows by key, 500 to a write. It returns how many rows the
// writes changed.
func (db *DB) writeByKeys(ctx context.Context, key, query string, args []any, stmt string) (int64, error) {
	rows, err := db.Query(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	var keys []any
	for rows.Next() {
		var k any
		if err := rows.Scan(&k); err != nil {
			rows.Close()
			return 0, err
		}
		keys = append(keys, k)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return 0, err
	}
	var changed int64
	for chunk := range slices.Chunk(keys, 500) {
		res, err := db.Exec(ctx, stmt+` `+key+` IN (?`+strings.Repeat(", ?", len(chunk)-1)+`)`, chunk...)
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

// writeSent runs stmt (a DELETE or UPDATE of sent_emails, ending where its
// WHERE condition goes) on the sent records matching cond, and returns how
// many it changed. The records have no index but their order of writing:
// on PostgreSQL one statement reads them all while other writes go on; on
// SQLite, whose one writer would wait for that read, the rows are found
// from a reader and changed by rowid, 500 to a write.
func (db *DB) writeSent(ctx context.Context, stmt, cond string, args ...any) (int64, error) {
	if db.dialect == SQLite {
		return db.writeByKeys(ctx, "rowid", `SELECT rowid FROM sent_emails WHERE `+cond, args, stmt)
	}
	res, err := db.Exec(ctx, stmt+` `+cond, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// DeleteEmailsBefore deletes the e-mails created before t, in the outbox
// and sent (the retention of e-mails), and returns how many went.
func (db *DB) DeleteEmailsBefore(ctx context.Context, t time.Time) (int64, error) {
	res, err := db.Exec(ctx, `DELETE FROM outbox_emails WHERE created_at < ?`, t)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return n, err
	}
	sent, err := db.writeSent(ctx, `DELETE FROM sent_emails WHERE`, `created_at < ?`, t)
	return n + sent, err
}

// EmailsTo returns the newest e-mails to an address, in the outbox or
// sent, newest first (read from both tables whole: they have no index by
// address, see DeleteEmailsTo). A sent one has no ID.
func (db *DB) EmailsTo(ctx context.Context, to string, limit int) ([]OutboxEmail, error) {
	rows, err := db.Query(ctx, `SELECT `+outboxColumns+` FROM outbox_emails WHERE to_address = ? ORDER BY created_at DESC, id LIMIT ?`, to, limit)
	if err != nil {
		return nil, err
	}
	out, err := scanOutbox(rows)
	if err != nil {
		return nil, err
	}
	rows, err = db.Query(ctx, `SELECT `+sentColumns+` FROM sent_emails WHERE to_address = ? ORDER BY created_at DESC LIMIT ?`, to, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		e := OutboxEmail{Status: EmailSent}
		var sent time.Time
		if err := rows.Scan(&e.CreatedAt, &sent, &e.To, &e.Subject, &e.Kind, &e.Via, &e.Body, &e.ListUnsubscribe); err != nil {
			return nil, err
		}
		sent = sent.UTC()
		e.CreatedAt, e.SentAt = e.CreatedAt.UTC(), &sent
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, b OutboxEmail) int { return b.CreatedAt.Compare(a.CreatedAt) })
	return out[:min(len(out), limit)], nil
}

// OutboxCounts returns how many e-mails there are in each state (queued,
// failing and failed in the outbox, sent), for the metrics.
func (db *DB) OutboxCounts(ctx context.Context) (map[string]int, error) {
	rows, err := db.Query(ctx, `SELECT status, COUNT(*) FROM outbox_emails GROUP BY status
		UNION ALL SELECT ?, COUNT(*) FROM sent_emails`, EmailSent)
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
		out[status] += n
	}
	return out, rows.Err()
}

// ImportEmails writes e-mails as they are (ids, states and times set),
// several to a statement, inside tx: sent ones as sent records, the others
// to the outbox. It is for filling a database quickly (tests, benchmarks).
func (t *Tx) ImportEmails(ctx context.Context, emails []OutboxEmail) error {
	var sent, queued []OutboxEmail
	for _, e := range emails {
		if e.Status == EmailSent {
			sent = append(sent, e)
		} else {
			queued = append(queued, e)
		}
	}
	if err := t.importRows(ctx, `sent_emails (`+sentColumns+`)`, 8, len(sent), func(i int) []any { return sent[i].sentRow() }); err != nil {
		return err
	}
	return t.importRows(ctx, `outbox_emails (`+outboxColumns+`)`, 13, len(queued), func(i int) []any {
		e := &queued[i]
		return []any{e.ID, e.To, e.Subject, e.Body, e.Kind, e.Status, e.Via, e.Attempts, e.LastError, e.NextAttemptAt,
			e.SentAt, e.CreatedAt, e.ListUnsubscribe}
	})
}

// ClearSentBodies empties the body and the List-Unsubscribe address of
// the e-mails sent before t, both needed only to send them (they hold the
// unsubscribe link), keeping what the console and `salaula admin mail`
// show of them (recipient, subject, kind, times), and returns how many it
// cleared (see writeSent).
func (db *DB) ClearSentBodies(ctx context.Context, t time.Time) (int64, error) {
	return db.writeSent(ctx, `UPDATE sent_emails SET body = '', list_unsubscribe = '' WHERE`,
		`sent_at < ? AND (body <> '' OR list_unsubscribe <> '')`, t)
}
