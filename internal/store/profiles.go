package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"
)

// Profile is a user's marketplace profile, made by onboarding. Role is nil
// until the user has chosen buyer, seller or both.
type Profile struct {
	UserID                string    `json:"user_id"`
	Role                  *string   `json:"role"`
	FullName              string    `json:"full_name"`
	Location              string    `json:"location"`
	Age                   *int      `json:"age"`
	PhoneNumber           string    `json:"phone_number"`
	Gender                string    `json:"gender"`
	Height                string    `json:"height"`
	WaistSize             string    `json:"waist_size"`
	StyleDescription      string    `json:"style_description"`
	ClothingAesthetics    []string  `json:"clothing_aesthetics"`
	Inspiration           string    `json:"inspiration"`
	WantsClearanceProgram bool      `json:"wants_clearance_program"`
	BodyPhotoURLs         []string  `json:"body_photo_urls"`
	ProfilePicURL         *string   `json:"profile_pic_url"`
	BusinessName          string    `json:"business_name"`
	RegistrationNumber    *string   `json:"registration_number"`
	BusinessMode          string    `json:"business_mode"`
	LogoURLs              []string  `json:"logo_urls"`
	CreatedAt             time.Time `json:"created_at"`
	UpdatedAt             time.Time `json:"updated_at"`
}

const profileColumns = `user_id, role, full_name, location, age, phone_number, gender, height, waist_size,
	style_description, clothing_aesthetics, inspiration, wants_clearance_program, body_photo_urls,
	profile_pic_url, business_name, registration_number, business_mode, logo_urls, created_at, updated_at`

