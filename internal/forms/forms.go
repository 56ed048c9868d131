// Package forms holds the rules of the public forms below HTTP: the Contact
// Us message (stored, then e-mailed to support), the waitlist sign-up
// (stored once per address and program, confirmed by e-mail with an
// unsubscribe link) and that link's unsubscribe. The functions
// contact-form-submit, waitlist-signup and waitlist-unsubscribe decode
// and render; the rules, the stored rows and the e-mails are here. Errors
// are *apierr.Error.
package forms

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"salaula/internal/apierr"
	"salaula/internal/mail"
	"salaula/internal/referral"
	"salaula/internal/store"
	"salaula/internal/token"
	"salaula/internal/validate"
)

// Service runs the public forms.
type Service struct {
	DB           *store.DB
	Mailer       *mail.Outbox
	SupportEmail string // where contact messages go
	PublicURL    string // the site's address, for unsubscribe links
	Logger       *slog.Logger
}

// Messages of the forms.
const (
	// MsgInvalid is the top-level error of a form with field errors.
	MsgInvalid         = "Please correct the highlighted fields and try again."
	msgContactFailed   = "We could not save your message. Please try again in a few minutes."
	msgWaitlistFailed  = "We could not add you to the waitlist. Please try again in a few minutes."
	msgContactSent     = "Message sent successfully! We'll be in touch soon."
	msgWaitlistJoined  = "You're on the list!"
	msgUnsubscribeBusy = "We could not reach the waitlist just now. Please open the link again in a few minutes."
)

// Sent is the answer of a successful form: the same whether the
// submission was stored, repeated or dropped by the bot trap. A waitlist
// sign-up's place and personal link go to its address by e-mail, and show
// on the page its confirm link leads to: a stranger who types someone's
// address learns nothing of them.
type Sent struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

// Longest kept source fields, in characters; longer values are cut, since
// the person signing up cannot act on an error about them.
const (
	maxSourcePath = 300
	maxReferrer   = 500
	maxUTM        = 150
)

// trapped reports whether the bot trap field is filled, logging the drop.
func (s *Service) trapped(form, trap, ip string) bool {
	if validate.Blank(trap) {
		return false
	}
	s.Logger.Info("bot trap: submission dropped", "form", form, "ip", ip)
	return true
}

// Contact stores a Contact Us message and e-mails it to support. ip is the
// sender's address, for the log of a dropped bot submission.
func (s *Service) Contact(ctx context.Context, c validate.Contact, key, ip string) (Sent, error) {
	sent := Sent{Success: true, Message: msgContactSent}
	if !clientKeyOK(key) {
		return Sent{}, apierr.New(apierr.Invalid, msgBadClientKey)
	}
	if s.trapped("contact", c.Website, ip) {
		return sent, nil
	}
	if errs := validate.CheckContact(c); len(errs) > 0 {
		return Sent{}, apierr.Fields(MsgInvalid, errs)
	}
	// Stored in the +260 form, as the profiles' numbers are.
	phone, _ := validate.ZambianPhone(c.PhoneNumber)
	m := &store.ContactMessage{
		FirstName:   strings.TrimSpace(c.FirstName),
		LastName:    strings.TrimSpace(c.LastName),
		Email:       validate.NormaliseEmail(c.Email),
		PhoneNumber: phone,
		Subject:     c.Subject,
		Message:     strings.TrimSpace(c.Message),
		CreatedAt:   store.Now(),
		ClientKey:   key,
	}
	// The e-mail to support is queued in the same transaction as the
	// message; one that cannot be sent at all (a bad support address)
	// never costs the person their message.
	var then func(*store.Tx) error
	if e, after, err := s.Mailer.Outboxed(contactMail(s.SupportEmail, m)); err != nil {
		s.Logger.Error("mail contact message (it is stored)", "err", err)
	} else {
		then = func(tx *store.Tx) error { return tx.QueueEmail(ctx, e, after) }
	}
	if err := s.DB.CreateContactMessage(ctx, m, then); err != nil {
		return Sent{}, apierr.Wrap(fmt.Errorf("store contact message: %w", err), msgContactFailed)
	}
	return sent, nil
}

// maxClientKey is the longest Idempotency-Key a public form may send.
const maxClientKey = 100

// msgBadClientKey answers a form whose Idempotency-Key is not one the app makes.
const msgBadClientKey = "The Idempotency-Key header must be at most 100 letters, digits, '-' or '_'."

