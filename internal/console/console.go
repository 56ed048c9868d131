// Package console holds the rules of the founders' console, below HTTP: who
// is an operator, the filtered and keyset-paginated lists of waitlist
// sign-ups, contact messages, people and the audit log, the overview's
// figures, and the operator actions (with their audit entries). The
// /admin/v1 handlers and `salaula admin` only decode, call these and encode.
package console

import (
	"context"
	"errors"

	"salaula/internal/store"
)

// Errors of the console's rules.
var (
	// ErrNotOperator: the account does not (or no longer) hold the operator
	// role. The HTTP layer answers it with its own copy.
	ErrNotOperator = errors.New("console: not an operator")
	// ErrNotFound: no record has the given id.
	ErrNotFound = errors.New("not found")
)

// BadInput is a request the caller can fix (an unknown filter value, a bad
// cursor, a limit out of range); its message says how.
type BadInput struct{ Message string }

func (e *BadInput) Error() string { return e.Message }

func badInput(msg string) error { return &BadInput{Message: msg} }

// Operator returns the account userID when it holds the operator role, read
// from the database on every call so that a revoked operator is out at once,
// whatever tokens they still hold. It returns ErrNotOperator otherwise
// (also for an account that no longer exists).
func Operator(ctx context.Context, db *store.DB, userID string) (*store.User, error) {
	u, err := db.UserByID(ctx, userID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNotOperator
	}
	if err != nil {
		return nil, err
	}
	if !u.IsAdmin {
		return nil, ErrNotOperator
	}
	return u, nil
}

// Actor is the operator making a change and where the request came from,
// written to the audit log with the change.
type Actor struct {
	ID, Email, IP string
}
