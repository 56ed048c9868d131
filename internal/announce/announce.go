// Package announce sends announcements to a program's waitlist: an
// operator writes one (subject, plain text), previews it, sends a test to
// their own address, then sends it. A pacer (Run) queues its e-mails into
// the outbox at the announcement's rate, a batch a second, to the
// subscribed sign-ups not listed as bouncing, each exactly once across
// restarts (store.QueueAnnouncementBatch), and keeps the announcement's
// progress counts up to date for the console, which follows them live.
// Each e-mail carries its own unsubscribe link, also as List-Unsubscribe.
package announce

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"salaula/internal/apierr"
	"salaula/internal/console"
	"salaula/internal/mail"
	"salaula/internal/store"
	"salaula/internal/token"
	"salaula/internal/validate"
)

// Rates an operator may set, in e-mails per second.
const (
	DefaultRate = 5
	MaxRate     = 200
)

// Longest subject and text, in characters.
const (
	maxSubject = 200
	maxBody    = 20000
)

// Service is the announcements' rules and their pacer.
type Service struct {
	DB        *store.DB
	PublicURL string
	Logger    *slog.Logger
	// WakeSender, when set, tells the outbox's sender that e-mails were queued.
	WakeSender func()
	// Tick is the pacer's period (one batch of RatePerSecond*Tick per
	// announcement); one second when zero.
	Tick time.Duration

	wake chan struct{}
}

// New returns a Service.
func New(db *store.DB, publicURL string, logger *slog.Logger, wakeSender func()) *Service {
	return &Service{DB: db, PublicURL: publicURL, Logger: logger, WakeSender: wakeSender, wake: make(chan struct{}, 1)}
}

// Draft is what an operator writes.
type Draft struct {
	Program       string `json:"program"`
	Subject       string `json:"subject"`
	Body          string `json:"body" text:"multiline"`
	RatePerSecond int    `json:"ratePerSecond"` // 0: DefaultRate
}

// check trims d and reports what is wrong with it.
func check(d *Draft) error {
	d.Subject, d.Body = strings.TrimSpace(d.Subject), strings.TrimSpace(d.Body)
	if d.RatePerSecond == 0 {
		d.RatePerSecond = DefaultRate
	}
	switch {
	case !slices.Contains(validate.Programs, d.Program):
		return apierr.New(apierr.Invalid, "Choose the waitlist: "+strings.Join(validate.Programs, " or "))
	case d.Subject == "":
		return apierr.New(apierr.Invalid, "Write a subject")
	case utf8.RuneCountInString(d.Subject) > maxSubject:
		return apierr.New(apierr.Invalid, fmt.Sprintf("The subject is longer than %d characters", maxSubject))
	case strings.ContainsAny(d.Subject, "\r\n"):
		return apierr.New(apierr.Invalid, "The subject must be one line")
	case d.Body == "":
		return apierr.New(apierr.Invalid, "Write the text of the e-mail")
	case utf8.RuneCountInString(d.Body) > maxBody:
		return apierr.New(apierr.Invalid, fmt.Sprintf("The text is longer than %d characters", maxBody))
	case d.RatePerSecond < 1 || d.RatePerSecond > MaxRate:
		return apierr.New(apierr.Invalid, fmt.Sprintf("The rate is from 1 to %d e-mails a second", MaxRate))
	}
	return nil
}

// answer maps the store's errors to the console's.
func answer(a *store.Announcement, err error) (*store.Announcement, error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, console.ErrNotFound
	case errors.Is(err, store.ErrWrongState):
		return nil, apierr.New(apierr.Invalid, "The announcement cannot do that now: see its status")
	}
	return a, err
}

// counted is answer(a, err) with a's Total counted.
func (s *Service) counted(ctx context.Context, a *store.Announcement, err error) (*store.Announcement, error) {
	if a, err = answer(a, err); err != nil {
		return nil, err
	}
	if err := s.DB.CountAnnouncementTotals(ctx, a); err != nil {
		return nil, err
	}
	return a, nil
}

// Create stores a draft.
func (s *Service) Create(ctx context.Context, by console.Actor, d Draft) (*store.Announcement, error) {
	if err := check(&d); err != nil {
		return nil, err
	}
	a := &store.Announcement{Program: d.Program, Subject: d.Subject, Body: d.Body, RatePerSecond: d.RatePerSecond, CreatedBy: by.Email}
	err := s.DB.CreateAnnouncement(ctx, a, func(tx *store.Tx) error {
		return store.AppendAudit(ctx, tx, &store.AuditEntry{ActorID: by.ID, ActorEmail: by.Email, IP: by.IP, Action: "announcement.create",
			TargetType: "announcement", TargetID: a.ID, Detail: map[string]any{"program": a.Program, "subject": a.Subject}})
	})
	return s.counted(ctx, a, err)
}

