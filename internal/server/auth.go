package server

import (
	"context"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"salaula/internal/analytics"
	"salaula/internal/mail"
	"salaula/internal/password"
	"salaula/internal/store"
	"salaula/internal/token"
	"salaula/internal/validate"
)

// Messages of the auth API, worded as the hosted service words them (the
// sign-in screen shows them as they are).
const (
	msgCredentialsRequired = "You must provide either an email or phone number and a password"
	msgInvalidCredentials  = "Invalid login credentials"
	msgUserExists          = "User already registered"
	msgEmailInvalid        = "Unable to validate email address: invalid format"
	msgEmailNotConfirmed   = "Email not confirmed"
	msgRefreshNotFound     = "Invalid Refresh Token: Refresh Token Not Found"
	msgRefreshUsed         = "Invalid Refresh Token: Already Used"
	msgLinkInvalid         = "Email link is invalid or has expired"
	msgSamePassword        = "New password should be different from the old password."
	msgPasswordTooLong     = "Password cannot be longer than 1024 characters"
	msgPhoneDisabled       = "Phone logins are disabled"
	msgUnexpected          = "Unexpected failure, please try again"
	msgSignupDisabled      = "Signups not allowed for this instance"
	msgAnonymousDisabled   = "Anonymous sign-ins are disabled"
	msgProviderDisabled    = "Sign-in with other providers is not offered: use your e-mail and password"
)

// maxUserMetadataBytes caps a user's metadata (the JSON of `data`): it
// rides in every access token, and a large one would make every request
// of that person fail for its header size.
const maxUserMetadataBytes = 4 << 10

const msgMetadataTooLarge = "User metadata is too large: at most 4 KiB (4096 bytes) of JSON"

// metadataTooLarge answers 422 and reports true when the metadata JSON
// exceeds maxUserMetadataBytes.
func metadataTooLarge(w http.ResponseWriter, raw []byte) bool {
	if len(raw) <= maxUserMetadataBytes {
		return false
	}
	writeAuthError(w, http.StatusUnprocessableEntity, "validation_failed", msgMetadataTooLarge)
	return true
}

// recoveryTTL is how long an e-mailed reset or confirmation link works.
const recoveryTTL = time.Hour

// maxEmailLength is the longest e-mail address accepted (RFC 5321 path limit).
const maxEmailLength = 254

// plausibleEmail reports whether a normalised address has the e-mail shape,
// fits the length limit and holds no control characters (which PostgreSQL
// would refuse to store).
func plausibleEmail(email string) bool {
	if len(email) > maxEmailLength || !validate.Email(email) {
		return false
	}
	return !strings.ContainsFunc(email, func(r rune) bool { return r < 0x20 || r == 0x7f || r == utf8.RuneError })
}

// decodeAuth reads a JSON body, answering a Supabase-shaped error when it
// cannot: 415 wrong content type, 413 too large, 400 bad_json.
func decodeAuth(w http.ResponseWriter, r *http.Request, v any) bool {
	err := decodeJSON(w, r, v)
	if err == nil {
		return true
	}
	var re *requestError
	if !errors.As(err, &re) {
		re = &requestError{http.StatusBadRequest, err.Error()}
	}
	code := "bad_json"
	if re.Status != http.StatusBadRequest {
		code = "validation_failed"
	}
	writeAuthError(w, re.Status, code, re.Message)
	return false
}

// fail logs an unexpected error and answers 500.
func (s *Server) fail(w http.ResponseWriter, what string, err error) {
	s.logger.Error(what, "err", err)
	writeAuthError(w, http.StatusInternalServerError, "unexpected_failure", msgUnexpected)
}

// failHash answers a failed password hash: 503 with Retry-After when too
// many checks were waiting (the person only needs to try again), else 500.
func (s *Server) failHash(w http.ResponseWriter, what string, err error) {
	if errors.Is(err, password.ErrBusy) {
		w.Header().Set("Retry-After", "1")
		writeAuthError(w, http.StatusServiceUnavailable, "unexpected_failure", msgServiceBusy)
		return
	}
	s.fail(w, what, err)
}

