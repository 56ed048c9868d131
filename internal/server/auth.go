package server

import (
	"errors"
	"net/http"
	"strings"

	"salaula/internal/apierr"
	"salaula/internal/auth"
	"salaula/internal/password"
	"salaula/internal/store"
	"salaula/internal/token"
)

// The auth API's handlers: each decodes the request, calls one method of
// the auth service (internal/auth) and renders its result, or its error
// with renderAuthError.

// decodeAuth reads a JSON body, answering a Supabase-shaped error when it
// cannot: 415 wrong content type, 413 too large, 400 bad_json, 400
// validation_failed for a text that is not printable (naming the field).
func (s *Server) decodeAuth(w http.ResponseWriter, r *http.Request, v any) bool {
	err := decodeJSON(w, r, v)
	if err == nil {
		return true
	}
	if e := apierr.As(err); e != nil {
		s.renderAuthError(w, "decode", &auth.Error{Code: auth.CodeBadText, Detail: e.Message})
		return false
	}
	var re *requestError
	if !errors.As(err, &re) {
		re = &requestError{http.StatusBadRequest, err.Error()}
	}
	code := auth.CodeBadJSON
	switch re.Status {
	case http.StatusUnsupportedMediaType:
		code = auth.CodeContentType
	case http.StatusRequestEntityTooLarge:
		code = auth.CodeBodyTooLarge
	}
	s.renderAuthError(w, "decode", &auth.Error{Code: code, Detail: re.Message})
	return false
}

// client is who sends r, recorded with a new session.
func (s *Server) client(r *http.Request) auth.Client {
	return auth.Client{IP: s.clientIP(r), UserAgent: r.UserAgent()}
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
	Password string         `json:"password" text:"-"` // only hashed
	Data     map[string]any `json:"data"`

	CodeChallenge       string `json:"code_challenge"`
	CodeChallengeMethod string `json:"code_challenge_method"`
}

func (c credentials) service(r *http.Request) auth.Credentials {
	return auth.Credentials{Email: c.Email, Phone: c.Phone, Password: c.Password, Data: c.Data,
		PKCE:       auth.PKCE{Challenge: c.CodeChallenge, Method: c.CodeChallengeMethod},
		RedirectTo: r.URL.Query().Get("redirect_to")}
}

// handleSignup creates an account: a session when it is confirmed at once,
// else the user awaiting the mailed confirmation link (auth.Service.SignUp).
func (s *Server) handleSignup() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var c credentials
		if !s.decodeAuth(w, r, &c) {
			return
		}
		res, err := s.auth.SignUp(r.Context(), c.service(r), s.client(r))
		switch {
		case err != nil:
			s.renderAuthError(w, "sign up", err)
		case res.Session != nil:
			writeAuthJSON(w, http.StatusOK, toSessionJSON(res.Session))
		default:
			uj := toUserJSON(res.User)
			uj.ConfirmationSentAt = res.ConfirmationSentAt
			writeAuthJSON(w, http.StatusOK, uj)
		}
	})
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
			s.renderAuthError(w, "token", auth.Fail(auth.CodeProviderDisabled))
		case "web3":
			s.renderAuthError(w, "token", auth.Fail(auth.CodeWeb3Disabled))
		default:
			s.renderAuthError(w, "token", auth.Fail(auth.CodeGrantType))
		}
	})
}

// answerSession renders a session, or err.
func (s *Server) answerSession(w http.ResponseWriter, what string, sess *auth.Session, err error) {
	if err != nil {
		s.renderAuthError(w, what, err)
		return
	}
	writeAuthJSON(w, http.StatusOK, toSessionJSON(sess))
}

// passwordGrant signs in with e-mail and password.
func (s *Server) passwordGrant() http.Handler {
	// Made now, beside the rest of the start (so the server answers sooner),
	// so the first unknown e-mail costs no more than later ones; a sign-in
	// arriving before it is made waits for it.
	go password.Dummy()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var c credentials
		if !s.decodeAuth(w, r, &c) {
			return
		}
		sess, err := s.auth.SignInWithPassword(r.Context(), c.service(r), s.client(r))
		s.answerSession(w, "sign in", sess, err)
	})
}

// refreshGrant rotates a refresh token (auth.Service.Refresh).
func (s *Server) refreshGrant() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			RefreshToken string `json:"refresh_token"`
		}
		if !s.decodeAuth(w, r, &body) {
			return
		}
		sess, err := s.auth.Refresh(r.Context(), body.RefreshToken)
		s.answerSession(w, "refresh", sess, err)
	})
}

// pkceGrant exchanges a PKCE link's one-time code and the client's code
// verifier for a session, once (grant_type=pkce).
func (s *Server) pkceGrant() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			AuthCode     string `json:"auth_code"`
			CodeVerifier string `json:"code_verifier"`
		}
		if !s.decodeAuth(w, r, &body) {
			return
		}
		sess, err := s.auth.ExchangeCode(r.Context(), body.AuthCode, body.CodeVerifier, s.client(r))
		s.answerSession(w, "exchange code", sess, err)
	})
}

