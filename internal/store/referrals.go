package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// LineStep is how many people one credited referral moves a sign-up ahead
// in its program's line (docs/decisions/0190-place-in-line.md).
const LineStep = 10

// LineEntry is a subscribed sign-up taking (or holding) its place in its
// program's line.
type LineEntry struct {
	Email, Program string
	Code           string // the code of its personal link, when it has none yet
	RefCode        string // the code of the link it came through, "" when none
	IPHash         string // a hash of the address it signed up from
	Mailbox        string // the mailbox its address reaches (validate.MailboxKey)
	At             time.Time
	// seq is the number of the line a run of the entry's write took: on
	// PostgreSQL from its sequence, and a run again of the write (the
	// Writer runs a group again when one of its writes fails) takes the
	// same, so that no number is lost to it; on SQLite the line's next,
	// read again by each run (the undone run took none).
	seq int64
}

// Reasons the store gives a referral not credited (yet), as the console
// shows them; the rule (ReferralRule) gives the others.
const (
	// ReferralUnconfirmed: the sign-up has not confirmed its address yet;
	// the referral is credited when it does (ConfirmWaitlist).
	ReferralUnconfirmed = "waiting for the friend to confirm their address"
	// ReferralSameMailbox: a referral of another address reaching the same
	// mailbox was credited in the program first.
	ReferralSameMailbox = "same mailbox as a referral already credited"
)

// ReferralFacts is what the referral rule judges a sign-up made through a
// link by: the referrer's address, hashed IP and time of joining, the new
// sign-up's, and the referrals the referrer already has from the same IP
// hash since a given time (Recent counts those since At minus the rule's
// window, which the store is told by RecentSince).
type ReferralFacts struct {
	ReferrerEmail, ReferrerIPHash string
	ReferrerAt                    time.Time
	Email, IPHash                 string
	At                            time.Time
	SameIPReferrals               int
}

// ReferralRule decides whether a referral is credited, and why not.
type ReferralRule struct {
	// Since is how far back referrals from the same IP hash are counted
	// into SameIPReferrals.
	Since time.Duration
	Judge func(ReferralFacts) (credited bool, reason string)
}

// LinePlace is a sign-up's place in its program's line.
type LinePlace struct {
	SignupID string
	Program  string
	Code     string
	Position int // 1 is the front
	Credits  int
}

// newPlace gives the subscribed sign-up id, which has no place, the next
// place in its program's line and returns it (nil when a join of the same
// address at the same moment took it first), recording the referral of
// e.RefCode.
func (t *Tx) newPlace(ctx context.Context, id string, e *LineEntry, rule ReferralRule) (*LinePlace, error) {
	p := LinePlace{SignupID: id, Program: e.Program, Code: e.Code}
	var seq int64
	q, args := t.nextLineSeqSQL(e)
	if err := t.QueryRow(ctx, q, args...).Scan(&seq); err != nil {
		return nil, err
	}
	if t.db.dialect == Postgres {
		e.seq = seq
	} else {
		if _, err := t.Exec(ctx, `INSERT INTO waitlist_line_numbers (program, lane, last_seq) VALUES (?, ?, ?)
			ON CONFLICT (program, lane) DO UPDATE SET last_seq = excluded.last_seq`, e.Program, t.Lane(), seq); err != nil {
			return nil, err
		}
	}
	res, err := t.Exec(ctx, `UPDATE waitlist_signups SET line_code = ?, line_seq = ?, line_credits = 0, line_key = ?, ip_hash = ?
		WHERE id = ? AND line_key IS NULL`, e.Code, seq, seq, e.IPHash, id)
	if err != nil {
		return nil, err
	}
	if n, _ := res.RowsAffected(); n == 0 { // a join of the same address at the same moment took it: the number is gone
		_, err := t.Exec(ctx, `INSERT INTO waitlist_line_numbers (program, lane, gone) VALUES (?, ?, 1)
			ON CONFLICT (program, lane) DO UPDATE SET gone = waitlist_line_numbers.gone + 1`, e.Program, t.Lane())
		return nil, err
	}
	if err := t.QueryRow(ctx, `SELECT ? - `+lineGoneSQL, seq, e.Program).Scan(&p.Position); err != nil {
		return nil, err
	}
	if e.RefCode != "" && rule.Judge != nil {
		if err := t.referral(ctx, id, *e, rule); err != nil {
			return nil, err
		}
	}
	return &p, nil
}

// A program's line numbers its places by order of joining (line_seq),
// never handing a number out twice (docs/decisions/0219-line-numbers-from-a-sequence.md):
// on SQLite, whose one writer takes writes one at a time, one more than the
// last (waitlist_line_numbers.last_seq, which the caller sets); on
// PostgreSQL the next value of the program's sequence, which writer lanes
// committing at once take without waiting on each other. The numbers no
// place holds any more are counted in waitlist_line_numbers.gone, per lane:
// a new place, whose number is above every other, is told its number less
// those gone, the count of places before it (lineGoneSQL).

