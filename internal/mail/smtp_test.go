package mail_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"testing"
	"time"

	"salaula/internal/mail"
	"salaula/internal/mail/mailtest"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	mailtest.StopShared()
	os.Exit(code)
}

// The outbox sends through a real SMTP server (aiosmtpd), which receives the
// headers, envelope and body as written.
func TestOutboxSendsBySMTP(t *testing.T) {
	smtpd := mailtest.Shared(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))
		o, err := mail.New(db, "Salaula <no-reply@salaula.co.zm>", smtpd.URL(), logger)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		to := "mwila-" + string(db.Dialect()) + "@example.com"
		body := "Open this link:\n\nhttps://salaula.example/reset_password?token_hash=abc&type=recovery\n"
		if err := o.Send(ctx, mail.Message{To: to, Subject: "Reset your Salaula password", Body: body, Kind: "recovery"}); err != nil {
			t.Fatal(err)
		}
		got := smtpd.To(t, to, 1)
		if len(got) != 1 {
			t.Fatalf("received %d messages, want 1", len(got))
		}
		h := got[0].Header
		for name, want := range map[string]string{
			"From": "Salaula <no-reply@salaula.co.zm>", "To": to, "Subject": "Reset your Salaula password",
			"Content-Type": "text/plain; charset=UTF-8", "MIME-Version": "1.0",
			"X-MailFrom": "no-reply@salaula.co.zm", "X-RcptTo": to, // the envelope, as aiosmtpd saw it
		} {
			if h.Get(name) != want {
				t.Errorf("header %s = %q, want %q", name, h.Get(name), want)
			}
		}
		if d, err := h.Date(); err != nil || time.Since(d) > time.Minute {
			t.Errorf("Date header %q: %v", h.Get("Date"), err)
		}
		if got[0].Body != body {
			t.Errorf("body = %q, want %q", got[0].Body, body)
		}
		sent, err := mail.Recent(ctx, db, to, 5)
		if err != nil || len(sent) != 1 || sent[0].Via != "smtp" || sent[0].Kind != "recovery" || sent[0].Body != body {
			t.Fatalf("outbox = %+v, %v", sent, err)
		}
	})
}

func TestOutboxReportsSMTPFailure(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close() // nothing listens there now
		o, err := mail.New(db, "no-reply@salaula.co.zm", "smtp://"+addr, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err != nil {
			t.Fatal(err)
		}
		if err := o.Send(context.Background(), mail.Message{To: "mwila@example.com", Subject: "Hi", Body: "x"}); err == nil {
			t.Fatal("Send succeeded with no SMTP server")
		}
		// The message is still kept, so it can be found and sent again.
		if sent, _ := mail.Recent(context.Background(), db, "mwila@example.com", 1); len(sent) != 1 {
			t.Fatal("failed message not kept in the outbox")
		}
		if err := o.Send(context.Background(), mail.Message{To: "a@example.com\r\nBcc: b@example.com", Subject: "Hi", Body: "x"}); err == nil {
			t.Fatal("a line break in a header was accepted")
		}
	})
}

func TestNewRejectsBadSMTPURL(t *testing.T) {
	for _, u := range []string{"http://host:25", "smtp://", "::"} {
		if _, err := mail.New(nil, "x@example.com", u, nil); err == nil {
			t.Errorf("New(%q) accepted", u)
		}
	}
}