// clientKeyOK reports whether key (the Idempotency-Key a form sent, empty
// when none) is at most maxClientKey letters, digits, '-' and '_'. A
// message sent again with the same key is stored once.
func clientKeyOK(key string) bool {
	if len(key) > maxClientKey {
		return false
	}
	for _, c := range key {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// contactMail is the e-mail to support about m.
func contactMail(to string, m *store.ContactMessage) mail.Message {
	name := oneLine(m.FirstName + " " + m.LastName)
	phone := m.PhoneNumber
	if phone == "" {
		phone = "(not given)"
	}
	return mail.Message{
		To:      to,
		Subject: fmt.Sprintf("Contact form: %s from %s", validate.ContactSubjectLabel(m.Subject), name),
		Kind:    "contact",
		Body: fmt.Sprintf("A message came through the Contact Us form.\n\nFrom: %s\nReply to: %s\nPhone: %s\nSubject: %s\nReceived: %s\n\n%s\n",
			name, m.Email, phone, validate.ContactSubjectLabel(m.Subject), m.CreatedAt.Format("2 Jan 2006 15:04 MST"), m.Message),
	}
}

// oneLine replaces line breaks so user text can sit in a mail header.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Signup is a waitlist sign-up: the spec's fields, where it came from, and
// the bot trap.
type Signup struct {
	Email       string `json:"email"`
	ProgramName string `json:"programName"`
	PagePath    string `json:"pagePath"`
	Referrer    string `json:"referrer"`
	UTMSource   string `json:"utm_source"`
	UTMMedium   string `json:"utm_medium"`
	UTMCampaign string `json:"utm_campaign"`
	UTMTerm     string `json:"utm_term"`
	UTMContent  string `json:"utm_content"`
	Ref         string `json:"ref"`     // the code of the personal link the page was opened with
	Website     string `json:"website"` // bot trap
}

// JoinWaitlist puts an e-mail on a program's waitlist once, unconfirmed,
// and sends the confirmation with its confirm, personal and unsubscribe
// links. A repeat changes nothing of the sign-up and answers the same; the
// address gets an e-mail instead (repeated).
func (s *Service) JoinWaitlist(ctx context.Context, in Signup, ip string) (Sent, error) {
	sent := Sent{Success: true, Message: msgWaitlistJoined}
	if s.trapped("waitlist", in.Website, ip) {
		return sent, nil
	}
	if errs := validate.CheckWaitlist(validate.Waitlist{Email: in.Email, ProgramName: in.ProgramName}); len(errs) > 0 {
		return Sent{}, apierr.Fields(MsgInvalid, errs)
	}
	id := store.NewOrderedID()
	tok, err := newUnsubscribeToken(id)
	if err != nil {
		return Sent{}, apierr.Wrap(fmt.Errorf("unsubscribe token: %w", err), msgWaitlistFailed)
	}
	su := &store.WaitlistSignup{
		ID:                   id,
		Email:                validate.NormaliseEmail(in.Email),
		Program:              in.ProgramName,
		PagePath:             clip(in.PagePath, maxSourcePath),
		Referrer:             clip(in.Referrer, maxReferrer),
		UTMSource:            clip(in.UTMSource, maxUTM),
		UTMMedium:            clip(in.UTMMedium, maxUTM),
		UTMCampaign:          clip(in.UTMCampaign, maxUTM),
		UTMTerm:              clip(in.UTMTerm, maxUTM),
		UTMContent:           clip(in.UTMContent, maxUTM),
		UnsubscribeTokenHash: unsubscribeHash(tok),
		Unconfirmed:          true,
	}
	code, err := referral.NewCode()
	if err != nil {
		return Sent{}, apierr.Wrap(fmt.Errorf("referral code: %w", err), msgWaitlistFailed)
	}
	// The confirmation goes out with the first sign-up of this address
	// for this program only, in the same transaction: never twice, never
	// lost. The place in line, with the link's code and the referral of
	// ref (credited once this sign-up is confirmed), in that transaction
	// too. (The analytics funnel counts the sign-up from the waitlist's
	// daily roll-up, which the transaction updates.)
	var join store.WaitlistJoin
	joined := false
	join.Email, join.AfterCommit, err = s.Mailer.Outboxed(s.waitlistMail(su, tok, code, 0))
	if err == nil {
		joined, _, err = s.DB.JoinWaitlistInLine(ctx, su, join, referral.Entry(su.Email, code, in.Ref, ip), referral.Rule())
	}
	if err == nil && !joined {
		err = s.repeated(ctx, su.Email, su.Program)
	}
	if err != nil {
		return Sent{}, apierr.Wrap(fmt.Errorf("store waitlist sign-up: %w", err), msgWaitlistFailed)
	}
	return sent, nil
}

// repeated answers a sign-up of an address already on the program's list
// by e-mail to the address, with new links (store.RenewWaitlistLink): the
// confirmation again while it is unconfirmed, its place and personal link
// once confirmed, or, when it unsubscribed, a link to confirm it wants the
// e-mails again. The sign-up itself does not change.
func (s *Service) repeated(ctx context.Context, email, program string) error {
	su, err := s.DB.WaitlistSignupByEmail(ctx, email, program)
	if err != nil {
		return err
	}
	tok, err := newUnsubscribeToken(su.ID)
	if err != nil {
		return err
	}
	var m mail.Message
	switch p, err := s.DB.PlaceInLine(ctx, su.ID); {
	case su.UnsubscribedAt != nil:
		m = s.rejoinMail(su, tok)
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return err
	case su.Unconfirmed || err != nil:
		code := ""
		if p != nil {
			code = p.Code
		}
		m = s.waitlistMail(su, tok, code, 0)
	default:
		m = s.waitlistMail(su, tok, p.Code, p.Position)
	}
	e, after, err := s.Mailer.Outboxed(m)
	if err != nil {
		return err
	}
	return s.DB.RenewWaitlistLink(ctx, su.ID, unsubscribeHash(tok), e, after)
}

// waitlistMail is the e-mail about a subscribed sign-up: unconfirmed
// (position 0), its confirmation with the confirm link; confirmed (a
// repeated sign-up), its place. Both carry the personal link of code (when
// it has one) and the unsubscribe link.
func (s *Service) waitlistMail(su *store.WaitlistSignup, tok, code string, position int) mail.Message {
	link := s.PublicURL + UnsubscribePath(tok)
	subject, intro := "You're on the list: Salaula "+su.Program, fmt.Sprintf("Thank you for joining the waitlist of the Salaula %s. "+
		"Please confirm your address to keep your place in line:\n%s\n\nWe'll e-mail you as soon as it opens in Lusaka.", su.Program, s.PublicURL+ConfirmPath(tok))
	if position > 0 {
		subject, intro = "You're already on the list: Salaula "+su.Program, fmt.Sprintf("Someone, maybe you, signed this address up for the waitlist of the Salaula %s again. "+
			"You are on it already: number %d in line. We'll e-mail you as soon as it opens in Lusaka.", su.Program, position)
	}
	share := ""
	if code != "" {
		share = "Share your personal link: each friend who joins through it and confirms their address moves you up the line.\n" +
			referral.ShareURL(s.PublicURL, su.PagePath, code) + "\n\n"
	}
	return mail.Message{
		To:              su.Email,
		Subject:         subject,
		Kind:            "waitlist",
		ListUnsubscribe: link,
		Body: "Muli shani!\n\n" + intro + "\n\n" + share +
			"If you did not sign up, or no longer want these e-mails, unsubscribe here:\n" + link + "\n\nThe Salaula team\n",
	}
}

// rejoinMail asks the address of an unsubscribed sign-up whether it wants
// the waitlist's e-mails again: nothing is sent to it again unless its
// holder presses the button of the confirm link.
func (s *Service) rejoinMail(su *store.WaitlistSignup, tok string) mail.Message {
	return mail.Message{
		To:      su.Email,
		Subject: "Join the Salaula " + su.Program + " waitlist again?",
		Kind:    "waitlist_rejoin",
		Body: fmt.Sprintf("Muli shani!\n\nSomeone, maybe you, asked to put this address back on the waitlist of the Salaula %s. "+
			"You unsubscribed earlier, so we send you nothing more unless you confirm here:\n%s\n\n"+
			"If it was not you, ignore this e-mail: you stay unsubscribed.\n\nThe Salaula team\n", su.Program, s.PublicURL+ConfirmPath(tok)),
	}
}

// ConfirmPath is the confirm link's path for the token (the sign-up's
// unsubscribe token: one secret for the links of an e-mail).
func ConfirmPath(tok string) string {
	return "/functions/v1/waitlist-confirm?token=" + url.QueryEscape(tok)
}

// Confirmation is what a confirm link names: the sign-up, whether it is
// confirmed and subscribed, and, once it is, its place and link code.
type Confirmation struct {
	Email, Program, PagePath string
	Confirmed                bool
	Unsubscribed             bool
	Position                 int
	Code                     string
	Token                    string
}

// Confirm finds the sign-up of a confirm link's token and, when confirm is
// true (the button of the link's page), confirms it (store.ConfirmWaitlist:
// the referral it came through is credited now; an unsubscribed one is
// subscribed again at the end of the line, ip the device pressing). Opening
// the link (confirm false) changes nothing. ErrUnknownConfirm for a token
// that names no sign-up.
func (s *Service) Confirm(ctx context.Context, tok string, confirm bool, ip string) (*Confirmation, error) {
	id, hashes := unsubscribeKey(tok)
	if tok == "" || len(tok) > 200 || id == "" {
		return nil, ErrUnknownConfirm
	}
	var su *store.WaitlistSignup
	var p *store.LinePlace
	var err error
	if confirm {
		code, cerr := referral.NewCode()
		if cerr != nil {
			return nil, apierr.Wrap(fmt.Errorf("referral code: %w", cerr), msgWaitlistFailed)
		}
		su, p, err = s.DB.ConfirmWaitlist(ctx, id, hashes[0], referral.Entry("", code, "", ip))
	} else {
		su, err = s.DB.WaitlistSignupByLink(ctx, id, hashes[0])
	}
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrUnknownConfirm
	}
	if err != nil {
		return nil, &apierr.Error{Kind: apierr.Unavailable, Message: msgWaitlistFailed, Err: fmt.Errorf("confirm: %w", err)}
	}
	c := &Confirmation{Email: su.Email, Program: su.Program, PagePath: referral.PagePath(su.PagePath), Token: tok,
		Confirmed: confirm || !su.Unconfirmed, Unsubscribed: !confirm && su.UnsubscribedAt != nil}
	if p != nil {
		c.Position, c.Code = p.Position, p.Code
	}
	return c, nil
}

// ErrUnknownConfirm is the error of a confirm token that names no sign-up.
var ErrUnknownConfirm = apierr.New(apierr.NotFound, "This confirmation link is incomplete or no longer valid.")

// clip trims s and cuts it to at most max characters.
func clip(s string, max int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max])
}

