package auth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/url"
	"strings"

	"salaula/internal/mail"
	"salaula/internal/store"
	"salaula/internal/token"
	"salaula/internal/validate"
)

// verifyKinds maps the verification types offered to the one-time token
// kind they use and the sign-in method they record.
var verifyKinds = map[string]struct{ kind, method string }{
	"recovery": {store.TokenRecovery, "recovery"},
	"signup":   {store.TokenConfirmation, "otp"},
	"email":    {store.TokenConfirmation, "otp"},
}

// VerifyTypeOffered reports whether typ is a verification type offered.
func VerifyTypeOffered(typ string) bool {
	_, ok := verifyKinds[typ]
	return ok
}

// newLinkToken stores a single-use token of kind for u (and, for a PKCE
// flow, the flow it opens) and returns the token for the e-mailed link.
func (s *Service) newLinkToken(ctx context.Context, u *store.User, kind, flowKind string, flow *store.FlowState) (string, error) {
	tok, err := token.NewOpaque()
	if err != nil {
		return "", err
	}
	if err := s.DB.AddOneTimeToken(ctx, u.ID, kind, token.Hash(tok), store.Now().Add(LinkTTL)); err != nil {
		return "", err
	}
	if flow != nil {
		f := *flow
		f.UserID, f.Kind = u.ID, flowKind
		if err := s.DB.AddFlowState(ctx, &f, token.Hash(tok)); err != nil {
			return "", err
		}
	}
	return tok, nil
}

// LinkRequest asks for an e-mailed link: a reset link (Recover) or a new
// confirmation link (Resend).
type LinkRequest struct {
	Email string
	Phone string // Resend only
	Type  string // Resend only: "signup"
	PKCE  PKCE
	// RedirectTo is where the link comes back to.
	RedirectTo string
}

// allowLink counts one asked-for link against email's limit
// (ratelimit.Emails), whether or not the address has an account; over the
// limit it is CodeEmailSendLimit with the wait.
func (s *Service) allowLink(ctx context.Context, email string) error {
	ok, wait, err := s.Emails.Allow(ctx, validate.MailboxKey(email), s.now())
	if err != nil {
		return err
	}
	if !ok {
		return &Error{Code: CodeEmailSendLimit, RetryAfter: wait}
	}
	return nil
}

