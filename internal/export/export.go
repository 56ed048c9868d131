// Package export writes the founders' data as CSV (a header row, then one row
// per record) for `salaula admin export`.
package export

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"salaula/internal/store"
	"salaula/internal/validate"
)

// ErrNotAvailable is returned by an export that has not landed yet.
var ErrNotAvailable = errors.New("this export is not available yet")

// WaitlistHeader is the header row of the waitlist export.
var WaitlistHeader = []string{"created_at", "email", "program", "page_path", "referrer",
	"utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "unsubscribed_at"}

// MessagesHeader is the header row of the contact messages export.
var MessagesHeader = []string{"created_at", "first_name", "last_name", "email", "phone_number", "subject", "message"}

// Waitlist writes the waitlist sign-ups, only those of program when it is not
// empty. program must be one of the spec's two programs (any letter case).
func Waitlist(ctx context.Context, db *store.DB, program string, w io.Writer) error {
	if program != "" {
		canonical := ""
		for _, p := range validate.Programs {
			if strings.EqualFold(strings.TrimSpace(program), p) {
				canonical = p
			}
		}
		if canonical == "" {
			return fmt.Errorf("unknown program %q: want %q or %q", program, validate.Programs[0], validate.Programs[1])
		}
		program = canonical
	}
	cw := newWriter(w, WaitlistHeader)
	err := db.EachWaitlistSignup(ctx, program, func(s *store.WaitlistSignup) error {
		unsub := ""
		if s.UnsubscribedAt != nil {
			unsub = timestamp(*s.UnsubscribedAt)
		}
		return cw.row(timestamp(s.CreatedAt), s.Email, s.Program, s.PagePath, s.Referrer,
			s.UTMSource, s.UTMMedium, s.UTMCampaign, s.UTMTerm, s.UTMContent, unsub)
	})
	return cw.finish(err)
}

// Messages writes the contact messages.
func Messages(ctx context.Context, db *store.DB, w io.Writer) error {
	cw := newWriter(w, MessagesHeader)
	err := db.EachContactMessage(ctx, func(m *store.ContactMessage) error {
		return cw.row(timestamp(m.CreatedAt), m.FirstName, m.LastName, m.Email, m.PhoneNumber, m.Subject, m.Message)
	})
	return cw.finish(err)
}

// Profiles writes the accounts' profiles.
func Profiles(ctx context.Context, db *store.DB, w io.Writer) error {
	return writeProfiles(ctx, db, w)
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

// finish flushes the output and returns the first error met.
func (cw *csvWriter) finish(err error) error {
	cw.w.Flush()
	if err != nil {
		return err
	}
	if cw.err != nil {
		return cw.err
	}
	return cw.w.Error()
}

// SafeCell guards a cell against CSV formula injection: a value a
// spreadsheet would run as a formula (starting with = + - @, a tab or a
// carriage return) gets a leading single quote.
func SafeCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// timestamp formats t as RFC 3339 in UTC.
func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }
