package auth

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"salaula/internal/analytics"
	"salaula/internal/mail"
	"salaula/internal/password"
	"salaula/internal/store"
	"salaula/internal/validate"
)

// Credentials are what sign-up and password sign-in take.
type Credentials struct {
	Email    string
	Phone    string
	Password string
	Data     map[string]any // sign-up only: the user's metadata
	PKCE     PKCE           // sign-up only
	// RedirectTo is where the confirmation link comes back to (sign-up only).
	RedirectTo string
}

// PKCE is a client's code challenge and its method ("s256" or "plain");
// both empty when the client uses no PKCE flow.
type PKCE struct {
	Challenge string
	Method    string
}

// SignUpResult is a new account: with a Session when it is confirmed at
// once, else the user awaiting confirmation and when the link was sent.
type SignUpResult struct {
	Session            *Session
	User               *store.User
	ConfirmationSentAt *time.Time
}

// maxEmailLength is the longest e-mail address accepted (RFC 5321 path limit).
const maxEmailLength = 254

// emailUsable reports whether a normalised address has the e-mail shape
// (validate.Email), fits the length limit and holds no control characters
// (which PostgreSQL would refuse to store).
func emailUsable(email string) bool {
	if len(email) > maxEmailLength || !validate.Email(email) {
		return false
	}
	return !strings.ContainsFunc(email, func(r rune) bool { return r < 0x20 || r == 0x7f || r == utf8.RuneError })
}

// checkCredentials normalises c.Email and refuses missing fields.
func checkCredentials(c *Credentials) error {
	c.Email = validate.NormaliseEmail(c.Email)
	if c.Email == "" && strings.TrimSpace(c.Phone) != "" {
		return Fail(CodePhoneDisabled)
	}
	if c.Email == "" || c.Password == "" {
		return Fail(CodeCredentialsRequired)
	}
	return nil
}

// CheckNewPassword applies the password policy to pw.
func CheckNewPassword(pw string) error {
	if utf8.RuneCountInString(pw) > password.MaxLength {
		return Fail(CodePasswordTooLong)
	}
	if reasons, msg := password.Check(pw); len(reasons) > 0 {
		return &Error{Code: CodeWeakPassword, Reasons: reasons, Detail: msg}
	}
	return nil
}

// hashFailed is a failed password hash: busy (try again in a second) or a fault.
func hashFailed(err error) error {
	if errors.Is(err, password.ErrBusy) {
		return &Error{Code: CodeServiceBusy, RetryAfter: time.Second, Err: err}
	}
	return err
}

var codeChallengePattern = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

// flow checks p: none means no PKCE flow (nil).
func (p PKCE) flow() (*store.FlowState, error) {
	if p.Challenge == "" && p.Method == "" {
		return nil, nil
	}
	if p.Challenge == "" || p.Method == "" {
		return nil, Fail(CodePKCEIncomplete)
	}
	method := strings.ToLower(p.Method)
	if method != "s256" && method != "plain" {
		return nil, Fail(CodePKCEMethod)
	}
	if !codeChallengePattern.MatchString(p.Challenge) {
		return nil, Fail(CodePKCEChallenge)
	}
	return &store.FlowState{CodeChallenge: p.Challenge, CodeChallengeMethod: method}, nil
}

// SafeRedirect returns rt when it is a page of this site, else the site's
// page def: e-mailed links never send a person elsewhere.
func (s *Service) SafeRedirect(rt, def string) string {
	base := s.Config.PublicURL
	if rt != "" && (rt == base || strings.HasPrefix(rt, base+"/") || strings.HasPrefix(rt, base+"?")) {
		return rt
	}
	return base + def
}

