package server

import (
	"context"
	"errors"
	"fmt"
	"github.com/google/uuid"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"salaula/internal/analytics"
	"salaula/internal/mail"
	"salaula/internal/store"
	"salaula/internal/validate"
)

// invalidFormMessage is the top-level error of a form with field errors.
const invalidFormMessage = "Please correct the highlighted fields and try again."

// waitlistRequest is the body of waitlist-signup: the spec's fields, where
// the sign-up came from, and the bot trap.
type waitlistRequest struct {
	Email       string `json:"email"`
	ProgramName string `json:"programName"`
	PagePath    string `json:"pagePath"`
	Referrer    string `json:"referrer"`
	UTMSource   string `json:"utm_source"`
	UTMMedium   string `json:"utm_medium"`
	UTMCampaign string `json:"utm_campaign"`
	UTMTerm     string `json:"utm_term"`
	UTMContent  string `json:"utm_content"`
	Website     string `json:"website"` // bot trap
}

// Longest kept source fields, in characters; longer values are cut, since
// the person signing up cannot act on an error about them.
const (
	maxSourcePath = 300
	maxReferrer   = 500
	maxUTM        = 150
)

// readPublicForm decodes a public form's JSON body into v and answers the
// request itself when the body is malformed (4xx), the bot trap is filled
// (200 with the normal success body, nothing stored) or check finds errors
// (400 with the field messages). It reports whether the handler goes on.
func (s *Server) readPublicForm(w http.ResponseWriter, r *http.Request, form string, v any,
	botTrap func() string, check func() validate.Errors, success any) bool {
	if err := decodeJSON(w, r, v); err != nil {
		writeRequestError(w, err)
		return false
	}
	if !validate.Blank(botTrap()) {
		s.logger.Info("bot trap: submission dropped", "form", form, "ip", s.clientIP(r))
		writeJSON(w, http.StatusOK, success)
		return false
	}
	if errs := check(); len(errs) > 0 {
		writeFunctionError(w, http.StatusBadRequest, invalidFormMessage, errs)
		return false
	}
	return true
}

// handleContactFormSubmit stores a Contact Us message and e-mails it to the
// support address. 400 with field errors for invalid input.
func (s *Server) handleContactFormSubmit() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req validate.Contact
		if !s.readPublicForm(w, r, "contact", &req, func() string { return req.Website },
			func() validate.Errors { return validate.CheckContact(req) }, contactSent) {
			return
		}
		key, ok := clientKey(r)
		if !ok {
			writeFunctionError(w, http.StatusBadRequest, badClientKeyMessage, nil)
			return
		}
		m := &store.ContactMessage{
			FirstName:   strings.TrimSpace(req.FirstName),
			LastName:    strings.TrimSpace(req.LastName),
			Email:       validate.NormaliseEmail(req.Email),
			PhoneNumber: strings.TrimSpace(req.PhoneNumber),
			Subject:     req.Subject,
			Message:     strings.TrimSpace(req.Message),
			CreatedAt:   store.Now(),
			ClientKey:   key,
		}
		// The e-mail to support is queued in the same transaction as the
		// message; one that cannot be sent at all (a bad support address)
		// never costs the person their message.
		var then func(*store.Tx) error
		if msg := contactMail(s.cfg.SupportEmail, m); mail.Check(msg) != nil {
			s.logger.Error("mail contact message (it is stored)", "err", mail.Check(msg))
		} else {
			then = func(tx *store.Tx) error { return s.queueMail(r.Context(), tx, msg) }
		}
		if err := s.db.CreateContactMessage(r.Context(), m, then); err != nil {
			s.logger.Error("store contact message", "err", err)
			writeFunctionError(w, http.StatusInternalServerError, "We could not save your message. Please try again in a few minutes.", nil)
			return
		}
		writeRawJSON(w, http.StatusOK, contactSentJSON)
	})
}

// queueMail queues m inside tx when the mailer is the outbox (so the e-mail
// is kept exactly when the change is), else hands it to the mailer.
func (s *Server) queueMail(ctx context.Context, tx *store.Tx, m mail.Message) error {
	if q, ok := s.mailer.(interface {
		Enqueue(context.Context, *store.Tx, mail.Message) error
	}); ok {
		return q.Enqueue(ctx, tx, m)
	}
	return s.mailer.Send(ctx, m)
}

