package mail_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"salaula/internal/mail"
	"salaula/internal/mail/mailtest"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// TestMain gives the tests databases copied from templates migrated once,
// and stops the SMTP server they share.
func TestMain(m *testing.M) {
	code := storetest.Main(m)
	mailtest.StopShared()
	os.Exit(code)
}

// The outbox sends through a real SMTP server (aiosmtpd), which receives the
// headers, envelope and body as written.
func TestOutboxSendsBySMTP(t *testing.T) {
	smtpd := mailtest.Shared(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		o, err := mail.New(db, "Salaula <no-reply@salaula.co.zm>", smtpd.URL(), quietLogger())
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		to := "mwila-" + string(db.Dialect()) + "@example.com"
		body := "Open this link:\n\nhttps://salaula.example/reset_password?token_hash=abc&type=recovery\n"
		if err := o.Send(ctx, mail.Message{To: to, Subject: "Reset your Salaula password", Body: body, Kind: "recovery"}); err != nil {
			t.Fatal(err)
		}
		// Send only queues: nothing has reached the SMTP server yet.
		if sent, err := mail.Recent(ctx, db, to, 5); err != nil || len(sent) != 1 || sent[0].State != "queued" || sent[0].Via != "" {
			t.Fatalf("outbox after Send = %+v, %v", sent, err)
		}
		if n, err := o.DeliverDue(ctx); n != 1 || err != nil {
			t.Fatalf("DeliverDue = %d, %v", n, err)
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
		if err != nil || len(sent) != 1 || sent[0].State != "sent" || sent[0].Via != "smtp" || sent[0].Kind != "recovery" || sent[0].Body != body || sent[0].SentAt == nil {
			t.Fatalf("outbox = %+v, %v", sent, err)
		}
		// Nothing is left to send.
		if n, _ := o.DeliverDue(ctx); n != 0 {
			t.Fatalf("a sent e-mail was tried again")
		}
	})
}

