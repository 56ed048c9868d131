package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
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
	// ClientKey is the key the sending form made for this message, or empty:
	// a message with a key already stored is not stored again.
	ClientKey string
}

// CreateContactMessage stores m, filling in its ID and CreatedAt when
// empty. then, when not nil, runs in the same transaction (e.g. to queue the
// e-mail about m), so both are kept or neither is. When a message with m's
// ClientKey is already stored, nothing is stored and then does not run: the
// same message sent twice is kept (and mailed) once.
func (db *DB) CreateContactMessage(ctx context.Context, m *ContactMessage, then func(*Tx) error) error {
	if m.ID == "" {
		m.ID = NewOrderedID()
	}
	if m.CreatedAt.IsZero() {
		m.CreatedAt = Now()
	}
	return db.InTx(ctx, func(tx *Tx) error {
		var key any
		if m.ClientKey != "" {
			key = m.ClientKey
		}
		n, err := tx.insertAnnounced(ctx, TableMessages, `INSERT INTO contact_messages
			(id, first_name, last_name, email, phone_number, subject, message, created_at, client_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (client_key) DO NOTHING`,
			m.ID, m.FirstName, m.LastName, m.Email, m.PhoneNumber, m.Subject, m.Message, m.CreatedAt, key)
		if err != nil {
			return err
		}
		if n > 0 && then != nil {
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
	// UnsubscribeTokenHash is a hash of the token in the confirmation
	// e-mail's unsubscribe link (the first 32 hex characters of its
	// SHA-256; the whole 64 for sign-ups made before that was cut).
	UnsubscribeTokenHash string
	UnsubscribedAt       *time.Time
	CreatedAt            time.Time
	// Unconfirmed is true until the address's holder presses the button
	// of the confirm link e-mailed to it (ConfirmWaitlist).
	Unconfirmed bool
}

const waitlistColumns = `id, email, program, page_path, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content,
	unsubscribe_token_hash, unsubscribed_at, created_at, unconfirmed`

func scanWaitlist(row interface{ Scan(...any) error }) (*WaitlistSignup, error) {
	var s WaitlistSignup
	var unsub sql.NullTime
	var unconfirmed int
	err := row.Scan(&s.ID, &s.Email, (*programName)(&s.Program), &s.PagePath, &s.Referrer, &s.UTMSource, &s.UTMMedium, &s.UTMCampaign,
		&s.UTMTerm, &s.UTMContent, &s.UnsubscribeTokenHash, &unsub, &s.CreatedAt, &unconfirmed)
	s.Unconfirmed = unconfirmed == 1
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

// WaitlistJoin is what a new sign-up brings with it, written in the same
// transaction only when the sign-up is new. (The analytics funnel counts
// sign-ups from the waitlist_daily roll-up the sign-up updates anyway,
// WaitlistPerDay, so a sign-up writes no analytics event.)
type WaitlistJoin struct {
	Email       *OutboxEmail // its confirmation, written to the outbox (see Tx.WriteEmail)
	AfterCommit func()       // run once the sign-up is committed (see Tx.AfterCommit)
}

// JoinWaitlist stores s unless its (e-mail, program) is already on the
// list, and reports whether s was stored: the first sign-up of that address
// for that program ever. Only then is what join holds written with it, in
// the same transaction (its e-mail, say), so it happens at most once per
// address and program, however many times or how concurrently the address
// signs up. A sign-up already there, subscribed or not, is left exactly as
// it is (a repeat is the caller's to answer: RenewWaitlistLink; an
// unsubscribed address comes back only by ConfirmWaitlist). On PostgreSQL a new sign-up with its roll-ups, e-mail and
// announcement is one statement: each statement is a round trip, and the
// sign-up is the write a launch makes most (docs/decisions/0165-writer.md).
func (db *DB) JoinWaitlist(ctx context.Context, s *WaitlistSignup, join WaitlistJoin) (joined bool, err error) {
	joined, _, err = db.joinWaitlist(ctx, s, join, nil, ReferralRule{})
	return joined, err
}

// JoinWaitlistInLine is JoinWaitlist that also gives a new sign-up its
// place in its program's line (line: its link code, the code of the link
// it came through, its IP hash and mailbox) in the same transaction, with
// the referral of that link (credited only once the sign-up is confirmed,
// ConfirmWaitlist), and returns the place (nil for a repeat). The sign-up
// and its place are kept together or not at all.
func (db *DB) JoinWaitlistInLine(ctx context.Context, s *WaitlistSignup, join WaitlistJoin, line LineEntry, rule ReferralRule) (bool, *LinePlace, error) {
	return db.joinWaitlist(ctx, s, join, &line, rule)
}

func (db *DB) joinWaitlist(ctx context.Context, s *WaitlistSignup, join WaitlistJoin, line *LineEntry, rule ReferralRule) (joined bool, place *LinePlace, err error) {
	if !IsProgram(s.Program) {
		return false, nil, fmt.Errorf("store: %q is not a waitlist program", s.Program)
	}
	if s.ID == "" {
		s.ID = NewOrderedID()
	}
	if s.CreatedAt.IsZero() {
		s.CreatedAt = Now()
	}
	if line != nil {
		line.Email, line.Program, line.At = s.Email, s.Program, s.CreatedAt
	}
	var n int
	referral := line != nil && line.RefCode != "" && rule.Judge != nil
	if db.dialect == Postgres && !referral {
		// The sign-up is its one statement: the Writer may send it with others.
		err = db.inStatement(ctx, func(tx *Tx) (string, []any, func(row) error) {
			return tx.joinPostgres(s, join, line, &n, &place)
		})
		if err == nil && n == 1 && join.AfterCommit != nil {
			join.AfterCommit()
		}
	} else {
		err = db.InTx(ctx, func(tx *Tx) error {
			var err error
			if db.dialect == Postgres {
				q, args, scan := tx.joinPostgres(s, join, line, &n, &place)
				err = scan(tx.QueryRow(ctx, q, args...))
			} else {
				n, place, err = tx.join(ctx, s, join, line)
			}
			if err != nil || n != 1 {
				return err
			}
			if join.AfterCommit != nil {
				tx.AfterCommit(join.AfterCommit)
			}
			if referral {
				return tx.referral(ctx, s.ID, *line, rule)
			}
			return nil
		})
	}
	if err != nil {
		return false, nil, err
	}
	return n == 1, place, nil
}

// RenewWaitlistLink gives the sign-up id a new token (its hash tokenHash:
// the links of the e-mail about it that goes out now; those of earlier
// e-mails stop working) and writes that e-mail in the same transaction:
// the outbox row e, when not nil, and after, run once committed. It is how
// a repeated sign-up is answered: by e-mail to the address, never on
// screen. ErrNotFound when there is no such sign-up.
func (db *DB) RenewWaitlistLink(ctx context.Context, id, tokenHash string, e *OutboxEmail, after func()) error {
	if !IsID(id) {
		return ErrNotFound
	}
	return db.InTx(ctx, func(tx *Tx) error {
		res, err := tx.Exec(ctx, `UPDATE waitlist_signups SET unsubscribe_token_hash = ? WHERE id = ?`, tokenHash, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return tx.QueueEmail(ctx, e, after)
	})
}

// ConfirmWaitlist records the press on the confirm link's button of the
// sign-up with this id and token hash, and returns the sign-up and its
// place. An unconfirmed sign-up becomes confirmed and the referral it came
// through is credited now, unless its mailbox was credited already in the
// program. An unsubscribed one is subscribed again, confirmed, with a new
// place at the end of the line (line: its new link code and IP hash). A
// confirmed one changes nothing. ErrNotFound when no sign-up has both.
func (db *DB) ConfirmWaitlist(ctx context.Context, id, tokenHash string, line LineEntry) (*WaitlistSignup, *LinePlace, error) {
	if !IsID(id) {
		return nil, nil, ErrNotFound
	}
	var su *WaitlistSignup
	err := db.InTx(ctx, func(tx *Tx) error {
		var err error
		su, err = scanWaitlist(tx.QueryRow(ctx, `SELECT `+waitlistColumns+` FROM waitlist_signups WHERE id = ? AND unsubscribe_token_hash = ?`, id, tokenHash))
		if err != nil || (!su.Unconfirmed && su.UnsubscribedAt == nil) {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE waitlist_signups SET unconfirmed = 0, unsubscribed_at = NULL WHERE id = ?`, id); err != nil {
			return err
		}
		if err := tx.Announce(ctx, TableWaitlist, "UPDATE", `id = ?`, id); err != nil {
			return err
		}
		if su.UnsubscribedAt == nil {
			return tx.creditReferral(ctx, id)
		}
		if err := countWaitlistMove(ctx, tx, 1, `id = ?`, id); err != nil {
			return err
		}
		line.Email, line.Program, line.At, line.RefCode = su.Email, su.Program, Now(), ""
		_, err = tx.newPlace(ctx, id, &line, ReferralRule{})
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	place, err := db.PlaceInLine(ctx, id)
	return su, place, err
}

// joinShape is what the text of a sign-up's statements depends on, its
// values aside: the engine, whether the sign-up takes a place in line and,
// on PostgreSQL, which program's sequence gives the number (or that an
// earlier run of the write took it already) and how its e-mail is
// written. A launch writes one shape again and
// again, so each text is built once (joinStatements), not per sign-up.
type joinShape struct {
	dialect Dialect
	line    bool
	taken   bool  // PostgreSQL: the line number an earlier run took
	program int64 // PostgreSQL: the code of the program whose sequence numbers the line
	email   string
}

// joinStatements holds the statement text of each joinShape met so far
// (a handful: the engine's, the programs', the e-mail's ways).
var joinStatements sync.Map

// statement returns the text of shape, building it with build the first
// time.
func (shape joinShape) statement(build func() string) string {
	if q, ok := joinStatements.Load(shape); ok {
		return q.(string)
	}
	q, _ := joinStatements.LoadOrStore(shape, build())
	return q.(string)
}

// waitlistInsertSQL is the statement that inserts a sign-up unless its
// (e-mail, program) is on the list, its values those of
// waitlistInsertArgs. With a line, the sign-up takes its place in line in
// the same row: the next number of its program's line as its line_seq and
// line_key, the entry's link code and IP hash. On SQLite the number is the
// one join read (line.seq), bound as a value, and join keeps it in
// waitlist_line_numbers; on PostgreSQL it comes from nextLineSeqSQL and is
// taken only when the address is not on the list: a repeated join takes
// none.
func (t *Tx) waitlistInsertSQL(line *LineEntry) string {
	const columns = `id, email, program, page_path, referrer, utm_source, utm_medium, utm_campaign,
		utm_term, utm_content, unsubscribe_token_hash, created_at, unconfirmed`
	if line == nil {
		return `INSERT INTO waitlist_signups (` + columns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (email, program) DO NOTHING`
	}
	if t.db.dialect == SQLite {
		// One row of VALUES, its number read before (join), and no
		// RETURNING (which SQLite runs as a trigger): SQLite then keeps no
		// statement journal (a copy of every page the statement changes,
		// in case it fails halfway) and opens no temporary table.
		return `INSERT INTO waitlist_signups (` + columns + `, line_code, ip_hash, line_seq, line_key)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (email, program) DO NOTHING`
	}
	// A value of VALUES is text unless told.
	next, _ := t.nextLineSeqSQL(line)
	return `INSERT INTO waitlist_signups (` + columns + `, line_code, ip_hash, line_seq, line_key)
		SELECT v.*, c.seq, c.seq FROM (VALUES (?::uuid, ?, ?::smallint, ?, ?, ?, ?, ?, ?, ?, ?, ?::timestamp, ?::smallint, ?, ?)) v,
		(` + next + `) c WHERE NOT EXISTS (SELECT 1 FROM waitlist_signups WHERE email = ? AND program = ?)
		ON CONFLICT (email, program) DO NOTHING`
}

// waitlistInsertArgs are the values of waitlistInsertSQL for s and line.
func (t *Tx) waitlistInsertArgs(s *WaitlistSignup, line *LineEntry) []any {
	unconfirmed := 0
	if s.Unconfirmed {
		unconfirmed = 1
	}
	args := []any{s.ID, s.Email, ProgramCode(s.Program), s.PagePath, s.Referrer, s.UTMSource, s.UTMMedium, s.UTMCampaign, s.UTMTerm,
		s.UTMContent, s.UnsubscribeTokenHash, s.CreatedAt, unconfirmed}
	if line == nil {
		return args
	}
	args = append(args, line.Code, line.IPHash)
	if t.db.dialect == SQLite {
		return append(args, line.seq, line.seq)
	}
	_, nextArgs := t.nextLineSeqSQL(line)
	return append(append(args, nextArgs...), s.Email, ProgramCode(s.Program))
}

// join inserts s (with its place in line, when line is set) unless it is
// on the list and, when it was inserted, announces it and writes its
// roll-ups and what join holds, statement by statement (SQLite). It
// returns how many sign-ups it inserted (0 or 1) and the new place.
func (t *Tx) join(ctx context.Context, s *WaitlistSignup, join WaitlistJoin, line *LineEntry) (int, *LinePlace, error) {
	var gone int64
	if line != nil {
		// The line's next number, and how many of its numbers no place
		// holds, read once: the row takes the number, its lane keeps it as
		// its last, and the place is the number less those gone.
		if err := t.QueryRow(ctx, `SELECT COALESCE(MAX(last_seq), 0) + 1, COALESCE(SUM(gone), 0)
			FROM waitlist_line_numbers WHERE program = ?`, line.Program).Scan(&line.seq, &gone); err != nil {
			return 0, nil, err
		}
	}
	q := joinShape{dialect: SQLite, line: line != nil}.statement(func() string { return t.waitlistInsertSQL(line) })
	res, err := t.Exec(ctx, q, t.waitlistInsertArgs(s, line)...)
	if err != nil {
		return 0, nil, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return 0, nil, err // the address is on the list already
	}
	if err := t.announceKey(ctx, TableWaitlist, "INSERT", s.ID); err != nil {
		return 0, nil, err
	}
	if err := countWaitlistJoin(ctx, t, s); err != nil {
		return 0, nil, err
	}
	if join.Email != nil {
		if err := t.WriteEmail(ctx, join.Email); err != nil {
			return 0, nil, err
		}
	}
	if line == nil {
		return 1, nil, nil
	}
	if _, err := t.Exec(ctx, `INSERT INTO waitlist_line_numbers (program, lane, last_seq) VALUES (?, ?, ?)
		ON CONFLICT (program, lane) DO UPDATE SET last_seq = excluded.last_seq`, line.Program, t.Lane(), line.seq); err != nil {
		return 0, nil, err
	}
	p := LinePlace{SignupID: s.ID, Program: s.Program, Code: line.Code, Position: int(line.seq - gone)}
	return 1, &p, nil
}

// joinPostgres is join in one statement: data-modifying WITH parts
// insert the sign-up and, each only when it was inserted, bump its
// roll-ups, write its e-mail and announce it by key (listeners
// read the row); with line, the sign-up takes the next number of its
// program's sequence (no counter row: lanes do not wait on each other) and
// is told its place (the referral left to the caller). It returns the
// statement (its text built once per shape, joinShape, already in
// PostgreSQL's $n placeholders), its values, and what reads its row into n
// (how many sign-ups it inserted, 0 or 1) and place (the new place, or nil).
func (t *Tx) joinPostgres(s *WaitlistSignup, join WaitlistJoin, line *LineEntry, n *int, place **LinePlace) (string, []any, func(row) error) {
	day := s.CreatedAt.UTC().Format(time.DateOnly)
	shape := joinShape{dialect: Postgres, line: line != nil}
	if line != nil {
		shape.taken, shape.program = line.seq > 0, codeOf(line.Program)
	}
	args := t.waitlistInsertArgs(s, line)
	args = append(args, day, s.Program, t.Lane(), s.Program, s.UTMSource, s.UTMCampaign, s.Referrer, s.PagePath, t.Lane())
	if e := join.Email; e != nil && e.Status == EmailSent {
		shape.email = EmailSent
		e.row() // fills in its times and attempts
		args = append(args, e.sentRow()...)
	} else if e != nil {
		shape.email = EmailQueued
		args = append(args, e.row()...)
	}
	args = append(args, notifyChannel, insertNotice(TableWaitlist, s.ID))
	if line != nil {
		args = append(args, s.Program)
	}
	q := shape.statement(func() string { return t.db.rebind(t.joinPostgresSQL(shape, line)) })
	return q, args, func(r row) error {
		var seq, numbersGone int64
		*place = nil
		if err := r.Scan(n, &seq, &numbersGone); err != nil || *n == 0 || line == nil {
			return err
		}
		line.seq = seq
		*place = &LinePlace{SignupID: s.ID, Program: s.Program, Code: line.Code, Position: int(seq - numbersGone)}
		return nil
	}
}

// joinPostgresSQL is the text of joinPostgres's statement of shape (line
// the entry it is built for), with '?' placeholders in the order
// joinPostgres appends its values.
func (t *Tx) joinPostgresSQL(shape joinShape, line *LineEntry) string {
	q := `WITH s AS (` + t.waitlistInsertSQL(line) + ` RETURNING id, program, line_seq
		), daily AS (
			INSERT INTO waitlist_daily (day, program, lane, signups) SELECT ?, ?, ?, 1 FROM s
			ON CONFLICT (day, program, lane) DO UPDATE SET signups = waitlist_daily.signups + 1
		), counts AS (
			INSERT INTO waitlist_counts (` + waitlistKey + `, lane, subscribed, unsubscribed) SELECT ?, ?, ?, ?, ?, ?, 1, 0 FROM s
			ON CONFLICT (` + waitlistKey + `, lane) DO UPDATE SET subscribed = waitlist_counts.subscribed + 1
		)`
	switch shape.email {
	case EmailSent:
		q += `, email AS (INSERT INTO sent_emails (` + sentColumns + `) SELECT ?::timestamp, ?::timestamp, ?, ?, ?, ?, ?, ? FROM s)`
	case EmailQueued:
		q += `, email AS (INSERT INTO outbox_emails (` + emailColumns + `) SELECT ?::uuid, ?, ?, ?, ?, ?, ?::timestamp, ?, ?::int,
			?::timestamp, ?::timestamp, ? FROM s)`
	}
	gone := `0`
	if shape.line {
		gone = lineGoneSQL
	}
	return q + ` SELECT COUNT(pg_notify(?, ?)), COALESCE(MAX(s.line_seq), 0), ` + gone + ` FROM s`
}

// UnsubscribeWaitlist marks the sign-up with this ID and token hash as
// unsubscribed (keeping the first time when it already was) and returns it;
// ErrNotFound when no sign-up has both. An empty id is for links made
// before they carried the sign-up's ID (migration 0019): the sign-up is then
// found by the hash alone, which has no index any more, so it is read on a
// reader, never in the writer.
func (db *DB) UnsubscribeWaitlist(ctx context.Context, id, tokenHash string) (*WaitlistSignup, error) {
	if id != "" && !IsID(id) {
		return nil, ErrNotFound
	}
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
			if err := tx.forgetReferrals(ctx, `id = ?`, id); err != nil {
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
	return scanWaitlist(db.QueryRow(ctx, `SELECT `+waitlistColumns+` FROM waitlist_signups WHERE email = ? AND program = ?`, email, ProgramCode(program)))
}

// EachWaitlistSignup calls fn for every sign-up, oldest first, only those of
// program when it is not empty, stopping at the first error fn returns.
func (db *DB) EachWaitlistSignup(ctx context.Context, program string, fn func(*WaitlistSignup) error) error {
	q, args := `SELECT `+waitlistColumns+` FROM waitlist_signups`, []any{}
	if program != "" {
		q, args = q+` WHERE program = ?`, append(args, ProgramCode(program))
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