// newUnsubscribeToken is a new unsubscribe token for the sign-up with this
// ID: the ID, a dot and a random opaque token. The database keeps the
// token's SHA-256 (token.Hash); the ID finds the sign-up by its key, so the
// hash needs no index (each sign-up writes one index entry fewer). The
// link tells its reader only when they signed up (the ID is time-ordered).
func newUnsubscribeToken(id string) (string, error) {
	tok, err := token.NewOpaque()
	if err != nil {
		return "", err
	}
	return id + "." + tok, nil
}

// unsubscribeHash is what a sign-up keeps of its unsubscribe token: the
// first 128 bits of its SHA-256, in hex (32 characters). The token's
// secret is random, so no one finds a token for a hash, and 32 characters
// fewer per sign-up add up over a large waitlist.
func unsubscribeHash(tok string) string { return token.Hash(tok)[:32] }

// unsubscribeKey returns the sign-up ID an unsubscribe token names and the
// hashes the database may keep of it, the likeliest first. A token with
// the ID ("<id>.<secret>") has unsubscribeHash, or the whole SHA-256 when
// the sign-up was made before that was cut. Tokens from before the ID
// was in them name no ID (""): those of 24 November 2026 ("<12 hex digits
// of the time>.<opaque>") kept the time prefix, the dot and then the
// SHA-256 of the whole token; the first ones (no dot) the bare SHA-256.
func unsubscribeKey(tok string) (id string, hashes []string) {
	if i := strings.IndexByte(tok, '.'); i == 36 {
		if _, err := uuid.Parse(tok[:i]); err == nil {
			return tok[:i], []string{unsubscribeHash(tok), token.Hash(tok)}
		}
	}
	if i := strings.IndexByte(tok, '.'); i > 0 {
		return "", []string{tok[:i+1] + token.Hash(tok)}
	}
	return "", []string{token.Hash(tok)}
}