// An SMTP server that is down delays an e-mail (retried with back-off once
// it is back), and one that never comes back makes it fail after
// MaxAttempts; it is never dropped silently.
func TestOutboxRetriesAFailedDeliveryThenGivesUp(t *testing.T) {
	smtpd := mailtest.Shared(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		to := "retry-" + string(db.Dialect()) + "@example.com"
		down, _ := net.Listen("tcp", "127.0.0.1:0") // a port where no SMTP server answers
		downAddr := down.Addr().String()
		down.Close()
		o, err := mail.New(db, "no-reply@salaula.co.zm", "smtp://"+downAddr, quietLogger())
		if err != nil {
			t.Fatal(err)
		}
		o.RetryBase, o.RetryMax = 300*time.Millisecond, time.Second
		ctx := context.Background()
		if err := o.Send(ctx, mail.Message{To: to, Subject: "Hi", Body: "x", Kind: "waitlist"}); err != nil {
			t.Fatal(err)
		}
		o.DeliverDue(ctx)
		sent, _ := mail.Recent(ctx, db, to, 1)
		if len(sent) != 1 || sent[0].State != "failing" || sent[0].Attempts != 1 || sent[0].LastError == "" {
			t.Fatalf("after a failed attempt: %+v", sent)
		}
		// The server comes back (at its new address).
		back, err := mail.New(db, "no-reply@salaula.co.zm", smtpd.URL(), quietLogger())
		if err != nil {
			t.Fatal(err)
		}
		o.SMTP = back.SMTP
		// Not due again before the pause ends.
		if n, _ := o.DeliverDue(ctx); n != 0 {
			t.Fatal("retried before the back-off ended")
		}
		time.Sleep(350 * time.Millisecond)
		if n, _ := o.DeliverDue(ctx); n != 1 {
			t.Fatal("not retried after the back-off")
		}
		sent, _ = mail.Recent(ctx, db, to, 1)
		// Sent on the second attempt: a sent e-mail's record keeps when
		// and how it went, not how many tries it took.
		if sent[0].State != "sent" || sent[0].Via != "smtp" || sent[0].SentAt == nil || sent[0].LastError != "" {
			t.Fatalf("after the retry: %+v", sent)
		}
		if got := smtpd.To(t, to, 1); len(got) != 1 {
			t.Fatalf("the SMTP server received %d copies, want 1", len(got))
		}

		// A server that never answers: the e-mail is tried MaxAttempts times, then given up.
		ln, _ := net.Listen("tcp", "127.0.0.1:0")
		addr := ln.Addr().String()
		ln.Close()
		dead, _ := mail.New(db, "no-reply@salaula.co.zm", "smtp://"+addr, quietLogger())
		dead.RetryBase, dead.RetryMax = time.Millisecond, time.Millisecond
		if err := dead.Send(ctx, mail.Message{To: "bwalya-" + string(db.Dialect()) + "@example.com", Subject: "Hi", Body: "x"}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < mail.MaxAttempts+2; i++ {
			dead.DeliverDue(ctx)
			time.Sleep(5 * time.Millisecond)
		}
		sent, _ = mail.Recent(ctx, db, "bwalya-"+string(db.Dialect())+"@example.com", 1)
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
		if err := o.Send(ctx, mail.Message{To: "a@example.com", Subject: "Hi", Body: "x", ListUnsubscribe: "https://salaula.example/u>\r\nBcc: b@example.com"}); err == nil {
			t.Fatal("a line break in the unsubscribe address was accepted")
		}
		var n int
		db.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM outbox_emails) + (SELECT COUNT(*) FROM sent_emails)`).Scan(&n)
		if n != 0 {
			t.Fatalf("%d e-mails queued", n)
		}
	})
}

// An e-mail about a list carries its one-click unsubscribe address through
// the outbox (written alone or with a group of others) to the headers of
// RFC 8058; other e-mails carry none.
func TestListUnsubscribeHeadersReachTheRecipient(t *testing.T) {
	smtpd := mailtest.Shared(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		o, err := mail.New(db, "Salaula <no-reply@salaula.co.zm>", smtpd.URL(), quietLogger())
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		list := "lists-" + string(db.Dialect()) + "@example.com"
		plain := "plain-" + string(db.Dialect()) + "@example.com"
		const unsub = "https://salaula.example/functions/v1/waitlist-unsubscribe?token=id.secret"
		var wg sync.WaitGroup
		for _, m := range []mail.Message{
			{To: list, Subject: "You're on the list", Body: "Muli shani", Kind: "waitlist", ListUnsubscribe: unsub},
			{To: plain, Subject: "Reset your Salaula password", Body: "x", Kind: "recovery"},
		} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := o.Send(ctx, m); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if _, err := o.DeliverDue(ctx); err != nil {
			t.Fatal(err)
		}
		h := smtpd.To(t, list, 1)[0].Header
		if h.Get("List-Unsubscribe") != "<"+unsub+">" || h.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
			t.Fatalf("list e-mail headers %v", h)
		}
		if h := smtpd.To(t, plain, 1)[0].Header; h.Get("List-Unsubscribe") != "" || h.Get("List-Unsubscribe-Post") != "" {
			t.Fatalf("other e-mail headers %v", h)
		}
	})
}

// Two senders (two instances) working the same outbox at once deliver
// every e-mail exactly once.
func TestTwoSendersNeverSendOneTwice(t *testing.T) {
	smtpd := mailtest.Shared(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		addr := func(i int) string { return fmt.Sprintf("p%d-%s@example.com", i, db.Dialect()) }
		var senders []*mail.Outbox
		for i := 0; i < 2; i++ {
			o, err := mail.New(db, "no-reply@salaula.co.zm", smtpd.URL(), quietLogger())
			if err != nil {
				t.Fatal(err)
			}
			senders = append(senders, o)
		}
		const n = 60
		for i := 0; i < n; i++ {
			if err := senders[i%2].Send(ctx, mail.Message{To: addr(i), Subject: "Hi", Body: "x"}); err != nil {
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
		for i := 0; i < n; i++ {
			if got := smtpd.To(t, addr(i), 1); len(got) != 1 {
				t.Fatalf("%s received %d copies, want 1", addr(i), len(got))
			}
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

// Each e-mail of a batch is marked sent as soon as the SMTP server has
// accepted it, not once the whole batch is done: while the server holds
// the 5th of 8, the 4 it accepted are already marked, so a sender killed
// then would not send them again. The held one, refused, is retried.
func TestOutboxMarksEachEmailOnceTheServerAcceptsIt(t *testing.T) {
	mailtest.SkipShort(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		smtpd, err := mailtest.StartHolding(5)
		if err != nil {
			t.Fatal(err)
		}
		defer smtpd.Stop()
		o, err := mail.New(db, "no-reply@salaula.co.zm", smtpd.URL(), quietLogger())
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		for i := range 8 {
			if err := o.Send(ctx, mail.Message{To: fmt.Sprintf("each-%d@example.com", i), Subject: "Hi", Body: "x", Kind: "waitlist"}); err != nil {
				t.Fatal(err)
			}
		}
		delivered := make(chan int, 1)
		go func() {
			n, err := o.DeliverDue(ctx)
			if err != nil {
				t.Error(err)
			}
			delivered <- n
		}()
		smtpd.WaitHeld(t)
		states := func() map[string]string {
			out := map[string]string{}
			for i := range 8 {
				to := fmt.Sprintf("each-%d@example.com", i)
				sent, err := mail.Recent(ctx, db, to, 1)
				if err != nil || len(sent) != 1 {
					t.Fatalf("outbox for %s: %+v, %v", to, sent, err)
				}
				out[to] = sent[0].State
			}
			return out
		}
		received := smtpd.Counts(t)
		marked := 0
		for to, state := range states() {
			if (state == "sent") != (received[to] == 1) {
				t.Errorf("while the 5th e-mail is held: %s is %s, received %d time(s)", to, state, received[to])
			}
			if state == "sent" {
				marked++
			}
		}
		if marked != 4 || len(received) != 4 {
			t.Fatalf("while the 5th e-mail is held: %d marked sent, %d received; want the 4 accepted ones marked", marked, len(received))
		}
		if err := smtpd.Release(); err != nil {
			t.Fatal(err)
		}
		if n := <-delivered; n != 8 {
			t.Fatalf("DeliverDue tried %d e-mails, want 8", n)
		}
		received = smtpd.Counts(t)
		failing := 0
		for to, state := range states() {
			switch {
			case state == "sent" && received[to] == 1:
			case state == "failing" && received[to] == 0:
				failing++
			default:
				t.Errorf("after the batch: %s is %s, received %d time(s)", to, state, received[to])
			}
		}
		if failing != 1 {
			t.Fatalf("%d e-mails failing after the batch, want the held one", failing)
		}
	})
}

// With ClearBodies (SALAULA_EMAIL_BODY_RETENTION=0) the recipient gets the
// whole e-mail, and the write that records it sent empties the stored body
// and List-Unsubscribe address, keeping what the console and `salaula
// admin mail` show; a queued e-mail keeps its body until it is sent. Without
// SMTP the row is written sent and without them from the start.
func TestClearBodiesEmptiesTheStoredBodyOnceSent(t *testing.T) {
	smtpd := mailtest.Shared(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		body := "Welcome.\n\nUnsubscribe: https://salaula.example/u?token=abc\n"
		msg := func(to string) mail.Message {
			return mail.Message{To: to, Subject: "You're on the list", Body: body, Kind: "waitlist", ListUnsubscribe: "https://salaula.example/u?token=abc"}
		}
		o, err := mail.New(db, "no-reply@salaula.co.zm", smtpd.URL(), quietLogger())
		if err != nil {
			t.Fatal(err)
		}
		o.ClearBodies = true
		to := "clear-" + string(db.Dialect()) + "@example.com"
		if err := o.Send(ctx, msg(to)); err != nil {
			t.Fatal(err)
		}
		if queued, err := db.EmailsTo(ctx, to, 5); err != nil || len(queued) != 1 || queued[0].Body != body || queued[0].ListUnsubscribe == "" {
			t.Fatalf("queued e-mail = %+v, %v; want its body kept until it is sent", queued, err)
		}
		if n, err := o.DeliverDue(ctx); n != 1 || err != nil {
			t.Fatalf("DeliverDue = %d, %v", n, err)
		}
		if got := smtpd.To(t, to, 1); len(got) != 1 || got[0].Body != body || got[0].Header.Get("List-Unsubscribe") == "" {
			t.Fatalf("received %+v, want the whole e-mail", got)
		}
		sent, err := db.EmailsTo(ctx, to, 5)
		if err != nil || len(sent) != 1 || sent[0].Status != store.EmailSent || sent[0].Body != "" || sent[0].ListUnsubscribe != "" ||
			sent[0].Subject != "You're on the list" || sent[0].Kind != "waitlist" || sent[0].SentAt == nil {
			t.Fatalf("sent e-mail = %+v, %v; want recipient, subject, kind and times kept, body and List-Unsubscribe empty", sent, err)
		}

		logged, err := mail.New(db, "no-reply@salaula.co.zm", "", quietLogger())
		if err != nil {
			t.Fatal(err)
		}
		logged.ClearBodies = true
		to = "clear-log-" + string(db.Dialect()) + "@example.com"
		if err := logged.Send(ctx, msg(to)); err != nil {
			t.Fatal(err)
		}
		if rows, err := db.EmailsTo(ctx, to, 5); err != nil || len(rows) != 1 || rows[0].Status != store.EmailSent || rows[0].Body != "" || rows[0].ListUnsubscribe != "" {
			t.Fatalf("e-mail sent to the log = %+v, %v; want it recorded sent without its body", rows, err)
		}
	})
}

// An e-mail the SMTP server accepted but whose sending could not be
// recorded (the database down, a kill -9) is sent again once its claim
// lapses; both copies carry the same Message-ID, made from the outbox
// row's id, so mail programs show one. Another e-mail has another.
func TestAnEmailSentAgainKeepsItsMessageID(t *testing.T) {
	smtpd := mailtest.Shared(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		o, err := mail.New(db, "Salaula <no-reply@salaula.co.zm>", smtpd.URL(), quietLogger())
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		to := "twice-" + string(db.Dialect()) + "@example.com"
		for _, subject := range []string{"Your place on the waitlist", "Another one"} {
			if err := o.Send(ctx, mail.Message{To: to, Subject: subject, Body: "Hello\n", Kind: "waitlist"}); err != nil {
				t.Fatal(err)
			}
		}
		// The rows as they were before the first try (claimed with no lease: still due).
		rows, err := db.ClaimEmails(ctx, store.Now(), 0, 10)
		if err != nil || len(rows) != 2 {
			t.Fatalf("outbox rows: %+v, %v", rows, err)
		}
		if n, err := o.DeliverDue(ctx); n != 2 || err != nil {
			t.Fatalf("DeliverDue = %d, %v", n, err)
		}
		// The first is still in the outbox, as when its sending was not recorded.
		if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.EnqueueEmail(ctx, &rows[0]) }); err != nil {
			t.Fatal(err)
		}
		if n, err := o.DeliverDue(ctx); n != 1 || err != nil {
			t.Fatalf("DeliverDue again = %d, %v", n, err)
		}
		got := smtpd.To(t, to, 3)
		ids := map[string][]string{}
		for _, m := range got {
			ids[m.Header.Get("Subject")] = append(ids[m.Header.Get("Subject")], m.Header.Get("Message-ID"))
		}
		first, other := ids[rows[0].Subject], ids[rows[1].Subject]
		if len(first) != 2 || first[0] != first[1] || first[0] != "<outbox."+rows[0].ID+"@salaula.co.zm>" ||
			len(other) != 1 || other[0] == first[0] || other[0] == "" {
			t.Fatalf("Message-IDs by subject: %q", ids)
		}
	})
}
