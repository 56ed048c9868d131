// Package export writes the founders' data as CSV (a header row, then one row
// per record, times in RFC 3339 UTC) for `salaula admin export` and the
// console's "Download CSV" (/admin/v1/*.csv): the same columns, the same
// filters and the same guard against spreadsheet formulas. The rows come
// from the console's lists (console.EachWaitlist and the like), the one
// store query each list has, which also serves the console's pages.
// Rows are streamed: one record in memory at a time, however many there are.
package export

import (
	"context"
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"

	"salaula/internal/console"
	"salaula/internal/store"
)

// WaitlistHeader is the header row of the waitlist export; referred_by is
// the address whose personal link the sign-up came through.
var WaitlistHeader = []string{"created_at", "email", "program", "page_path", "referrer",
	"utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "unsubscribed_at", "referred_by"}

// MessagesHeader is the header row of the contact messages export.
var MessagesHeader = []string{"created_at", "first_name", "last_name", "email", "phone_number", "subject", "message",
	"status", "note", "handled_at"}

// ProfilesHeader is the header row of the profiles (people) export.
var ProfilesHeader = []string{"user_id", "email", "role", "full_name", "location", "age", "phone_number", "gender",
	"height", "waist_size", "style_description", "clothing_aesthetics", "inspiration", "wants_clearance_program",
	"body_photo_urls", "profile_pic_url", "business_name", "registration_number", "business_mode", "logo_urls",
	"created_at", "updated_at"}

// Waitlist writes the sign-ups matching f in the order of sort (oldest first
// when empty).
func Waitlist(ctx context.Context, db *store.DB, f console.WaitlistFilter, sort string, w io.Writer) error {
	cw := newWriter(w, WaitlistHeader)
	err := console.EachWaitlist(ctx, db, f, sort, func(s console.WaitlistItem) error {
		return cw.row(timestamp(s.CreatedAt), s.Email, s.Program, s.PagePath, s.Referrer,
			s.UTMSource, s.UTMMedium, s.UTMCampaign, s.UTMTerm, s.UTMContent, optTime(s.UnsubscribedAt), s.ReferredBy)
	})
	return cw.finish(err)
}

// Messages writes the contact messages matching f in the order of sort.
func Messages(ctx context.Context, db *store.DB, f console.MessageFilter, sort string, w io.Writer) error {
	cw := newWriter(w, MessagesHeader)
	err := console.EachMessage(ctx, db, f, sort, func(m console.Message) error {
		return cw.row(timestamp(m.CreatedAt), m.FirstName, m.LastName, m.Email, m.PhoneNumber, m.Subject, m.Message,
			m.Status, m.Note, optTime(m.HandledAt))
	})
	return cw.finish(err)
}

// Profiles writes the accounts matching f with their profiles (empty cells
// for an account without one) in the order of sort. Lists are joined with " | ".
func Profiles(ctx context.Context, db *store.DB, f console.PeopleFilter, sort string, w io.Writer) error {
	cw := newWriter(w, ProfilesHeader)
	err := console.EachPerson(ctx, db, f, sort, func(pr console.Person) error {
		p := pr.Profile
		if p == nil {
			return cw.row(append([]string{pr.ID, pr.Email}, make([]string, len(ProfilesHeader)-2)...)...)
		}
		age := ""
		if p.Age != nil {
			age = strconv.Itoa(*p.Age)
		}
		return cw.row(p.UserID, pr.Email, opt(p.Role), p.FullName, p.Location, age, p.PhoneNumber, p.Gender,
			p.Height, p.WaistSize, p.StyleDescription, strings.Join(p.ClothingAesthetics, " | "), p.Inspiration,
			strconv.FormatBool(p.WantsClearanceProgram), strings.Join(p.BodyPhotoURLs, " | "), opt(p.ProfilePicURL),
			p.BusinessName, opt(p.RegistrationNumber), p.BusinessMode, strings.Join(p.LogoURLs, " | "),
			timestamp(p.CreatedAt), timestamp(p.UpdatedAt))
	})
	return cw.finish(err)
}

// csvWriter writes safe CSV rows after a header.
type csvWriter struct {
	w   *csv.Writer
	err error
}

func newWriter(w io.Writer, header []string) *csvWriter {
	cw := &csvWriter{w: csv.NewWriter(w)}
	cw.err = cw.w.Write(header)
	return cw
}

// row writes one record with every cell made safe for spreadsheets.
func (cw *csvWriter) row(cells ...string) error {
	if cw.err != nil {
		return cw.err
	}
	for i, c := range cells {
		cells[i] = SafeCell(c)
	}
	cw.err = cw.w.Write(cells)
	return cw.err
}

// finish flushes the output and returns the first error met; after an
// error it writes nothing more.
func (cw *csvWriter) finish(err error) error {
	if err != nil {
		return err // nothing more is written: the caller may still answer the error
	}
	cw.w.Flush()
	if cw.err != nil {
		return cw.err
	}
	return cw.w.Error()
}

// SafeCell guards a cell against CSV formula injection: a value a
// spreadsheet would run as a formula gets a leading single quote. That is
// a value starting with a tab or a carriage return, or whose first
// character other than blanks is = + - or @: spreadsheets skip blanks
// before a formula, so " =1+1" is one too. Blanks are every kind of space
// (the no-break space, the ideographic space and the like), line breaks,
// tabs, other control characters and the invisible format characters (the
// zero-width space, the byte-order mark).
func SafeCell(s string) string {
	if s == "" {
		return s
	}
	if rest := strings.TrimLeftFunc(s, blank); s[0] == '\t' || s[0] == '\r' || rest != "" && strings.ContainsRune("=+-@", rune(rest[0])) {
		return "'" + s
	}
	return s
}

// blank reports whether r is a character a spreadsheet may skip before a
// formula: white space, a control character or an invisible format character.
func blank(r rune) bool {
	return unicode.IsSpace(r) || unicode.In(r, unicode.Zs, unicode.Cc, unicode.Cf)
}

// timestamp formats t as RFC 3339 in UTC.
func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func optTime(t *time.Time) string {
	if t == nil {
		return ""
	}
	return timestamp(*t)
}

func opt(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
