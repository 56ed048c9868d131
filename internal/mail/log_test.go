package mail_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"salaula/internal/mail"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// Without SMTP an e-mail is recorded as sent via the log in the write that
// queues it, and logged once that write commits: nothing is left for the
// sender to claim, an undone change logs nothing, and what the log shows is
// the recipient and the links, never the body. On both engines, for lone
// writes and for writes the group commit takes together.
func TestLogModeRecordsSentAtCommitAndLogsAfter(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var logs bytes.Buffer
		o, err := mail.New(db, "no-reply@salaula.co.zm", "", slog.New(slog.NewJSONHandler(&logs, nil)))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		msg := func(to string) mail.Message {
			return mail.Message{To: to, Subject: "You're on the list", Kind: "waitlist",
				Body: "Private words.\nUnsubscribe: https://salaula.example/functions/v1/waitlist-unsubscribe?token=" + to + "\n"}
		}
		// A lone write, then 20 at once (grouped), then one whose change is
		// undone. The lines are written by LogRecorded below, on this
		// goroutine, so logs needs no lock.
		if err := o.Send(ctx, msg("lone@example.com")); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 20)
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- db.InTx(ctx, func(tx *store.Tx) error {
					return o.Enqueue(ctx, tx, msg(fmt.Sprintf("group%d@example.com", i)))
				})
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		undone := errors.New("the change failed")
		if err := db.InTx(ctx, func(tx *store.Tx) error {
			if err := o.Enqueue(ctx, tx, msg("undone@example.com")); err != nil {
				return err
			}
			return undone
		}); !errors.Is(err, undone) {
			t.Fatalf("InTx = %v", err)
		}

		for _, to := range []string{"lone@example.com", "group0@example.com", "group19@example.com"} {
			sent, err := mail.Recent(ctx, db, to, 5)
			if err != nil || len(sent) != 1 || sent[0].State != store.EmailSent || sent[0].Via != "log" ||
				sent[0].SentAt == nil || !sent[0].SentAt.Equal(sent[0].CreatedAt) {
				t.Fatalf("outbox for %s = %+v, %v", to, sent, err)
			}
		}
		if sent, _ := mail.Recent(ctx, db, "undone@example.com", 5); len(sent) != 0 {
			t.Fatalf("the undone change's e-mail is in the outbox: %+v", sent)
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM sent_emails WHERE sent_via = 'log'`); n != 21 {
			t.Fatalf("%d e-mails recorded as logged, want 21", n)
		}
		// Nothing is due: the sender has no second write to make.
		if n, err := o.DeliverDue(ctx); n != 0 || err != nil {
			t.Fatalf("DeliverDue = %d, %v", n, err)
		}

		// The lines are written once the changes have committed, each once.
		if n := o.LogRecorded(); n != 21 {
			t.Fatalf("LogRecorded wrote %d lines, want 21", n)
		}
		if n := o.LogRecorded(); n != 0 {
			t.Fatalf("LogRecorded wrote %d lines again", n)
		}
		out := logs.String()
		if got := strings.Count(out, `"msg":"mail (not sent: SALAULA_SMTP_URL is not set)"`); got != 21 {
			t.Fatalf("%d mail lines in the log, want 21:\n%s", got, out)
		}
		if strings.Contains(out, "undone@example.com") || strings.Contains(out, "Private words") {
			t.Fatalf("the log holds an undone e-mail or a body:\n%s", out)
		}
		if !strings.Contains(out, `"to":"group7@example.com"`) ||
			!strings.Contains(out, "https://salaula.example/functions/v1/waitlist-unsubscribe?token=group7@example.com") {
			t.Fatalf("the log lacks a grouped e-mail's recipient or link:\n%s", out)
		}
	})
}

// The sender started by Run logs recorded e-mails as their changes commit,
// and those left when it stops.
func TestRunLogsRecordedEmails(t *testing.T) {
	db := storetest.Open(t, store.SQLite)
	var logs bytes.Buffer
	o, err := mail.New(db, "no-reply@salaula.co.zm", "", slog.New(slog.NewJSONHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); o.Run(ctx) }() // logs is read once Run has returned
	if err := o.Send(context.Background(), mail.Message{To: "chanda@example.com", Subject: "Hello", Body: "b", Kind: "contact"}); err != nil {
		t.Fatal(err)
	}
	cancel()
	<-done
	if !strings.Contains(logs.String(), `"to":"chanda@example.com"`) {
		t.Fatalf("the sender did not log the e-mail:\n%s", logs.String())
	}
}
