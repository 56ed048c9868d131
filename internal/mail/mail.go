// Package mail is the only way e-mail leaves the server (password reset
// links, sign-up confirmations, contact messages to support, waitlist
// confirmations). It is a transactional outbox: an e-mail is written to the
// outbox_emails table in the same transaction as the change that causes it
// (Enqueue), and a background sender (Run) delivers it by SMTP when
// SALAULA_SMTP_URL is set, or otherwise writes it to the log, with retries
// and growing pauses, surviving restarts. A client that disconnects can
// never drop an e-mail: once the change is committed, so is its e-mail.
package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/smtp"
	"net/url"
	"strings"
	"sync"
	"time"

	"salaula/internal/store"
)

// Message is one outgoing e-mail in plain text.
type Message struct {
	To      string
	Subject string
	Body    string
	Kind    string // what it is for: "recovery", "confirmation", "contact", "waitlist"
	// ListUnsubscribe is the one-click unsubscribe address of an e-mail
	// about a list (a waitlist): sent by SMTP as List-Unsubscribe with
	// List-Unsubscribe-Post (RFC 8058), so a mail program's Unsubscribe
	// button POSTs to it. "" for other e-mails.
	ListUnsubscribe string
	// ID is the outbox row's id: the Message-ID's left part, the same on
	// every try, so a mail program folds the copies of an e-mail sent
	// twice (accepted, then not recorded: see markSent). "" for none.
	ID string
}

// Mailer sends messages. For the Outbox, Send puts the message in the
// outbox in a transaction of its own and returns; the sender delivers it.
type Mailer interface {
	Send(ctx context.Context, m Message) error
}

// Check reports why m cannot be sent (a line break in a header, which
// could smuggle in other headers, or no recipient).
func Check(m Message) error {
	if strings.TrimSpace(m.To) == "" {
		return errors.New("mail: no recipient")
	}
	if strings.ContainsAny(m.To, "\r\n") || strings.ContainsAny(m.Subject, "\r\n") || strings.ContainsAny(m.ListUnsubscribe, "\r\n<>") {
		return errors.New("mail: header contains a line break")
	}
	return nil
}

// Delivery settings of the sender.
const (
	// MaxAttempts is how many times an e-mail is tried before it is given up.
	MaxAttempts = 10
	// claimLease is how long a claimed e-mail is left to its sender before
	// another may try it (the sender died mid-way).
	claimLease = 2 * time.Minute
	// batchSize is the most e-mails one claim takes.
	batchSize = 100
	// pollEvery is how often the sender looks for due e-mails without being
	// woken (retries, e-mails queued by other instances or commands).
	pollEvery = time.Second
	// coalesce is the pause after a delivery round before the next one.
	coalesce = 200 * time.Millisecond
	// smtpTimeout bounds one SMTP conversation.
	smtpTimeout = time.Minute
	// smtpDialTimeout bounds connecting to the SMTP server.
	smtpDialTimeout = 15 * time.Second
)

// Outbox is the Mailer the server uses.
type Outbox struct {
	DB     *store.DB
	From   string
	SMTP   *url.URL // nil: write to the log
	Logger *slog.Logger
	// RetryBase is the pause after the first failed attempt; it doubles
	// with each further attempt, up to RetryMax. Defaults: 30s and 1h.
	RetryBase, RetryMax time.Duration
	// ClearBodies empties an e-mail's stored body and List-Unsubscribe
	// address in the write that records it sent
	// (SALAULA_EMAIL_BODY_RETENTION=0): they were needed only to send it.
	ClearBodies bool

	wake chan struct{}

	// Without SMTP an e-mail is recorded as sent when its change commits
	// (Enqueue) and written to the log just after, by the sender: toLog
	// holds those not logged yet, logWake tells the sender of them.
	logMu   sync.Mutex
	toLog   []Message
	logWake chan struct{}
}

// New returns an Outbox that sends through smtpURL when it is not empty.
func New(db *store.DB, from, smtpURL string, logger *slog.Logger) (*Outbox, error) {
	o := &Outbox{DB: db, From: from, Logger: logger, RetryBase: 30 * time.Second, RetryMax: time.Hour,
		wake: make(chan struct{}, 1), logWake: make(chan struct{}, 1)}
	if smtpURL != "" {
		u, err := url.Parse(smtpURL)
		if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Host == "" {
			return nil, fmt.Errorf("SALAULA_SMTP_URL: want smtp://user:password@host:port")
		}
		o.SMTP = u
	}
	return o, nil
}