// Edit changes a draft (its program stays).
func (s *Service) Edit(ctx context.Context, id string, d Draft) (*store.Announcement, error) {
	a, err := s.DB.AnnouncementByID(ctx, id)
	if err != nil {
		return answer(nil, err)
	}
	d.Program = a.Program
	if err := check(&d); err != nil {
		return nil, err
	}
	a, err = s.DB.EditAnnouncement(ctx, id, d.Subject, d.Body, d.RatePerSecond)
	return s.counted(ctx, a, err)
}

// Get returns one announcement.
func (s *Service) Get(ctx context.Context, id string) (*store.Announcement, error) {
	a, err := s.DB.AnnouncementByID(ctx, id)
	return s.counted(ctx, a, err)
}

// List returns the newest announcements, with their totals.
func (s *Service) List(ctx context.Context) ([]store.Announcement, error) {
	list, err := s.DB.Announcements(ctx, "", 100)
	if err != nil {
		return nil, err
	}
	ptrs := make([]*store.Announcement, len(list))
	for i := range list {
		ptrs[i] = &list[i]
	}
	return list, s.DB.CountAnnouncementTotals(ctx, ptrs...)
}

// Preview is an announcement's e-mail as a recipient gets it.
type Preview struct {
	To              string `json:"to"`
	Subject         string `json:"subject"`
	Body            string `json:"body"`
	ListUnsubscribe string `json:"listUnsubscribe"`
}

// previewToken stands in for a recipient's unsubscribe token in previews
// and tests; no delivery has it, so its link changes nothing.
const previewToken = "preview"

// Preview returns the e-mail of announcement id for the address to.
func (s *Service) Preview(ctx context.Context, id, to string) (*Preview, error) {
	a, err := s.DB.AnnouncementByID(ctx, id)
	if err != nil {
		return nil, mapErr(err)
	}
	m := s.message(a, to, previewToken)
	return &Preview{To: m.To, Subject: m.Subject, Body: m.Body, ListUnsubscribe: m.ListUnsubscribe}, nil
}

func mapErr(err error) error {
	_, err = answer(nil, err)
	return err
}

// SendTest sends announcement id to the operator's own address now,
// through mailer, with "[Test]" before its subject.
func (s *Service) SendTest(ctx context.Context, mailer mail.Mailer, by console.Actor, id string) (*Preview, error) {
	p, err := s.Preview(ctx, id, by.Email)
	if err != nil {
		return nil, err
	}
	p.Subject = "[Test] " + p.Subject
	if err := mailer.Send(ctx, mail.Message{To: p.To, Subject: p.Subject, Body: p.Body, Kind: "announcement-test",
		ListUnsubscribe: p.ListUnsubscribe}); err != nil {
		return nil, err
	}
	return p, nil
}

// UnsubscribePath is the path of an announcement e-mail's unsubscribe link.
const UnsubscribePath = "/functions/v1/announcement-unsubscribe"

// message is announcement a's e-mail to the address to with this
// unsubscribe token.
func (s *Service) message(a *store.Announcement, to, tok string) mail.Message {
	link := strings.TrimRight(s.PublicURL, "/") + UnsubscribePath + "?token=" + url.QueryEscape(tok)
	return mail.Message{To: to, Subject: a.Subject, Kind: "announcement", ListUnsubscribe: link,
		Body: a.Body + "\n\n--\nYou get this e-mail because you joined the waitlist of the Salaula " + a.Program +
			".\nNo longer want these e-mails? Unsubscribe here:\n" + link + "\n"}
}

// Transitions an operator may make.
const (
	Send   = "send"
	Pause  = "pause"
	Resume = "resume"
	Cancel = "cancel"
)

var transitions = map[string]struct {
	from []string
	to   string
}{
	Send:   {[]string{store.AnnouncementDraft}, store.AnnouncementSending},
	Pause:  {[]string{store.AnnouncementSending}, store.AnnouncementPaused},
	Resume: {[]string{store.AnnouncementPaused}, store.AnnouncementSending},
	Cancel: {[]string{store.AnnouncementDraft, store.AnnouncementSending, store.AnnouncementPaused}, store.AnnouncementCancelled},
}

