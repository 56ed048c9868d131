// Package export writes the founders' data as CSV (a header row, then one row
// per record) for `salaula admin export`.
package export

import (
	"context"
	"errors"
	"io"

	"salaula/internal/store"
)

// ErrNotAvailable is returned by an export that has not landed yet.
var ErrNotAvailable = errors.New("this export is not available yet")

// Waitlist writes the waitlist sign-ups, only those of program when it is not empty.
func Waitlist(ctx context.Context, db *store.DB, program string, w io.Writer) error {
	return ErrNotAvailable
}

// Messages writes the contact messages.
func Messages(ctx context.Context, db *store.DB, w io.Writer) error {
	return ErrNotAvailable
}

// Profiles writes the accounts' profiles.
func Profiles(ctx context.Context, db *store.DB, w io.Writer) error {
	return writeProfiles(ctx, db, w)
}