// outboxed returns m as the outbox row to write with the change it belongs
// to and what to run once that change commits, when the mailer is the
// outbox; else no row, and m is handed to the mailer once the change
// commits.
func (s *Server) outboxed(m mail.Message) (*store.OutboxEmail, func(), error) {
	if o, ok := s.mailer.(interface {
		Outboxed(mail.Message) (*store.OutboxEmail, func(), error)
	}); ok {
		return o.Outboxed(m)
	}
	return nil, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := s.mailer.Send(ctx, m); err != nil {
			s.logger.Error("mail waitlist confirmation", "err", err)
		}
	}, nil
}

// contactSent is the body of a successful contact-form-submit.
var (
	contactSent     = map[string]any{"success": true, "message": "Message sent successfully! We'll be in touch soon."}
	contactSentJSON = mustJSON(contactSent)
)

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

// handleWaitlistSignup puts an e-mail on a program's waitlist once and sends
// the confirmation with its unsubscribe link. A repeat answers 200 and
// changes nothing.
func (s *Server) handleWaitlistSignup() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req waitlistRequest
		if !s.readPublicForm(w, r, "waitlist", &req, func() string { return req.Website },
			func() validate.Errors {
				return validate.CheckWaitlist(validate.Waitlist{Email: req.Email, ProgramName: req.ProgramName})
			}, waitlistJoined) {
			return
		}
		id := store.NewOrderedID()
		tok, err := newUnsubscribeToken(id)
		if err != nil {
			s.logger.Error("unsubscribe token", "err", err)
			writeFunctionError(w, http.StatusInternalServerError, "We could not add you to the waitlist. Please try again in a few minutes.", nil)
			return
		}
		su := &store.WaitlistSignup{
			ID:                   id,
			Email:                validate.NormaliseEmail(req.Email),
			Program:              req.ProgramName,
			PagePath:             clip(req.PagePath, maxSourcePath),
			Referrer:             clip(req.Referrer, maxReferrer),
			UTMSource:            clip(req.UTMSource, maxUTM),
			UTMMedium:            clip(req.UTMMedium, maxUTM),
			UTMCampaign:          clip(req.UTMCampaign, maxUTM),
			UTMTerm:              clip(req.UTMTerm, maxUTM),
			UTMContent:           clip(req.UTMContent, maxUTM),
			UnsubscribeTokenHash: hashToken(tok),
		}
		// The confirmation goes out with the first sign-up of this address
		// for this program only, in the same transaction: never twice, never
		// lost. The analytics funnel counts the new sign-up there too.
		join := store.WaitlistJoin{Event: analytics.WaitlistJoined, EventDay: s.stats.Today()}
		join.Email, join.AfterCommit, err = s.outboxed(s.waitlistMail(su, tok))
		if err == nil {
			_, err = s.db.JoinWaitlist(r.Context(), su, join)
		}
		if err != nil {
			s.logger.Error("store waitlist sign-up", "err", err)
			writeFunctionError(w, http.StatusInternalServerError, "We could not add you to the waitlist. Please try again in a few minutes.", nil)
			return
		}
		writeRawJSON(w, http.StatusOK, waitlistJoinedJSON)
	})
}

// newUnsubscribeToken is a new unsubscribe token for the sign-up with this
// ID: the ID, a dot and a random opaque token. The database keeps the
// token's SHA-256 (hashToken); the ID finds the sign-up by its key, so the
// hash needs no index (each sign-up writes one index entry fewer). The
// link tells its reader only when they signed up (the ID is time-ordered).
func newUnsubscribeToken(id string) (string, error) {
	tok, err := newOpaqueToken()
	if err != nil {
		return "", err
	}
	return id + "." + tok, nil
}