// Enqueue writes m to the outbox inside tx, so it is kept exactly when the
// change tx makes is, and has what Outboxed says run once tx commits.
func (o *Outbox) Enqueue(ctx context.Context, tx *store.Tx, m Message) error {
	e, after, err := o.Outboxed(m)
	if err != nil {
		return err
	}
	if err := tx.QueueEmail(ctx, e, after); err != nil {
		return fmt.Errorf("mail: queue: %w", err)
	}
	return nil
}

// Outboxed returns m as the outbox row to write with the change it belongs
// to, and what to run once that change is committed: wake the sender.
// Without SMTP, where delivering is writing the e-mail to the log, which
// cannot fail, the row records m as sent via the log, and the sender logs
// it once the change commits: no second write to mark it sent (if the
// process dies in between, the line is missing from the log; the outbox
// still holds the e-mail).
func (o *Outbox) Outboxed(m Message) (*store.OutboxEmail, func(), error) {
	if err := Check(m); err != nil {
		return nil, nil, err
	}
	e := &store.OutboxEmail{To: m.To, Subject: m.Subject, Body: m.Body, Kind: m.Kind, ListUnsubscribe: m.ListUnsubscribe,
		Status: store.EmailQueued}
	if o.SMTP == nil {
		e.Status, e.Via = store.EmailSent, "log"
		if o.ClearBodies {
			e.Body, e.ListUnsubscribe = "", ""
		}
		return e, func() { o.logLater(m) }, nil
	}
	return e, o.Wake, nil
}

// logLater hands m, recorded as sent via the log, to the sender to log.
func (o *Outbox) logLater(m Message) {
	o.logMu.Lock()
	o.toLog = append(o.toLog, m)
	o.logMu.Unlock()
	select {
	case o.logWake <- struct{}{}:
	default:
	}
}

// LogRecorded writes to the log the e-mails recorded as sent via the log
// whose changes have committed and that are not logged yet (Run does this
// as they come), and reports how many it wrote.
func (o *Outbox) LogRecorded() int {
	o.logMu.Lock()
	batch := o.toLog
	o.toLog = nil
	o.logMu.Unlock()
	for _, m := range batch {
		o.deliver(m)
	}
	return len(batch)
}

// Send queues m in a transaction of its own and returns; the sender
// delivers it. Use Enqueue to queue an e-mail with the change it is about.
func (o *Outbox) Send(ctx context.Context, m Message) error {
	if err := Check(m); err != nil {
		return err
	}
	return o.DB.InTx(ctx, func(tx *store.Tx) error { return o.Enqueue(ctx, tx, m) })
}

// Wake tells the sender that e-mails are waiting.
func (o *Outbox) Wake() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// Run delivers due e-mails until ctx ends: at once when woken, otherwise
// every second. Several senders (instances) may run on one PostgreSQL.
// Without SMTP it also writes to the log the e-mails Enqueue recorded as
// sent, as soon as their changes commit, and those left when ctx ends.
func (o *Outbox) Run(ctx context.Context) {
	t := time.NewTicker(pollEvery)
	defer t.Stop()
	defer o.LogRecorded()
	due := true // look for due e-mails at once
	for {
		o.LogRecorded()
		if !due {
			select {
			case <-ctx.Done():
				return
			case <-o.logWake:
			case <-o.wake:
				due = true
			case <-t.C:
				due = true
			}
			continue
		}
		due = false
		delivered := 0
		for {
			n, err := o.DeliverDue(ctx)
			delivered += n
			if err != nil && ctx.Err() == nil {
				o.Logger.Error("mail: deliver", "err", err)
			}
			if err != nil || n < batchSize {
				break
			}
		}
		if delivered > 0 {
			// Under load every group commit wakes the sender; pausing a
			// moment after a delivery lets the next round take many
			// e-mails in one write instead of competing with the
			// sign-ups for the single SQLite writer once per commit.
			// A lone e-mail after a quiet spell still goes out at once.
			select {
			case <-ctx.Done():
				return
			case <-time.After(coalesce):
			}
		}
	}
}