// signIn starts a session for u signed in by method (recording the time
// as u's last sign-in, in the same commit) and answers its tokens.
func (s *Server) signIn(ctx context.Context, r *http.Request, u *store.User, method string) (*sessionJSON, error) {
	refresh, err := newOpaqueToken()
	if err != nil {
		return nil, err
	}
	ua := []rune(strings.ToValidUTF8(r.UserAgent(), ""))
	if len(ua) > 256 {
		ua = ua[:256]
	}
	sess := &store.Session{UserID: u.ID, UserAgent: string(ua), IP: s.clientIP(r)}
	if err := s.db.StartSession(ctx, sess, method, hashToken(refresh)); err != nil {
		return nil, err
	}
	signedInAt := sess.CreatedAt
	u.LastSignInAt = &signedInAt
	return s.sessionAnswer(ctx, u, sess.ID, store.SessionAuth{Method: method, CreatedAt: sess.CreatedAt, AAL: "aal1"}, refresh)
}

// sessionAnswer signs a new access token for the session (its aal and amr
// from how the session was signed in) and shapes the answer.
func (s *Server) sessionAnswer(ctx context.Context, u *store.User, sessionID string, auth store.SessionAuth, refresh string) (*sessionJSON, error) {
	now := s.now()
	exp := now.Add(s.cfg.AccessTokenTTL)
	amr := []token.AMR{{Method: auth.Method, Timestamp: auth.CreatedAt.Unix()}}
	aal := "aal1"
	if auth.AAL == "aal2" && auth.MFAAt != nil {
		aal = "aal2"
		amr = append([]token.AMR{{Method: "totp", Timestamp: auth.MFAAt.Unix()}}, amr...)
	}
	access, err := s.signToken(ctx, token.Claims{
		Issuer: s.issuer(), Subject: u.ID, Audience: "authenticated",
		ExpiresAt: exp.Unix(), IssuedAt: now.Unix(), Role: "authenticated", Email: u.Email,
		SessionID: sessionID, AAL: aal, AMR: amr,
		AppMetadata:  map[string]any{"provider": "email", "providers": []string{"email"}},
		UserMetadata: userMetadataMap(u),
	})
	if err != nil {
		return nil, err
	}
	uj, err := s.userAnswer(ctx, u)
	if err != nil {
		return nil, err
	}
	return &sessionJSON{
		AccessToken: access, TokenType: "bearer", ExpiresIn: int64(s.cfg.AccessTokenTTL.Seconds()),
		ExpiresAt: exp.Unix(), RefreshToken: refresh, User: uj,
	}, nil
}

func userMetadataMap(u *store.User) map[string]any {
	m := map[string]any{}
	json.Unmarshal([]byte(u.UserMetadata), &m)
	return m
}

// handleAuthSettings answers what the hosted service tells clients about
// this project: e-mail sign-in only, sign-up open.
func (s *Server) handleAuthSettings() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeAuthJSON(w, http.StatusOK, map[string]any{
			"external": map[string]bool{
				"anonymous_users": false, "apple": false, "azure": false, "bitbucket": false, "discord": false,
				"email": true, "facebook": false, "github": false, "gitlab": false, "google": false,
				"phone": false, "twitter": false,
			},
			"disable_signup":     s.cfg.DisableSignup,
			"mailer_autoconfirm": !s.cfg.ConfirmEmail,
			"phone_autoconfirm":  false,
			"sms_provider":       "",
			"saml_enabled":       false,
		})
	})
}

// credentials is the body of sign-up and password sign-in.
type credentials struct {
	Email    string         `json:"email"`
	Phone    string         `json:"phone"`
	Password string         `json:"password"`
	Data     map[string]any `json:"data"`

	CodeChallenge       string `json:"code_challenge"`
	CodeChallengeMethod string `json:"code_challenge_method"`
}

// checkCredentials answers a failure and returns false when a required
// field is missing or the e-mail is malformed.
func checkCredentials(w http.ResponseWriter, c *credentials) bool {
	c.Email = validate.NormaliseEmail(c.Email)
	if c.Email == "" && strings.TrimSpace(c.Phone) != "" {
		writeAuthError(w, http.StatusBadRequest, "phone_provider_disabled", msgPhoneDisabled)
		return false
	}
	if c.Email == "" || c.Password == "" {
		writeAuthError(w, http.StatusBadRequest, "validation_failed", msgCredentialsRequired)
		return false
	}
	return true
}

// checkNewPassword answers a failure and returns false when pw may not be
// used as a password.
func checkNewPassword(w http.ResponseWriter, pw string) bool {
	if len([]rune(pw)) > password.MaxLength {
		writeAuthError(w, http.StatusUnprocessableEntity, "validation_failed", msgPasswordTooLong)
		return false
	}
	if reasons, msg := password.Check(pw); len(reasons) > 0 {
		writeWeakPassword(w, reasons, msg)
		return false
	}
	return true
}

