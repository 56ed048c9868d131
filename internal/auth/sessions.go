package auth

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"salaula/internal/mfa"
	"salaula/internal/password"
	"salaula/internal/store"
	"salaula/internal/token"
	"salaula/internal/validate"
)

// Refresh rotates a refresh token: the presented one is spent and a new
// one answered with a fresh access token. See store.RotateRefreshToken for
// reuse within and after the grace interval.
func (s *Service) Refresh(ctx context.Context, refreshToken string) (*Session, error) {
	old := strings.TrimSpace(refreshToken)
	if old == "" {
		return nil, Fail(CodeRefreshTokenRequired)
	}
	next, sealed, err := s.newRefreshToken()
	if err != nil {
		return nil, err
	}
	rot, err := s.DB.RotateRefreshToken(ctx, token.Hash(old), token.Hash(next), sealed, store.Now(), s.Config.RefreshReuseInterval)
	switch {
	case errors.Is(err, store.ErrTokenNotFound):
		return nil, Fail(CodeRefreshTokenNotFound)
	case errors.Is(err, store.ErrTokenReused):
		s.Logger.Warn("refresh token reused after its grace interval: session revoked", "session_id", rot.SessionID)
		return nil, Fail(CodeRefreshTokenUsed)
	case err != nil:
		return nil, err
	}
	if rot.Sealed != "" {
		plain, err := s.Successors.Open(rot.Sealed)
		if err != nil {
			s.Logger.Error("unseal successor", "err", err)
			return nil, Fail(CodeRefreshTokenNotFound)
		}
		next = string(plain)
	}
	u, err := s.DB.UserByID(ctx, rot.UserID)
	if err != nil {
		return nil, err
	}
	auth, err := s.DB.SessionAuthOf(ctx, rot.SessionID)
	if err != nil {
		return nil, err
	}
	return s.session(ctx, u, rot.SessionID, auth, next)
}

// newRefreshToken makes a refresh token and its sealed copy (kept so that
// a reuse within the grace interval can be answered the same successor).
func (s *Service) newRefreshToken() (tok, sealed string, err error) {
	if tok, err = token.NewOpaque(); err != nil {
		return "", "", err
	}
	sealed, err = s.Successors.Seal([]byte(tok))
	return tok, sealed, err
}

