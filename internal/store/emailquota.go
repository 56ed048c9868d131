package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"
)

// EmailMinInterval is the least time between two e-mails of the limited
// kinds to one address (as the hosted auth service does).
const EmailMinInterval = time.Minute

// EmailQuota is how many e-mails one address may get in Window, besides at
// most one per EmailMinInterval (SALAULA_RATE_EMAIL, default 5 an hour).
type EmailQuota struct {
	Count  int
	Window time.Duration
}

// DefaultEmailQuota is the hosted auth service's default: five an hour.
var DefaultEmailQuota = EmailQuota{Count: 5, Window: time.Hour}

// AllowEmail reports whether one more e-mail (a reset link, a resent
// confirmation) may go to address at now, and if so counts it: at most one
// per EmailMinInterval and q.Count in any q.Window (no limit when q.Count is
// zero or less). The count lives in the
// database, so it holds across instances and restarts; two concurrent calls
// cannot both take the last allowance. Callers answer the request exactly as
// when the e-mail goes out and skip only the sending, so the limit reveals
// nothing about the address.
func (db *DB) AllowEmail(ctx context.Context, address string, now time.Time, q EmailQuota) (bool, error) {
	if q.Count <= 0 {
		return true, nil
	}
	address = strings.ToLower(strings.TrimSpace(address))
	for attempt := 0; attempt < 10; attempt++ {
		var prev string
		err := db.QueryRow(ctx, `SELECT recent FROM email_quota WHERE address = ?`, address).Scan(&prev)
		exists := err == nil
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return false, err
		}
		sent := recentSends(prev, now, q.Window)
		if len(sent) >= q.Count || (len(sent) > 0 && now.Unix()-sent[len(sent)-1] < int64(EmailMinInterval/time.Second)) {
			return false, nil
		}
		next := formatSends(append(sent, now.Unix()))
		var res sql.Result
		if exists {
			res, err = db.Exec(ctx, `UPDATE email_quota SET recent = ?, updated_at = ? WHERE address = ? AND recent = ?`,
				next, now.UTC(), address, prev)
		} else {
			res, err = db.Exec(ctx, `INSERT INTO email_quota (address, recent, updated_at) VALUES (?, ?, ?)
				ON CONFLICT (address) DO NOTHING`, address, next, now.UTC())
		}
		if err != nil {
			return false, err
		}
		if n, err := res.RowsAffected(); err != nil {
			return false, err
		} else if n == 1 {
			return true, nil
		}
		// Another instance counted an e-mail meanwhile: look again.
	}
	return false, errors.New("store: e-mail quota of " + address + " kept changing")
}

// recentSends parses the stored send times and keeps those within window.
func recentSends(s string, now time.Time, window time.Duration) []int64 {
	var out []int64
	for _, f := range strings.Fields(s) {
		if t, err := strconv.ParseInt(f, 10, 64); err == nil && now.Unix()-t < int64(window/time.Second) {
			out = append(out, t)
		}
	}
	return out
}

func formatSends(ts []int64) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = strconv.FormatInt(t, 10)
	}
	return strings.Join(parts, " ")
}