// nextLineSeqSQL is a query of one row, with its arguments, whose column
// seq is the next number of e's program: on PostgreSQL the number an
// earlier run of e's write took, if any.
func (t *Tx) nextLineSeqSQL(e *LineEntry) (string, []any) {
	switch {
	case t.db.dialect == SQLite:
		return nextLineSeqSQLite, []any{e.Program}
	case e.seq > 0:
		return `SELECT ?::bigint AS seq`, []any{e.seq}
	}
	return fmt.Sprintf(`SELECT nextval('%s') AS seq`, lineSequence(codeOf(e.Program))), nil
}

// nextLineSeqSQLite is nextLineSeqSQL on SQLite, the program (its name) its
// argument.
const nextLineSeqSQLite = `SELECT COALESCE(MAX(last_seq), 0) + 1 AS seq FROM waitlist_line_numbers WHERE program = ?`

// lineSequence is the PostgreSQL sequence of the line of the program with
// this code (migration 0045 makes one for each program).
func lineSequence(code int64) string { return fmt.Sprintf("waitlist_line_%d", code) }

// lineGoneSQL is how many numbers of a program's line no place holds, the
// program (its name) its argument.
const lineGoneSQL = `(SELECT COALESCE(SUM(gone), 0) FROM waitlist_line_numbers WHERE program = ?)`

// referral records that the sign-up id came through the link e.RefCode:
// not credited, with the rule's reason, or waiting for the sign-up's
// confirmation (ReferralUnconfirmed; creditReferral).
func (t *Tx) referral(ctx context.Context, id string, e LineEntry, rule ReferralRule) error {
	var f ReferralFacts
	var referrer string
	err := t.QueryRow(ctx, `SELECT id, email, ip_hash, created_at FROM waitlist_signups
		WHERE line_code = ? AND program = ?`, e.RefCode, ProgramCode(e.Program)).
		Scan(&referrer, &f.ReferrerEmail, &f.ReferrerIPHash, &f.ReferrerAt)
	if errors.Is(err, sql.ErrNoRows) || referrer == id {
		return nil // an unknown code, one of another program, or their own
	}
	if err != nil {
		return err
	}
	f.ReferrerAt = f.ReferrerAt.UTC()
	f.Email, f.IPHash, f.At = e.Email, e.IPHash, e.At
	if e.IPHash != "" {
		if err := t.QueryRow(ctx, `SELECT COUNT(*) FROM waitlist_referrals WHERE referrer_id = ? AND ip_hash = ? AND created_at >= ?`,
			referrer, e.IPHash, e.At.Add(-rule.Since)).Scan(&f.SameIPReferrals); err != nil {
			return err
		}
	}
	credited, reason := rule.Judge(f)
	if credited {
		reason = ReferralUnconfirmed
	}
	_, err = t.Exec(ctx, `INSERT INTO waitlist_referrals (signup_id, referrer_id, program, credited, reason, ip_hash, mailbox, created_at)
		VALUES (?, ?, ?, 0, ?, ?, ?, ?) ON CONFLICT (signup_id) DO NOTHING`, id, referrer, e.Program, reason, e.IPHash, e.Mailbox, e.At)
	return err
}

// creditReferral credits, inside t, the referral the sign-up id came
// through when it waits for the sign-up's confirmation: its referrer
// moves ahead. A mailbox already credited in the program (another way of
// writing the same address) is not credited again (ReferralSameMailbox).
func (t *Tx) creditReferral(ctx context.Context, id string) error {
	res, err := t.Exec(ctx, `UPDATE waitlist_referrals SET credited = 1, reason = ''
		WHERE signup_id = ? AND credited = 0 AND reason = ? AND (mailbox = '' OR NOT EXISTS (SELECT 1 FROM waitlist_referrals o
			WHERE o.program = waitlist_referrals.program AND o.mailbox = waitlist_referrals.mailbox AND o.credited = 1))`, id, ReferralUnconfirmed)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		_, err := t.Exec(ctx, `UPDATE waitlist_referrals SET reason = ? WHERE signup_id = ? AND credited = 0 AND reason = ?`,
			ReferralSameMailbox, id, ReferralUnconfirmed)
		return err
	}
	_, err = t.Exec(ctx, `UPDATE waitlist_signups SET line_credits = line_credits + 1, line_key = line_key - ?
		WHERE line_key IS NOT NULL AND id = (SELECT referrer_id FROM waitlist_referrals WHERE signup_id = ?)`, LineStep, id)
	return err
}