// SignUp creates an account. It is confirmed at once (and signed in)
// unless e-mail confirmation is on; then a confirmation link is mailed and
// the user awaiting it is answered. An address that has an account is
// answered alike when confirmation is on (see signUpExisting).
func (s *Service) SignUp(ctx context.Context, c Credentials, client Client) (*SignUpResult, error) {
	if s.Config.DisableSignup {
		return nil, Fail(CodeSignupDisabled)
	}
	if strings.TrimSpace(c.Email) == "" && strings.TrimSpace(c.Phone) == "" && c.Password == "" {
		return nil, Fail(CodeAnonymousDisabled)
	}
	if err := checkCredentials(&c); err != nil {
		return nil, err
	}
	if !emailUsable(c.Email) {
		return nil, Fail(CodeEmailInvalid)
	}
	if err := CheckNewPassword(c.Password); err != nil {
		return nil, err
	}
	flow, err := c.PKCE.flow()
	if err != nil {
		return nil, err
	}
	redirectTo := s.SafeRedirect(c.RedirectTo, "/sign_up")
	hash, err := password.HashContext(ctx, c.Password)
	if err != nil {
		return nil, hashFailed(err)
	}
	meta := c.Data
	if meta == nil {
		meta = map[string]any{}
	}
	metaJSON, _ := json.Marshal(meta)
	if len(metaJSON) > MaxUserMetadataBytes {
		return nil, Fail(CodeMetadataLarge)
	}
	now := store.Now()
	u := &store.User{Email: c.Email, PasswordHash: hash, UserMetadata: string(metaJSON), CreatedAt: now}
	if !s.Config.ConfirmEmail {
		u.EmailConfirmedAt = &now
	}
	err = s.DB.CreateUser(ctx, u)
	if errors.Is(err, store.ErrEmailTaken) && s.Config.ConfirmEmail {
		return s.signUpExisting(ctx, u, flow, redirectTo)
	}
	if errors.Is(err, store.ErrEmailTaken) {
		return nil, Fail(CodeUserExists)
	}
	if err != nil {
		return nil, err
	}
	if s.Milestone != nil {
		s.Milestone(ctx, analytics.AccountCreated)
	}
	if s.Config.ConfirmEmail {
		var sentAt *time.Time
		if s.mayEmail(ctx, u.Email, "confirmation") {
			if sentAt, err = s.sendConfirmation(ctx, u, flow, redirectTo); err != nil {
				s.Logger.Error("send confirmation", "err", err)
			}
		}
		return &SignUpResult{User: u, ConfirmationSentAt: sentAt}, nil
	}
	sess, err := s.signIn(ctx, client, u, "password")
	if err != nil {
		return nil, err
	}
	return &SignUpResult{Session: sess, User: u}, nil
}

// signUpExisting answers a sign-up for an address that already has an
// account exactly as a new sign-up is answered (a user awaiting
// confirmation), so sign-up does not tell who has an account; the owner is
// mailed a new confirmation link (not yet confirmed) or a notice.
func (s *Service) signUpExisting(ctx context.Context, attempted *store.User, flow *store.FlowState, redirectTo string) (*SignUpResult, error) {
	owner, err := s.DB.UserByEmail(ctx, attempted.Email)
	if err != nil {
		return nil, err
	}
	now := store.Now()
	if s.mayEmail(ctx, owner.Email, "existing-address notice") {
		if owner.EmailConfirmedAt == nil {
			_, err = s.sendConfirmation(ctx, owner, flow, redirectTo)
		} else {
			err = s.Mailer.Send(ctx, mail.Message{
				To: owner.Email, Subject: "Someone tried to sign up with your e-mail", Kind: "signup-existing",
				Body: "Someone tried to make a new Salaula account with this e-mail address, which already has one.\n\n" +
					"If it was you, sign in instead: " + s.Config.PublicURL + "/sign_up?mode=login\n" +
					"Forgot your password? Reset it there with \"Forgot password?\".\n\n" +
					"If it was not you, ignore this e-mail: nothing has changed.\n",
			})
		}
		if err != nil {
			s.Logger.Error("mail owner of existing address", "err", err)
		}
	}
	fake := *attempted
	fake.ID, fake.CreatedAt, fake.UpdatedAt = store.NewID(), now, now
	return &SignUpResult{User: &fake, ConfirmationSentAt: &now}, nil
}

