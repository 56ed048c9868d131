package account

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"salaula/internal/apierr"
	"salaula/internal/mail"
	"salaula/internal/ratelimit"
	"salaula/internal/store"
	"salaula/internal/token"
	"salaula/internal/validate"
)

// Contact messages and waitlist sign-ups carry only an e-mail address: an
// account made with that address did not make them, and whoever typed the
// address at sign-up may not be the person who sent them. They are tied to
// the account (shown, exported, erased through it) only once the account's
// holder proved they read the address by opening a link sent to it: the
// sign-up confirmation (when confirmation is on), a password-reset link
// (once the new password is set, which signs the other sessions out), or
// the proof link of My account (SendProof, ProveAddress). Operators
// (`salaula admin user`) act on requests they check themselves and see
// every row. See docs/decisions/0158-proof-of-address.md.

// Messages of the proof rules' errors.
const (
	msgAlreadyProven = "Your e-mail address is already proven."
	msgTooManyEmails = "We have sent several e-mails to this address in the last hour. You can ask for another in %s."
	msgLinkNeeded    = "This link is incomplete. Open the link in the e-mail again, or ask for a new one from My account."
	msgLinkInvalid   = "This link has expired, has already been used, or was sent for another account. " +
		"Sign in with the account it was sent for, or ask for a new link from My account."
)

// Errors of the proof rules (*apierr.Error: the functions render them).
var (
	// ErrAlreadyProven: the account's address is proven already; no link is sent.
	ErrAlreadyProven = apierr.New(apierr.Conflict, msgAlreadyProven)
	// ErrTooManyEmails: the address had its share of e-mails lately
	// (ratelimit.Emails); no link is sent. The *apierr.Error returned
	// wraps it and says when to ask again (tooManyEmails).
	ErrTooManyEmails = errors.New("account: the address had its share of e-mails lately")
	// ErrLinkNeeded: no proof link token was given.
	ErrLinkNeeded = apierr.New(apierr.Invalid, msgLinkNeeded)
	// ErrLinkInvalid: the proof link is unknown, used, expired or was sent
	// for another account; nothing changes.
	ErrLinkInvalid = apierr.New(apierr.Forbidden, msgLinkInvalid)
)

// proofTTL is how long a proof link works.
const proofTTL = time.Hour

// ProofPath is the page of the site the proof link opens; it proves the
// address only when the signed-in holder presses its button.
const ProofPath = "/account/prove_email"

// maxLinkToken is the longest token a proof link can carry (a token is 43
// characters); anything longer is refused without a lookup.
const maxLinkToken = 200

// Address is what Salaula holds under an account's e-mail address that the
// account did not make, and whether the account proved the address. The
// lists are empty until it did.
type Address struct {
	Email           string     `json:"email"`
	Proven          bool       `json:"proven"`
	ProvenAt        *time.Time `json:"proven_at"`
	WaitlistSignups []Waitlist `json:"waitlist_signups"`
	ContactMessages []Message  `json:"contact_messages"`
}