// PlaceInLine returns the place of the sign-up with this id: one more than
// the places of its program sorted before it by line_key, then by more
// credits (no two places of a program have both the same).
// ErrNotFound when it has none (unsubscribed, or not entered yet).
func (db *DB) PlaceInLine(ctx context.Context, signupID string) (*LinePlace, error) {
	if !IsID(signupID) {
		return nil, ErrNotFound
	}
	p := LinePlace{SignupID: signupID}
	var key int64
	err := db.QueryRow(ctx, `SELECT program, line_code, line_credits, line_key FROM waitlist_signups
		WHERE id = ? AND line_key IS NOT NULL`, signupID).Scan((*programName)(&p.Program), &p.Code, &p.Credits, &key)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	// Two range counts on the unique (program, line_key, line_credits)
	// index: the keys before, and the equal keys with more credits (an OR
	// of both is not one range, and was read as a scan of the whole
	// program). Equal keys with as many credits are the same number: this
	// place.
	var ties int
	if err := db.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM waitlist_signups WHERE program = ? AND line_key < ?),
		(SELECT COUNT(*) FROM waitlist_signups WHERE program = ? AND line_key = ? AND line_credits > ?)`,
		ProgramCode(p.Program), key, ProgramCode(p.Program), key, p.Credits).Scan(&p.Position, &ties); err != nil {
		return nil, err
	}
	p.Position += ties
	p.Position++
	return &p, nil
}

// forgetReferrals removes, inside t, the place in line, the link code and
// the referrals (made and credited) of the sign-ups that where selects
// (a condition on waitlist_signups): for unsubscribing and deleting. A
// credited referral the sign-up made is taken back from its referrer.
func (t *Tx) forgetReferrals(ctx context.Context, where string, args ...any) error {
	ids := `SELECT id FROM waitlist_signups WHERE ` + where
	if _, err := t.Exec(ctx, `UPDATE waitlist_signups SET line_credits = line_credits - 1, line_key = line_key + ?
		WHERE line_key IS NOT NULL AND id IN (SELECT referrer_id FROM waitlist_referrals WHERE credited = 1 AND signup_id IN (`+ids+`))`,
		append([]any{LineStep}, args...)...); err != nil {
		return err
	}
	if _, err := t.Exec(ctx, `DELETE FROM waitlist_referrals WHERE signup_id IN (`+ids+`) OR referrer_id IN (`+ids+`)`,
		append(append([]any{}, args...), args...)...); err != nil {
		return err
	}
	if _, err := t.Exec(ctx, `INSERT INTO waitlist_line_numbers (program, lane, gone)
		SELECT `+programNameSQL("program")+`, ?, COUNT(*) FROM waitlist_signups WHERE line_key IS NOT NULL AND id IN (`+ids+`) GROUP BY program
		ON CONFLICT (program, lane) DO UPDATE SET gone = waitlist_line_numbers.gone + excluded.gone`, append([]any{t.Lane()}, args...)...); err != nil {
		return err
	}
	_, err := t.Exec(ctx, `UPDATE waitlist_signups SET line_code = NULL, line_seq = NULL, line_credits = 0, line_key = NULL, ip_hash = ''
		WHERE line_key IS NOT NULL AND id IN (`+ids+`)`, args...)
	return err
}

// Referrer is one sign-up whose link brought others, for the console.
type Referrer struct {
	SignupID  string    `json:"signupId"`
	Email     string    `json:"email"`
	Program   string    `json:"program"`
	Referrals int       `json:"referrals"` // sign-ups through the link
	Credited  int       `json:"credited"`  // of which credited
	Last      time.Time `json:"lastAt"`
}

// TopReferrers lists the sign-ups of program ("" for every program) with
// the most referrals, most first.
func (db *DB) TopReferrers(ctx context.Context, program string, limit int) ([]Referrer, error) {
	q, args := `SELECT r.referrer_id, COALESCE(s.email, ''), r.program, COUNT(*), SUM(r.credited), MAX(r.created_at)
		FROM waitlist_referrals r LEFT JOIN waitlist_signups s ON s.id = r.referrer_id`, []any{}
	if program != "" {
		q, args = q+` WHERE r.program = ?`, append(args, program)
	}
	rows, err := db.Query(ctx, q+` GROUP BY r.referrer_id, s.email, r.program ORDER BY COUNT(*) DESC, r.referrer_id LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Referrer{}
	for rows.Next() {
		var r Referrer
		var last any
		if err := rows.Scan(&r.SignupID, &r.Email, &r.Program, &r.Referrals, &r.Credited, &last); err != nil {
			return nil, err
		}
		r.Last = anyTime(last)
		out = append(out, r)
	}
	return out, rows.Err()
}