// Recover mails a password-reset link to an account's address. It answers
// the same whether or not the account exists, except that asking again for
// one address within the limit (ratelimit.Emails, counted whether or not
// the account exists) is refused with CodeEmailSendLimit and the wait.
func (s *Service) Recover(ctx context.Context, req LinkRequest) error {
	email := validate.NormaliseEmail(req.Email)
	if email == "" {
		return Fail(CodeRecoverEmailMissing)
	}
	flow, err := req.PKCE.flow()
	if err != nil {
		return err
	}
	redirectTo := s.SafeRedirect(req.RedirectTo, "/reset_password")
	if !emailUsable(email) {
		return Fail(CodeEmailInvalid)
	}
	if err := s.allowLink(ctx, email); err != nil {
		return err
	}
	u, err := s.DB.UserByEmail(ctx, email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if u != nil {
		s.afterAnswer(ctx, "send recovery", func(ctx context.Context) error {
			return s.sendRecovery(ctx, u, flow, redirectTo)
		})
	}
	return nil
}

// sendRecovery mails the user a reset link valid for one hour, spent when
// the new password is set. In a PKCE flow the link passes by
// /auth/v1/verify, which sends the browser to redirectTo with a one-time code.
func (s *Service) sendRecovery(ctx context.Context, u *store.User, flow *store.FlowState, redirectTo string) error {
	tok, err := s.newLinkToken(ctx, u, store.TokenRecovery, "recovery", flow)
	if err != nil {
		return err
	}
	link := s.Config.PublicURL + "/reset_password?" + url.Values{"token_hash": {tok}, "type": {"recovery"}}.Encode()
	if flow != nil {
		link = s.Config.PublicURL + "/auth/v1/verify?" + url.Values{"token": {tok}, "type": {"recovery"}, "redirect_to": {redirectTo}}.Encode()
	}
	return s.Mailer.Send(ctx, mail.Message{
		To: u.Email, Subject: "Reset your Salaula password", Kind: "recovery",
		Body: "Someone asked to reset the password of your Salaula account.\n\nOpen this link to choose a new password:\n\n" + link +
			"\n\nThe link works once, for one hour. If it was not you, ignore this e-mail: your password stays as it is.\n",
	})
}

// Resend mails a new confirmation link (type signup) to an address whose
// account is not confirmed yet. It answers the same whether or not such an
// account exists, except that asking again for one address within the
// limit (ratelimit.Emails, counted whether or not the account exists) is
// refused with CodeEmailSendLimit and the wait, as Recover is: a person is
// never told a link went when it was held back.
func (s *Service) Resend(ctx context.Context, req LinkRequest) error {
	switch req.Type {
	case "signup":
	case "email_change":
		return Fail(CodeResendEmailChange)
	case "sms", "phone_change":
		return Fail(CodePhoneDisabled)
	case "":
		return Fail(CodeResendTypeMissing)
	default:
		return Fail(CodeResendType)
	}
	email := validate.NormaliseEmail(req.Email)
	if email == "" && strings.TrimSpace(req.Phone) != "" {
		return Fail(CodePhoneDisabled)
	}
	if email == "" {
		return Fail(CodeResendEmailMissing)
	}
	if !emailUsable(email) {
		return Fail(CodeEmailInvalid)
	}
	flow, err := req.PKCE.flow()
	if err != nil {
		return err
	}
	redirectTo := s.SafeRedirect(req.RedirectTo, "/sign_up")
	if err := s.allowLink(ctx, email); err != nil {
		return err
	}
	u, err := s.DB.UserByEmail(ctx, email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if u != nil && u.EmailConfirmedAt == nil {
		s.afterAnswer(ctx, "resend confirmation", func(ctx context.Context) error {
			_, err := s.sendConfirmation(ctx, u, flow, redirectTo)
			return err
		})
	}
	return nil
}

// Verify uses an e-mailed token of type typ (what supabase-js verifyOtp
// sends) and starts a session. A confirmation link is spent; a reset link
// is not (it is spent when the new password is set, so opening it and
// leaving keeps it working). A type not offered is CodeTokenInvalid, a bad,
// used or expired token CodeLinkInvalid.
func (s *Service) Verify(ctx context.Context, typ, tokenHash string, client Client) (*Session, error) {
	if typ == "" {
		return nil, Fail(CodeVerifyTypeMissing)
	}
	if !VerifyTypeOffered(typ) {
		return nil, Fail(CodeTokenInvalid)
	}
	tokenHash = strings.TrimSpace(tokenHash)
	if tokenHash == "" {
		return nil, Fail(CodeTokenHashMissing)
	}
	return s.verify(ctx, typ, tokenHash, client)
}

func (s *Service) verify(ctx context.Context, typ, tok string, client Client) (*Session, error) {
	k := verifyKinds[typ]
	var userID string
	var err error
	if k.kind == store.TokenRecovery {
		userID, err = s.DB.OneTimeTokenUser(ctx, k.kind, token.Hash(tok), store.Now())
	} else {
		userID, err = s.DB.UseOneTimeToken(ctx, k.kind, token.Hash(tok), store.Now())
	}
	if errors.Is(err, store.ErrTokenInvalid) {
		return nil, &Error{Code: CodeLinkInvalid, Err: err}
	}
	if err != nil {
		return nil, err
	}
	// A confirmation link proves the address when it is used; a reset link
	// only when the new password is set (ResetPassword), which also ends
	// the account's other sessions.
	if k.kind != store.TokenRecovery {
		if err := s.DB.ProveEmail(ctx, userID, store.Now()); err != nil {
			return nil, err
		}
	}
	u, err := s.DB.UserByID(ctx, userID)
	if err != nil {
		return nil, err
	}
	return s.signIn(ctx, client, u, k.method)
}

// CheckLink reports, spending nothing, whether an e-mailed link of type typ
// with token tok can be used (the page the link opens, which mail systems
// open to scan): CodeLinkInvalid when not.
func (s *Service) CheckLink(ctx context.Context, typ, tok string) error {
	k, ok := verifyKinds[typ]
	if !ok || tok == "" {
		return Fail(CodeVerifyTypeMissing)
	}
	if _, err := s.DB.OneTimeTokenUser(ctx, k.kind, token.Hash(tok), store.Now()); err != nil {
		if !errors.Is(err, store.ErrTokenInvalid) {
			s.Logger.Error("look up link token", "err", err)
		}
		return &Error{Code: CodeLinkInvalid, Err: err}
	}
	return nil
}

// LinkResult is what using an e-mailed link gives: a one-time code to
// exchange (PKCE flow) or a session.
type LinkResult struct {
	Code    string
	Session *Session
}

// UseLink uses an e-mailed link (the button of the page it opens): in a
// PKCE flow it spends the token and returns a one-time code for the
// redirect; else as Verify.
func (s *Service) UseLink(ctx context.Context, typ, tok string, client Client) (*LinkResult, error) {
	if _, ok := verifyKinds[typ]; !ok || tok == "" {
		return nil, Fail(CodeVerifyTypeMissing)
	}
	if code, ok := s.usePKCELink(ctx, typ, tok); ok {
		return &LinkResult{Code: code}, nil
	}
	sess, err := s.verify(ctx, typ, tok, client)
	if err != nil {
		if CodeOf(err) != CodeLinkInvalid {
			s.Logger.Error("verify link", "err", err)
		}
		return nil, &Error{Code: CodeLinkInvalid, Err: err}
	}
	return &LinkResult{Session: sess}, nil
}

// usePKCELink spends the e-mailed token of a PKCE flow and returns the
// one-time auth code for the redirect; false when tok opens no PKCE flow.
func (s *Service) usePKCELink(ctx context.Context, typ, tok string) (string, bool) {
	k := verifyKinds[typ]
	flow, err := s.DB.FlowStateByToken(ctx, token.Hash(tok))
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			s.Logger.Error("find flow state", "err", err)
		}
		return "", false
	}
	now := store.Now()
	userID, err := s.DB.UseOneTimeToken(ctx, k.kind, token.Hash(tok), now)
	if err != nil || userID != flow.UserID {
		return "", false
	}
	if k.kind != store.TokenRecovery { // a reset link proves the address with the new password
		if err := s.DB.ProveEmail(ctx, userID, now); err != nil {
			s.Logger.Error("confirm email", "err", err)
			return "", false
		}
	}
	code, err := token.NewOpaque()
	if err == nil {
		err = s.DB.IssueAuthCode(ctx, flow.ID, token.Hash(code), now)
	}
	if err != nil {
		s.Logger.Error("issue auth code", "err", err)
		return "", false
	}
	return code, true
}

