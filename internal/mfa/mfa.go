// Package mfa is two-step sign-in with TOTP authenticator apps: enrolling a
// factor (secret, otpauth URI, QR code), challenging and verifying it
// (RFC 6238, one step of drift, no code accepted twice), removing it, and
// the rule that operators need a verified factor and an aal2 session.
// Secrets are stored sealed with a key derived from the server secret.
package mfa

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"salaula/internal/seal"
	"salaula/internal/store"
)

// SealPurpose names the key that seals TOTP secrets at rest.
const SealPurpose = "salaula totp secrets"

// ChallengeTTL is how long a challenge can be verified.
const ChallengeTTL = 5 * time.Minute

// MaxFactors is how many factors one person may have (verified or not).
const MaxFactors = 10

// DefaultIssuer names the account in authenticator apps.
const DefaultIssuer = "Salaula"

// Errors of the rules, each mapped to the hosted service's error code by
// the HTTP layer.
var (
	ErrFactorNotFound   = errors.New("Factor not found")
	ErrChallengeExpired = errors.New("MFA challenge has expired, verify against another challenge or create a new challenge.")
	ErrChallengeGone    = errors.New("MFA factor with the provided challenge ID not found")
	ErrBadCode          = errors.New("Invalid TOTP code entered")
	ErrCodeReused       = errors.New("This code was already used. Wait for the next code in your authenticator app.")
	ErrTooManyFactors   = errors.New("Maximum number of factors reached, unenroll to continue")
	ErrNameConflict     = errors.New("A factor with this friendly name already exists")
	ErrNameTooLong      = errors.New("Friendly name must be at most 100 characters")
	// ErrInsufficientAAL: the session must have passed a second factor.
	ErrInsufficientAAL = errors.New("AAL2 required: verify your two-step sign-in code first")
	// ErrNoVerifiedFactor: the account has no verified second factor.
	ErrNoVerifiedFactor = errors.New("Two-step sign-in is required: enrol an authenticator app first")
)

// Enrollment is a new factor with what the person needs to add it to an app.
type Enrollment struct {
	Factor store.Factor
	Secret string // base32, for typing into the app
	URI    string // otpauth://
	QRSVG  string // the URI as a QR code
}

// Enroll adds an unverified TOTP factor for the user. A user who already
// has a verified factor must be at aal2 to add another.
func Enroll(ctx context.Context, db *store.DB, box *seal.Box, u *store.User, aal, friendlyName, issuer string) (*Enrollment, error) {
	friendlyName = strings.TrimSpace(friendlyName)
	if utf8.RuneCountInString(friendlyName) > 100 {
		return nil, ErrNameTooLong
	}
	issuer = strings.TrimSpace(issuer)
	if issuer == "" || utf8.RuneCountInString(issuer) > 100 {
		issuer = DefaultIssuer
	}
	factors, err := db.Factors(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	if len(factors) >= MaxFactors {
		return nil, ErrTooManyFactors
	}
	for _, f := range factors {
		if f.Status == store.FactorVerified && aal != "aal2" {
			return nil, ErrInsufficientAAL
		}
		if friendlyName != "" && f.FriendlyName == friendlyName {
			return nil, ErrNameConflict
		}
	}
	secret, err := NewSecret()
	if err != nil {
		return nil, err
	}
	sealed, err := box.Seal([]byte(secret))
	if err != nil {
		return nil, err
	}
	f := store.Factor{UserID: u.ID, FriendlyName: friendlyName, Type: "totp", Status: store.FactorUnverified, SecretSealed: sealed}
	if err := db.AddFactor(ctx, &f); err != nil {
		return nil, err
	}
	uri := URI(issuer, u.Email, secret)
	svg, err := QRSVG(uri)
	if err != nil {
		return nil, err
	}
	return &Enrollment{Factor: f, Secret: secret, URI: uri, QRSVG: svg}, nil
}

// Challenge starts a challenge of the user's factor and returns its id and expiry.
func Challenge(ctx context.Context, db *store.DB, userID, factorID, ip string, now time.Time) (string, time.Time, error) {
	if _, err := factorOf(ctx, db, userID, factorID); err != nil {
		return "", time.Time{}, err
	}
	id, err := db.AddChallenge(ctx, factorID, ip, now)
	return id, now.Add(ChallengeTTL), err
}

// Verify checks code against the challenge of the user's factor; when it is
// right (and not a code already accepted), the factor is verified and the
// session raised to aal2.
func Verify(ctx context.Context, db *store.DB, box *seal.Box, userID, sessionID, factorID, challengeID, code string, now time.Time) error {
	f, err := factorOf(ctx, db, userID, factorID)
	if err != nil {
		return err
	}
	created, err := db.ChallengeCreatedAt(ctx, factorID, challengeID)
	if errors.Is(err, store.ErrChallengeGone) {
		return ErrChallengeGone
	}
	if err != nil {
		return err
	}
	if now.Sub(created) > ChallengeTTL {
		return ErrChallengeExpired
	}
	secret, err := box.Open(f.SecretSealed)
	if err != nil {
		return err
	}
	step, ok := Match(string(secret), strings.TrimSpace(code), now)
	if !ok {
		return ErrBadCode
	}
	if step <= f.LastStep {
		return ErrCodeReused
	}
	err = db.CompleteChallenge(ctx, userID, factorID, challengeID, sessionID, step, now)
	switch {
	case errors.Is(err, store.ErrCodeReused):
		return ErrCodeReused
	case errors.Is(err, store.ErrChallengeGone):
		return ErrChallengeGone
	}
	return err
}

// Unenroll removes the user's factor; removing a verified one needs aal2.
func Unenroll(ctx context.Context, db *store.DB, userID, factorID, aal string) error {
	f, err := factorOf(ctx, db, userID, factorID)
	if err != nil {
		return err
	}
	if f.Status == store.FactorVerified && aal != "aal2" {
		return ErrInsufficientAAL
	}
	if err := db.DeleteFactor(ctx, userID, factorID); errors.Is(err, store.ErrNotFound) {
		return ErrFactorNotFound
	} else if err != nil {
		return err
	}
	return nil
}

// RequireAAL2 is the rule for operators: the account must have a verified
// factor (ErrNoVerifiedFactor) and the session must have passed it
// (ErrInsufficientAAL); aal is the access token's aal claim.
func RequireAAL2(ctx context.Context, db *store.DB, userID, aal string) error {
	factors, err := db.Factors(ctx, userID)
	if err != nil {
		return err
	}
	verified := false
	for _, f := range factors {
		verified = verified || f.Status == store.FactorVerified
	}
	if !verified {
		return ErrNoVerifiedFactor
	}
	if aal != "aal2" {
		return ErrInsufficientAAL
	}
	return nil
}

// Reset removes every factor of the account with this e-mail (a lost
// phone) and says how many; store.ErrNotFound when there is no such account.
func Reset(ctx context.Context, db *store.DB, email string) (int64, error) {
	u, err := db.UserByEmail(ctx, email)
	if err != nil {
		return 0, err
	}
	return db.DeleteFactors(ctx, u.ID)
}

func factorOf(ctx context.Context, db *store.DB, userID, factorID string) (*store.Factor, error) {
	f, err := db.FactorOf(ctx, userID, factorID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrFactorNotFound
	}
	return f, err
}
