// Package console holds the rules of the founders' console, below HTTP: who
// is an operator, the filtered and keyset-paginated lists of waitlist
// sign-ups, contact messages, people and the audit log, the overview's
// figures, and the operator actions (with their audit entries). The
// /admin/v1 handlers and `salaula admin` only decode, call these and encode.
package console

import (
	"context"
	"errors"

	"salaula/internal/apierr"
	"salaula/internal/mfa"
	"salaula/internal/store"
)

// CodeInsufficientAAL is the error_code of an operator who has not passed
// two-step sign-in (the auth API's code for it).
const CodeInsufficientAAL = "insufficient_aal"

// Errors of the console's rules. A request the caller can fix (an unknown
// filter value, a bad cursor, a limit out of range) is an apierr.Invalid
// error whose message says how.
var (
	// ErrNotOperator: the account does not (or no longer) hold the operator
	// role.
	ErrNotOperator = apierr.New(apierr.Forbidden, "This page is for the Salaula team")
	// ErrNotFound: no record has the given id.
	ErrNotFound = apierr.New(apierr.NotFound, "No record has this id")
	// ErrNoVerifiedFactor: the operator has no verified second factor.
	ErrNoVerifiedFactor = &apierr.Error{Kind: apierr.Forbidden, Code: CodeInsufficientAAL,
		Message: "Two-step sign-in is required: enrol an authenticator app first", Err: mfa.ErrNoVerifiedFactor}
	// ErrInsufficientAAL: the operator's session has not passed two-step
	// sign-in (a password-only, aal1, session).
	ErrInsufficientAAL = &apierr.Error{Kind: apierr.Forbidden, Code: CodeInsufficientAAL,
		Message: "AAL2 required: verify your two-step sign-in code first", Err: mfa.ErrInsufficientAAL}
)

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

// Admit returns the account userID when it may use the console: it holds
// the operator role (Operator) and the session, whose access token's aal
// claim is aal, passed two-step sign-in (mfa.RequireAAL2). It returns
// ErrNotOperator, ErrNoVerifiedFactor or ErrInsufficientAAL otherwise.
func Admit(ctx context.Context, db *store.DB, userID, aal string) (*store.User, error) {
	u, err := Operator(ctx, db, userID)
	if err != nil {
		return nil, err
	}
	switch err := mfa.RequireAAL2(ctx, db, u.ID, aal); {
	case errors.Is(err, mfa.ErrNoVerifiedFactor):
		return nil, ErrNoVerifiedFactor
	case errors.Is(err, mfa.ErrInsufficientAAL):
		return nil, ErrInsufficientAAL
	case err != nil:
		return nil, err
	}
	return u, nil
}

// Actor is the operator making a change and where the request came from,
// written to the audit log with the change.
type Actor struct {
	ID, Email, IP string
}