// raise answers new tokens of the caller's session after its assurance
// level changed: a new refresh token replaces the active one.
func (s *Service) raise(ctx context.Context, u *store.User, sessionID string) (*Session, error) {
	refresh, sealed, err := s.newRefreshToken()
	if err != nil {
		return nil, err
	}
	if err := s.DB.ReplaceRefreshToken(ctx, sessionID, u.ID, token.Hash(refresh), sealed, store.Now()); err != nil {
		return nil, err
	}
	auth, err := s.DB.SessionAuthOf(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return s.session(ctx, u, sessionID, auth, refresh)
}

// Logout scopes.
const (
	ScopeGlobal = store.ScopeGlobal // every session of the person
	ScopeLocal  = store.ScopeLocal  // the current one
	ScopeOthers = store.ScopeOthers // all but the current one
)

// Logout ends sessions of the caller by scope (empty is global).
func (s *Service) Logout(ctx context.Context, claims *token.Claims, scope string) error {
	if scope == "" {
		scope = ScopeGlobal
	}
	if scope != ScopeGlobal && scope != ScopeLocal && scope != ScopeOthers {
		return Fail(CodeLogoutScope)
	}
	return s.DB.RevokeSessions(ctx, claims.Subject, claims.SessionID, scope)
}

// CheckLogoutScope refuses a scope Logout does not take, before the caller
// is authenticated (the hosted service's order).
func CheckLogoutScope(scope string) error {
	if scope != "" && scope != ScopeGlobal && scope != ScopeLocal && scope != ScopeOthers {
		return Fail(CodeLogoutScope)
	}
	return nil
}

// UserUpdate is a change to the signed-in user; nil fields stay as they are.
type UserUpdate struct {
	Email    *string
	Phone    *string
	Password *string
	Data     map[string]any // keys set to nil are removed
	// CurrentPassword, when sent with Password (the account page), must be
	// the account's password.
	CurrentPassword *string
}

// UpdateUser changes the signed-in user's password and/or metadata and
// returns the user as stored. A new password signs out every other session
// of the user and spends their reset links. On an account with a verified
// second factor, a new password or address needs an aal2 session. Everything
// is checked before anything is stored, so a refusal changes nothing.
func (s *Service) UpdateUser(ctx context.Context, claims *token.Claims, u *store.User, up UserUpdate) (*store.User, error) {
	emailChange := up.Email != nil && validate.NormaliseEmail(*up.Email) != u.Email
	if up.Password != nil || emailChange {
		if err := mfa.CheckAAL(ctx, s.DB, u.ID, claims.AAL); err != nil {
			return nil, s.mfaFailed(err, CodeAAL2ToUpdateUser)
		}
	}
	if emailChange {
		return nil, Fail(CodeEmailChange)
	}
	if up.Phone != nil && strings.TrimSpace(*up.Phone) != "" {
		return nil, Fail(CodePhoneChange)
	}
	var newMeta []byte
	if up.Data != nil {
		meta := UserMetadata(u)
		for k, v := range up.Data {
			if v == nil {
				delete(meta, k)
			} else {
				meta[k] = v
			}
		}
		newMeta, _ = json.Marshal(meta)
		if len(newMeta) > MaxUserMetadataBytes {
			return nil, Fail(CodeMetadataLarge)
		}
	}
	if up.Password != nil {
		if err := s.setPassword(ctx, claims, u, *up.Password, up.CurrentPassword); err != nil {
			return nil, err
		}
	}
	if up.Data != nil {
		if err := s.DB.SetUserMetadata(ctx, u.ID, string(newMeta)); err != nil {
			return nil, err
		}
	}
	return s.DB.UserByID(ctx, u.ID)
}

// setPassword checks and stores a new password, ending the other sessions.
func (s *Service) setPassword(ctx context.Context, claims *token.Claims, u *store.User, pw string, current *string) error {
	if current != nil {
		ok, err := password.VerifyContext(ctx, *current, u.PasswordHash)
		if errors.Is(err, password.ErrBusy) {
			return hashFailed(err)
		}
		if !ok {
			return Fail(CodeWrongCurrentPassword)
		}
	}
	if err := CheckNewPassword(pw); err != nil {
		return err
	}
	same, err := password.VerifyContext(ctx, pw, u.PasswordHash)
	if errors.Is(err, password.ErrBusy) {
		return hashFailed(err)
	}
	if same {
		return Fail(CodeSamePassword)
	}
	hash, err := password.HashContext(ctx, pw)
	if err != nil {
		return hashFailed(err)
	}
	if byResetLink(claims) {
		// The reset link proves the address only now, with the new
		// password and the other sessions ended in the same step.
		if err := s.DB.ResetPassword(ctx, u.ID, hash, claims.SessionID); err != nil {
			return err
		}
		return s.forgetWrongPasswords(ctx, u.Email)
	}
	if err := s.DB.SetPassword(ctx, u.ID, hash); err != nil {
		return err
	}
	if err := s.forgetWrongPasswords(ctx, u.Email); err != nil {
		return err
	}
	return s.DB.RevokeSessions(ctx, u.ID, claims.SessionID, store.ScopeOthers)
}

// forgetWrongPasswords clears the wrong passwords counted for email: once
// a new password is set, guesses at the old one no longer keep it waiting.
func (s *Service) forgetWrongPasswords(ctx context.Context, email string) error {
	if s.WrongPasswords == nil {
		return nil
	}
	return s.WrongPasswords.Clear(ctx, email)
}

// byResetLink reports whether the session of claims was started by a reset
// link (its amr names "recovery").
func byResetLink(claims *token.Claims) bool {
	for _, a := range claims.AMR {
		if a.Method == "recovery" {
			return true
		}
	}
	return false
}
