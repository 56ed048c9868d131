package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"time"

	"salaula/internal/mail"
	"salaula/internal/store"
	"salaula/internal/validate"
)

// flowStateTTL is how long the one-time code of a PKCE link can be
// exchanged after the link was opened (the hosted service's five minutes).
const flowStateTTL = 5 * time.Minute

var codeChallengePattern = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

// checkPKCE reads code_challenge and code_challenge_method: none means no
// PKCE flow (nil, true); a bad pair answers 400 and returns false.
func checkPKCE(w http.ResponseWriter, challenge, method string) (*store.FlowState, bool) {
	if challenge == "" && method == "" {
		return nil, true
	}
	if challenge == "" || method == "" {
		writeAuthError(w, http.StatusBadRequest, "validation_failed", "PKCE flow requires code_challenge_method and code_challenge")
		return nil, false
	}
	method = strings.ToLower(method)
	if method != "s256" && method != "plain" {
		writeAuthError(w, http.StatusBadRequest, "validation_failed", "code_challenge_method must be s256 or plain")
		return nil, false
	}
	if !codeChallengePattern.MatchString(challenge) {
		writeAuthError(w, http.StatusBadRequest, "validation_failed", "code challenge has to be between 43 and 128 characters of letters, digits, hyphens, periods, underscores and tildes")
		return nil, false
	}
	return &store.FlowState{CodeChallenge: challenge, CodeChallengeMethod: method}, true
}

// safeRedirect returns rt when it is a page of this site, else the site's
// page def: e-mailed links never send a person elsewhere.
func (s *Server) safeRedirect(rt, def string) string {
	base := s.cfg.PublicURL
	if rt != "" && (rt == base || strings.HasPrefix(rt, base+"/") || strings.HasPrefix(rt, base+"?")) {
		return rt
	}
	return base + def
}

// withQuery adds key=value to the query of target (before any fragment).
func withQuery(target, key, value string) string {
	frag := ""
	if i := strings.Index(target, "#"); i >= 0 {
		target, frag = target[:i], target[i:]
	}
	sep := "?"
	if strings.Contains(target, "?") {
		sep = "&"
	}
	return target + sep + key + "=" + value + frag
}

// newLinkToken stores a single-use token of kind for u (and, for a PKCE
// flow, the flow it opens) and returns the token for the e-mailed link.
func (s *Server) newLinkToken(ctx context.Context, u *store.User, kind, flowKind string, flow *store.FlowState) (string, error) {
	tok, err := newOpaqueToken()
	if err != nil {
		return "", err
	}
	if err := s.db.AddOneTimeToken(ctx, u.ID, kind, hashToken(tok), store.Now().Add(recoveryTTL)); err != nil {
		return "", err
	}
	if flow != nil {
		f := *flow
		f.UserID, f.Kind = u.ID, flowKind
		if err := s.db.AddFlowState(ctx, &f, hashToken(tok)); err != nil {
			return "", err
		}
	}
	return tok, nil
}

// verifyPKCELink spends the e-mailed token of a PKCE flow and returns the
// one-time auth code for the redirect; false when tok opens no PKCE flow
// (the caller then handles it as an ordinary link).
func (s *Server) verifyPKCELink(w http.ResponseWriter, r *http.Request, typ, tok string) (string, bool) {
	k, ok := verifyKinds[typ]
	if !ok || tok == "" {
		return "", false
	}
	ctx := r.Context()
	flow, err := s.db.FlowStateByToken(ctx, hashToken(tok))
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			s.logger.Error("find flow state", "err", err)
		}
		return "", false
	}
	now := store.Now()
	userID, err := s.db.UseOneTimeToken(ctx, k.kind, hashToken(tok), now)
	if err != nil || userID != flow.UserID {
		return "", false
	}
	if err := s.db.ProveEmail(ctx, userID, now); err != nil {
		s.logger.Error("confirm email", "err", err)
		return "", false
	}
	code, err := newOpaqueToken()
	if err == nil {
		err = s.db.IssueAuthCode(ctx, flow.ID, hashToken(code), now)
	}
	if err != nil {
		s.logger.Error("issue auth code", "err", err)
		return "", false
	}
	return code, true
}

