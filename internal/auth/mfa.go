package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"salaula/internal/mail"
	"salaula/internal/mfa"
	"salaula/internal/ratelimit"
	"salaula/internal/store"
	"salaula/internal/token"
)

// mfaFailed turns a rule's error of internal/mfa into an *Error;
// ErrInsufficientAAL becomes aal2, the call's own code for it.
func (s *Service) mfaFailed(err error, aal2 ErrorCode) error {
	if errors.Is(err, mfa.ErrInsufficientAAL) {
		return &Error{Code: aal2, Err: err}
	}
	var locked *mfa.LockedError
	if errors.As(err, &locked) {
		return &Error{Code: CodeFactorLocked, RetryAfter: max(locked.Until.Sub(s.now()), time.Second), Err: err}
	}
	for _, m := range []struct {
		err  error
		code ErrorCode
	}{
		{mfa.ErrFactorNotFound, CodeFactorNotFound},
		{mfa.ErrChallengeGone, CodeChallengeGone},
		{mfa.ErrChallengeExpired, CodeChallengeExpired},
		{mfa.ErrBadCode, CodeBadCode},
		{mfa.ErrCodeReused, CodeCodeReused},
		{mfa.ErrTooManyFactors, CodeTooManyFactors},
		{mfa.ErrNameConflict, CodeFactorNameConflict},
		{mfa.ErrNameTooLong, CodeFactorNameTooLong},
		{mfa.ErrNoVerifiedFactor, CodeNoVerifiedFactor},
	} {
		if errors.Is(err, m.err) {
			return &Error{Code: m.code, Err: err}
		}
	}
	return err
}

// Enroll adds an unverified TOTP factor for the caller (factorType "totp";
// phone and WebAuthn factors are not offered).
func (s *Service) Enroll(ctx context.Context, claims *token.Claims, u *store.User, factorType, friendlyName, issuer string) (*mfa.Enrollment, error) {
	switch factorType {
	case "totp":
	case "phone":
		return nil, Fail(CodePhoneFactor)
	case "webauthn":
		return nil, Fail(CodeWebAuthnFactor)
	default:
		return nil, Fail(CodeFactorType)
	}
	e, err := mfa.Enroll(ctx, s.DB, s.Factors, u, claims.AAL, friendlyName, issuer)
	if err != nil {
		return nil, s.mfaFailed(err, CodeAAL2ToEnroll)
	}
	return e, nil
}

// Challenge starts a challenge of one of the caller's factors from ip and
// returns its id and expiry.
func (s *Service) Challenge(ctx context.Context, u *store.User, factorID, ip string) (string, time.Time, error) {
	id, exp, err := mfa.Challenge(ctx, s.DB, u.ID, factorID, ip, s.now().UTC().Truncate(time.Microsecond))
	if err != nil {
		return "", time.Time{}, s.mfaFailed(err, CodeInsufficientAAL)
	}
	return id, exp, nil
}

// VerifyFactor checks a code against a challenge; when right, the session
// is raised to aal2 and answered with fresh tokens. Attempts are limited
// per person (CodeTries); wrong codes in a row, on any factor, make the
// account wait, and the person is e-mailed when it starts to. A new factor
// of an account that has a verified one is verified only at aal2.
func (s *Service) VerifyFactor(ctx context.Context, claims *token.Claims, u *store.User, factorID, challengeID, code string) (*Session, error) {
	if strings.TrimSpace(challengeID) == "" {
		return nil, Fail(CodeChallengeIDMissing)
	}
	if strings.TrimSpace(code) == "" {
		return nil, Fail(CodeCodeMissing)
	}
	if ok, _ := s.CodeTries.Allow(u.ID); !ok {
		return nil, Fail(CodeCodeTries)
	}
	err := mfa.Verify(ctx, s.DB, s.Factors, mfa.Attempt{UserID: u.ID, SessionID: claims.SessionID, FactorID: factorID,
		ChallengeID: challengeID, Code: code, AAL: claims.AAL, Now: s.now().UTC().Truncate(time.Microsecond)},
		func(ctx context.Context, tx *store.Tx) error { return s.QueueMail(ctx, tx, s.wrongCodesMail(u.Email)) })
	if err != nil {
		return nil, s.mfaFailed(err, CodeAAL2ToEnroll)
	}
	return s.raise(ctx, u, claims.SessionID)
}

// Unenroll removes one of the caller's factors (a verified one only from
// an aal2 session).
func (s *Service) Unenroll(ctx context.Context, claims *token.Claims, u *store.User, factorID string) error {
	if err := mfa.Unenroll(ctx, s.DB, u.ID, factorID, claims.AAL); err != nil {
		return s.mfaFailed(err, CodeAAL2ToUnenroll)
	}
	return nil
}

// ResetMFA removes every second factor of the account with email (an
// operator's command, for a person who lost their phone) and returns how
// many; store.ErrNotFound when no account has the address.
func (s *Service) ResetMFA(ctx context.Context, email string) (int64, error) {
	return mfa.Reset(ctx, s.DB, email)
}

// wrongCodesMail tells the person at to that someone who knows their
// password is trying two-step sign-in codes.
func (s *Service) wrongCodesMail(to string) mail.Message {
	return mail.Message{
		To: to, Subject: "Someone is trying to sign in to your Salaula account", Kind: "mfa-wrong-codes",
		Body: fmt.Sprintf("Someone signed in to your Salaula account with your password, then typed %d wrong two-step sign-in codes in a row.\n\n", mfa.LockAfter) +
			"If it was you, there is nothing to do. Wait " + ratelimit.Minutes(mfa.FirstDelay) + ", then type the code your authenticator app shows. " +
			"Each further wrong code makes the next wait longer, up to " + ratelimit.Minutes(mfa.MaxDelay) + ".\n\n" +
			"If it was not you, someone knows your password. Without a code from your app they cannot get in, but change your password now: " +
			"on the sign-in page choose \"Forgot password?\" (" + s.Config.PublicURL + "/sign_up?mode=login). A new password signs out every other device.\n\n" +
			"Salaula\n",
	}
}