// ProfileByUser returns the profile of a user, or ErrNotFound when the user has none yet.
func (db *DB) ProfileByUser(ctx context.Context, userID string) (*Profile, error) {
	p, err := scanProfile(db.QueryRow(ctx, `SELECT `+profileColumns+` FROM profiles WHERE user_id = ?`, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return p, err
}

// scanProfile reads a row of profileColumns, then any extra columns into extra.
func scanProfile(row interface{ Scan(...any) error }, extra ...any) (*Profile, error) {
	var p Profile
	var role, pic, reg sql.NullString
	var age sql.NullInt64
	var aesthetics, photos, logos string
	err := row.Scan(append([]any{&p.UserID, &role, &p.FullName, &p.Location, &age, &p.PhoneNumber, &p.Gender, &p.Height, &p.WaistSize,
		&p.StyleDescription, &aesthetics, &p.Inspiration, &p.WantsClearanceProgram, &photos,
		&pic, &p.BusinessName, &reg, &p.BusinessMode, &logos, &p.CreatedAt, &p.UpdatedAt}, extra...)...)
	if err != nil {
		return nil, err
	}
	if role.Valid {
		p.Role = &role.String
	}
	if pic.Valid {
		p.ProfilePicURL = &pic.String
	}
	if reg.Valid {
		p.RegistrationNumber = &reg.String
	}
	if age.Valid {
		a := int(age.Int64)
		p.Age = &a
	}
	for _, l := range []struct {
		raw string
		dst *[]string
	}{{aesthetics, &p.ClothingAesthetics}, {photos, &p.BodyPhotoURLs}, {logos, &p.LogoURLs}} {
		*l.dst = []string{}
		if err := json.Unmarshal([]byte(l.raw), l.dst); err != nil {
			return nil, err
		}
	}
	p.CreatedAt, p.UpdatedAt = p.CreatedAt.UTC(), p.UpdatedAt.UTC()
	return &p, nil
}

// EachProfile calls fn with every profile and its account's e-mail, oldest
// profile first, stopping at fn's first error.
func (db *DB) EachProfile(ctx context.Context, fn func(p *Profile, email string) error) error {
	rows, err := db.Query(ctx, `SELECT `+profileColumns+`, (SELECT email FROM users WHERE users.id = profiles.user_id)
		FROM profiles ORDER BY created_at, user_id`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var email string
		p, err := scanProfile(rows, &email)
		if err != nil {
			return err
		}
		if err := fn(p, email); err != nil {
			return err
		}
	}
	return rows.Err()
}

// UpsertProfile stores p as the whole profile of p.UserID, creating it or
// replacing every field of the existing one (created_at is kept).
func (db *DB) UpsertProfile(ctx context.Context, p *Profile) error {
	now := Now()
	if p.CreatedAt.IsZero() {
		p.CreatedAt = now
	}
	p.UpdatedAt = now
	return db.InTx(ctx, func(tx *Tx) error {
		return announceUpsert(ctx, tx, TableProfiles, p.UserID, func() error {
			return upsertProfile(ctx, tx, p)
		})
	})
}

func upsertProfile(ctx context.Context, tx *Tx, p *Profile) error {
	_, err := tx.Exec(ctx, `INSERT INTO profiles (`+profileColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET role = excluded.role, full_name = excluded.full_name,
		location = excluded.location, age = excluded.age, phone_number = excluded.phone_number,
		gender = excluded.gender, height = excluded.height, waist_size = excluded.waist_size,
		style_description = excluded.style_description, clothing_aesthetics = excluded.clothing_aesthetics,
		inspiration = excluded.inspiration, wants_clearance_program = excluded.wants_clearance_program,
		body_photo_urls = excluded.body_photo_urls, profile_pic_url = excluded.profile_pic_url,
		business_name = excluded.business_name, registration_number = excluded.registration_number,
		business_mode = excluded.business_mode, logo_urls = excluded.logo_urls, updated_at = excluded.updated_at`,
		p.UserID, p.Role, p.FullName, p.Location, p.Age, p.PhoneNumber, p.Gender, p.Height, p.WaistSize,
		p.StyleDescription, jsonList(p.ClothingAesthetics), p.Inspiration, p.WantsClearanceProgram, jsonList(p.BodyPhotoURLs),
		p.ProfilePicURL, p.BusinessName, p.RegistrationNumber, p.BusinessMode, jsonList(p.LogoURLs), p.CreatedAt, p.UpdatedAt)
	return err
}

// BuyerFields are what onboard-new-user sets: the person and their style.
type BuyerFields struct {
	FullName, Location, PhoneNumber, Gender string
	Age                                     int
	Height, WaistSize, StyleDescription     string
	ClothingAesthetics                      []string
	Inspiration                             string
	WantsClearanceProgram                   bool
	BodyPhotoURLs                           []string
	ProfilePicURL                           *string
}

// SellerFields are what onboard-seller sets: the person and their business.
type SellerFields struct {
	FullName, Location, PhoneNumber, Gender string
	Age                                     int
	BusinessName                            string
	RegistrationNumber                      *string
	BusinessMode                            string
	LogoURLs                                []string
}

// jsonList encodes a list column; nil is the empty list.
func jsonList(v []string) string {
	if v == nil {
		v = []string{}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// imageURLs returns every image URL a profile refers to.
func (p *Profile) imageURLs() []string {
	urls := append(append([]string{}, p.BodyPhotoURLs...), p.LogoURLs...)
	if p.ProfilePicURL != nil {
		urls = append(urls, *p.ProfilePicURL)
	}
	return urls
}

// ImageURLs returns every image URL the profile refers to: body photos,
// profile picture and logos.
func (p *Profile) ImageURLs() []string { return p.imageURLs() }

// saveHalf runs an upsert of one half of a profile in a transaction and
// returns the image URLs the profile referred to before.
func (db *DB) saveHalf(ctx context.Context, userID, upsert string, args ...any) (before []string, err error) {
	err = db.InTx(ctx, func(tx *Tx) error {
		var photos, logos string
		var pic sql.NullString
		err := tx.QueryRow(ctx, `SELECT body_photo_urls, profile_pic_url, logo_urls FROM profiles WHERE user_id = ?`, userID).
			Scan(&photos, &pic, &logos)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err == nil {
			var p Profile
			json.Unmarshal([]byte(photos), &p.BodyPhotoURLs)
			json.Unmarshal([]byte(logos), &p.LogoURLs)
			if pic.Valid {
				p.ProfilePicURL = &pic.String
			}
			before = p.imageURLs()
		}
		op := "UPDATE"
		if errors.Is(err, sql.ErrNoRows) {
			op = "INSERT"
		}
		if _, err = tx.Exec(ctx, upsert, args...); err != nil {
			return err
		}
		return tx.Announce(ctx, TableProfiles, op, `user_id = ?`, userID)
	})
	return before, err
}

// SaveBuyerProfile sets the buyer half of a user's profile (creating the
// profile if needed) without touching the business fields. The role becomes
// buyer, or buyer_and_seller when the user is already a seller. It returns
// the image URLs the profile referred to before.
func (db *DB) SaveBuyerProfile(ctx context.Context, userID string, b BuyerFields) ([]string, error) {
	now := Now()
	return db.saveHalf(ctx, userID, `INSERT INTO profiles (user_id, role, full_name, location, age, phone_number, gender,
		height, waist_size, style_description, clothing_aesthetics, inspiration, wants_clearance_program,
		body_photo_urls, profile_pic_url, created_at, updated_at)
		VALUES (?, 'buyer', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET
		role = CASE WHEN profiles.role IN ('seller', 'buyer_and_seller') THEN 'buyer_and_seller' ELSE 'buyer' END,
		full_name = excluded.full_name, location = excluded.location, age = excluded.age,
		phone_number = excluded.phone_number, gender = excluded.gender, height = excluded.height,
		waist_size = excluded.waist_size, style_description = excluded.style_description,
		clothing_aesthetics = excluded.clothing_aesthetics, inspiration = excluded.inspiration,
		wants_clearance_program = excluded.wants_clearance_program, body_photo_urls = excluded.body_photo_urls,
		profile_pic_url = excluded.profile_pic_url, updated_at = excluded.updated_at`,
		userID, b.FullName, b.Location, b.Age, b.PhoneNumber, b.Gender, b.Height, b.WaistSize, b.StyleDescription,
		jsonList(b.ClothingAesthetics), b.Inspiration, b.WantsClearanceProgram, jsonList(b.BodyPhotoURLs), b.ProfilePicURL,
		now, now)
}

// SaveSellerProfile sets the seller half of a user's profile (creating the
// profile if needed) without touching the buyer's style fields. The role
// becomes seller, or buyer_and_seller when the user is already a buyer. It
// returns the image URLs the profile referred to before.
func (db *DB) SaveSellerProfile(ctx context.Context, userID string, s SellerFields) ([]string, error) {
	now := Now()
	return db.saveHalf(ctx, userID, `INSERT INTO profiles (user_id, role, full_name, location, age, phone_number, gender,
		business_name, registration_number, business_mode, logo_urls, created_at, updated_at)
		VALUES (?, 'seller', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET
		role = CASE WHEN profiles.role IN ('buyer', 'buyer_and_seller') THEN 'buyer_and_seller' ELSE 'seller' END,
		full_name = excluded.full_name, location = excluded.location, age = excluded.age,
		phone_number = excluded.phone_number, gender = excluded.gender, business_name = excluded.business_name,
		registration_number = excluded.registration_number, business_mode = excluded.business_mode,
		logo_urls = excluded.logo_urls, updated_at = excluded.updated_at`,
		userID, s.FullName, s.Location, s.Age, s.PhoneNumber, s.Gender, s.BusinessName, s.RegistrationNumber,
		s.BusinessMode, jsonList(s.LogoURLs), now, now)
}

// ScanProfile reads a row of the profile columns (in the order of the
// profiles table's columns: user_id, role, full_name, ... created_at,
// updated_at), then any extra columns into extra.
func ScanProfile(row interface{ Scan(...any) error }, extra ...any) (*Profile, error) {
	return scanProfile(row, extra...)
}
