package export

import (
	"context"
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"time"

	"salaula/internal/store"
)

// profileHeader is the first row of the profiles export.
var profileHeader = []string{"user_id", "email", "role", "full_name", "location", "age", "phone_number", "gender",
	"height", "waist_size", "style_description", "clothing_aesthetics", "inspiration", "wants_clearance_program",
	"body_photo_urls", "profile_pic_url", "business_name", "registration_number", "business_mode", "logo_urls",
	"created_at", "updated_at"}

// writeProfiles writes every profile with its account's e-mail as CSV. Lists
// are joined with " | "; cells a spreadsheet would run as a formula are
// prefixed with a quote.
func writeProfiles(ctx context.Context, db *store.DB, w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(profileHeader); err != nil {
		return err
	}
	opt := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	err := db.EachProfile(ctx, func(p *store.Profile, email string) error {
		age := ""
		if p.Age != nil {
			age = strconv.Itoa(*p.Age)
		}
		row := []string{p.UserID, email, opt(p.Role), p.FullName, p.Location, age, p.PhoneNumber, p.Gender,
			p.Height, p.WaistSize, p.StyleDescription, strings.Join(p.ClothingAesthetics, " | "), p.Inspiration,
			strconv.FormatBool(p.WantsClearanceProgram), strings.Join(p.BodyPhotoURLs, " | "), opt(p.ProfilePicURL),
			p.BusinessName, opt(p.RegistrationNumber), p.BusinessMode, strings.Join(p.LogoURLs, " | "),
			p.CreatedAt.Format(time.RFC3339), p.UpdatedAt.Format(time.RFC3339)}
		for i, c := range row {
			row[i] = spreadsheetSafe(c)
		}
		return cw.Write(row)
	})
	if err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// spreadsheetSafe prefixes a cell that starts like a formula with a quote so
// a spreadsheet shows it as text.
func spreadsheetSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
