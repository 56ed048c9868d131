// Package mail sends the server's e-mails (password reset links, sign-up
// confirmations, contact messages to support, waitlist confirmations). Every
// message is kept in the outbox_emails table; it is sent by SMTP when
// SALAULA_SMTP_URL is set and otherwise written to the log, so a developer
// can open its links.
package mail

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/smtp"
	"net/url"
	"strings"
	"time"

	"salaula/internal/store"
)

// Message is one outgoing e-mail in plain text.
type Message struct {
	To      string
	Subject string
	Body    string
	Kind    string // what it is for: "recovery", "confirmation", "contact", "waitlist"
}

// Mailer sends messages.
type Mailer interface {
	Send(ctx context.Context, m Message) error
}

// Outbox is the Mailer the server uses: it records each message in the
// database, then hands it to SMTP or the log.
type Outbox struct {
	DB     *store.DB
	From   string
	SMTP   *url.URL // nil: write to the log
	Logger *slog.Logger
}

// New returns an Outbox that sends through smtpURL when it is not empty.
func New(db *store.DB, from, smtpURL string, logger *slog.Logger) (*Outbox, error) {
	o := &Outbox{DB: db, From: from, Logger: logger}
	if smtpURL != "" {
		u, err := url.Parse(smtpURL)
		if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Host == "" {
			return nil, fmt.Errorf("SALAULA_SMTP_URL: want smtp://user:password@host:port")
		}
		o.SMTP = u
	}
	return o, nil
}

// Send records m and delivers it.
func (o *Outbox) Send(ctx context.Context, m Message) error {
	if strings.ContainsAny(m.To, "\r\n") || strings.ContainsAny(m.Subject, "\r\n") {
		return fmt.Errorf("mail: header contains a line break")
	}
	via := "log"
	if o.SMTP != nil {
		via = "smtp"
	}
	if _, err := o.DB.Exec(ctx, `INSERT INTO outbox_emails (id, to_address, subject, body, kind, sent_via, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		store.NewID(), m.To, m.Subject, m.Body, m.Kind, via, store.Now()); err != nil {
		return fmt.Errorf("mail: record: %w", err)
	}
	if o.SMTP == nil {
		o.Logger.Info("mail (not sent: SALAULA_SMTP_URL is not set)", "to", m.To, "subject", m.Subject, "kind", m.Kind, "body", m.Body)
		return nil
	}
	return o.sendSMTP(m)
}

func (o *Outbox) sendSMTP(m Message) error {
	host := o.SMTP.Hostname()
	addr := o.SMTP.Host
	if o.SMTP.Port() == "" {
		addr = net.JoinHostPort(host, "587")
	}
	var auth smtp.Auth
	if o.SMTP.User != nil {
		pass, _ := o.SMTP.User.Password()
		auth = smtp.PlainAuth("", o.SMTP.User.Username(), pass, host)
	}
	from := o.From
	if a, err := parseAddress(from); err == nil {
		from = a
	}
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\n",
		o.From, m.To, m.Subject, time.Now().Format(time.RFC1123Z))
	b.WriteString(strings.ReplaceAll(m.Body, "\n", "\r\n"))
	return smtp.SendMail(addr, auth, from, []string{m.To}, []byte(b.String()))
}

// parseAddress returns the bare address of "Name <addr>".
func parseAddress(s string) (string, error) {
	i, j := strings.LastIndex(s, "<"), strings.LastIndex(s, ">")
	if i >= 0 && j > i {
		return s[i+1 : j], nil
	}
	return s, nil
}

// Sent is a message recorded in the outbox.
type Sent struct {
	To, Subject, Body, Kind, Via string
	CreatedAt                    time.Time
}

// Recent returns the newest recorded messages to an address, newest first.
func Recent(ctx context.Context, db *store.DB, to string, limit int) ([]Sent, error) {
	rows, err := db.Query(ctx, `SELECT to_address, subject, body, kind, sent_via, created_at FROM outbox_emails WHERE to_address = ? ORDER BY created_at DESC LIMIT ?`, to, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Sent
	for rows.Next() {
		var s Sent
		if err := rows.Scan(&s.To, &s.Subject, &s.Body, &s.Kind, &s.Via, &s.CreatedAt); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// DeleteBefore removes the recorded messages older than t (the retention
// of the outbox) and returns how many went.
func DeleteBefore(ctx context.Context, db *store.DB, t time.Time) (int64, error) {
	res, err := db.Exec(ctx, `DELETE FROM outbox_emails WHERE created_at < ?`, t)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// ForgetRecipient removes the recorded messages sent to an address (when its
// account is deleted) and returns how many went.
func ForgetRecipient(ctx context.Context, db *store.DB, to string) (int64, error) {
	res, err := db.Exec(ctx, `DELETE FROM outbox_emails WHERE to_address = ?`, to)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
