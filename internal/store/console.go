package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
)

// The console's lists (waitlist, contact messages, people, audit log):
// their rows, their filters, one query each that serves a page (the
// console's JSON) and the whole list (its CSV and `salaula admin export`),
// and their totals.

// Waitlist statuses a list can be filtered by.
const (
	WaitlistSubscribed   = "subscribed"
	WaitlistUnsubscribed = "unsubscribed"
)

// WaitlistFilter narrows the waitlist: Program (exact), Status
// WaitlistSubscribed or WaitlistUnsubscribed, Q the start of an address or
// of its domain (any letter case; see search). Empty fields do not
// filter.
type WaitlistFilter struct {
	Program, Status, Q string
}

// WaitlistItem is one sign-up as the console shows it.
type WaitlistItem struct {
	ID             string     `json:"id"`
	Email          string     `json:"email"`
	Program        string     `json:"program"`
	PagePath       string     `json:"pagePath"`
	Referrer       string     `json:"referrer"`
	UTMSource      string     `json:"utmSource"`
	UTMMedium      string     `json:"utmMedium"`
	UTMCampaign    string     `json:"utmCampaign"`
	UTMTerm        string     `json:"utmTerm"`
	UTMContent     string     `json:"utmContent"`
	UnsubscribedAt *time.Time `json:"unsubscribedAt"`
	CreatedAt      time.Time  `json:"createdAt"`
	// ReferredBy is the address of the sign-up whose personal link this one
	// came through, "" when it came through none.
	ReferredBy string `json:"referredBy"`
}

// referredBySQL is the address of the sign-up whose personal link the
// waitlist_signups row came through (” for none): one look-up of each key.
const referredBySQL = `COALESCE((SELECT rs.email FROM waitlist_referrals r JOIN waitlist_signups rs ON rs.id = r.referrer_id
	WHERE r.signup_id = waitlist_signups.id), '')`

// WaitlistTie is the tie-breaker of a sign-up in the order key: its program
// for the e-mail sort ((email, program) is unique, so the sort reads that
// index), else its id.
func WaitlistTie(s WaitlistItem, key string) string {
	if key == "email" {
		return s.Program
	}
	return s.ID
}

// waitlistQuery is the waitlist's list query for f on engine d. Its
// e-mail order compares bytes on both engines: on PostgreSQL that is
// `email COLLATE "C"`, the unique (email, program) index's first column
// (migration 0030).
func waitlistQuery(f WaitlistFilter, d Dialect) listQuery {
	email := "email"
	if d == Postgres {
		email = `email COLLATE "C"`
	}
	q := listQuery{
		columns:  `id, email, program, page_path, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content, unsubscribed_at, created_at, ` + referredBySQL,
		from:     `waitlist_signups`,
		keys:     map[string]string{"created_at": "created_at", "email": email},
		id:       "id",
		uuidID:   true,
		emailTie: "program",
		tieArg:   func(tie string) any { return ProgramCode(tie) },
	}
	if f.Program != "" {
		// On SQLite "+program" is a term no index can serve: with the
		// program's statistics (from the line index) the planner would read
		// the whole table and sort it, where walking the created_at index
		// and filtering reads a page's rows (migration 0041).
		program := "program"
		if d == SQLite {
			program = "+program"
		}
		q.add(program+` = ?`, ProgramCode(f.Program))
	}
	switch f.Status {
	case WaitlistSubscribed:
		q.add(`unsubscribed_at IS NULL`)
	case WaitlistUnsubscribed:
		q.add(`unsubscribed_at IS NOT NULL`)
	}
	return q
}

func scanWaitlistItem(rows *sql.Rows) (WaitlistItem, error) {
	var s WaitlistItem
	var unsub sql.NullTime
	err := rows.Scan(&s.ID, &s.Email, (*programName)(&s.Program), &s.PagePath, &s.Referrer, &s.UTMSource, &s.UTMMedium, &s.UTMCampaign,
		&s.UTMTerm, &s.UTMContent, &unsub, &s.CreatedAt, &s.ReferredBy)
	s.UnsubscribedAt, s.CreatedAt = nullTimeUTC(unsub), s.CreatedAt.UTC()
	return s, err
}