// handleSignup creates an account. Confirmed at once (answering a session)
// unless e-mail confirmation is on, in which case it mails a confirmation
// link and answers the user without a session.
func (s *Server) handleSignup() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.DisableSignup {
			writeAuthError(w, http.StatusUnprocessableEntity, "signup_disabled", msgSignupDisabled)
			return
		}
		var c credentials
		if !decodeAuth(w, r, &c) {
			return
		}
		if strings.TrimSpace(c.Email) == "" && strings.TrimSpace(c.Phone) == "" && c.Password == "" {
			writeAuthError(w, http.StatusUnprocessableEntity, "anonymous_provider_disabled", msgAnonymousDisabled)
			return
		}
		if !checkCredentials(w, &c) {
			return
		}
		if !plausibleEmail(c.Email) {
			writeAuthError(w, http.StatusBadRequest, "email_address_invalid", msgEmailInvalid)
			return
		}
		if !checkNewPassword(w, c.Password) {
			return
		}
		flow, ok := checkPKCE(w, c.CodeChallenge, c.CodeChallengeMethod)
		if !ok {
			return
		}
		redirectTo := s.safeRedirect(r.URL.Query().Get("redirect_to"), "/sign_up")
		hash, err := password.HashContext(r.Context(), c.Password)
		if err != nil {
			s.failHash(w, "hash password", err)
			return
		}
		meta := c.Data
		if meta == nil {
			meta = map[string]any{}
		}
		metaJSON, _ := json.Marshal(meta)
		if metadataTooLarge(w, metaJSON) {
			return
		}
		now := store.Now()
		u := &store.User{Email: c.Email, PasswordHash: hash, UserMetadata: string(metaJSON), CreatedAt: now}
		if !s.cfg.ConfirmEmail {
			u.EmailConfirmedAt = &now
		}
		err = s.db.CreateUser(r.Context(), u)
		if errors.Is(err, store.ErrEmailTaken) && s.cfg.ConfirmEmail {
			s.signupOfExistingAddress(w, r, u, flow, redirectTo)
			return
		}
		if errors.Is(err, store.ErrEmailTaken) {
			writeAuthError(w, http.StatusUnprocessableEntity, "user_already_exists", msgUserExists)
			return
		}
		if err != nil {
			s.fail(w, "create user", err)
			return
		}
		s.countMilestone(r.Context(), analytics.AccountCreated)
		if s.cfg.ConfirmEmail {
			var sentAt *time.Time
			if s.mayEmail(r.Context(), u.Email, "confirmation") {
				if sentAt, err = s.sendConfirmation(r.Context(), u, flow, redirectTo); err != nil {
					s.logger.Error("send confirmation", "err", err)
				}
			}
			uj := toUserJSON(u)
			uj.ConfirmationSentAt = sentAt
			writeAuthJSON(w, http.StatusOK, uj)
			return
		}
		sess, err := s.signIn(r.Context(), r, u, "password")
		if err != nil {
			s.fail(w, "start session", err)
			return
		}
		writeAuthJSON(w, http.StatusOK, sess)
	})
}

// sendConfirmation mails the user a link that confirms the e-mail address
// and comes back to redirectTo (with a one-time code when flow is a PKCE flow).
func (s *Server) sendConfirmation(ctx context.Context, u *store.User, flow *store.FlowState, redirectTo string) (*time.Time, error) {
	tok, err := s.newLinkToken(ctx, u, store.TokenConfirmation, "signup", flow)
	if err != nil {
		return nil, err
	}
	now := store.Now()
	link := s.cfg.PublicURL + "/auth/v1/verify?" + url.Values{"token": {tok}, "type": {"signup"}, "redirect_to": {redirectTo}}.Encode()
	err = s.mailer.Send(ctx, mail.Message{
		To: u.Email, Subject: "Confirm your Salaula account", Kind: "confirmation",
		Body: "Welcome to Salaula!\n\nOpen this link to confirm your e-mail address and sign in:\n\n" + link +
			"\n\nThe link works once, for one hour. If you did not sign up, ignore this e-mail.\n",
	})
	return &now, err
}