// pkceGrant exchanges a PKCE link's one-time code and the client's code
// verifier for a session, once (grant_type=pkce).
func (s *Server) pkceGrant() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			AuthCode     string `json:"auth_code"`
			CodeVerifier string `json:"code_verifier"`
		}
		if !decodeAuth(w, r, &body) {
			return
		}
		if body.AuthCode == "" || body.CodeVerifier == "" {
			writeAuthError(w, http.StatusBadRequest, "validation_failed", "invalid request: both auth code and code verifier should be non-empty")
			return
		}
		ctx := r.Context()
		flow, err := s.db.FlowStateByAuthCode(ctx, hashToken(body.AuthCode))
		if errors.Is(err, store.ErrNotFound) {
			writeAuthError(w, http.StatusNotFound, "flow_state_not_found", "invalid flow state, no valid flow state found")
			return
		}
		if err != nil {
			s.fail(w, "find flow state", err)
			return
		}
		now := store.Now()
		if flow.AuthCodeIssuedAt == nil || now.Sub(*flow.AuthCodeIssuedAt) > flowStateTTL {
			writeAuthError(w, http.StatusUnprocessableEntity, "flow_state_expired", "invalid flow state, flow state has expired")
			return
		}
		want := body.CodeVerifier
		if flow.CodeChallengeMethod == "s256" {
			sum := sha256.Sum256([]byte(body.CodeVerifier))
			want = base64.RawURLEncoding.EncodeToString(sum[:])
		}
		if subtle.ConstantTimeCompare([]byte(want), []byte(flow.CodeChallenge)) != 1 {
			writeAuthError(w, http.StatusBadRequest, "bad_code_verifier", "code challenge does not match previously saved code verifier")
			return
		}
		if err := s.db.UseFlowState(ctx, flow.ID, now); errors.Is(err, store.ErrNotFound) {
			writeAuthError(w, http.StatusNotFound, "flow_state_not_found", "invalid flow state, no valid flow state found")
			return
		} else if err != nil {
			s.fail(w, "use flow state", err)
			return
		}
		u, err := s.db.UserByID(ctx, flow.UserID)
		if err != nil {
			s.fail(w, "find user", err)
			return
		}
		method := "otp"
		if flow.Kind == "recovery" {
			method = "recovery"
		}
		sess, err := s.signIn(ctx, r, u, method)
		if err != nil {
			s.fail(w, "start session", err)
			return
		}
		writeAuthJSON(w, http.StatusOK, sess)
	})
}

// signupOfExistingAddress answers a sign-up for an address that already has
// an account exactly as a new sign-up is answered (a user awaiting
// confirmation), so sign-up does not tell who has an account; the owner is
// mailed a new confirmation link (not yet confirmed) or a notice.
func (s *Server) signupOfExistingAddress(w http.ResponseWriter, r *http.Request, attempted *store.User, flow *store.FlowState, redirectTo string) {
	ctx := r.Context()
	owner, err := s.db.UserByEmail(ctx, attempted.Email)
	if err != nil {
		s.fail(w, "find user", err)
		return
	}
	now := store.Now()
	if s.mayEmail(ctx, owner.Email, "existing-address notice") {
		if owner.EmailConfirmedAt == nil {
			_, err = s.sendConfirmation(ctx, owner, flow, redirectTo)
		} else {
			err = s.mailer.Send(ctx, mail.Message{
				To: owner.Email, Subject: "Someone tried to sign up with your e-mail", Kind: "signup-existing",
				Body: "Someone tried to make a new Salaula account with this e-mail address, which already has one.\n\n" +
					"If it was you, sign in instead: " + s.cfg.PublicURL + "/sign_up?mode=login\n" +
					"Forgot your password? Reset it there with \"Forgot password?\".\n\n" +
					"If it was not you, ignore this e-mail: nothing has changed.\n",
			})
		}
		if err != nil {
			s.logger.Error("mail owner of existing address", "err", err)
		}
	}
	fake := *attempted
	fake.ID, fake.CreatedAt, fake.UpdatedAt = store.NewID(), now, now
	uj := toUserJSON(&fake)
	uj.ConfirmationSentAt = &now
	writeAuthJSON(w, http.StatusOK, uj)
}