// unsubscribeKey returns the sign-up ID an unsubscribe token names and the
// hash the database keeps of it. Tokens from before the ID was in them
// name no ID (""): those of 24 November 2026 ("<12 hex digits of the
// time>.<opaque>") kept the time prefix, the dot and then the SHA-256 of
// the whole token; the first ones (no dot) the bare SHA-256.
func unsubscribeKey(tok string) (id, hash string) {
	if i := strings.IndexByte(tok, '.'); i == 36 {
		if _, err := uuid.Parse(tok[:i]); err == nil {
			return tok[:i], hashToken(tok)
		}
	}
	if i := strings.IndexByte(tok, '.'); i > 0 {
		return "", tok[:i+1] + hashToken(tok)
	}
	return "", hashToken(tok)
}

// waitlistJoined is the body of a successful waitlist-signup, new or repeated.
var (
	waitlistJoined     = map[string]any{"success": true, "message": "You're on the list!"}
	waitlistJoinedJSON = mustJSON(waitlistJoined)
)

// waitlistMail is the confirmation of a new sign-up, with its unsubscribe link.
func (s *Server) waitlistMail(su *store.WaitlistSignup, token string) mail.Message {
	link := s.cfg.PublicURL + unsubscribePath(token)
	return mail.Message{
		To:              su.Email,
		Subject:         "You're on the list: Salaula " + su.Program,
		Kind:            "waitlist",
		ListUnsubscribe: link,
		Body: fmt.Sprintf("Muli shani!\n\nThank you for joining the waitlist of the Salaula %s. "+
			"We'll e-mail you as soon as it opens in Lusaka.\n\n"+
			"If you did not sign up, or no longer want these e-mails, unsubscribe here:\n%s\n\nThe Salaula team\n",
			su.Program, link),
	}
}

// clip trims s and cuts it to at most max characters.
func clip(s string, max int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max])
}

// handleWaitlistUnsubscribe is the unsubscribe link of the confirmation
// e-mail, and its List-Unsubscribe address. GET (opening the link, as a
// person or a mail system's link scanner does) changes nothing: it answers
// a page naming the sign-up with an Unsubscribe button. POST (that button,
// or a mail program's one-click unsubscribe, RFC 8058, whatever its body)
// marks the sign-up unsubscribed and answers a page saying so. An unknown
// token answers 404 with a friendly page.
func (s *Server) handleWaitlistUnsubscribe() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		unknown := func() {
			writeLinkPage(w, http.StatusNotFound, linkPage{Title: "Link not recognised", Text: "This unsubscribe link is incomplete or no longer valid. " +
				"Open the link in your latest Salaula e-mail again, or write to " + s.cfg.SupportEmail + " and we will take you off the list."})
		}
		tok := r.URL.Query().Get("token")
		if tok == "" || len(tok) > 200 {
			unknown()
			return
		}
		id, hash := unsubscribeKey(tok)
		var su *store.WaitlistSignup
		var err error
		if r.Method == http.MethodPost {
			su, err = s.db.UnsubscribeWaitlist(r.Context(), id, hash)
		} else {
			su, err = s.db.WaitlistSignupByLink(r.Context(), id, hash)
		}
		if errors.Is(err, store.ErrNotFound) {
			unknown()
			return
		}
		if err != nil {
			s.logger.Error("unsubscribe", "err", err)
			writeLinkPage(w, http.StatusServiceUnavailable, linkPage{Title: "Please try again",
				Text: "We could not reach the waitlist just now. Please open the link again in a few minutes."})
			return
		}
		if su.UnsubscribedAt != nil {
			writeLinkPage(w, http.StatusOK, linkPage{Title: "You have been unsubscribed",
				Text: su.Email + " will get no more e-mails about the " + su.Program + " waitlist. Changed your mind? Join again on our website at any time."})
			return
		}
		writeLinkPage(w, http.StatusOK, linkPage{Title: "Unsubscribe from the " + su.Program + " waitlist?",
			Text:   "Press the button and " + su.Email + " will get no more e-mails about the Salaula " + su.Program + " waitlist.",
			Action: unsubscribePath(tok), Button: "Unsubscribe"})
	})
}

// unsubscribePath is the unsubscribe link's path for the token.
func unsubscribePath(token string) string {
	return "/functions/v1/waitlist-unsubscribe?token=" + url.QueryEscape(token)
}