// AddressOf answers the account's address, whether it is proven and, when
// it is, the waitlist sign-ups and contact messages sent with it.
func (r *Rules) AddressOf(ctx context.Context, userID string) (*Address, error) {
	u, err := r.userByID(ctx, userID)
	if err != nil {
		return nil, err
	}
	a := &Address{Email: u.Email, Proven: u.EmailProvenAt != nil, ProvenAt: u.EmailProvenAt,
		WaitlistSignups: []Waitlist{}, ContactMessages: []Message{}}
	if a.Proven {
		if a.WaitlistSignups, a.ContactMessages, err = r.sentWith(ctx, u.Email); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// sentWith lists the waitlist sign-ups and contact messages under email,
// oldest first.
func (r *Rules) sentWith(ctx context.Context, email string) ([]Waitlist, []Message, error) {
	signups, err := r.DB.WaitlistSignupsOf(ctx, email)
	if err != nil {
		return nil, nil, err
	}
	waitlist := []Waitlist{}
	for _, s := range signups {
		waitlist = append(waitlist, Waitlist{Program: s.Program, CreatedAt: s.CreatedAt, PagePath: s.PagePath,
			Referrer: s.Referrer, UTMSource: s.UTMSource, UTMMedium: s.UTMMedium, UTMCampaign: s.UTMCampaign,
			UTMTerm: s.UTMTerm, UTMContent: s.UTMContent, UnsubscribedAt: s.UnsubscribedAt})
	}
	sent, err := r.DB.ContactMessagesFrom(ctx, email)
	if err != nil {
		return nil, nil, err
	}
	messages := []Message{}
	for _, m := range sent {
		messages = append(messages, Message{CreatedAt: m.CreatedAt, FirstName: m.FirstName, LastName: m.LastName,
			Email: m.Email, PhoneNumber: m.PhoneNumber, Subject: m.Subject, Message: m.Message})
	}
	return waitlist, messages, nil
}

// SendProof e-mails the account's address a single-use link, valid for an
// hour, whose page proves the address when the signed-in holder presses
// its button; it returns the address. ErrAlreadyProven when it is proven,
// ErrTooManyEmails when the address had its share of e-mails lately
// (nothing is sent either way). An account with two-step sign-in needs an
// aal2 session (ErrInsufficientAAL).
func (r *Rules) SendProof(ctx context.Context, c Caller) (string, error) {
	u, err := r.userByID(ctx, c.UserID)
	if err != nil {
		return "", err
	}
	if err := r.checkAAL(ctx, c); err != nil {
		return "", err
	}
	if u.EmailProvenAt != nil {
		return u.Email, ErrAlreadyProven
	}
	if r.Mailer == nil {
		return "", errors.New("account: no mailer to send the proof link")
	}
	ok, wait, err := (&ratelimit.Emails{DB: r.DB, Quota: r.EmailQuota}).Allow(ctx, validate.MailboxKey(u.Email), r.now())
	if err != nil {
		return "", err
	}
	if !ok {
		return u.Email, r.tooManyEmails(wait)
	}
	tok, err := token.NewOpaque()
	if err != nil {
		return "", err
	}
	if err := r.DB.AddOneTimeToken(ctx, u.ID, store.TokenEmailProof, token.Hash(tok), r.now().Add(proofTTL)); err != nil {
		return "", err
	}
	link := strings.TrimRight(r.PublicURL, "/") + ProofPath + "?" + url.Values{"token_hash": {tok}}.Encode()
	if err := r.Mailer.Send(ctx, proofMail(u.Email, link, r.SupportEmail)); err != nil {
		return "", err
	}
	return u.Email, nil
}

// tooManyEmails is ErrTooManyEmails told to the person: that several
// e-mails went only when the hour's quota is what holds this one back (a
// wait longer than the minute between two e-mails means the quota, which
// is at least Count sends), else the plain wait; with when to ask again.
func (r *Rules) tooManyEmails(wait time.Duration) error {
	msg := ratelimit.EmailWait(wait)
	if wait > ratelimit.EmailMinInterval && r.EmailQuota.Count > 1 {
		msg = fmt.Sprintf(msgTooManyEmails, ratelimit.Minutes(wait))
	}
	return &apierr.Error{Kind: apierr.TooMany, Message: msg, Err: ErrTooManyEmails, RetryAfter: wait}
}

// proofMail is the e-mail with the proof link.
func proofMail(to, link, support string) mail.Message {
	body := "Hello,\n\n" +
		"Someone signed in to the Salaula account of this e-mail address (" + to + ") asked to prove that the address is theirs.\n\n" +
		"If it was you, open this link, signed in to that account, and press \"Prove this address\":\n\n" + link + "\n\n" +
		"The messages and waitlist sign-ups sent to Salaula with this address will then show in your account, " +
		"and your data download and account deletion will include them.\n\n" +
		"The link works once, for one hour. If it was not you, do not open it: someone may have made a Salaula account with your address."
	if support != "" {
		body += " Write to us at " + support + " and we will look into it."
	}
	body += "\n\nSalaula"
	return mail.Message{To: to, Subject: "Prove your e-mail address to Salaula", Body: body, Kind: "email_proof"}
}

// ProveAddress spends the proof link's token for the signed-in caller's
// account and records its address as proven. ErrLinkInvalid when the token
// is unknown, used, expired or belongs to another account (it then stays
// unspent); ErrInsufficientAAL (the token unspent) for a password-only
// session of an account with two-step sign-in.
func (r *Rules) ProveAddress(ctx context.Context, c Caller, tok string) error {
	tok = strings.TrimSpace(tok)
	if tok == "" {
		return ErrLinkNeeded
	}
	if len(tok) > maxLinkToken {
		return ErrLinkInvalid
	}
	if err := r.checkAAL(ctx, c); err != nil {
		return err
	}
	err := r.DB.ProveEmailWithToken(ctx, c.UserID, token.Hash(tok), r.now())
	if errors.Is(err, store.ErrTokenInvalid) {
		return ErrLinkInvalid
	}
	return err
}