// handleToken exchanges credentials (grant_type=password) or a refresh token
// (grant_type=refresh_token) for a session. Only password sign-in is rate
// limited: many phones share one carrier IP, and refreshing is what keeps
// every one of them signed in.
func (s *Server) handleToken() http.Handler {
	passwordGrant := s.limitAuth(s.passwordGrant())
	refreshGrant := s.refreshGrant()
	pkceGrant := s.limitAuth(s.pkceGrant())
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("grant_type") {
		case "password":
			passwordGrant.ServeHTTP(w, r)
		case "refresh_token":
			refreshGrant.ServeHTTP(w, r)
		case "pkce":
			pkceGrant.ServeHTTP(w, r)
		case "id_token":
			writeAuthError(w, http.StatusBadRequest, "provider_disabled", msgProviderDisabled)
		case "web3":
			writeAuthError(w, http.StatusBadRequest, "web3_provider_disabled", msgProviderDisabled)
		default:
			writeAuthError(w, http.StatusBadRequest, "validation_failed", "Unsupported grant_type: use password, refresh_token or pkce")
		}
	})
}

// passwordGrant signs in with e-mail and password. A wrong password and an
// unknown e-mail get the same answer after the same work (an argon2 check
// against a dummy hash).
func (s *Server) passwordGrant() http.Handler {
	// Made now, beside the rest of the start (so the server answers sooner),
	// so the first unknown e-mail costs no more than later ones; a sign-in
	// arriving before it is made waits for it.
	go password.Dummy()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var c credentials
		if !decodeAuth(w, r, &c) || !checkCredentials(w, &c) {
			return
		}
		var u *store.User
		if plausibleEmail(c.Email) { // anything else cannot have an account
			var err error
			u, err = s.db.UserByEmail(r.Context(), c.Email)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				s.fail(w, "find user", err)
				return
			}
		}
		hash := password.Dummy()
		if u != nil {
			hash = u.PasswordHash
		}
		ok, err := password.VerifyContext(r.Context(), c.Password, hash)
		if errors.Is(err, password.ErrBusy) {
			s.failHash(w, "verify password", err)
			return
		}
		if err != nil {
			s.logger.Error("verify password", "err", err)
		}
		if !ok || u == nil {
			writeAuthError(w, http.StatusBadRequest, "invalid_credentials", msgInvalidCredentials)
			return
		}
		if u.EmailConfirmedAt == nil {
			writeAuthError(w, http.StatusBadRequest, "email_not_confirmed", msgEmailNotConfirmed)
			return
		}
		sess, err := s.signIn(r.Context(), r, u, "password")
		if err != nil {
			s.fail(w, "start session", err)
			return
		}
		writeAuthJSON(w, http.StatusOK, sess)
	})
}

// refreshGrant rotates a refresh token: the presented one is spent and a
// new one answered with a fresh access token. See store.RotateRefreshToken
// for reuse within and after the grace interval.
func (s *Server) refreshGrant() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			RefreshToken string `json:"refresh_token"`
		}
		if !decodeAuth(w, r, &body) {
			return
		}
		old := strings.TrimSpace(body.RefreshToken)
		if old == "" {
			writeAuthError(w, http.StatusBadRequest, "validation_failed", "Refresh token is required")
			return
		}
		next, err := newOpaqueToken()
		if err != nil {
			s.fail(w, "new token", err)
			return
		}
		sealed, err := s.seal(next)
		if err != nil {
			s.fail(w, "seal token", err)
			return
		}
		rot, err := s.db.RotateRefreshToken(r.Context(), hashToken(old), hashToken(next), sealed, store.Now(), s.cfg.RefreshReuseInterval)
		switch {
		case errors.Is(err, store.ErrTokenNotFound):
			writeAuthError(w, http.StatusBadRequest, "refresh_token_not_found", msgRefreshNotFound)
			return
		case errors.Is(err, store.ErrTokenReused):
			s.logger.Warn("refresh token reused after its grace interval: session revoked", "session_id", rot.SessionID)
			writeAuthError(w, http.StatusBadRequest, "refresh_token_already_used", msgRefreshUsed)
			return
		case err != nil:
			s.fail(w, "rotate refresh token", err)
			return
		}
		if rot.Sealed != "" {
			if next, err = s.unseal(rot.Sealed); err != nil {
				s.logger.Error("unseal successor", "err", err)
				writeAuthError(w, http.StatusBadRequest, "refresh_token_not_found", msgRefreshNotFound)
				return
			}
		}
		u, err := s.db.UserByID(r.Context(), rot.UserID)
		if err != nil {
			s.fail(w, "find user", err)
			return
		}
		auth, err := s.db.SessionAuthOf(r.Context(), rot.SessionID)
		if err != nil {
			s.fail(w, "find session", err)
			return
		}
		sess, err := s.sessionAnswer(r.Context(), u, rot.SessionID, auth, next)
		if err != nil {
			s.fail(w, "sign token", err)
			return
		}
		writeAuthJSON(w, http.StatusOK, sess)
	})
}