// sendConfirmation mails the user a link that confirms the e-mail address
// and comes back to redirectTo (with a one-time code when flow is a PKCE flow).
func (s *Service) sendConfirmation(ctx context.Context, u *store.User, flow *store.FlowState, redirectTo string) (*time.Time, error) {
	tok, err := s.newLinkToken(ctx, u, store.TokenConfirmation, "signup", flow)
	if err != nil {
		return nil, err
	}
	now := store.Now()
	link := s.Config.PublicURL + "/auth/v1/verify?" + url.Values{"token": {tok}, "type": {"signup"}, "redirect_to": {redirectTo}}.Encode()
	err = s.Mailer.Send(ctx, mail.Message{
		To: u.Email, Subject: "Confirm your Salaula account", Kind: "confirmation",
		Body: "Welcome to Salaula!\n\nOpen this link to confirm your e-mail address and sign in:\n\n" + link +
			"\n\nThe link works once, for one hour. If you did not sign up, ignore this e-mail.\n",
	})
	return &now, err
}

// SignInWithPassword signs in with e-mail and password. A wrong password
// and an unknown e-mail get the same answer after the same work (an argon2
// check against a dummy hash). Wrong passwords in a row for one e-mail,
// from any address, make it wait (WrongPasswords): while it waits, no
// password is read or hashed for it and the answer is CodePasswordWait.
func (s *Service) SignInWithPassword(ctx context.Context, c Credentials, client Client) (*Session, error) {
	if err := checkCredentials(&c); err != nil {
		return nil, err
	}
	account, now := validate.NormaliseEmail(c.Email), s.now()
	failures, counted, err := s.takePasswordTry(ctx, account, now)
	if err != nil {
		return nil, err
	}
	var u *store.User
	if emailUsable(c.Email) { // anything else cannot have an account
		var err error
		u, err = s.DB.UserByEmail(ctx, c.Email)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
	}
	hash := password.Dummy()
	if u != nil {
		hash = u.PasswordHash
	}
	ok, err := password.VerifyContext(ctx, c.Password, hash)
	if errors.Is(err, password.ErrBusy) {
		return nil, hashFailed(err)
	}
	if err != nil {
		s.Logger.Error("verify password", "err", err)
	}
	if !ok || u == nil {
		if !counted && s.WrongPasswords != nil {
			if _, _, err := s.WrongPasswords.Count(ctx, account, now); err != nil {
				s.Logger.Error("count a wrong password", "err", err)
			}
		}
		return nil, Fail(CodeInvalidCredentials)
	}
	if (failures > 0 || counted) && s.WrongPasswords != nil {
		if err := s.WrongPasswords.Clear(ctx, account); err != nil {
			return nil, err
		}
	}
	if u.EmailConfirmedAt == nil {
		return nil, Fail(CodeEmailNotConfirmed)
	}
	return s.signIn(ctx, client, u, "password")
}

// takePasswordTry lets one password be checked for account at now, or
// answers CodePasswordWait (with how long) while the account waits after
// wrong passwords. A try that would start a wait if wrong is counted as
// wrong before its password is checked (counted is true; a right password
// clears the count), so tries sent at once get one check between them.
// failures is the count before this try.
func (s *Service) takePasswordTry(ctx context.Context, account string, now time.Time) (failures int, counted bool, err error) {
	if s.WrongPasswords == nil {
		return 0, false, nil
	}
	failures, wait, err := s.WrongPasswords.Of(ctx, account, now)
	if err != nil {
		return 0, false, err
	}
	if wait == 0 && s.WrongPasswords.Delay(failures+1) > 0 {
		counted, wait, err = s.WrongPasswords.Count(ctx, account, now)
		if err != nil {
			return 0, false, err
		}
	}
	if wait > 0 {
		return 0, false, &Error{Code: CodePasswordWait, RetryAfter: wait}
	}
	return failures, counted, nil
}
