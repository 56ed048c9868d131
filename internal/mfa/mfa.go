// Package mfa is two-step sign-in with TOTP authenticator apps: enrolling a
// factor (secret, otpauth URI, QR code), challenging and verifying it
// (RFC 6238, one step of drift, no code accepted twice, growing delays
// after wrong codes in a row on any factor of the account), removing it,
// the rule that an account with a verified factor needs an aal2 session
// for what would undo or bypass it (CheckAAL), and the rule that operators
// need a verified factor and an aal2 session. Secrets are stored sealed
// with a key derived from the server secret.
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

// The delays after wrong codes (see Delay);
// docs/decisions/0157-totp-lockout.md gives the odds they leave an attacker who knows the password.
const (
	// LockAfter is how many wrong codes in a row, on any of its factors,
	// an account takes before it refuses codes for a while; the person is
	// e-mailed then.
	LockAfter = 5
	// FirstDelay is the first wait, after LockAfter wrong codes in a row;
	// each further wrong code doubles it, up to MaxDelay.
	FirstDelay = time.Minute
	// MaxDelay is the longest wait between two codes.
	MaxDelay = time.Hour
)

// Delay is how long an account refuses codes after its n-th wrong
// code in a row: nothing before LockAfter, then FirstDelay doubling with
// each further wrong code, at most MaxDelay.
func Delay(n int) time.Duration {
	if n < LockAfter {
		return 0
	}
	d := FirstDelay
	for i := LockAfter; i < n && d < MaxDelay; i++ {
		d *= 2
	}
	return min(d, MaxDelay)
}

// LockedError is the answer to a code tried while the account refuses
// codes, right or wrong: after too many wrong codes in a row, no code is
// checked until Until.
type LockedError struct {
	Until time.Time
}

func (e *LockedError) Error() string {
	return "too many wrong codes in a row: no code is checked until " + e.Until.UTC().Format(time.RFC3339)
}