// DeliverDue makes one delivery attempt for up to one batch of due e-mails
// and reports how many it tried.
func (o *Outbox) DeliverDue(ctx context.Context) (int, error) {
	if o.SMTP == nil {
		// Writing to the log cannot fail: take and mark in one write.
		due, err := o.DB.TakeEmailsAsSent(ctx, store.Now(), "log", batchSize, o.ClearBodies)
		for _, e := range due {
			o.deliver(messageOf(e))
		}
		return len(due), err
	}
	due, err := o.DB.ClaimEmails(ctx, store.Now(), claimLease, batchSize)
	if err != nil || len(due) == 0 {
		return 0, err
	}
	// Each e-mail is marked as soon as the SMTP server has accepted it (or
	// has refused it), before the next one is tried: a sender killed in
	// the middle of its batch leaves only the e-mail it was sending in
	// doubt, never those it sent before (see
	// docs/decisions/0149-outbox-per-email.md). The marks are written even
	// when ctx ends after the server's answer.
	mark := context.WithoutCancel(ctx)
	for _, e := range due {
		if err := o.deliver(messageOf(e)); err != nil {
			if refused := (*Refused)(nil); errors.As(err, &refused) {
				// A permanent refusal of the address: never tried again.
				o.Logger.Warn("mail: recipient refused", "id", e.ID, "kind", e.Kind, "err", err)
				if err := o.DB.MarkEmailBounced(mark, e.ID, e.To, err.Error()); err != nil {
					return len(due), err
				}
				continue
			}
			var next *time.Time
			if e.Attempts < MaxAttempts {
				t := store.Now().Add(o.backoff(e.Attempts))
				next = &t
			}
			o.Logger.Warn("mail: delivery failed", "id", e.ID, "kind", e.Kind, "attempt", e.Attempts, "will_retry", next != nil, "err", err)
			if err := o.DB.MarkEmailFailed(mark, e.ID, err.Error(), next); err != nil {
				return len(due), err
			}
			continue
		}
		if err := o.markSent(mark, e.ID); err != nil {
			return len(due), err
		}
	}
	return len(due), nil
}

// markSentTries: how many times recording an e-mail sent is tried, a
// second apart, then more (1+2+3+4 s), before it is left to the claim's
// lease, after which it is sent again.
const markSentTries = 5

// markSent records the e-mail id sent. An e-mail the SMTP server accepted
// and that could not be recorded (the database down, or the sender killed
// in between) is sent again once its claim lapses: the record is tried
// again for some seconds to ride out a short outage, and the copies share
// their Message-ID.
func (o *Outbox) markSent(ctx context.Context, id string) error {
	var err error
	for i := range markSentTries {
		if i > 0 {
			time.Sleep(time.Duration(i) * time.Second)
		}
		if err = o.DB.MarkEmailSent(ctx, id, "smtp", store.Now(), o.ClearBodies); err == nil {
			return nil
		}
		o.Logger.Warn("mail: recording an e-mail sent failed", "id", id, "try", i+1, "err", err)
	}
	return err
}

// messageOf is the message an outbox row holds.
func messageOf(e store.OutboxEmail) Message {
	return Message{To: e.To, Subject: e.Subject, Body: e.Body, Kind: e.Kind, ListUnsubscribe: e.ListUnsubscribe, ID: e.ID}
}

// backoff is the pause after the attempt-th failed attempt.
func (o *Outbox) backoff(attempt int) time.Duration {
	d := o.RetryBase
	for i := 1; i < attempt && d < o.RetryMax; i++ {
		d *= 2
	}
	return min(d, o.RetryMax)
}

// links returns the first n URLs in body (what the pattern https?://\S+
// finds, left to right), which is all a developer needs from the log.
// Found by hand: a regular expression cost each logged e-mail more than
// the rest of its logging (FuzzLinks compares the two).
func links(body string, n int) []string {
	var out []string
	for len(out) < n {
		i := strings.Index(body, "http")
		if i < 0 {
			break
		}
		rest := body[i+4:]
		scheme := 0
		switch {
		case strings.HasPrefix(rest, "s://") && len(rest) > 4 && !space(rest[4]):
			scheme = 8
		case strings.HasPrefix(rest, "://") && len(rest) > 3 && !space(rest[3]):
			scheme = 7
		default:
			body = body[i+1:]
			continue
		}
		end := i + scheme
		for end < len(body) && !space(body[end]) {
			end++
		}
		out = append(out, body[i:end])
		body = body[end:]
	}
	return out
}

// space reports whether b is one of the pattern's \s characters.
func space(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}

// deliver sends m by SMTP or, without SMTP, writes who it is for and its
// links (never the whole body) to the log.
func (o *Outbox) deliver(m Message) error {
	if err := Check(m); err != nil {
		return err
	}
	if o.SMTP == nil {
		o.Logger.Info("mail (not sent: SALAULA_SMTP_URL is not set)", "to", m.To, "subject", m.Subject, "kind", m.Kind,
			"links", links(m.Body, 5))
		return nil
	}
	if err := o.sendSMTP(m); err != nil {
		return fmt.Errorf("smtp %s: %w", o.SMTP.Host, err) // "i/o timeout" after smtpTimeout without an answer
	}
	return nil
}