// authFailure maps authenticate's errors to the auth service's codes.
func authFailure(err error) error {
	switch {
	case errors.Is(err, errNoToken):
		return auth.Fail(auth.CodeNoAuthorization)
	case errors.Is(err, token.ErrMalformed), errors.Is(err, token.ErrExpired), errors.Is(err, token.ErrClaims),
		errors.Is(err, token.ErrUnknownKey), errors.Is(err, errNotUserToken):
		return &auth.Error{Code: auth.CodeBadJWT, Detail: messageOf(err), Err: err}
	case errors.Is(err, errSessionEnded):
		return auth.Fail(auth.CodeSessionNotFound)
	case errors.Is(err, errCheckingSession):
		return &auth.Error{Code: auth.CodeServiceBusy, Err: err}
	}
	return err
}

// currentUser authenticates the caller and loads the account, answering the
// Supabase Auth error and returning false when it cannot.
func (s *Server) currentUser(w http.ResponseWriter, r *http.Request) (*token.Claims, *store.User, bool) {
	claims, err := s.authenticate(r.Context(), r)
	if err != nil {
		s.renderAuthError(w, "authenticate", authFailure(err))
		return nil, nil, false
	}
	u, err := s.db.UserByID(r.Context(), claims.Subject)
	if errors.Is(err, store.ErrNotFound) {
		err = auth.Fail(auth.CodeUserNotFound)
	}
	if err != nil {
		s.renderAuthError(w, "find user", err)
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

// handleUpdateUser changes the signed-in user's password and/or metadata
// (auth.Service.UpdateUser).
func (s *Server) handleUpdateUser() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		claims, u, ok := s.currentUser(w, r)
		if !ok {
			return
		}
		var body struct {
			Email           *string        `json:"email"`
			Phone           *string        `json:"phone"`
			Password        *string        `json:"password" text:"-"` // only hashed
			Data            map[string]any `json:"data"`
			CurrentPassword *string        `json:"current_password" text:"-"`
		}
		if !s.decodeAuth(w, r, &body) {
			return
		}
		u, err := s.auth.UpdateUser(r.Context(), claims, u, auth.UserUpdate{Email: body.Email, Phone: body.Phone,
			Password: body.Password, Data: body.Data, CurrentPassword: body.CurrentPassword})
		if err != nil {
			s.renderAuthError(w, "update user", err)
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
		if err := auth.CheckLogoutScope(scope); err != nil {
			s.renderAuthError(w, "logout", err)
			return
		}
		claims, _, ok := s.currentUser(w, r)
		if !ok {
			return
		}
		if err := s.auth.Logout(r.Context(), claims, scope); err != nil {
			s.renderAuthError(w, "revoke sessions", err)
			return
		}
		w.Header().Set(apiVersionHeader, apiVersion)
		w.WriteHeader(http.StatusNoContent)
	})
}

// linkRequest is the body of recover and resend.
type linkRequest struct {
	Email               string `json:"email"`
	Phone               string `json:"phone"`
	Type                string `json:"type"`
	CodeChallenge       string `json:"code_challenge"`
	CodeChallengeMethod string `json:"code_challenge_method"`
}

func (b linkRequest) service(r *http.Request) auth.LinkRequest {
	return auth.LinkRequest{Email: b.Email, Phone: b.Phone, Type: b.Type,
		PKCE: auth.PKCE{Challenge: b.CodeChallenge, Method: b.CodeChallengeMethod}, RedirectTo: r.URL.Query().Get("redirect_to")}
}

// handleLinkRequest serves recover and resend: 200 {} whether or not the
// account exists.
func (s *Server) handleLinkRequest(what string, send func(*auth.Service, *http.Request, auth.LinkRequest) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body linkRequest
		if !s.decodeAuth(w, r, &body) {
			return
		}
		if err := send(s.auth, r, body.service(r)); err != nil {
			s.renderAuthError(w, what, err)
			return
		}
		writeAuthJSON(w, http.StatusOK, map[string]any{})
	})
}

// handleRecover mails a password-reset link (auth.Service.Recover).
func (s *Server) handleRecover() http.Handler {
	return s.handleLinkRequest("recover", func(a *auth.Service, r *http.Request, req auth.LinkRequest) error {
		req.Phone, req.Type = "", ""
		return a.Recover(r.Context(), req)
	})
}

// handleResend mails a new confirmation link (auth.Service.Resend).
func (s *Server) handleResend() http.Handler {
	return s.handleLinkRequest("resend", func(a *auth.Service, r *http.Request, req auth.LinkRequest) error {
		return a.Resend(r.Context(), req)
	})
}

// handleOTP answers signInWithOtp: e-mail codes and magic links are not
// offered (otp_disabled), nor is phone sign-in.
func (s *Server) handleOTP() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Phone string `json:"phone"`
		}
		if !s.decodeAuth(w, r, &body) {
			return
		}
		if strings.TrimSpace(body.Phone) != "" {
			s.renderAuthError(w, "otp", auth.Fail(auth.CodePhoneChange))
			return
		}
		s.renderAuthError(w, "otp", auth.Fail(auth.CodeOTPDisabled))
	})
}