// ExchangeCode exchanges a PKCE link's one-time code and the client's code
// verifier for a session, once (grant_type=pkce).
func (s *Service) ExchangeCode(ctx context.Context, authCode, verifier string, client Client) (*Session, error) {
	if authCode == "" || verifier == "" {
		return nil, Fail(CodeAuthCodeMissing)
	}
	flow, err := s.DB.FlowStateByAuthCode(ctx, token.Hash(authCode))
	if errors.Is(err, store.ErrNotFound) {
		return nil, Fail(CodeFlowStateNotFound)
	}
	if err != nil {
		return nil, err
	}
	now := store.Now()
	if flow.AuthCodeIssuedAt == nil || now.Sub(*flow.AuthCodeIssuedAt) > FlowStateTTL {
		return nil, Fail(CodeFlowStateExpired)
	}
	want := verifier
	if flow.CodeChallengeMethod == "s256" {
		sum := sha256.Sum256([]byte(verifier))
		want = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	if subtle.ConstantTimeCompare([]byte(want), []byte(flow.CodeChallenge)) != 1 {
		return nil, Fail(CodeBadCodeVerifier)
	}
	if err := s.DB.UseFlowState(ctx, flow.ID, now); errors.Is(err, store.ErrNotFound) {
		return nil, Fail(CodeFlowStateNotFound)
	} else if err != nil {
		return nil, err
	}
	u, err := s.DB.UserByID(ctx, flow.UserID)
	if err != nil {
		return nil, err
	}
	method := "otp"
	if flow.Kind == "recovery" {
		method = "recovery"
	}
	return s.signIn(ctx, client, u, method)
}
