package mail_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"

	"salaula/internal/mail"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// fakeSMTP is a tiny SMTP server on 127.0.0.1 that accepts AUTH PLAIN and
// records what it is sent.
type fakeSMTP struct {
	ln   net.Listener
	mu   sync.Mutex
	auth string // decoded AUTH PLAIN payload
	from string
	rcpt []string
	data string
}

func startFakeSMTP(t *testing.T) *fakeSMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeSMTP{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go f.serve(conn)
		}
	}()
	return f
}

func (f *fakeSMTP) serve(conn net.Conn) {
	defer conn.Close()
	r := bufio.NewReader(conn)
	say := func(s string) { io.WriteString(conn, s+"\r\n") }
	say("220 fake ESMTP")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		cmd := strings.ToUpper(line)
		switch {
		case strings.HasPrefix(cmd, "EHLO"):
			say("250-fake")
			say("250 AUTH PLAIN")
		case strings.HasPrefix(cmd, "HELO"):
			say("250 fake")
		case strings.HasPrefix(cmd, "AUTH PLAIN"):
			raw, _ := base64.StdEncoding.DecodeString(strings.TrimSpace(line[len("AUTH PLAIN"):]))
			f.mu.Lock()
			f.auth = string(raw)
			f.mu.Unlock()
			say("235 ok")
		case strings.HasPrefix(cmd, "MAIL FROM:"):
			f.mu.Lock()
			f.from = line[len("MAIL FROM:"):]
			f.mu.Unlock()
			say("250 ok")
		case strings.HasPrefix(cmd, "RCPT TO:"):
			f.mu.Lock()
			f.rcpt = append(f.rcpt, line[len("RCPT TO:"):])
			f.mu.Unlock()
			say("250 ok")
		case cmd == "DATA":
			say("354 go on")
			var b strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				b.WriteString(l)
			}
			f.mu.Lock()
			f.data = b.String()
			f.mu.Unlock()
			say("250 queued")
		case cmd == "QUIT":
			say("221 bye")
			return
		default:
			say("250 ok")
		}
	}
}

func TestOutboxSendsBySMTP(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := startFakeSMTP(t)
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))
		o, err := mail.New(db, "Salaula <no-reply@salaula.co.zm>", "smtp://mailer:s3cret@"+f.ln.Addr().String(), logger)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		body := "Open this link:\n\nhttps://salaula.example/reset_password?token_hash=abc&type=recovery\n"
		if err := o.Send(ctx, mail.Message{To: "mwila@example.com", Subject: "Reset your Salaula password", Body: body, Kind: "recovery"}); err != nil {
			t.Fatal(err)
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.auth != "\x00mailer\x00s3cret" {
			t.Errorf("AUTH PLAIN = %q", f.auth)
		}
		if f.from != "<no-reply@salaula.co.zm>" || len(f.rcpt) != 1 || f.rcpt[0] != "<mwila@example.com>" {
			t.Errorf("envelope from %q to %v", f.from, f.rcpt)
		}
		for _, want := range []string{"From: Salaula <no-reply@salaula.co.zm>\r\n", "To: mwila@example.com\r\n", "Subject: Reset your Salaula password\r\n",
			"Content-Type: text/plain; charset=UTF-8\r\n", "\r\n\r\nOpen this link:\r\n\r\nhttps://salaula.example/reset_password?token_hash=abc&type=recovery\r\n"} {
			if !strings.Contains(f.data, want) {
				t.Errorf("message lacks %q:\n%s", want, f.data)
			}
		}
		sent, err := mail.Recent(ctx, db, "mwila@example.com", 5)
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