// currentUser authenticates the caller and loads the account, answering the
// Supabase Auth error and returning false when it cannot.
func (s *Server) currentUser(w http.ResponseWriter, r *http.Request) (*token.Claims, *store.User, bool) {
	claims, err := s.authenticate(r.Context(), r)
	switch {
	case errors.Is(err, errNoToken):
		writeAuthError(w, http.StatusUnauthorized, "no_authorization", "This endpoint requires a valid Bearer token")
		return nil, nil, false
	case errors.Is(err, token.ErrMalformed), errors.Is(err, token.ErrExpired), errors.Is(err, token.ErrClaims),
		errors.Is(err, token.ErrUnknownKey), errors.Is(err, errNotUserToken):
		writeAuthError(w, http.StatusForbidden, "bad_jwt", err.Error())
		return nil, nil, false
	case errors.Is(err, errSessionEnded):
		writeAuthError(w, http.StatusForbidden, "session_not_found", "Session from session_id claim in JWT does not exist")
		return nil, nil, false
	case errors.Is(err, errCheckingSession):
		writeAuthError(w, http.StatusServiceUnavailable, "unexpected_failure", msgServiceBusy)
		return nil, nil, false
	case err != nil:
		s.fail(w, "authenticate", err)
		return nil, nil, false
	}
	u, err := s.db.UserByID(r.Context(), claims.Subject)
	if errors.Is(err, store.ErrNotFound) {
		writeAuthError(w, http.StatusForbidden, "user_not_found", "User from sub claim in JWT does not exist")
		return nil, nil, false
	}
	if err != nil {
		s.fail(w, "find user", err)
		return nil, nil, false
	}
	return claims, u, true
}

// handleGetUser answers the signed-in user.
func (s *Server) handleGetUser() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, u, ok := s.currentUser(w, r); ok {
			s.writeUser(w, r, u)
		}
	})
}

// msgWrongCurrentPassword answers a password change whose current password is wrong.
const msgWrongCurrentPassword = "Your current password is not correct"

// handleUpdateUser changes the signed-in user's password and/or metadata.
// A new password signs out every other session of the user.
func (s *Server) handleUpdateUser() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		claims, u, ok := s.currentUser(w, r)
		if !ok {
			return
		}
		var body struct {
			Email    *string        `json:"email"`
			Phone    *string        `json:"phone"`
			Password *string        `json:"password"`
			Data     map[string]any `json:"data"`
			// CurrentPassword, when sent with password (the account page),
			// must be the account's password.
			CurrentPassword *string `json:"current_password"`
		}
		if !decodeAuth(w, r, &body) {
			return
		}
		if body.Email != nil && validate.NormaliseEmail(*body.Email) != u.Email {
			writeAuthError(w, http.StatusUnprocessableEntity, "validation_failed", "Changing the e-mail address is not supported yet")
			return
		}
		if body.Phone != nil && strings.TrimSpace(*body.Phone) != "" {
			writeAuthError(w, http.StatusUnprocessableEntity, "phone_provider_disabled", msgPhoneDisabled)
			return
		}
		// Checked before anything is stored, so a refusal changes nothing.
		var newMeta []byte
		if body.Data != nil {
			meta := userMetadataMap(u)
			for k, v := range body.Data {
				if v == nil {
					delete(meta, k)
				} else {
					meta[k] = v
				}
			}
			newMeta, _ = json.Marshal(meta)
			if metadataTooLarge(w, newMeta) {
				return
			}
		}
		ctx := r.Context()
		if body.Password != nil {
			if body.CurrentPassword != nil {
				ok, err := password.VerifyContext(ctx, *body.CurrentPassword, u.PasswordHash)
				if errors.Is(err, password.ErrBusy) {
					s.failHash(w, "verify password", err)
					return
				}
				if !ok {
					writeAuthError(w, http.StatusBadRequest, "invalid_credentials", msgWrongCurrentPassword)
					return
				}
			}
			if !checkNewPassword(w, *body.Password) {
				return
			}
			same, err := password.VerifyContext(ctx, *body.Password, u.PasswordHash)
			if errors.Is(err, password.ErrBusy) {
				s.failHash(w, "verify password", err)
				return
			}
			if same {
				writeAuthError(w, http.StatusUnprocessableEntity, "same_password", msgSamePassword)
				return
			}
			hash, err := password.HashContext(ctx, *body.Password)
			if err != nil {
				s.failHash(w, "hash password", err)
				return
			}
			if err := s.db.SetPassword(ctx, u.ID, hash); err != nil {
				s.fail(w, "set password", err)
				return
			}
			if err := s.db.RevokeSessions(ctx, u.ID, claims.SessionID, store.ScopeOthers); err != nil {
				s.fail(w, "revoke other sessions", err)
				return
			}
		}
		if body.Data != nil {
			if err := s.db.SetUserMetadata(ctx, u.ID, string(newMeta)); err != nil {
				s.fail(w, "set metadata", err)
				return
			}
		}
		u, err := s.db.UserByID(ctx, u.ID)
		if err != nil {
			s.fail(w, "find user", err)
			return
		}
		s.writeUser(w, r, u)
	})
}

