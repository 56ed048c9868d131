package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"
)

// EmailSends is the record of the recent e-mails to one address, as read:
// Times (Unix seconds, oldest first) and what SwapEmailSends needs to
// replace it only if no one else did meanwhile.
type EmailSends struct {
	Times  []int64
	raw    string
	exists bool
}

// EmailSendsOf reads the recorded e-mail sends to address (its lower-cased,
// trimmed form); none recorded is an empty record, not an error.
func (db *DB) EmailSendsOf(ctx context.Context, address string) (EmailSends, error) {
	var raw string
	err := db.QueryRow(ctx, `SELECT recent FROM email_quota WHERE address = ?`, quotaKey(address)).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return EmailSends{}, nil
	}
	if err != nil {
		return EmailSends{}, err
	}
	rec := EmailSends{raw: raw, exists: true}
	for _, f := range strings.Fields(raw) {
		if t, err := strconv.ParseInt(f, 10, 64); err == nil {
			rec.Times = append(rec.Times, t)
		}
	}
	return rec, nil
}

// SwapEmailSends replaces the record read as prev with times, at now. It
// reports false, changing nothing, when another caller (on any instance)
// changed the record since prev was read: read again and decide again.
func (db *DB) SwapEmailSends(ctx context.Context, address string, prev EmailSends, times []int64, now time.Time) (bool, error) {
	parts := make([]string, len(times))
	for i, t := range times {
		parts[i] = strconv.FormatInt(t, 10)
	}
	next := strings.Join(parts, " ")
	var res sql.Result
	var err error
	if prev.exists {
		res, err = db.Exec(ctx, `UPDATE email_quota SET recent = ?, updated_at = ? WHERE address = ? AND recent = ?`,
			next, now.UTC(), quotaKey(address), prev.raw)
	} else {
		res, err = db.Exec(ctx, `INSERT INTO email_quota (address, recent, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (address) DO NOTHING`, quotaKey(address), next, now.UTC())
	}
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func quotaKey(address string) string { return strings.ToLower(strings.TrimSpace(address)) }
