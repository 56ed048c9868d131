package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// SignInFailures is what is recorded of one account's wrong passwords:
// how many in a row (none when the last is older than the forget time)
// and until when no password is checked for it.
type SignInFailures struct {
	Count int
	Until time.Time
}

// SignInFailuresOf reads account's record at now; failures whose last is
// before forgotten count as none.
func (db *DB) SignInFailuresOf(ctx context.Context, account string, forgotten time.Time) (SignInFailures, error) {
	var f SignInFailures
	var last time.Time
	err := db.QueryRow(ctx, `SELECT failures, last_at, wait_until FROM sign_in_failures WHERE account = ?`, account).Scan(&f.Count, &last, &f.Until)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return SignInFailures{}, nil
	case err != nil:
		return SignInFailures{}, err
	case !last.After(forgotten):
		return SignInFailures{}, nil
	}
	f.Until = f.Until.UTC()
	return f, nil
}

// CountSignInFailure counts one wrong password for account at now, in one
// write: its count goes up by one (starting again at 1 when the last was
// before forgotten), and when delay of the new count is more than zero no
// password is checked until now plus that delay; counted is true. An
// account that is waiting at now counts nothing (counted is false) and
// answers its record. Tries counted at once therefore pass the count one
// by one, on both engines.
func (db *DB) CountSignInFailure(ctx context.Context, account string, now, forgotten time.Time, delay func(n int) time.Duration) (f SignInFailures, counted bool, err error) {
	now = now.UTC().Truncate(time.Microsecond)
	err = db.InTx(ctx, func(tx *Tx) error {
		f, counted = SignInFailures{}, false
		err := tx.QueryRow(ctx, `INSERT INTO sign_in_failures (account, failures, last_at, wait_until) VALUES (?, 1, ?, ?)
			ON CONFLICT (account) DO UPDATE SET
				failures = CASE WHEN sign_in_failures.last_at <= ? THEN 1 ELSE sign_in_failures.failures + 1 END,
				last_at = excluded.last_at
			WHERE sign_in_failures.wait_until <= excluded.last_at
			RETURNING failures`, account, now, now, forgotten.UTC()).Scan(&f.Count)
		if errors.Is(err, sql.ErrNoRows) { // waiting
			var last time.Time
			if err := tx.QueryRow(ctx, `SELECT failures, last_at, wait_until FROM sign_in_failures WHERE account = ?`, account).Scan(&f.Count, &last, &f.Until); err != nil {
				return err
			}
			f.Until = f.Until.UTC()
			return nil
		}
		if err != nil {
			return err
		}
		counted, f.Until = true, now
		if d := delay(f.Count); d > 0 {
			f.Until = now.Add(d)
			_, err = tx.Exec(ctx, `UPDATE sign_in_failures SET wait_until = ? WHERE account = ?`, f.Until, account)
		}
		return err
	})
	return f, counted, err
}

// ClearSignInFailures forgets account's wrong passwords (a right one, a
// new password).
func (db *DB) ClearSignInFailures(ctx context.Context, account string) error {
	_, err := db.Exec(ctx, `DELETE FROM sign_in_failures WHERE account = ?`, account)
	return err
}

// DeleteSignInFailuresBefore removes the records whose last wrong password
// is before t and that are not waiting at t.
func (db *DB) DeleteSignInFailuresBefore(ctx context.Context, t time.Time) error {
	_, err := db.Exec(ctx, `DELETE FROM sign_in_failures WHERE last_at < ? AND wait_until < ?`, t.UTC(), t.UTC())
	return err
}
