package announce_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strings"
	"testing"
	"time"

	"salaula/internal/announce"
	"salaula/internal/apierr"
	"salaula/internal/console"
	"salaula/internal/mail"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

var by = console.Actor{ID: "op-1", Email: "op@example.com", IP: "127.0.0.1"}

const program = "Upcycling Initiative"

func seed(t *testing.T, db *store.DB, n int) {
	t.Helper()
	for i := range n {
		su := &store.WaitlistSignup{Email: fmt.Sprintf("w%d@example.com", i), Program: program, UnsubscribeTokenHash: fmt.Sprint("h", i)}
		if _, err := db.JoinWaitlist(context.Background(), su, store.WaitlistJoin{}); err != nil {
			t.Fatal(err)
		}
	}
}

// Bad drafts are refused with a message, nothing stored; a change from the
// wrong state is refused.
func TestAnnouncementDraftsAreChecked(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		svc := announce.New(db, "http://localhost:8080", slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
		for _, d := range []announce.Draft{
			{Program: "Nope", Subject: "s", Body: "b"},
			{Program: program, Subject: " ", Body: "b"},
			{Program: program, Subject: "a\nBcc: x@example.com", Body: "b"},
			{Program: program, Subject: "s", Body: ""},
			{Program: program, Subject: "s", Body: "b", RatePerSecond: 1000},
			{Program: program, Subject: strings.Repeat("s", 201), Body: "b"},
		} {
			if _, err := svc.Create(ctx, by, d); apierr.As(err) == nil || apierr.As(err).Kind != apierr.Invalid || apierr.As(err).Message == "" {
				t.Fatalf("draft %+v: %v, want a message", d, err)
			}
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM announcements`); n != 0 {
			t.Fatalf("%d bad drafts stored", n)
		}
		a, err := svc.Create(ctx, by, announce.Draft{Program: program, Subject: "Open", Body: "We are open"})
		if err != nil || a.RatePerSecond != announce.DefaultRate || a.Status != store.AnnouncementDraft {
			t.Fatalf("create: %+v %v", a, err)
		}
		if _, err := svc.Move(ctx, by, a.ID, announce.Pause); apierr.As(err) == nil || apierr.As(err).Message != "The announcement cannot do that now: see its status" {
			t.Fatalf("pausing a draft: %v", err)
		}
		if _, err := svc.Move(ctx, by, "no-such-id", announce.Send); !errors.Is(err, console.ErrNotFound) {
			t.Fatalf("sending an unknown announcement: %v", err)
		}
		if _, err := svc.Move(ctx, by, a.ID, "explode"); !errors.Is(err, console.ErrNotFound) {
			t.Fatalf("an unknown action: %v", err)
		}
	})
}

// A sending announcement is queued at its rate, paused and resumed; it
// skips addresses listed as bouncing; each e-mail has its own working
// unsubscribe link, also as List-Unsubscribe; the audit log has the send
// with the count of subscribers; the progress ends done.
func TestAnnouncementPacedSkipsBouncingAndUnsubscribes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))
		seed(t, db, 7)
		if err := db.MarkEmailBounced(ctx, store.NewID(), "w6@example.com", "550 no such user"); err != nil {
			t.Fatal(err)
		}
		svc := announce.New(db, "http://localhost:8080", logger, nil)
		a, err := svc.Create(ctx, by, announce.Draft{Program: program, Subject: "Open", Body: "We are open", RatePerSecond: 2})
		if err != nil {
			t.Fatal(err)
		}
		// The draft's total: the subscribed addresses that are not bouncing.
		if a.Total != 6 {
			t.Fatalf("a draft to 7 subscribers, one bouncing: total %d, want 6", a.Total)
		}
		if _, err := svc.Move(ctx, by, a.ID, announce.Send); err != nil {
			t.Fatal(err)
		}
		outbox, err := mail.New(db, "Salaula <hello@salaula.example>", "", logger)
		if err != nil {
			t.Fatal(err)
		}
		step := func() *store.Announcement {
			t.Helper()
			if err := svc.Step(ctx); err != nil {
				t.Fatal(err)
			}
			got, err := svc.Get(ctx, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
		if got := step(); got.Recipients != 2 || got.Queued != 2 || got.Total != 6 {
			t.Fatalf("first second at 2 a second: %+v", got)
		}
		if got := step(); got.Recipients != 4 {
			t.Fatalf("second second: %+v", got)
		}
		if got := step(); got.Recipients != 4 {
			t.Fatalf("with two seconds' worth unsent, nothing more is queued: %+v", got)
		}
		if _, err := outbox.DeliverDue(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Move(ctx, by, a.ID, announce.Pause); err != nil {
			t.Fatal(err)
		}
		if got := step(); got.Recipients != 4 || got.Sent != 4 || got.Status != store.AnnouncementPaused || got.Total != 6 {
			t.Fatalf("paused: %+v", got)
		}
		if _, err := svc.Move(ctx, by, a.ID, announce.Resume); err != nil {
			t.Fatal(err)
		}
		for range 5 {
			step()
			if _, err := outbox.DeliverDue(ctx); err != nil {
				t.Fatal(err)
			}
		}
		got := step()
		if got.Status != store.AnnouncementDone || got.Sent != 6 || got.Skipped != 1 || got.Recipients != 6 || got.Total != 6 || got.FinishedAt == nil {
			t.Fatalf("at the end: %+v", got)
		}
		// Each e-mail's own unsubscribe link, in its text and its header.
		var body, link string
		if err := db.QueryRow(ctx, `SELECT body, list_unsubscribe FROM sent_emails WHERE to_address = 'w3@example.com' AND kind = 'announcement'`).
			Scan(&body, &link); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(link, "http://localhost:8080"+announce.UnsubscribePath+"?token=") || !strings.Contains(body, link) ||
			!strings.HasPrefix(body, "We are open") {
			t.Fatalf("e-mail %q with link %q", body, link)
		}
		u, _ := url.Parse(link)
		tok := u.Query().Get("token")
		if su, err := svc.Unsubscribe(ctx, tok, false); err != nil || su.UnsubscribedAt != nil || su.Email != "w3@example.com" {
			t.Fatalf("opening the link: %+v %v", su, err)
		}
		if su, err := svc.Unsubscribe(ctx, tok, true); err != nil || su.UnsubscribedAt == nil {
			t.Fatalf("unsubscribing: %+v %v", su, err)
		}
		for _, bad := range []string{"", "x", tok + "x", "a.b.c", strings.Repeat("a.", 150)} {
			if _, err := svc.Unsubscribe(ctx, bad, true); !errors.Is(err, console.ErrNotFound) {
				t.Fatalf("token %q: %v", bad, err)
			}
		}
		var detail string
		if err := db.QueryRow(ctx, `SELECT detail FROM audit_log WHERE action = 'announcement.send'`).Scan(&detail); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(detail, `"subscribed":7`) {
			t.Fatalf("audit detail of the send: %s", detail)
		}
		// A later announcement skips the unsubscribed and the bouncing.
		b, _ := svc.Create(ctx, by, announce.Draft{Program: program, Subject: "Second", Body: "Again", RatePerSecond: 100})
		svc.Move(ctx, by, b.ID, announce.Send)
		step()
		if got, _ := svc.Get(ctx, b.ID); got.Recipients != 5 || got.Skipped != 1 {
			t.Fatalf("second announcement: %+v", got)
		}
		// Cancelling drops what is queued and not taken.
		if _, err := svc.Move(ctx, by, b.ID, announce.Cancel); err != nil {
			t.Fatal(err)
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM outbox_emails WHERE subject = 'Second'`); n != 0 {
			t.Fatalf("%d e-mails of the cancelled announcement still queued", n)
		}
		// None of them counts as sent (a delivery whose e-mail left the
		// outbox would).
		if c, err := db.CountAnnouncement(ctx, b.ID); err != nil || c != (store.AnnouncementCounts{}) {
			t.Fatalf("counts of the cancelled announcement: %+v, %v", c, err)
		}
	})
}

// The progress of a sending reaches whoever follows the announcements
// table (the console, over the realtime channel) as the pacer counts it.
func TestAnnouncementProgressIsAnnounced(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		seed(t, db, 3)
		changes := make(chan store.Change, 100)
		stop := db.OnChange(func(c store.Change) {
			if c.Table == store.TableAnnouncements {
				changes <- c
			}
		})
		defer stop()
		svc := announce.New(db, "http://localhost:8080", slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
		a, err := svc.Create(ctx, by, announce.Draft{Program: program, Subject: "Open", Body: "We are open", RatePerSecond: 10})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Move(ctx, by, a.ID, announce.Send); err != nil {
			t.Fatal(err)
		}
		if err := svc.Step(ctx); err != nil {
			t.Fatal(err)
		}
		deadline := time.After(10 * time.Second)
		for {
			select {
			case c := <-changes:
				if c.Record["id"] == a.ID && fmt.Sprint(c.Record["recipients"]) == "3" && fmt.Sprint(c.Record["queued"]) == "3" {
					return
				}
			case <-deadline:
				t.Fatal("no change of the announcement with 3 recipients queued within 10 s")
			}
		}
	})
}