func (o *Outbox) sendSMTP(m Message) error {
	host := o.SMTP.Hostname()
	addr := o.SMTP.Host
	if o.SMTP.Port() == "" {
		addr = net.JoinHostPort(host, "587")
	}
	from := o.From
	if a, err := parseAddress(from); err == nil {
		from = a
	}
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\n", o.From, m.To, m.Subject, time.Now().Format(time.RFC1123Z))
	if id := messageID(m.ID, from); id != "" {
		fmt.Fprintf(&b, "Message-ID: %s\r\n", id)
	}
	if m.ListUnsubscribe != "" {
		fmt.Fprintf(&b, "List-Unsubscribe: <%s>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n", m.ListUnsubscribe)
	}
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\n")
	b.WriteString(strings.ReplaceAll(m.Body, "\n", "\r\n"))

	conn, err := net.DialTimeout("tcp", addr, smtpDialTimeout)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(smtpTimeout))
	var c *smtp.Client
	if o.SMTP.Scheme == "smtps" {
		tc := tls.Client(conn, &tls.Config{ServerName: host})
		c, err = smtp.NewClient(tc, host)
	} else {
		c, err = smtp.NewClient(conn, host)
	}
	if err != nil {
		return err
	}
	defer c.Close()
	if ok, _ := c.Extension("STARTTLS"); ok && o.SMTP.Scheme == "smtp" {
		if err := c.StartTLS(&tls.Config{ServerName: host}); err != nil {
			return err
		}
	}
	if o.SMTP.User != nil {
		if ok, _ := c.Extension("AUTH"); !ok {
			return errors.New("smtp: server doesn't support AUTH")
		}
		pass, _ := o.SMTP.User.Password()
		if err := c.Auth(smtp.PlainAuth("", o.SMTP.User.Username(), pass, host)); err != nil {
			return err
		}
	}
	if err := c.Mail(from); err != nil {
		return err
	}
	if err := c.Rcpt(m.To); err != nil {
		return refusal(err)
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write([]byte(b.String())); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	// Accepted: what QUIT answers changes nothing, and an error here would
	// send the e-mail again.
	c.Quit()
	return nil
}

// messageID is the Message-ID of the outbox row id sent from the address
// from: <outbox.ID@DOMAIN>, the same on every try; "" without an id.
func messageID(id, from string) string {
	domain := "salaula.invalid"
	if i := strings.LastIndexByte(from, '@'); i >= 0 && i < len(from)-1 {
		domain = from[i+1:]
	}
	if id == "" || strings.ContainsAny(id+domain, "<>@ \r\n") {
		return ""
	}
	return "<outbox." + id + "@" + domain + ">"
}

// parseAddress returns the bare address of "Name <addr>".
func parseAddress(s string) (string, error) {
	i, j := strings.LastIndex(s, "<"), strings.LastIndex(s, ">")
	if i >= 0 && j > i {
		return s[i+1 : j], nil
	}
	return s, nil
}

// Sent is a message recorded in the outbox, with its delivery state.
type Sent struct {
	To, Subject, Body, Kind string
	Via                     string // "smtp" or "log" once sent, else ""
	State                   string // queued, failing, sent or failed
	Attempts                int
	LastError               string
	CreatedAt               time.Time
	SentAt                  *time.Time
}

// Recent returns the newest recorded messages to an address, newest first.
func Recent(ctx context.Context, db *store.DB, to string, limit int) ([]Sent, error) {
	rows, err := db.EmailsTo(ctx, to, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Sent, 0, len(rows))
	for _, e := range rows {
		out = append(out, Sent{To: e.To, Subject: e.Subject, Body: e.Body, Kind: e.Kind, Via: e.Via, State: e.Status,
			Attempts: e.Attempts, LastError: e.LastError, CreatedAt: e.CreatedAt, SentAt: e.SentAt})
	}
	return out, nil
}

// DeleteBefore removes the recorded messages older than t (the retention
// of the outbox) and returns how many went.
func DeleteBefore(ctx context.Context, db *store.DB, t time.Time) (int64, error) {
	return db.DeleteEmailsBefore(ctx, t)
}

// ForgetRecipient removes the recorded messages sent to an address (when its
// account is deleted) and returns how many went.
func ForgetRecipient(ctx context.Context, db *store.DB, to string) (int64, error) {
	return db.DeleteEmailsTo(ctx, to)
}
