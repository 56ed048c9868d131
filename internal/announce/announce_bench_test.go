package announce_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"testing"
	"time"

	"salaula/internal/announce"
	"salaula/internal/mail"
	"salaula/internal/mail/mailtest"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// BenchmarkAnnouncementSendRate sends one announcement per iteration to
// N subscribers (SALAULA_BENCH_RECIPIENTS, 200 when unset) through the
// outbox and a real local SMTP server (aiosmtpd), the pacer at the
// highest rate, and reports the e-mails a second the outbox reached.
// At scale: SALAULA_BENCH_RECIPIENTS=5000 go test -run '^$' -bench SendRate -benchtime 1x ./internal/announce/
func BenchmarkAnnouncementSendRate(b *testing.B) {
	n := 200
	if v := os.Getenv("SALAULA_BENCH_RECIPIENTS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	smtpd, err := mailtest.Start()
	if err != nil {
		b.Fatal(err)
	}
	defer smtpd.Stop()
	storetest.EachBench(b, func(b *testing.B, engine store.Dialect) {
		db := storetest.Open(b, engine)
		ctx := context.Background()
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))
		for i := range n {
			su := &store.WaitlistSignup{Email: fmt.Sprintf("rate-%06d@example.com", i), Program: program, UnsubscribeTokenHash: fmt.Sprint("h", i)}
			if _, err := db.JoinWaitlist(ctx, su, store.WaitlistJoin{}); err != nil {
				b.Fatal(err)
			}
		}
		outbox, err := mail.New(db, "Salaula <hello@salaula.example>", smtpd.URL(), logger)
		if err != nil {
			b.Fatal(err)
		}
		runCtx, stop := context.WithCancel(ctx)
		defer stop()
		go outbox.Run(runCtx)
		svc := announce.New(db, "http://localhost:8080", logger, outbox.Wake)
		svc.Tick = 100 * time.Millisecond
		go svc.Run(runCtx)
		sent := 0
		start := time.Now()
		for b.Loop() {
			a, err := svc.Create(ctx, by, announce.Draft{Program: program, Subject: "Rate", Body: "x", RatePerSecond: announce.MaxRate})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := svc.Move(ctx, by, a.ID, announce.Send); err != nil {
				b.Fatal(err)
			}
			for {
				got, err := svc.Get(ctx, a.ID)
				if err != nil {
					b.Fatal(err)
				}
				if got.Status == store.AnnouncementDone {
					sent += got.Sent
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
		b.ReportMetric(float64(sent)/time.Since(start).Seconds(), "emails/s")
	})
}