// UnsubscribePath is the unsubscribe link's path for the token.
func UnsubscribePath(tok string) string {
	return "/functions/v1/waitlist-unsubscribe?token=" + url.QueryEscape(tok)
}

// ErrUnknownLink is the error of an unsubscribe token that names no sign-up.
var ErrUnknownLink = apierr.New(apierr.NotFound, "This unsubscribe link is incomplete or no longer valid.")

// Unsubscription is what an unsubscribe link names: the sign-up, whether
// it is unsubscribed, and the token (for the page's button).
type Unsubscription struct {
	Email, Program string
	Unsubscribed   bool
	Token          string
}

// Unsubscribe finds the sign-up of an unsubscribe token and, when confirm
// is true, marks it unsubscribed (again: no change). Opening the link
// (confirm false) changes nothing. ErrUnknownLink for a token that names
// no sign-up.
func (s *Service) Unsubscribe(ctx context.Context, tok string, confirm bool) (*Unsubscription, error) {
	if tok == "" || len(tok) > 200 {
		return nil, ErrUnknownLink
	}
	id, hashes := unsubscribeKey(tok)
	var su *store.WaitlistSignup
	err := store.ErrNotFound
	for _, hash := range hashes {
		if !errors.Is(err, store.ErrNotFound) {
			break
		}
		if confirm {
			su, err = s.DB.UnsubscribeWaitlist(ctx, id, hash)
		} else {
			su, err = s.DB.WaitlistSignupByLink(ctx, id, hash)
		}
	}
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrUnknownLink
	}
	if err != nil {
		return nil, &apierr.Error{Kind: apierr.Unavailable, Message: msgUnsubscribeBusy, Err: fmt.Errorf("unsubscribe: %w", err)}
	}
	return &Unsubscription{Email: su.Email, Program: su.Program, Unsubscribed: su.UnsubscribedAt != nil, Token: tok}, nil
}