// Move makes one of the transitions (Send, Pause, Resume, Cancel), in
// the audit log with the announcement's counts at that moment.
func (s *Service) Move(ctx context.Context, by console.Actor, id, action string) (*store.Announcement, error) {
	tr, ok := transitions[action]
	if !ok {
		return nil, console.ErrNotFound
	}
	a, err := s.DB.MoveAnnouncement(ctx, id, tr.from, tr.to, func(tx *store.Tx, a *store.Announcement) error {
		detail := map[string]any{"program": a.Program, "subject": a.Subject, "ratePerSecond": a.RatePerSecond,
			"recipients": a.Recipients, "skipped": a.Skipped, "sent": a.Sent, "queued": a.Queued, "failing": a.Failing,
			"bounced": a.Bounced, "failed": a.Failed}
		if action == Send {
			n, err := tx.SubscribedCount(ctx, a.Program)
			if err != nil {
				return err
			}
			detail["subscribed"] = n
		}
		return store.AppendAudit(ctx, tx, &store.AuditEntry{ActorID: by.ID, ActorEmail: by.Email, IP: by.IP, Action: "announcement." + action,
			TargetType: "announcement", TargetID: id, Detail: detail})
	})
	if err == nil && tr.to == store.AnnouncementSending {
		s.Wake()
	}
	return s.counted(ctx, a, err)
}

// Wake tells the pacer to look at the announcements now.
func (s *Service) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Run paces the sending announcements until ctx ends: each tick (or when
// woken) Step.
func (s *Service) Run(ctx context.Context) {
	tick := s.tick()
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		if err := s.Step(ctx); err != nil && ctx.Err() == nil {
			s.Logger.Error("announce: step", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.wake:
		}
	}
}

func (s *Service) tick() time.Duration {
	if s.Tick > 0 {
		return s.Tick
	}
	return time.Second
}

// Step queues, for each sending announcement, its next batch (its rate
// times the tick, while fewer than two batches wait in the outbox
// unsent), and saves the progress of every announcement still in flight.
func (s *Service) Step(ctx context.Context) error {
	var errs []error
	for _, status := range []string{store.AnnouncementSending, store.AnnouncementPaused, store.AnnouncementCancelled} {
		list, err := s.DB.Announcements(ctx, status, 1000)
		if err != nil {
			return err
		}
		for _, a := range list {
			if status == store.AnnouncementCancelled && a.Queued+a.Failing == 0 {
				continue
			}
			errs = append(errs, s.step(ctx, &a))
		}
	}
	return errors.Join(errs...)
}

func (s *Service) step(ctx context.Context, a *store.Announcement) error {
	c, err := s.DB.CountAnnouncement(ctx, a.ID)
	if err != nil {
		return err
	}
	batch := max(1, int(float64(a.RatePerSecond)*s.tick().Seconds()))
	if a.Status == store.AnnouncementSending && !a.AllQueued && c.Queued < 2*batch {
		n, err := s.DB.QueueAnnouncementBatch(ctx, a.ID, batch, func(r store.Recipient) (store.AnnouncementEmail, error) {
			tok, err := token.NewOpaque()
			if err != nil {
				return store.AnnouncementEmail{}, err
			}
			tok = a.ID + "." + r.SignupID + "." + tok
			m := s.message(a, r.Email, tok)
			return store.AnnouncementEmail{Email: &store.OutboxEmail{To: m.To, Subject: m.Subject, Body: m.Body, Kind: m.Kind,
				ListUnsubscribe: m.ListUnsubscribe}, UnsubscribeHash: token.Hash(tok)}, nil
		})
		if err != nil {
			return err
		}
		if n > 0 && s.WakeSender != nil {
			s.WakeSender()
		}
		if c, err = s.DB.CountAnnouncement(ctx, a.ID); err != nil {
			return err
		}
	}
	_, err = s.DB.SaveAnnouncementCounts(ctx, a.ID, c)
	return err
}

// Unsubscribe finds the sign-up an announcement e-mail's unsubscribe token
// names and, when post is set, unsubscribes it; it returns the sign-up.
// console.ErrNotFound for a token no delivery has.
func (s *Service) Unsubscribe(ctx context.Context, tok string, post bool) (*store.WaitlistSignup, error) {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 || len(tok) > 200 {
		return nil, console.ErrNotFound
	}
	if err := s.DB.AnnouncementDelivery(ctx, parts[0], parts[1], token.Hash(tok)); err != nil {
		return nil, mapErr(err)
	}
	su, err := s.DB.WaitlistSignupByID(ctx, parts[1])
	if err != nil || !post {
		return su, mapErr(err)
	}
	su, err = s.DB.UnsubscribeWaitlist(ctx, su.ID, su.UnsubscribeTokenHash)
	return su, mapErr(err)
}
