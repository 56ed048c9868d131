package mail_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

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
	// failMail is how many MAIL FROM commands to refuse (451) first.
	failMail int
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
			refuse := f.failMail > 0
			if refuse {
				f.failMail--
			} else {
				f.from = line[len("MAIL FROM:"):]
			}
			f.mu.Unlock()
			if refuse {
				say("451 try again later")
				continue
			}
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

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestOutboxSendsBySMTP(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := startFakeSMTP(t)
		o, err := mail.New(db, "Salaula <no-reply@salaula.co.zm>", "smtp://mailer:s3cret@"+f.ln.Addr().String(), quietLogger())
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		body := "Open this link:\n\nhttps://salaula.example/reset_password?token_hash=abc&type=recovery\n"
		if err := o.Send(ctx, mail.Message{To: "mwila@example.com", Subject: "Reset your Salaula password", Body: body, Kind: "recovery"}); err != nil {
			t.Fatal(err)
		}
		// Send only queues: nothing has reached the SMTP server yet.
		if sent, err := mail.Recent(ctx, db, "mwila@example.com", 5); err != nil || len(sent) != 1 || sent[0].State != "queued" || sent[0].Via != "" {
			t.Fatalf("outbox after Send = %+v, %v", sent, err)
		}
		if n, err := o.DeliverDue(ctx); n != 1 || err != nil {
			t.Fatalf("DeliverDue = %d, %v", n, err)
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
		if err != nil || len(sent) != 1 || sent[0].State != "sent" || sent[0].Via != "smtp" || sent[0].Kind != "recovery" || sent[0].Body != body || sent[0].SentAt == nil {
			t.Fatalf("outbox = %+v, %v", sent, err)
		}
		// Nothing is left to send.
		if n, _ := o.DeliverDue(ctx); n != 0 {
			t.Fatalf("a sent e-mail was tried again")
		}
	})
}

func TestOutboxRetriesAFailedDeliveryThenGivesUp(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := startFakeSMTP(t)
		f.failMail = 1 // the server refuses the first attempt
		o, err := mail.New(db, "no-reply@salaula.co.zm", "smtp://"+f.ln.Addr().String(), quietLogger())
		if err != nil {
			t.Fatal(err)
		}
		o.RetryBase, o.RetryMax = 300*time.Millisecond, time.Second
		ctx := context.Background()
		if err := o.Send(ctx, mail.Message{To: "mwila@example.com", Subject: "Hi", Body: "x", Kind: "waitlist"}); err != nil {
			t.Fatal(err)
		}
		o.DeliverDue(ctx)
		sent, _ := mail.Recent(ctx, db, "mwila@example.com", 1)
		if len(sent) != 1 || sent[0].State != "failing" || sent[0].Attempts != 1 || !strings.Contains(sent[0].LastError, "451") {
			t.Fatalf("after a refused attempt: %+v", sent)
		}
		// Not due again before the pause ends.
		if n, _ := o.DeliverDue(ctx); n != 0 {
			t.Fatal("retried before the back-off ended")
		}
		time.Sleep(350 * time.Millisecond)
		if n, _ := o.DeliverDue(ctx); n != 1 {
			t.Fatal("not retried after the back-off")
		}
		sent, _ = mail.Recent(ctx, db, "mwila@example.com", 1)
		if sent[0].State != "sent" || sent[0].Attempts != 2 || sent[0].LastError != "" {
			t.Fatalf("after the retry: %+v", sent)
		}

		// A server that never answers: the e-mail is tried MaxAttempts times, then given up.
		ln, _ := net.Listen("tcp", "127.0.0.1:0")
		addr := ln.Addr().String()
		ln.Close()
		dead, _ := mail.New(db, "no-reply@salaula.co.zm", "smtp://"+addr, quietLogger())
		dead.RetryBase, dead.RetryMax = time.Millisecond, time.Millisecond
		if err := dead.Send(ctx, mail.Message{To: "bwalya@example.com", Subject: "Hi", Body: "x"}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < mail.MaxAttempts+2; i++ {
			dead.DeliverDue(ctx)
			time.Sleep(5 * time.Millisecond)
		}
		sent, _ = mail.Recent(ctx, db, "bwalya@example.com", 1)
		if len(sent) != 1 || sent[0].State != "failed" || sent[0].Attempts != mail.MaxAttempts {
			t.Fatalf("given up: %+v", sent)
		}
	})
}

func TestOutboxRefusesHeaderInjection(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		o, _ := mail.New(db, "no-reply@salaula.co.zm", "", quietLogger())
		ctx := context.Background()
		if err := o.Send(ctx, mail.Message{To: "a@example.com\r\nBcc: b@example.com", Subject: "Hi", Body: "x"}); err == nil {
			t.Fatal("a line break in a header was accepted")
		}
		if err := o.Send(ctx, mail.Message{To: "a@example.com", Subject: "Hi\nBcc: b@example.com", Body: "x"}); err == nil {
			t.Fatal("a line break in the subject was accepted")
		}
		var n int
		db.QueryRow(ctx, `SELECT COUNT(*) FROM outbox_emails`).Scan(&n)
		if n != 0 {
			t.Fatalf("%d e-mails queued", n)
		}
	})
}

// Two senders (two instances) working the same outbox at once deliver
// every e-mail exactly once.
func TestTwoSendersNeverSendOneTwice(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		f := startFakeSMTP(t)
		ctx := context.Background()
		var senders []*mail.Outbox
		for i := 0; i < 2; i++ {
			o, err := mail.New(db, "no-reply@salaula.co.zm", "smtp://"+f.ln.Addr().String(), quietLogger())
			if err != nil {
				t.Fatal(err)
			}
			senders = append(senders, o)
		}
		const n = 60
		for i := 0; i < n; i++ {
			if err := senders[i%2].Send(ctx, mail.Message{To: fmt.Sprintf("p%d@example.com", i), Subject: "Hi", Body: "x"}); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		for _, o := range senders {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					k, err := o.DeliverDue(ctx)
					if err != nil {
						t.Error(err)
					}
					if k == 0 {
						return
					}
				}
			}()
		}
		wg.Wait()
		f.mu.Lock()
		defer f.mu.Unlock()
		count := map[string]int{}
		for _, r := range f.rcpt {
			count[r]++
		}
		if len(f.rcpt) != n || len(count) != n {
			t.Fatalf("%d deliveries to %d addresses, want %d each", len(f.rcpt), len(count), n)
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