// handleResend mails a new confirmation link (type signup) to an address
// whose account is not confirmed yet. It answers 200 {} whether or not such
// an account exists and whether or not the per-address limit let it send.
func (s *Server) handleResend() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Email               string `json:"email"`
			Phone               string `json:"phone"`
			Type                string `json:"type"`
			CodeChallenge       string `json:"code_challenge"`
			CodeChallengeMethod string `json:"code_challenge_method"`
		}
		if !decodeAuth(w, r, &body) {
			return
		}
		switch body.Type {
		case "signup":
		case "email_change":
			writeAuthError(w, http.StatusBadRequest, "validation_failed", "Changing the e-mail address is not offered, so there is no e-mail change to resend")
			return
		case "sms", "phone_change":
			writeAuthError(w, http.StatusBadRequest, "phone_provider_disabled", msgPhoneDisabled)
			return
		case "":
			writeAuthError(w, http.StatusBadRequest, "validation_failed", "Resend requires a type: signup")
			return
		default:
			writeAuthError(w, http.StatusBadRequest, "validation_failed", "Unsupported resend type: use signup")
			return
		}
		email := validate.NormaliseEmail(body.Email)
		if email == "" && strings.TrimSpace(body.Phone) != "" {
			writeAuthError(w, http.StatusBadRequest, "phone_provider_disabled", msgPhoneDisabled)
			return
		}
		if email == "" {
			writeAuthError(w, http.StatusBadRequest, "validation_failed", "Resend requires an email")
			return
		}
		if !plausibleEmail(email) {
			writeAuthError(w, http.StatusBadRequest, "email_address_invalid", msgEmailInvalid)
			return
		}
		flow, ok := checkPKCE(w, body.CodeChallenge, body.CodeChallengeMethod)
		if !ok {
			return
		}
		redirectTo := s.safeRedirect(r.URL.Query().Get("redirect_to"), "/sign_up")
		u, err := s.db.UserByEmail(r.Context(), email)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			s.fail(w, "find user", err)
			return
		}
		if u != nil && u.EmailConfirmedAt == nil {
			s.mailAfterAnswer(r, "resend confirmation", func(ctx context.Context) error {
				if !s.mayEmail(ctx, u.Email, "confirmation") {
					return nil
				}
				_, err := s.sendConfirmation(ctx, u, flow, redirectTo)
				return err
			})
		}
		writeAuthJSON(w, http.StatusOK, map[string]any{})
	})
}

// mailAfterAnswer sends an e-mail after the answer has gone, so a slow SMTP
// server cannot tell by the answer's timing whether an account exists; a
// failure is logged as what.
func (s *Server) mailAfterAnswer(r *http.Request, what string, send func(context.Context) error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), time.Minute)
	go func() {
		defer cancel()
		if err := send(ctx); err != nil {
			s.logger.Error(what, "err", err)
		}
	}()
}

// handleDisabled answers a supabase-js auth call this server does not
// offer with the hosted service's error code for a disabled feature.
func handleDisabled(status int, code, msg string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeAuthError(w, status, code, msg)
	})
}

// handleOTP answers signInWithOtp: e-mail codes and magic links are not
// offered (otp_disabled), nor is phone sign-in.
func handleOTP() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Phone string `json:"phone"`
		}
		if !decodeAuth(w, r, &body) {
			return
		}
		if strings.TrimSpace(body.Phone) != "" {
			writeAuthError(w, http.StatusUnprocessableEntity, "phone_provider_disabled", msgPhoneDisabled)
			return
		}
		writeAuthError(w, http.StatusUnprocessableEntity, "otp_disabled", msgOTPDisabled)
	})
}

const msgOTPDisabled = "Sign-in codes and magic links are not offered: sign in with your e-mail and password"