// handleLogout ends sessions of the caller: scope=global (default) all of
// them, local the current one, others all but the current one. 204.
func (s *Server) handleLogout() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scope := r.URL.Query().Get("scope")
		if scope == "" {
			scope = store.ScopeGlobal
		}
		if scope != store.ScopeGlobal && scope != store.ScopeLocal && scope != store.ScopeOthers {
			writeAuthError(w, http.StatusBadRequest, "validation_failed", "Unsupported logout scope: use global, local or others")
			return
		}
		claims, u, ok := s.currentUser(w, r)
		if !ok {
			return
		}
		if err := s.db.RevokeSessions(r.Context(), u.ID, claims.SessionID, scope); err != nil {
			s.fail(w, "revoke sessions", err)
			return
		}
		w.Header().Set(apiVersionHeader, apiVersion)
		w.WriteHeader(http.StatusNoContent)
	})
}

// handleRecover mails a password-reset link to an account's address. It
// answers 200 {} whether or not the account exists.
func (s *Server) handleRecover() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Email               string `json:"email"`
			CodeChallenge       string `json:"code_challenge"`
			CodeChallengeMethod string `json:"code_challenge_method"`
		}
		if !decodeAuth(w, r, &body) {
			return
		}
		email := validate.NormaliseEmail(body.Email)
		if email == "" {
			writeAuthError(w, http.StatusBadRequest, "validation_failed", "Password recovery requires an email")
			return
		}
		flow, ok := checkPKCE(w, body.CodeChallenge, body.CodeChallengeMethod)
		if !ok {
			return
		}
		redirectTo := s.safeRedirect(r.URL.Query().Get("redirect_to"), "/reset_password")
		if !plausibleEmail(email) {
			writeAuthError(w, http.StatusBadRequest, "email_address_invalid", msgEmailInvalid)
			return
		}
		u, err := s.db.UserByEmail(r.Context(), email)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			s.fail(w, "find user", err)
			return
		}
		if u != nil {
			s.mailAfterAnswer(r, "send recovery", func(ctx context.Context) error {
				if !s.mayEmail(ctx, u.Email, "recovery") {
					return nil
				}
				return s.sendRecovery(ctx, u, flow, redirectTo)
			})
		}
		writeAuthJSON(w, http.StatusOK, map[string]any{})
	})
}

// mayEmail counts one more e-mail of kind to address against the
// per-address limit (store.AllowEmail) and reports whether it may be sent;
// a refusal or a failure to count is logged and the e-mail skipped. The
// caller's answer stays the same either way, so the limit reveals nothing.
func (s *Server) mayEmail(ctx context.Context, address, kind string) bool {
	ok, err := s.db.AllowEmail(ctx, address, s.now(), store.EmailQuota{Count: s.cfg.EmailRateLimit.Count, Window: s.cfg.EmailRateLimit.Window})
	if err != nil {
		s.logger.Error("count e-mail against the address limit", "kind", kind, "err", err)
		return false
	}
	if !ok {
		s.logger.Warn("e-mail not sent: the address had one this minute or its SALAULA_RATE_EMAIL quota", "kind", kind)
	}
	return ok
}

