// Package account holds the rules about one person's data as a whole, shared
// by the account functions (account-export, account-delete,
// account-address, account-prove-email), the `salaula admin user` commands
// and the server's retention sweep: what Salaula holds about a person
// (Export), forgetting them (Delete), what they agreed to (consent
// records), how long data is kept (Sweep), and the proof that ties the
// rows sent with an e-mail address to the account of that address
// (SendProof, ProveAddress). It takes the store, the media store and the
// mailer; callers only decode and encode.
package account

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"salaula/internal/apierr"
	"salaula/internal/mail"
	"salaula/internal/media"
	"salaula/internal/mfa"
	"salaula/internal/password"
	"salaula/internal/ratelimit"
	"salaula/internal/store"
)

// AuditFunc records an action on a person's data in the audit log: who did
// it (actor), what ("user.export", "user.delete") and to whom (subject, an
// e-mail address). The command line sets it; nil records nothing.
type AuditFunc func(ctx context.Context, actor, action, subject string) error

// Rules carries what the account rules need.
type Rules struct {
	DB     *store.DB
	Media  media.Store
	Mailer mail.Mailer // sends the deletion confirmation; nil sends none
	// SupportEmail is where the deletion confirmation tells people to write.
	SupportEmail string
	// PublicURL is the site's address, the start of the links it e-mails.
	PublicURL string
	// EmailQuota limits the proof links one address gets (ratelimit.Emails).
	EmailQuota ratelimit.EmailQuota
	// Audit records operators' exports and deletions; nil records nothing.
	Audit  AuditFunc
	Logger *slog.Logger
	Now    func() time.Time // time.Now when nil
}

// Caller is the signed-in person calling one of the account's own
// functions: their account, the session and its assurance level (the
// access token's aal claim).
type Caller struct {
	UserID, SessionID, AAL string
}

// Messages of the rules' errors.
const (
	// msgInsufficientAAL is the words the auth and admin APIs use for a
	// password-only session where two-step sign-in is needed.
	msgInsufficientAAL = "AAL2 required: verify your two-step sign-in code first"
	msgNoAccount       = "You must be logged in."
	msgWrongPassword   = "The password is not correct"
	msgPasswordNeeded  = "Please enter your password to delete your account"
)

// Errors of the rules (*apierr.Error: the functions render them).
var (
	// ErrNoAccount: no account has the id or e-mail (for the account's own
	// functions: its session outlived it).
	ErrNoAccount = &apierr.Error{Kind: apierr.Unauthenticated, Message: msgNoAccount,
		Err: errors.New("no account has that id or e-mail")}
	// ErrWrongPassword: the password given to delete an account is not its password.
	ErrWrongPassword = &apierr.Error{Kind: apierr.Unauthenticated, Message: msgWrongPassword,
		Fields: map[string]string{"password": msgWrongPassword}, Err: errors.New("wrong password")}
	// ErrInsufficientAAL: the account has a verified second factor and the
	// session has not passed it (docs/decisions/0217-password-alone-never-undoes-two-step.md).
	ErrInsufficientAAL = &apierr.Error{Kind: apierr.Forbidden, Code: "insufficient_aal", Message: msgInsufficientAAL,
		Err: mfa.ErrInsufficientAAL}
	// ErrPasswordNeeded: no password was given to delete an account.
	ErrPasswordNeeded = apierr.Fields(msgPasswordNeeded, map[string]string{"password": msgPasswordNeeded})
)

func (r *Rules) now() time.Time {
	if r.Now != nil {
		return r.Now().UTC().Truncate(time.Microsecond)
	}
	return store.Now()
}

func (r *Rules) logger() *slog.Logger {
	if r.Logger != nil {
		return r.Logger
	}
	return slog.New(slog.DiscardHandler)
}

// audit records an operator's action when an audit log is connected.
func (r *Rules) audit(ctx context.Context, actor, action, subject string) error {
	if r.Audit == nil {
		return nil
	}
	if err := r.Audit(ctx, actor, action, subject); err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	return nil
}

// checkAAL refuses c when its account has a verified second factor and
// its session has not passed it (mfa.CheckAAL).
func (r *Rules) checkAAL(ctx context.Context, c Caller) error {
	err := mfa.CheckAAL(ctx, r.DB, c.UserID, c.AAL)
	if errors.Is(err, mfa.ErrInsufficientAAL) {
		return ErrInsufficientAAL
	}
	return err
}

// userByID finds an account by id.
func (r *Rules) userByID(ctx context.Context, id string) (*store.User, error) {
	u, err := r.DB.UserByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNoAccount
	}
	return u, err
}

// userByEmail finds an account by (normalised) e-mail.
func (r *Rules) userByEmail(ctx context.Context, email string) (*store.User, error) {
	u, err := r.DB.UserByEmail(ctx, strings.ToLower(strings.TrimSpace(email)))
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNoAccount
	}
	return u, err
}

// checkPassword verifies pw against the account's password.
func checkPassword(u *store.User, pw string) error {
	ok, err := password.Verify(pw, u.PasswordHash)
	if err != nil || !ok {
		return ErrWrongPassword
	}
	return nil
}
