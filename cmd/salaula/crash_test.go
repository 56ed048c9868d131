package main

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"salaula/internal/mail/mailtest"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// execServeEnv makes the test binary run `salaula serve` itself (see
// TestMain), so the crash test can kill a real server process.
const execServeEnv = "SALAULA_TEST_EXEC_SERVE"

// runAsServe is the test binary acting as `salaula serve` with a tiny
// app (see TestMain), so the crash test can kill a real server process.
func runAsServe() {
	appFS = func() fs.FS {
		return fstest.MapFS{"index.html": {Data: []byte(`<!doctype html><div id="root"></div>`)}}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args, os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "salaula:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// Sign-ups from 8 concurrent clients while the server is killed with
// SIGKILL mid-stream and restarted: every sign-up that was answered 200 is
// stored, with its confirmation e-mail queued (10 cycles on SQLite, 3 on
// PostgreSQL).
func TestAcknowledgedSignUpsSurviveKill9(t *testing.T) {
	t.Parallel() // its own servers, ports and databases
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			cycles := 10
			if engine == store.Postgres {
				cycles = 3
			}
			dataDir, env := t.TempDir(), engineEnv(t, engine)
			var mu sync.Mutex
			var acked []string
			client := &http.Client{Timeout: 5 * time.Second}
			for c := 0; c < cycles; c++ {
				addr := freeAddr(t)
				cmd := exec.Command(os.Args[0], "serve", "--http", addr, "--data", dataDir)
				cmd.Env = append(os.Environ(), execServeEnv+"=1", "SALAULA_RATE_FORMS=0", "DATABASE_URL="+env["DATABASE_URL"])
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				waitHealthy(t, addr, cmd)
				stop := make(chan struct{})
				var wg sync.WaitGroup
				before := len(acked)
				for w := 0; w < 8; w++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for n := 0; ; n++ {
							select {
							case <-stop:
								return
							default:
							}
							email := fmt.Sprintf("c%d-w%d-n%d@example.com", c, w, n)
							res, err := client.Post("http://"+addr+"/functions/v1/waitlist-signup", "application/json",
								strings.NewReader(`{"email":"`+email+`","programName":"Upcycling Initiative"}`))
							if err != nil {
								continue // in flight when the server died: not acknowledged
							}
							res.Body.Close()
							if res.StatusCode == http.StatusOK {
								mu.Lock()
								acked = append(acked, email)
								mu.Unlock()
							}
						}
					}()
				}
				time.Sleep(time.Duration(200+40*c) * time.Millisecond)
				if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				cmd.Wait()
				close(stop)
				wg.Wait()
				if len(acked) == before {
					t.Fatalf("cycle %d: no sign-up was acknowledged before the kill", c)
				}
			}
			ctx := context.Background()
			db, err := store.Open(ctx, env["DATABASE_URL"], dataDir)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			stored := map[string]bool{}
			db.EachWaitlistSignup(ctx, "", func(s *store.WaitlistSignup) error { stored[s.Email] = true; return nil })
			queued := map[string]bool{}
			rows, err := db.Query(ctx, `SELECT to_address FROM outbox_emails WHERE kind = 'waitlist'
				UNION ALL SELECT to_address FROM sent_emails WHERE kind = 'waitlist'`)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var to string
				rows.Scan(&to)
				queued[to] = true
			}
			rows.Close()
			lost := 0
			for _, e := range acked {
				if !stored[e] || !queued[e] {
					lost++
					if lost < 5 {
						t.Errorf("acknowledged sign-up %s: stored %v, confirmation queued %v", e, stored[e], queued[e])
					}
				}
			}
			if lost > 0 {
				t.Fatalf("%d of %d acknowledged sign-ups lost over %d kill -9 cycles", lost, len(acked), cycles)
			}
			t.Logf("%d acknowledged sign-ups over %d kill -9 cycles, all stored with their confirmation", len(acked), cycles)
		})
	}
}

// waitHealthy waits until the server process answers /healthz.
func waitHealthy(t *testing.T, addr string, cmd *exec.Cmd) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		res, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Kill()
	t.Fatalf("server on %s did not become healthy", addr)
}

// The attack review's kill -9 in the middle of an outbox batch: 300
// e-mails queued, the server killed while the SMTP server holds the 150th
// (the sender is then in the middle of its second batch of 100, told that
// the 149 before were accepted), then started again: every address gets
// its e-mail exactly once. When a batch was marked sent only once it was
// done, the 49 accepted e-mails of the unfinished batch went out twice.
func TestOutboxKilledMidBatchSendsEachEmailOnce(t *testing.T) {
	mailtest.SkipShort(t)
	t.Parallel() // its own servers, SMTP servers, ports and databases
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			const total, held = 300, 150
			smtpd, err := mailtest.StartHolding(held)
			if err != nil {
				t.Fatal(err)
			}
			defer smtpd.Stop()
			ctx := context.Background()
			dataDir, env := t.TempDir(), engineEnv(t, engine)
			db := openMigrated(t, env, dataDir)
			addr := func(i int) string { return fmt.Sprintf("batch-%03d@example.com", i) }
			if err := db.InTx(ctx, func(tx *store.Tx) error {
				for i := range total {
					if err := tx.EnqueueEmail(ctx, &store.OutboxEmail{To: addr(i), Subject: "You are on the list", Body: "x", Kind: "waitlist"}); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			serve := func() *exec.Cmd {
				cmd := exec.Command(os.Args[0], "serve", "--http", freeAddr(t), "--data", dataDir)
				cmd.Env = append(os.Environ(), execServeEnv+"=1", "DATABASE_URL="+env["DATABASE_URL"], "SALAULA_SMTP_URL="+smtpd.URL())
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				return cmd
			}
			countSent := func() int {
				var n int
				if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM sent_emails`).Scan(&n); err != nil {
					t.Fatal(err)
				}
				return n
			}

			first := serve()
			smtpd.WaitHeld(t)
			if err := first.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			first.Wait()
			if err := smtpd.Release(); err != nil { // the held e-mail is refused, never stored
				t.Fatal(err)
			}
			if n := countSent(); n != held-1 {
				t.Errorf("after the kill, %d e-mails are marked sent; the SMTP server had accepted %d", n, held-1)
			}
			// The e-mails the dead server had claimed and not sent are left
			// to it until their claim's lease (2 minutes) ends: the test
			// lets that time pass by moving their next attempt to now.
			if _, err := db.Exec(ctx, `UPDATE outbox_emails SET next_attempt_at = ? WHERE status = 'queued' AND next_attempt_at > ?`,
				store.Now(), store.Now()); err != nil {
				t.Fatal(err)
			}

			second := serve()
			defer func() {
				second.Process.Signal(syscall.SIGTERM)
				second.Wait()
			}()
			deadline := time.Now().Add(60 * time.Second)
			for countSent() < total {
				if time.Now().After(deadline) {
					t.Fatalf("%d of %d e-mails sent 60 s after the restart", countSent(), total)
				}
				time.Sleep(50 * time.Millisecond)
			}
			received := smtpd.Counts(t)
			twice, missing := 0, 0
			for i := range total {
				switch n := received[addr(i)]; {
				case n == 0:
					missing++
				case n > 1:
					twice++
				}
			}
			if twice > 0 || missing > 0 || len(received) != total {
				t.Fatalf("after a kill -9 in the middle of a batch: %d of %d e-mails sent twice, %d never (%d addresses received)",
					twice, total, missing, len(received))
			}
			t.Logf("kill -9 while the SMTP server held e-mail %d of %d: each of the %d addresses received its e-mail once", held, total, total)
		})
	}
}
