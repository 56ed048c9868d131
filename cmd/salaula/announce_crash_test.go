package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"salaula/internal/announce"
	"salaula/internal/console"
	"salaula/internal/mail/mailtest"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
	"salaula/internal/testproc"
)

// announceSMTP is the aiosmtpd of testdata/announce_smtpd.py: it refuses
// recipients named refused-* with 550, holds its hold-th message, and logs
// each recipient it accepts or refuses.
type announceSMTP struct {
	addr, dir string
	proc      *testproc.Proc
}

func startAnnounceSMTP(t *testing.T, hold int) *announceSMTP {
	t.Helper()
	script, err := filepath.Abs("testdata/announce_smtpd.py")
	if err != nil {
		t.Fatal(err)
	}
	port, err := testproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	addr := testproc.Addr127(port)
	cmd := exec.Command(mailtest.Python, script, "127.0.0.1", fmt.Sprint(port), filepath.Join(dir, "Maildir"),
		filepath.Join(dir, "smtp.log"), fmt.Sprint(hold))
	p, err := testproc.Start(cmd, addr, filepath.Join(dir, "smtpd.out"))
	if err != nil {
		t.Fatalf("real SMTP for tests: %v", err)
	}
	t.Cleanup(p.Stop)
	return &announceSMTP{addr: addr, dir: dir, proc: p}
}

func (s *announceSMTP) waitHeld(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(s.dir, "held")); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the SMTP server was not given the message to hold within 60 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// log counts the recipients the server logged as accepted and refused.
func (s *announceSMTP) log(t *testing.T) (accepted, refused map[string]int) {
	t.Helper()
	f, err := os.Open(filepath.Join(s.dir, "smtp.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	accepted, refused = map[string]int{}, map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		what, addr, _ := strings.Cut(sc.Text(), " ")
		if what == "accepted" {
			accepted[addr]++
		} else {
			refused[addr]++
		}
	}
	return accepted, refused
}

// An announcement to 2,000 subscribers through a real SMTP server, the
// server killed with SIGKILL while the SMTP server holds the 700th e-mail
// and started again: every subscribed address gets it exactly once, the
// 20 unsubscribed none, the 40 the SMTP server refuses (550) are listed
// as bouncing, and the announcement's counts (what the console shows)
// agree with the SMTP server's log.
func TestAnnouncementSurvivesKill9ExactlyOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("kills real servers that send through a real SMTP server: not in -short")
	}
	t.Parallel() // its own servers, SMTP server, ports and databases: it mostly waits on the send rate
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			const total, held, program = 2000, 700, "Wardrobe Clearance Program"
			smtpd := startAnnounceSMTP(t, held)
			ctx := context.Background()
			dataDir, env := t.TempDir(), engineEnv(t, engine)
			db := openMigrated(t, env, dataDir)
			addr := func(i int) string {
				if i%50 == 7 {
					return fmt.Sprintf("refused-%04d@example.com", i)
				}
				return fmt.Sprintf("launch-%04d@example.com", i)
			}
			unsubscribed := func(i int) bool { return i%100 == 3 }
			for i := range total {
				su := &store.WaitlistSignup{Email: addr(i), Program: program, UnsubscribeTokenHash: fmt.Sprintf("hash-%d", i)}
				if _, err := db.JoinWaitlist(ctx, su, store.WaitlistJoin{}); err != nil {
					t.Fatal(err)
				}
				if unsubscribed(i) {
					if _, err := db.UnsubscribeWaitlist(ctx, su.ID, su.UnsubscribeTokenHash); err != nil {
						t.Fatal(err)
					}
				}
			}
			svc := announce.New(db, "http://localhost:8080", nil, nil)
			by := console.Actor{ID: "op", Email: "op@example.com", IP: "127.0.0.1"}
			a, err := svc.Create(ctx, by, announce.Draft{Program: program, Subject: "The Wardrobe Clearance Program is open",
				Body: "Muli shani! Book your clearance at https://salaula.example/wardrobe", RatePerSecond: 200})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := svc.Move(ctx, by, a.ID, announce.Send); err != nil {
				t.Fatal(err)
			}
			serve := func() *exec.Cmd {
				cmd := exec.Command(os.Args[0], "serve", "--http", freeAddr(t), "--data", dataDir)
				cmd.Env = append(os.Environ(), execServeEnv+"=1", "DATABASE_URL="+env["DATABASE_URL"], "SALAULA_SMTP_URL=smtp://"+smtpd.addr)
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				return cmd
			}

			first := serve()
			smtpd.waitHeld(t)
			if err := first.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			first.Wait()
			if err := os.WriteFile(filepath.Join(smtpd.dir, "release"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			// The e-mails the dead server had claimed are left to it until
			// their claim's lease (2 minutes) ends: the test lets that time
			// pass by moving their next attempt to now.
			if _, err := db.Exec(ctx, `UPDATE outbox_emails SET next_attempt_at = ? WHERE status = 'queued' AND next_attempt_at > ?`,
				store.Now(), store.Now()); err != nil {
				t.Fatal(err)
			}
			mid, err := svc.Get(ctx, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			if mid.AllQueued {
				t.Fatalf("all %d e-mails were queued before the kill: the kill was not in the middle", mid.Recipients)
			}

			second := serve()
			defer func() {
				second.Process.Signal(syscall.SIGTERM)
				second.Wait()
			}()
			deadline := time.Now().Add(120 * time.Second)
			for {
				got, err := svc.Get(ctx, a.ID)
				if err != nil {
					t.Fatal(err)
				}
				if got.Status == store.AnnouncementDone {
					a = got
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("120 s after the restart the announcement is %s: %+v", got.Status, got)
				}
				time.Sleep(100 * time.Millisecond)
			}

			accepted, refused := smtpd.log(t)
			wantSent, wantRefused, twice, missing, wrong := 0, 0, 0, 0, 0
			for i := range total {
				e := addr(i)
				switch {
				case unsubscribed(i):
					if accepted[e]+refused[e] > 0 {
						wrong++
					}
				case strings.HasPrefix(e, "refused-"):
					wantRefused++
					if refused[e] != 1 || accepted[e] > 0 {
						wrong++
					}
				default:
					wantSent++
					switch accepted[e] {
					case 0:
						missing++
					case 1:
					default:
						twice++
					}
				}
			}
			if twice > 0 || missing > 0 || wrong > 0 {
				t.Fatalf("after a kill -9 in the middle: %d addresses mailed twice, %d never, %d unsubscribed or refused handled wrongly", twice, missing, wrong)
			}
			if a.Sent != len(accepted) || a.Bounced != len(refused) || a.Recipients != wantSent+wantRefused ||
				a.Queued+a.Failing+a.Failed != 0 || a.Sent != wantSent || a.Bounced != wantRefused {
				t.Fatalf("console counts %+v; the SMTP server accepted %d and refused %d (want %d and %d)",
					a, len(accepted), len(refused), wantSent, wantRefused)
			}
			bounces, err := db.Bounces(ctx, 1000)
			if err != nil || len(bounces) != wantRefused {
				t.Fatalf("%d addresses listed as bouncing, want %d (%v)", len(bounces), wantRefused, err)
			}
			t.Logf("kill -9 while the SMTP server held e-mail %d: %d sent once each, %d refused and listed, %d unsubscribed skipped",
				held, a.Sent, a.Bounced, total-wantSent-wantRefused)
		})
	}
}