// sendRecovery mails the user a single-use reset link valid for one hour.
// In a PKCE flow the link passes by /auth/v1/verify, which sends the
// browser to redirectTo with a one-time code.
func (s *Server) sendRecovery(ctx context.Context, u *store.User, flow *store.FlowState, redirectTo string) error {
	tok, err := s.newLinkToken(ctx, u, store.TokenRecovery, "recovery", flow)
	if err != nil {
		return err
	}
	link := s.cfg.PublicURL + "/reset_password?" + url.Values{"token_hash": {tok}, "type": {"recovery"}}.Encode()
	if flow != nil {
		link = s.cfg.PublicURL + "/auth/v1/verify?" + url.Values{"token": {tok}, "type": {"recovery"}, "redirect_to": {redirectTo}}.Encode()
	}
	return s.mailer.Send(ctx, mail.Message{
		To: u.Email, Subject: "Reset your Salaula password", Kind: "recovery",
		Body: "Someone asked to reset the password of your Salaula account.\n\nOpen this link to choose a new password:\n\n" + link +
			"\n\nThe link works once, for one hour. If it was not you, ignore this e-mail: your password stays as it is.\n",
	})
}

// verifyKinds maps the verification types the API accepts to the one-time
// token kind they spend and the sign-in method they record.
var verifyKinds = map[string]struct{ kind, method string }{
	"recovery": {store.TokenRecovery, "recovery"},
	"signup":   {store.TokenConfirmation, "otp"},
	"email":    {store.TokenConfirmation, "otp"},
}

// verify spends an e-mailed token of type typ and starts a session; its
// error is errLinkInvalid for a bad, used or expired token.
func (s *Server) verify(ctx context.Context, r *http.Request, typ, tok string) (*sessionJSON, error) {
	k := verifyKinds[typ]
	userID, err := s.db.UseOneTimeToken(ctx, k.kind, hashToken(tok), store.Now())
	if errors.Is(err, store.ErrTokenInvalid) {
		return nil, errLinkInvalid
	}
	if err != nil {
		return nil, err
	}
	// Opening a link sent to the address proves the address works.
	if err := s.db.ProveEmail(ctx, userID, store.Now()); err != nil {
		return nil, err
	}
	u, err := s.db.UserByID(ctx, userID)
	if err != nil {
		return nil, err
	}
	return s.signIn(ctx, r, u, k.method)
}

var errLinkInvalid = errors.New(msgLinkInvalid)

// handleVerify spends a reset or confirmation token sent by e-mail. A
// JSON body ({"type": "recovery", "token_hash": "..."}, what supabase-js
// verifyOtp sends) answers a session. A form (the button of the page the
// e-mailed link opens, see handleVerifyPage) is the link itself: see
// verifyLinkForm.
func (s *Server) handleVerify() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/x-www-form-urlencoded" {
			s.verifyLinkForm(w, r)
			return
		}
		var body struct {
			Type      string `json:"type"`
			TokenHash string `json:"token_hash"`
			Token     string `json:"token"`
		}
		if !decodeAuth(w, r, &body) {
			return
		}
		if body.Type == "" {
			writeAuthError(w, http.StatusBadRequest, "validation_failed", "Verify requires a verification type")
			return
		}
		if _, ok := verifyKinds[body.Type]; !ok {
			writeAuthError(w, http.StatusBadRequest, "validation_failed", "Unsupported verification type: use recovery, signup or email")
			return
		}
		if strings.TrimSpace(body.TokenHash) == "" {
			writeAuthError(w, http.StatusBadRequest, "validation_failed", "Verify requires a token_hash")
			return
		}
		sess, err := s.verify(r.Context(), r, body.Type, strings.TrimSpace(body.TokenHash))
		if errors.Is(err, errLinkInvalid) {
			writeAuthError(w, http.StatusForbidden, "otp_expired", msgLinkInvalid)
			return
		}
		if err != nil {
			s.fail(w, "verify", err)
			return
		}
		writeAuthJSON(w, http.StatusOK, sess)
	})
}

// verifyPage is the page an e-mailed link of type typ opens.
func verifyPage(typ string) linkPage {
	if typ == "recovery" {
		return linkPage{Title: "Reset your password", Button: "Choose a new password",
			Text: "Press the button to choose a new password for your Salaula account. If you did not ask for this, close this page: your password stays as it is."}
	}
	return linkPage{Title: "Confirm your e-mail address", Button: "Confirm and sign in",
		Text: "Press the button to confirm your e-mail address and sign in to Salaula. If you did not sign up, close this page: nothing changes."}
}

