package console

import (
	"context"
	"errors"
	"time"

	"salaula/internal/apierr"
	"salaula/internal/store"
	"salaula/internal/validate"
)

// RoleNone filters people who have not completed a profile.
const RoleNone = store.NoRole

// PeopleFilter narrows the people list: Role one of validate.Roles or
// "none", Q the start of the address, of its domain (after the @), of the
// full name or of its last word, any letter case.
// WithProfile keeps only accounts that have a profile (the CLI's profiles
// export).
type PeopleFilter = store.PeopleFilter

// PeopleFilters are the query parameters the people list takes.
var PeopleFilters = []string{"role", "q"}

// ParsePeopleFilter checks raw filter values.
func ParsePeopleFilter(raw map[string]string) (PeopleFilter, error) {
	var f PeopleFilter
	var err error
	if f.Role, err = oneOf("role", raw["role"], append(append([]string{}, validate.Roles...), RoleNone)...); err != nil {
		return f, err
	}
	f.Q, err = searchText(raw["q"])
	return f, err
}

// Person is an account with its profile (nil before onboarding).
type Person = store.PersonRow

func personCreated(p Person) time.Time { return p.CreatedAt }
func personEmail(p Person) string      { return p.Email }
func personTie(p Person, _ string) string {
	return p.ID
}

// ListPeople answers one page of accounts with their profiles.
func ListPeople(ctx context.Context, db *store.DB, f PeopleFilter, p Paging) (*Page[Person], error) {
	return list(ctx, peopleLister(db, f), func(ctx context.Context) (store.Total, error) { return db.CountPeople(ctx, f) },
		sortKeys, p, personCreated, personEmail, personTie)
}

// EachPerson calls fn for every account matching f in the order of sort
// (oldest first when empty), one row in memory at a time.
func EachPerson(ctx context.Context, db *store.DB, f PeopleFilter, sort string, fn func(Person) error) error {
	return each(ctx, peopleLister(db, f), sortKeys, sort, fn)
}

func peopleLister(db *store.DB, f PeopleFilter) lister[Person] {
	return func(ctx context.Context, o store.ListOrder, fn func(Person) error) error {
		return db.ListPeople(ctx, f, o, fn)
	}
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
	pr, err := db.PersonByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
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
	if d.ActiveSessions, err = db.CountActiveSessions(ctx, id); err != nil {
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
		return store.AppendAudit(ctx, tx, &store.AuditEntry{ActorID: by.ID, ActorEmail: by.Email, IP: by.IP,
			Action: "person.sign_out", TargetType: "user", TargetID: id, Detail: map[string]any{"sessions": active}})
	})
	return active, err
}

// ListAudit answers one page of the audit log, newest first, each entry's
// target named in words (a person's name, a message's sender).
func ListAudit(ctx context.Context, db *store.DB, p Paging) (*Page[store.AuditEntry], error) {
	if p.Sort != "" && p.Sort != "-created_at" {
		return nil, apierr.New(apierr.Invalid, `The audit log is shown newest first: sort can only be "-created_at"`)
	}
	page, err := list(ctx, db.ListAudit, db.CountAudit, []string{"created_at"}, p,
		func(e store.AuditEntry) time.Time { return e.CreatedAt }, func(store.AuditEntry) string { return "" },
		func(e store.AuditEntry, _ string) string { return e.ID })
	if err != nil {
		return nil, err
	}
	return page, db.NameAuditTargets(ctx, page.Items)
}