// ListWaitlist calls fn with each sign-up matching f, in the order o.
func (db *DB) ListWaitlist(ctx context.Context, f WaitlistFilter, o ListOrder, fn func(WaitlistItem) error) error {
	q := waitlistQuery(f, db.dialect)
	if _, err := db.search(ctx, &q, waitlistSearch, f.Q); err != nil {
		return err
	}
	return each(ctx, db, q, o, scanWaitlistItem, fn)
}

// waitlistSearch is what the waitlist's search compares: the address and
// its domain (migration 0025).
var waitlistSearch = []searchTable{{name: "waitlist_signups", key: "id",
	columns: []searchColumn{{"email", searchAddress}, {"email", searchDomain}}}}

// CountWaitlist is how many sign-ups match f: exact from the waitlist's
// counters (waitlistcounts.go) when f searches no text, else counted up to
// CountCap.
func (db *DB) CountWaitlist(ctx context.Context, f WaitlistFilter) (Total, error) {
	if strings.TrimSpace(f.Q) != "" {
		q := waitlistQuery(f, db.dialect)
		many, err := db.search(ctx, &q, waitlistSearch, f.Q)
		if err != nil {
			return Total{}, err
		}
		return q.countSearched(ctx, db, many)
	}
	q, args := `SELECT COALESCE(SUM(subscribed), 0), COALESCE(SUM(unsubscribed), 0) FROM waitlist_counts`, []any{}
	if f.Program != "" {
		q, args = q+` WHERE program = ?`, append(args, f.Program)
	}
	var subscribed, unsubscribed int
	if err := db.QueryRow(ctx, q, args...).Scan(&subscribed, &unsubscribed); err != nil {
		return Total{}, err
	}
	switch f.Status {
	case WaitlistSubscribed:
		return Total{N: subscribed}, nil
	case WaitlistUnsubscribed:
		return Total{N: unsubscribed}, nil
	}
	return Total{N: subscribed + unsubscribed}, nil
}

// MessageFilter narrows the inbox: Subject and Status (exact), Q the start
// of the address, of its domain, of the first name or of the last name
// (any letter case; see search).
type MessageFilter struct {
	Subject, Status, Q string
}

// InboxMessage is one contact message with its inbox state.
type InboxMessage struct {
	ID          string     `json:"id"`
	FirstName   string     `json:"firstName"`
	LastName    string     `json:"lastName"`
	Email       string     `json:"email"`
	PhoneNumber string     `json:"phoneNumber"`
	Subject     string     `json:"subject"`
	Message     string     `json:"message"`
	Status      string     `json:"status"`
	Note        string     `json:"note"`
	HandledAt   *time.Time `json:"handledAt"`
	CreatedAt   time.Time  `json:"createdAt"`
}

const inboxColumns = `id, first_name, last_name, email, phone_number, subject, message, status, note, handled_at, created_at`

func messageQuery(f MessageFilter) listQuery {
	q := listQuery{
		columns: inboxColumns,
		from:    `contact_messages`,
		keys:    map[string]string{"created_at": "created_at", "email": "email"},
		id:      "id",
	}
	if f.Status != "" {
		q.add(`status = ?`, f.Status)
	}
	if f.Subject != "" {
		q.add(`subject = ?`, f.Subject)
	}
	return q
}

// messageSearch is what the inbox's search compares: the address, its
// domain, the first name and the last name (migration 0033).
var messageSearch = []searchTable{{name: "contact_messages", key: "id", columns: []searchColumn{
	{"email", searchAddress}, {"email", searchDomain}, {"first_name", searchName}, {"last_name", searchName}}}}

func scanInboxMessage(row interface{ Scan(...any) error }) (InboxMessage, error) {
	var m InboxMessage
	var handled sql.NullTime
	err := row.Scan(&m.ID, &m.FirstName, &m.LastName, &m.Email, &m.PhoneNumber, &m.Subject, &m.Message, &m.Status, &m.Note,
		&handled, &m.CreatedAt)
	m.HandledAt, m.CreatedAt = nullTimeUTC(handled), m.CreatedAt.UTC()
	return m, err
}