// handleVerifyPage is the e-mailed link (GET /auth/v1/verify?token=...&
// type=...&redirect_to=...). Opening it spends nothing, since mail systems
// open links to scan them: a usable token answers a page whose button
// POSTs the same fields back (verifyLinkForm); a link without a token or
// with a used or expired one sends the browser to redirect_to with the
// error in the URL fragment, as the hosted service does.
func (s *Server) handleVerifyPage() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		typ, tok := q.Get("type"), q.Get("token")
		k, ok := verifyKinds[typ]
		if !ok || tok == "" {
			s.verifyRedirect(w, r, typ, q.Get("redirect_to"), linkError("invalid_request", "validation_failed", "Verify requires a token and a type"))
			return
		}
		if _, err := s.db.OneTimeTokenUser(r.Context(), k.kind, hashToken(tok), store.Now()); err != nil {
			if !errors.Is(err, store.ErrTokenInvalid) {
				s.logger.Error("look up link token", "err", err)
			}
			s.verifyRedirect(w, r, typ, q.Get("redirect_to"), linkError("access_denied", "otp_expired", msgLinkInvalid))
			return
		}
		page := verifyPage(typ)
		page.Action = "/auth/v1/verify"
		page.Fields = map[string]string{"type": typ, "token": tok, "redirect_to": q.Get("redirect_to")}
		w.Header().Set(apiVersionHeader, apiVersion)
		writeLinkPage(w, http.StatusOK, page)
	})
}

// linkError is the URL fragment of a link that could not be used.
func linkError(kind, code, description string) url.Values {
	return url.Values{"error": {kind}, "error_code": {code}, "error_description": {description}}
}

// verifyLinkForm is the button of the link's page (a form: type, token,
// redirect_to): it spends the token and sends the browser to redirect_to
// (on this site) with the session in the URL fragment, which supabase-js
// picks up, or, in a PKCE flow, with a one-time code; or with the error.
func (s *Server) verifyLinkForm(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
	if err := r.ParseForm(); err != nil {
		s.verifyRedirect(w, r, "", "", linkError("invalid_request", "validation_failed", "Verify requires a token and a type"))
		return
	}
	typ, tok, redirectTo := r.PostFormValue("type"), r.PostFormValue("token"), r.PostFormValue("redirect_to")
	if code, ok := s.verifyPKCELink(w, r, typ, tok); ok {
		target := s.safeRedirect(redirectTo, verifyDefaultPage(typ))
		w.Header().Set(apiVersionHeader, apiVersion)
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, withQuery(target, "code", code), http.StatusSeeOther)
		return
	}
	if _, ok := verifyKinds[typ]; !ok || tok == "" {
		s.verifyRedirect(w, r, typ, redirectTo, linkError("invalid_request", "validation_failed", "Verify requires a token and a type"))
		return
	}
	sess, err := s.verify(r.Context(), r, typ, tok)
	if err != nil {
		if !errors.Is(err, errLinkInvalid) {
			s.logger.Error("verify link", "err", err)
		}
		s.verifyRedirect(w, r, typ, redirectTo, linkError("access_denied", "otp_expired", msgLinkInvalid))
		return
	}
	s.verifyRedirect(w, r, typ, redirectTo, url.Values{
		"access_token": {sess.AccessToken}, "token_type": {sess.TokenType}, "expires_in": {jsonNumber(sess.ExpiresIn)},
		"expires_at": {jsonNumber(sess.ExpiresAt)}, "refresh_token": {sess.RefreshToken}, "type": {typ},
	})
}

// verifyDefaultPage is where a link of type typ goes when its redirect_to
// is missing or not on this site.
func verifyDefaultPage(typ string) string {
	if typ == "recovery" {
		return "/reset_password"
	}
	return "/sign_up"
}

// verifyRedirect sends the browser to redirectTo (on this site, else the
// type's page) with fragment.
func (s *Server) verifyRedirect(w http.ResponseWriter, r *http.Request, typ, redirectTo string, fragment url.Values) {
	target := s.safeRedirect(redirectTo, verifyDefaultPage(typ))
	w.Header().Set(apiVersionHeader, apiVersion)
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, target+"#"+fragment.Encode(), http.StatusSeeOther)
}

func jsonNumber(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