// Errors of the rules. The auth service turns each into an auth.ErrorCode,
// whose words a person sees are in the HTTP layer's table. The last two
// are still shown as they are by the console and realtime.
var (
	ErrFactorNotFound   = errors.New("mfa: factor not found")
	ErrChallengeExpired = errors.New("mfa: challenge expired")
	ErrChallengeGone    = errors.New("mfa: no factor has the challenge")
	ErrBadCode          = errors.New("mfa: wrong code")
	ErrCodeReused       = errors.New("mfa: code already used")
	ErrTooManyFactors   = errors.New("mfa: too many factors")
	ErrNameConflict     = errors.New("mfa: friendly name taken")
	ErrNameTooLong      = errors.New("mfa: friendly name too long")
	// ErrInsufficientAAL: the account has a verified factor and the
	// session has not passed one (aal1).
	ErrInsufficientAAL = errors.New("mfa: aal2 required")
	// ErrNoVerifiedFactor: the account has no verified second factor.
	ErrNoVerifiedFactor = errors.New("mfa: no verified factor")
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

// Attempt is a code tried against a challenge of one of the user's factors.
type Attempt struct {
	UserID, SessionID, FactorID, ChallengeID, Code string
	// AAL is the session's assurance level (the access token's aal claim).
	AAL string
	Now time.Time
}

// Warn queues, inside tx (the one that counts the wrong code), the e-mail
// that tells the person someone is trying codes.
type Warn func(ctx context.Context, tx *store.Tx) error

// Verify checks a's code against its challenge; when it is right (and not
// a code already accepted), the factor is verified, the account's wrong
// codes in a row are forgotten, and the session is raised to aal2.
//
// An unverified factor of an account that has a verified one is a new
// factor being added: only an aal2 session may verify it
// (ErrInsufficientAAL, before any code is looked at).
//
// The account counts wrong codes in a row in the store, on any of its
// factors, verified or not, so every instance agrees: after each from the
// LockAfter-th on, it refuses every code, right or wrong, on every factor,
// for Delay of them (*LockedError, which tells nothing about the code).
// The LockAfter-th runs warn with the count, so the person hears of it
// once for each run of wrong codes, whatever its length.
func Verify(ctx context.Context, db *store.DB, box *seal.Box, a Attempt, warn Warn) error {
	now := a.Now.UTC()
	factors, err := db.Factors(ctx, a.UserID)
	if err != nil {
		return err
	}
	var f *store.Factor
	for i := range factors {
		if factors[i].ID == a.FactorID {
			f = &factors[i]
		}
	}
	if f == nil {
		return ErrFactorNotFound
	}
	if f.Status != store.FactorVerified && hasVerified(factors) && a.AAL != "aal2" {
		return ErrInsufficientAAL
	}
	created, err := db.ChallengeCreatedAt(ctx, a.FactorID, a.ChallengeID)
	if errors.Is(err, store.ErrChallengeGone) {
		return ErrChallengeGone
	}
	if err != nil {
		return err
	}
	if now.Sub(created) > ChallengeTTL {
		return ErrChallengeExpired
	}
	locked, err := db.MFALockedUntil(ctx, a.UserID)
	if errors.Is(err, store.ErrNotFound) {
		return ErrFactorNotFound
	}
	if err != nil {
		return err
	}
	if locked != nil && locked.After(now) {
		return &LockedError{Until: *locked}
	}
	secret, err := box.Open(f.SecretSealed)
	if err != nil {
		return err
	}
	step, ok := Match(string(secret), strings.TrimSpace(a.Code), now)
	if !ok {
		_, until, err := db.RecordWrongCode(ctx, a.UserID, now, Delay, func(tx *store.Tx, n int) error {
			if n == LockAfter && warn != nil {
				return warn(ctx, tx)
			}
			return nil
		})
		switch {
		case errors.Is(err, store.ErrFactorLocked):
			return &LockedError{Until: until}
		case errors.Is(err, store.ErrNotFound):
			return ErrFactorNotFound
		case err != nil:
			return err
		}
		return ErrBadCode
	}
	if step <= f.LastStep {
		return ErrCodeReused
	}
	err = db.CompleteChallenge(ctx, a.UserID, a.FactorID, a.ChallengeID, a.SessionID, step, now)
	switch {
	case errors.Is(err, store.ErrFactorLocked):
		// Another instance counted a wrong code in the meantime.
		if locked, err := db.MFALockedUntil(ctx, a.UserID); err != nil {
			return err
		} else if locked != nil {
			return &LockedError{Until: *locked}
		}
		return ErrCodeReused
	case errors.Is(err, store.ErrCodeReused):
		return ErrCodeReused
	case errors.Is(err, store.ErrChallengeGone):
		return ErrChallengeGone
	case errors.Is(err, store.ErrNotFound):
		return ErrFactorNotFound
	}
	return err
}

// Unenroll removes the user's factor; removing a verified one needs aal2,
// an unverified one (an enrolment never finished) does not.
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
	if !hasVerified(factors) {
		return ErrNoVerifiedFactor
	}
	if aal != "aal2" {
		return ErrInsufficientAAL
	}
	return nil
}

// CheckAAL is the rule for what would undo two-step sign-in or reach the
// account's data as a whole (a new password, the export, deleting the
// account, proving the address): an account with a verified factor needs
// an aal2 session (ErrInsufficientAAL); one without is served at aal1. It
// reads the factors from the store on every call, so a factor verified a
// moment ago counts.
func CheckAAL(ctx context.Context, db *store.DB, userID, aal string) error {
	if aal == "aal2" {
		return nil
	}
	factors, err := db.Factors(ctx, userID)
	if err != nil {
		return err
	}
	if hasVerified(factors) {
		return ErrInsufficientAAL
	}
	return nil
}

// hasVerified tells whether one of factors is verified.
func hasVerified(factors []store.Factor) bool {
	for _, f := range factors {
		if f.Status == store.FactorVerified {
			return true
		}
	}
	return false
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
