package console

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"salaula/internal/audit"
	"salaula/internal/store"
	"salaula/internal/validate"
)

// RoleNone filters people who have not completed a profile.
const RoleNone = "none"

// PeopleFilter narrows the people list: Role one of validate.Roles or
// "none", Q a text searched in the e-mail and full name.
type PeopleFilter struct {
	Role, Q string
	// WithProfile keeps only accounts that have a profile (the CLI's
	// profiles export).
	WithProfile bool
}

// PeopleFilters are the query parameters the people list takes.
var PeopleFilters = []string{"role", "q"}

// ParsePeopleFilter checks raw filter values.
func ParsePeopleFilter(raw map[string]string) (PeopleFilter, error) {
	var f PeopleFilter
	var err error
	if f.Role, err = oneOf("role", raw["role"], append(append([]string{}, validate.Roles...), RoleNone)...); err != nil {
		return f, err
	}
	f.Q = raw["q"]
	return f, nil
}

// Person is an account with its profile (nil before onboarding).
type Person struct {
	ID           string         `json:"id"`
	Email        string         `json:"email"`
	IsOperator   bool           `json:"isOperator"`
	CreatedAt    time.Time      `json:"createdAt"`
	LastSignInAt *time.Time     `json:"lastSignInAt"`
	Profile      *store.Profile `json:"profile"`
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

func peopleQuery(f PeopleFilter) query {
	q := query{
		columns: personColumns,
		from:    `users u LEFT JOIN profiles p ON p.user_id = u.id`,
		keys:    map[string]string{"created_at": "u.created_at", "email": "u.email"},
		id:      "u.id",
	}
	switch {
	case f.Role == RoleNone:
		q.add(`p.role IS NULL`)
	case f.Role != "":
		q.add(`p.role = ?`, f.Role)
	}
	if f.WithProfile {
		q.add(`p.user_id IS NOT NULL`)
	}
	q.searchAny(f.Q, "u.email", "p.full_name")
	return q
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

func scanPerson(row interface{ Scan(...any) error }) (Person, error) {
	var pr Person
	var lastSignIn sql.NullTime
	var hasProfile bool
	p, err := store.ScanProfile(profileTimes{row}, &pr.Email, &pr.IsOperator, &pr.CreatedAt, &lastSignIn, &hasProfile)
	if err != nil {
		return pr, err
	}
	pr.ID, pr.CreatedAt, pr.LastSignInAt = p.UserID, pr.CreatedAt.UTC(), nullTime(lastSignIn)
	if hasProfile {
		pr.Profile = p
	}
	return pr, nil
}

func scanPersonRows(rows *sql.Rows) (Person, error) { return scanPerson(rows) }

func personKey(p Person) (time.Time, string, string, string) { return p.CreatedAt, p.Email, p.ID, p.ID }

// ListPeople answers one page of accounts with their profiles.
func ListPeople(ctx context.Context, db *store.DB, f PeopleFilter, p Paging) (*Page[Person], error) {
	return list(ctx, db, peopleQuery(f), p, scanPersonRows, personKey)
}

// EachPerson calls fn for every account matching f in the order of sort
// (oldest first when empty), one row in memory at a time.
func EachPerson(ctx context.Context, db *store.DB, f PeopleFilter, sort string, fn func(Person) error) error {
	return each(ctx, db, peopleQuery(f), sort, scanPersonRows, fn)
}

// Image is one uploaded file of a person.
type Image struct {
	Key         string    `json:"key"`
	URL         string    `json:"url"` // path of its public read, on this server
	Size        int64     `json:"size"`
	ContentType string    `json:"contentType"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// PersonDetail is an account, its whole profile, its uploads and how many
// sessions it has open.
type PersonDetail struct {
	Person
	EmailConfirmedAt *time.Time `json:"emailConfirmedAt"`
	// EmailProvenAt is when the person proved they read the address (nil:
	// never). Until then the waitlist sign-ups and contact messages sent
	// with the address may be someone else's.
	EmailProvenAt  *time.Time `json:"emailProvenAt"`
	ActiveSessions int        `json:"activeSessions"`
	Images         []Image    `json:"images"`
}

// GetPerson returns the account id with its profile and images, or ErrNotFound.
func GetPerson(ctx context.Context, db *store.DB, id string) (*PersonDetail, error) {
	pr, err := scanPerson(db.QueryRow(ctx, `SELECT `+personColumns+` FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	u, err := db.UserByID(ctx, id)
	if err != nil {
		return nil, err
	}
	d := &PersonDetail{Person: pr, EmailConfirmedAt: u.EmailConfirmedAt, EmailProvenAt: u.EmailProvenAt, Images: []Image{}}
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM sessions WHERE user_id = ? AND revoked_at IS NULL`, id).Scan(&d.ActiveSessions); err != nil {
		return nil, err
	}
	objs, err := db.MediaObjectsOf(ctx, id)
	if err != nil {
		return nil, err
	}
	for _, o := range objs {
		d.Images = append(d.Images, Image{Key: o.Key, URL: "/storage/v1/object/public/" + o.Key, Size: o.Size,
			ContentType: o.ContentType, UpdatedAt: o.UpdatedAt})
	}
	return d, nil
}

// SignOutEverywhere ends every session of the account id (its access tokens
// stop working at once, its refresh tokens are refused) and records it in
// the audit log. It returns how many sessions were ended, or ErrNotFound.
func SignOutEverywhere(ctx context.Context, db *store.DB, by Actor, id string) (int, error) {
	if _, err := db.UserByID(ctx, id); errors.Is(err, store.ErrNotFound) {
		return 0, ErrNotFound
	} else if err != nil {
		return 0, err
	}
	var active int
	err := db.InTx(ctx, func(tx *store.Tx) error {
		var err error
		if active, err = store.RevokeUserSessions(ctx, tx, id); err != nil {
			return err
		}
		return audit.Append(ctx, tx, &audit.Entry{ActorID: by.ID, ActorEmail: by.Email, IP: by.IP,
			Action: "person.sign_out", TargetType: "user", TargetID: id, Detail: map[string]any{"sessions": active}})
	})
	return active, err
}

// ListAudit answers one page of the audit log, newest first.
func ListAudit(ctx context.Context, db *store.DB, p Paging) (*Page[audit.Entry], error) {
	if p.Sort != "" && p.Sort != "-created_at" {
		return nil, badInput(`The audit log is shown newest first: sort can only be "-created_at"`)
	}
	q := query{columns: audit.Columns, from: `audit_log`, keys: map[string]string{"created_at": "created_at"}, id: "id"}
	return list(ctx, db, q, p, func(rows *sql.Rows) (audit.Entry, error) {
		e, err := audit.Scan(rows)
		if err != nil {
			return audit.Entry{}, err
		}
		return *e, nil
	}, func(e audit.Entry) (time.Time, string, string, string) { return e.CreatedAt, "", e.ID, e.ID })
}