// anyTime reads a MAX(timestamp), which SQLite hands back as the
// microseconds it keeps (text in a database from before migration 0037).
func anyTime(v any) time.Time {
	switch x := v.(type) {
	case time.Time:
		return x.UTC()
	case int64:
		return time.UnixMicro(x).UTC()
	case string:
		for _, layout := range []string{"2006-01-02 15:04:05.999999999-07:00", time.RFC3339Nano, "2006-01-02 15:04:05.999999999"} {
			if t, err := time.Parse(layout, x); err == nil {
				return t.UTC()
			}
		}
	}
	return time.Time{}
}

// Referral is one sign-up made through a link.
type Referral struct {
	SignupID  string    `json:"signupId"`
	Email     string    `json:"email"`
	Credited  bool      `json:"credited"`
	Reason    string    `json:"reason"` // why it was not credited
	CreatedAt time.Time `json:"createdAt"`
}

// ReferralsOf lists the sign-ups made through the link of the sign-up
// referrerID, newest first.
func (db *DB) ReferralsOf(ctx context.Context, referrerID string, limit int) ([]Referral, error) {
	if !IsID(referrerID) {
		return []Referral{}, nil
	}
	rows, err := db.Query(ctx, `SELECT r.signup_id, COALESCE(s.email, ''), r.credited, r.reason, r.created_at
		FROM waitlist_referrals r LEFT JOIN waitlist_signups s ON s.id = r.signup_id
		WHERE r.referrer_id = ? ORDER BY r.created_at DESC, r.signup_id LIMIT ?`, referrerID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Referral{}
	for rows.Next() {
		var r Referral
		var c int
		if err := rows.Scan(&r.SignupID, &r.Email, &c, &r.Reason, &r.CreatedAt); err != nil {
			return nil, err
		}
		r.Credited, r.CreatedAt = c == 1, r.CreatedAt.UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}

// ReferralCount is how many sign-ups of a program came through links.
type ReferralCount struct {
	Program  string `json:"program"`
	Signups  int    `json:"signups"`
	Credited int    `json:"credited"`
}

// ReferralCounts counts the sign-ups made through links, per program.
func (db *DB) ReferralCounts(ctx context.Context) ([]ReferralCount, error) {
	rows, err := db.Query(ctx, `SELECT program, COUNT(*), SUM(credited) FROM waitlist_referrals GROUP BY program ORDER BY program`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []ReferralCount{}
	for rows.Next() {
		var c ReferralCount
		if err := rows.Scan(&c.Program, &c.Signups, &c.Credited); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// LineImport is a sign-up's place in line as ImportWaitlist stores it:
// its link code (empty for none), IP hash and order of joining.
type LineImport struct {
	Code, IPHash string
	Seq          int64
}

// lineIndex makes the unique index of the places in line (migration
// 0045), which Load makes again once it has loaded the places and
// renumberLine has numbered apart those that shared a number.
const lineIndex = `CREATE UNIQUE INDEX waitlist_signups_line ON waitlist_signups (program, line_key, line_credits) WHERE line_key IS NOT NULL`

// renumberLine numbers apart the places of a program that share a number
// (as migration 0045 did): each program's places keep their order by
// (line_seq, id), a place moving up by how many of them shared a number
// before it, its line_key with it.
const renumberLine = `UPDATE waitlist_signups SET line_seq = line_seq + r.d, line_key = line_key + r.d
	FROM (SELECT id, row_number() OVER (PARTITION BY program ORDER BY line_seq, id)
			- dense_rank() OVER (PARTITION BY program ORDER BY line_seq) AS d
		FROM waitlist_signups WHERE line_key IS NOT NULL) r
	WHERE r.id = waitlist_signups.id AND r.d > 0`

// RecountLine sets each program's line numbers from the places its line
// holds, inside tx: the last number is the highest a place holds (on
// PostgreSQL the program's sequence goes on from it), and the numbers below
// it that no place holds are gone. It is for a database nothing else
// writes to meanwhile (a restore, a test's import).
func RecountLine(ctx context.Context, tx *Tx) error {
	return tx.db.recountLine(ctx, tx.tx)
}

func (db *DB) recountLine(ctx context.Context, q querier) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM waitlist_line_numbers`); err != nil {
		return err
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO waitlist_line_numbers (program, lane, last_seq, gone)
		SELECT `+programNameSQL("program")+`, 0, MAX(line_seq), MAX(line_seq) - COUNT(*) FROM waitlist_signups
		WHERE line_key IS NOT NULL GROUP BY program`); err != nil {
		return err
	}
	if db.dialect != Postgres {
		return nil
	}
	for code := range int64(len(programs)) {
		if code == 0 {
			continue
		}
		if _, err := q.ExecContext(ctx, fmt.Sprintf(`SELECT setval('%s', COALESCE(MAX(line_seq), 0) + 1, false)
			FROM waitlist_signups WHERE program = %d AND line_key IS NOT NULL`, lineSequence(code), code)); err != nil {
			return err
		}
	}
	return nil
}