// ListMessages calls fn with each contact message matching f, in the order
// o (ties broken by id).
func (db *DB) ListMessages(ctx context.Context, f MessageFilter, o ListOrder, fn func(InboxMessage) error) error {
	q := messageQuery(f)
	if _, err := db.search(ctx, &q, messageSearch, f.Q); err != nil {
		return err
	}
	return each(ctx, db, q, o, func(rows *sql.Rows) (InboxMessage, error) { return scanInboxMessage(rows) }, fn)
}

// CountMessages is how many contact messages match f, up to CountCap (a
// search matching many: see countSearched).
func (db *DB) CountMessages(ctx context.Context, f MessageFilter) (Total, error) {
	q := messageQuery(f)
	many, err := db.search(ctx, &q, messageSearch, f.Q)
	if err != nil {
		return Total{}, err
	}
	return q.countSearched(ctx, db, many)
}

// InboxMessageForUpdate reads message id inside tx, ErrNotFound when there
// is none.
func (t *Tx) InboxMessageForUpdate(ctx context.Context, id string) (InboxMessage, error) {
	m, err := scanInboxMessage(t.QueryRow(ctx, `SELECT `+inboxColumns+` FROM contact_messages WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return m, ErrNotFound
	}
	return m, err
}

// SetInboxState stores message id's status, note and handled time, and
// announces the change to realtime subscribers.
func (t *Tx) SetInboxState(ctx context.Context, id, status, note string, handledAt *time.Time) error {
	if _, err := t.Exec(ctx, `UPDATE contact_messages SET status = ?, note = ?, handled_at = ? WHERE id = ?`,
		status, note, handledAt, id); err != nil {
		return err
	}
	return t.Announce(ctx, TableMessages, "UPDATE", `id = ?`, id)
}

// PeopleFilter narrows the people list: Role a profile role, or NoRole
// for accounts without a profile; Q the start of the address, of its
// domain, of the full name or of its last word (any letter case; see
// search); WithProfile keeps only accounts that have a profile.
type PeopleFilter struct {
	Role, Q     string
	WithProfile bool
}

// NoRole is the PeopleFilter role of accounts without a profile.
const NoRole = "none"

// PersonRow is an account with its profile (nil before onboarding).
type PersonRow struct {
	ID           string     `json:"id"`
	Email        string     `json:"email"`
	IsOperator   bool       `json:"isOperator"`
	CreatedAt    time.Time  `json:"createdAt"`
	LastSignInAt *time.Time `json:"lastSignInAt"`
	Profile      *Profile   `json:"profile"`
}

// personColumns are the profile's columns over users LEFT JOIN profiles
// (defaults where there is no profile), then the account's own.
const personColumns = `u.id, p.role, COALESCE(p.full_name, ''), COALESCE(p.location, ''), p.age,
	COALESCE(p.phone_number, ''), COALESCE(p.gender, ''), COALESCE(p.height, ''), COALESCE(p.waist_size, ''),
	COALESCE(p.style_description, ''), COALESCE(p.clothing_aesthetics, '[]'), COALESCE(p.inspiration, ''),
	COALESCE(p.wants_clearance_program, FALSE), COALESCE(p.body_photo_urls, '[]'), p.profile_pic_url,
	COALESCE(p.business_name, ''), p.registration_number, COALESCE(p.business_mode, ''), COALESCE(p.logo_urls, '[]'),
	p.created_at, p.updated_at,
	u.email, u.is_admin, u.created_at, u.last_sign_in_at, p.user_id IS NOT NULL`

const peopleFrom = `users u LEFT JOIN profiles p ON p.user_id = u.id`

func peopleQuery(f PeopleFilter) listQuery {
	q := listQuery{
		columns: personColumns,
		from:    peopleFrom,
		keys:    map[string]string{"created_at": "u.created_at", "email": "u.email"},
		id:      "u.id",
	}
	switch {
	case f.Role == NoRole:
		q.add(`p.role IS NULL`)
	case f.Role != "":
		q.add(`p.role = ?`, f.Role)
	}
	if f.WithProfile {
		q.add(`p.user_id IS NOT NULL`)
	}
	return q
}

// peopleSearch is what the people list's search compares: the account's
// address and its domain, the profile's full name and its last word
// (migration 0033).
var peopleSearch = []searchTable{
	{name: "users", alias: "u", key: "id", columns: []searchColumn{{"email", searchAddress}, {"email", searchDomain}}},
	{name: "profiles", alias: "p", key: "user_id", columns: []searchColumn{{"full_name", searchName}, {"full_name", searchLastWord}}},
}

// profileTimes reads the profile's created_at and updated_at (the 20th and
// 21st columns), NULL for an account without a profile, as the zero time.
type profileTimes struct {
	row interface{ Scan(...any) error }
}

func (pt profileTimes) Scan(dest ...any) error {
	var created, updated sql.NullTime
	d := append([]any{}, dest...)
	d[19], d[20] = &created, &updated
	if err := pt.row.Scan(d...); err != nil {
		return err
	}
	*dest[19].(*time.Time), *dest[20].(*time.Time) = created.Time, updated.Time
	return nil
}

func scanPersonRow(row interface{ Scan(...any) error }) (PersonRow, error) {
	var pr PersonRow
	var lastSignIn sql.NullTime
	var hasProfile bool
	p, err := ScanProfile(profileTimes{row}, &pr.Email, &pr.IsOperator, &pr.CreatedAt, &lastSignIn, &hasProfile)
	if err != nil {
		return pr, err
	}
	pr.ID, pr.CreatedAt, pr.LastSignInAt = p.UserID, pr.CreatedAt.UTC(), nullTimeUTC(lastSignIn)
	if hasProfile {
		pr.Profile = p
	}
	return pr, nil
}

// ListPeople calls fn with each account matching f with its profile, in
// the order o (ties broken by id).
func (db *DB) ListPeople(ctx context.Context, f PeopleFilter, o ListOrder, fn func(PersonRow) error) error {
	q := peopleQuery(f)
	if _, err := db.search(ctx, &q, peopleSearch, f.Q); err != nil {
		return err
	}
	return each(ctx, db, q, o, func(rows *sql.Rows) (PersonRow, error) { return scanPersonRow(rows) }, fn)
}

// CountPeople is how many accounts match f, up to CountCap (a search
// matching many: see countSearched).
func (db *DB) CountPeople(ctx context.Context, f PeopleFilter) (Total, error) {
	q := peopleQuery(f)
	many, err := db.search(ctx, &q, peopleSearch, f.Q)
	if err != nil {
		return Total{}, err
	}
	return q.countSearched(ctx, db, many)
}

// PersonByID is account id with its profile, ErrNotFound when there is none.
func (db *DB) PersonByID(ctx context.Context, id string) (PersonRow, error) {
	pr, err := scanPersonRow(db.QueryRow(ctx, `SELECT `+personColumns+` FROM `+peopleFrom+` WHERE u.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return pr, ErrNotFound
	}
	return pr, err
}

// CountActiveSessions is how many sessions of account userID are not revoked.
func (db *DB) CountActiveSessions(ctx context.Context, userID string) (int, error) {
	var n int
	err := db.QueryRow(ctx, `SELECT COUNT(*) FROM sessions WHERE user_id = ? AND revoked_at IS NULL`, userID).Scan(&n)
	return n, err
}

// ImportWaitlist stores sign-ups as they are (ids, times, unsubscribed or
// not), several to a statement, with sign-up i's place in line lines[i]
// (lines nil, or an entry without a code, for none), without counting them
// in the overview's roll-ups or the line's numbers: the caller recounts
// them (RecountWaitlist, RecountLine) in the same transaction. It is for
// filling a database quickly (tests, benchmarks).
func (t *Tx) ImportWaitlist(ctx context.Context, signups []WaitlistSignup, lines []LineImport) error {
	return t.importRows(ctx, `waitlist_signups (`+waitlistColumns+`, line_code, line_seq, line_key, ip_hash)`, 18, len(signups), func(i int) []any {
		s := &signups[i]
		unconfirmed := 0
		if s.Unconfirmed {
			unconfirmed = 1
		}
		row := []any{s.ID, s.Email, ProgramCode(s.Program), s.PagePath, s.Referrer, s.UTMSource, s.UTMMedium, s.UTMCampaign,
			s.UTMTerm, s.UTMContent, s.UnsubscribeTokenHash, s.UnsubscribedAt, s.CreatedAt, unconfirmed, nil, nil, nil, ""}
		if i < len(lines) && lines[i].Code != "" {
			row[14], row[15], row[16], row[17] = lines[i].Code, lines[i].Seq, lines[i].Seq, lines[i].IPHash
		}
		return row
	})
}

// ReferralImport is a sign-up made through another's personal link, as
// ImportReferrals stores it.
type ReferralImport struct {
	SignupID, ReferrerID, Program string
	At                            time.Time
}

// ImportReferrals stores referrals as they are, credited, several to a
// statement, without moving anyone in line. It is for filling a database
// quickly (tests, benchmarks).
func (t *Tx) ImportReferrals(ctx context.Context, refs []ReferralImport) error {
	return t.importRows(ctx, `waitlist_referrals (signup_id, referrer_id, program, credited, created_at)`, 5, len(refs), func(i int) []any {
		r := &refs[i]
		return []any{r.SignupID, r.ReferrerID, r.Program, 1, r.At}
	})
}

// ImportMessages stores contact messages as they are (ids, times), open,
// several to a statement, without announcing them. It is for filling a
// database quickly (tests, benchmarks).
func (t *Tx) ImportMessages(ctx context.Context, msgs []ContactMessage) error {
	return t.importRows(ctx, `contact_messages (id, first_name, last_name, email, phone_number, subject, message, created_at)`, 8,
		len(msgs), func(i int) []any {
			m := &msgs[i]
			return []any{m.ID, m.FirstName, m.LastName, m.Email, m.PhoneNumber, m.Subject, m.Message, m.CreatedAt}
		})
}

// ImportPeople stores accounts as they are (ids, addresses, password
// hashes, times) and then profiles (each of one of the accounts, or of one
// already stored), several to a statement, without announcing them. It is
// for filling a database quickly (tests, benchmarks): signing up hashes a
// password, a few milliseconds an account.
func (t *Tx) ImportPeople(ctx context.Context, users []User, profiles []Profile) error {
	err := t.importRows(ctx, `users (`+userColumns+`)`, 10, len(users), func(i int) []any {
		u := &users[i]
		meta := u.UserMetadata
		if meta == "" {
			meta = "{}"
		}
		return []any{u.ID, u.Email, u.PasswordHash, u.IsAdmin, u.EmailConfirmedAt, u.EmailProvenAt, meta, u.LastSignInAt,
			u.CreatedAt, u.UpdatedAt}
	})
	if err != nil {
		return err
	}
	return t.importRows(ctx, `profiles (`+profileColumns+`)`, 21, len(profiles), func(i int) []any {
		p := &profiles[i]
		return []any{p.UserID, p.Role, p.FullName, p.Location, p.Age, p.PhoneNumber, p.Gender, p.Height, p.WaistSize,
			p.StyleDescription, jsonList(p.ClothingAesthetics), p.Inspiration, p.WantsClearanceProgram, jsonList(p.BodyPhotoURLs),
			p.ProfilePicURL, p.BusinessName, p.RegistrationNumber, p.BusinessMode, jsonList(p.LogoURLs), p.CreatedAt, p.UpdatedAt}
	})
}

// Analyze refreshes the planner's statistics of every table, as autovacuum
// (PostgreSQL) or a long-running database would have them.
func (db *DB) Analyze(ctx context.Context) error {
	_, err := db.Exec(ctx, `ANALYZE`)
	return err
}
