// Package auth holds the rules of signing in, below HTTP: sign-up
// (validation, password hashing, confirmation, the funnel's count, the
// confirmation mail), sign-in with a password, refresh tokens and their
// reuse, password recovery, resending and verifying e-mailed links, PKCE,
// changing the password, signing out, the e-mail quota, two-step sign-in
// (wrapping internal/mfa) and the password policy (internal/password).
//
// Its methods return an *Error with an ErrorCode for what a client can act
// on, and plain errors for faults of ours; internal/server renders both in
// the Supabase Auth wire shape, and the command line calls the same methods.
package auth

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"time"

	"salaula/internal/config"
	"salaula/internal/mail"
	"salaula/internal/ratelimit"
	"salaula/internal/seal"
	"salaula/internal/store"
	"salaula/internal/token"
	"salaula/internal/validate"
)

// LinkTTL is how long an e-mailed reset or confirmation link works.
const LinkTTL = time.Hour

// FlowStateTTL is how long the one-time code of a PKCE link can be
// exchanged after the link was opened (the hosted service's five minutes).
const FlowStateTTL = 5 * time.Minute

// MaxUserMetadataBytes caps a user's metadata (the JSON of `data`): it rides
// in every access token, and a large one would make every request of that
// person fail for its header size.
const MaxUserMetadataBytes = 4 << 10

// Service is the auth rules with what they need.
type Service struct {
	DB     *store.DB
	Config *config.Config
	Mailer mail.Mailer
	// Emails limits the links one address gets.
	Emails *ratelimit.Emails
	// CodeTries limits the second-factor codes one person tries.
	CodeTries ratelimit.Limiter
	// WrongPasswords makes an account wait after wrong passwords in a row
	// (NewWrongPasswords); nil counts none.
	WrongPasswords *ratelimit.Failures
	// Sign signs an access token with the current key; Issuer is its iss.
	Sign   func(context.Context, token.Claims) (string, error)
	Issuer string
	// Successors seals rotated refresh tokens' successors; Factors seals TOTP secrets.
	Successors *seal.Box
	Factors    *seal.Box
	// Milestone counts a step of the funnel (analytics); may be nil.
	Milestone func(ctx context.Context, name string)
	// QueueMail queues m in the outbox with the change of tx
	// (mail.Outbox.Enqueue).
	QueueMail func(ctx context.Context, tx *store.Tx, m mail.Message) error
	Logger    *slog.Logger
	Now       func() time.Time
}

// The waits after wrong passwords for one account
// (docs/decisions/0224-wrong-passwords-per-account.md): from the
// WaitAfterWrong-th wrong password in a row, FirstWait, doubling with each
// further one, at most MaxWait; forgotten a day after the last.
const (
	WaitAfterWrong = 10
	FirstWait      = time.Minute
	MaxWait        = time.Hour
	ForgetWrong    = 24 * time.Hour
)

// NewWrongPasswords is the count of wrong passwords per account in db.
func NewWrongPasswords(db *store.DB, logger *slog.Logger) *ratelimit.Failures {
	return &ratelimit.Failures{DB: db, After: WaitAfterWrong, First: FirstWait, Max: MaxWait, Forget: ForgetWrong, Logger: logger}
}

// Client is who is calling: recorded with a new session.
type Client struct {
	IP        string
	UserAgent string
}

// Session is a signed-in session's tokens and its user.
type Session struct {
	AccessToken  string
	ExpiresIn    int64 // seconds
	ExpiresAt    int64 // Unix seconds
	RefreshToken string
	User         *store.User
	Factors      []store.Factor
}

func (s *Service) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

// FactorsOf returns u's second factors (none read when u has none).
func (s *Service) FactorsOf(ctx context.Context, u *store.User) ([]store.Factor, error) {
	if !u.HasFactors {
		return nil, nil
	}
	return s.DB.Factors(ctx, u.ID)
}

// signIn starts a session for u signed in by method (recording the time as
// u's last sign-in, in the same commit) and answers its tokens.
func (s *Service) signIn(ctx context.Context, c Client, u *store.User, method string) (*Session, error) {
	refresh, err := token.NewOpaque()
	if err != nil {
		return nil, err
	}
	ua := []rune(strings.ToValidUTF8(c.UserAgent, ""))
	if len(ua) > 256 {
		ua = ua[:256]
	}
	sess := &store.Session{UserID: u.ID, UserAgent: string(ua), IP: c.IP}
	if err := s.DB.StartSession(ctx, sess, method, token.Hash(refresh)); err != nil {
		return nil, err
	}
	signedInAt := sess.CreatedAt
	u.LastSignInAt = &signedInAt
	return s.session(ctx, u, sess.ID, store.SessionAuth{Method: method, CreatedAt: sess.CreatedAt, AAL: "aal1"}, refresh)
}

// session signs a new access token for the session (its aal and amr from
// how the session was signed in) and shapes the answer.
func (s *Service) session(ctx context.Context, u *store.User, sessionID string, auth store.SessionAuth, refresh string) (*Session, error) {
	now := s.now()
	exp := now.Add(s.Config.AccessTokenTTL)
	amr := []token.AMR{{Method: auth.Method, Timestamp: auth.CreatedAt.Unix()}}
	aal := "aal1"
	if auth.AAL == "aal2" && auth.MFAAt != nil {
		aal = "aal2"
		amr = append([]token.AMR{{Method: "totp", Timestamp: auth.MFAAt.Unix()}}, amr...)
	}
	access, err := s.Sign(ctx, token.Claims{
		Issuer: s.Issuer, Subject: u.ID, Audience: "authenticated",
		ExpiresAt: exp.Unix(), IssuedAt: now.Unix(), Role: "authenticated", Email: u.Email,
		SessionID: sessionID, AAL: aal, AMR: amr,
		AppMetadata:  map[string]any{"provider": "email", "providers": []string{"email"}},
		UserMetadata: UserMetadata(u),
	})
	if err != nil {
		return nil, err
	}
	factors, err := s.FactorsOf(ctx, u)
	if err != nil {
		return nil, err
	}
	return &Session{AccessToken: access, ExpiresIn: int64(s.Config.AccessTokenTTL.Seconds()), ExpiresAt: exp.Unix(),
		RefreshToken: refresh, User: u, Factors: factors}, nil
}

// UserMetadata is u's metadata as a map (empty when it holds none).
func UserMetadata(u *store.User) map[string]any {
	m := map[string]any{}
	json.Unmarshal([]byte(u.UserMetadata), &m)
	return m
}

// afterAnswer runs send after the caller's answer has gone, so a slow SMTP
// server cannot tell by the answer's timing whether an account exists; a
// failure is logged as what.
func (s *Service) afterAnswer(ctx context.Context, what string, send func(context.Context) error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	go func() {
		defer cancel()
		if err := send(ctx); err != nil {
			s.Logger.Error(what, "err", err)
		}
	}()
}

// mayEmail counts one more e-mail of kind to address against the
// per-address limit and reports whether it may be sent; a refusal or a
// failure to count is logged and the e-mail skipped.
func (s *Service) mayEmail(ctx context.Context, address, kind string) bool {
	ok, _, err := s.Emails.Allow(ctx, validate.MailboxKey(address), s.now())
	if err != nil {
		s.Logger.Error("count e-mail against the address limit", "kind", kind, "err", err)
		return false
	}
	if !ok {
		s.Logger.Warn("e-mail not sent: the address had one this minute or its SALAULA_RATE_EMAIL quota", "kind", kind)
	}
	return ok
}
