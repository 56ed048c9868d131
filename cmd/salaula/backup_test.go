package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"salaula/internal/backup"
	"salaula/internal/media/mediatest"
	"salaula/internal/store/storetest"
)

const testPassword = "kalulu-jumps-the-river-42"

// A backup taken while people sign up and upload photos, restored into a new
// folder, holds every sign-up acknowledged before it began and every photo.
func TestBackupWhileWritingRestoresEverySignUpAndPhoto(t *testing.T) {
	dataDir := t.TempDir()
	env := map[string]string{"SALAULA_RATE_AUTH": "0", "SALAULA_RATE_UPLOADS": "0"}
	addr, cancel, done, _ := startServe(t, env, "--data", dataDir)
	c := apiClient{base: "http://" + addr}

	type account struct {
		email, photoPath string
		photo            []byte
	}
	var (
		mu    sync.Mutex
		acked []account
		stop  = make(chan struct{})
		wg    sync.WaitGroup
		errs  = make(chan error, 4)
	)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				email := fmt.Sprintf("writer%d-%d@example.com", w, i)
				code, s, err := c.signUp(email, testPassword)
				if err != nil || code != http.StatusOK {
					errs <- fmt.Errorf("sign-up %s: %d %v", email, code, err)
					return
				}
				p, path := photo(t, w*1000+i), s.User.ID+"/photos/1.png"
				if code, body, err := c.upload(s.AccessToken, path, p); err != nil || code != http.StatusOK {
					errs <- fmt.Errorf("upload %s: %d %s %v", path, code, body, err)
					return
				}
				mu.Lock()
				acked = append(acked, account{email, path, p})
				mu.Unlock()
			}
		}()
	}
	waitFor := func(n int) {
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			mu.Lock()
			got := len(acked)
			mu.Unlock()
			if got >= n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("only %d sign-ups in a minute", got)
			}
		}
	}
	waitFor(6)
	mu.Lock()
	before := append([]account(nil), acked...)
	mu.Unlock()
	archive := filepath.Join(t.TempDir(), "backup.tar.gz")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"salaula", "admin", "backup", "--out", archive, "--data", dataDir}, envOf(env), &out, io.Discard); err != nil {
		t.Fatalf("backup: %v", err)
	}
	waitFor(len(before) + 2) // writes went on during the backup
	close(stop)
	wg.Wait()
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
	cancel()
	<-done
	if !strings.Contains(out.String(), "database included") {
		t.Fatalf("backup said: %s", out.String())
	}
	if st, err := os.Stat(archive); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("archive: %v, mode %v; want readable by its owner only (it holds the secret)", err, st.Mode())
	}

	restored := filepath.Join(t.TempDir(), "restored")
	out.Reset()
	if err := run(context.Background(), []string{"salaula", "admin", "restore", "--from", archive, "--data", restored}, envOf(env), &out, io.Discard); err != nil {
		t.Fatalf("restore: %v", err)
	}
	addr2, cancel2, done2, _ := startServe(t, env, "--data", restored)
	defer func() { cancel2(); <-done2 }()
	c2 := apiClient{base: "http://" + addr2}
	for _, a := range before {
		if code, _, err := c2.signIn(a.email, testPassword); err != nil || code != http.StatusOK {
			t.Errorf("restored server: sign-in of %s = %d, %v", a.email, code, err)
		}
		code, body, err := c2.call(http.MethodGet, "/storage/v1/object/public/user-media/"+a.photoPath, "", "", nil)
		if err != nil || code != http.StatusOK || !bytes.Equal(body, a.photo) {
			t.Errorf("restored server: photo %s = %d (%d bytes), %v", a.photoPath, code, len(body), err)
		}
	}
	t.Logf("%d sign-ups acknowledged before the backup, all restored", len(before))
}

func TestBackupAndRestoreRefuseBadInput(t *testing.T) {
	dataDir := t.TempDir()
	env := map[string]string{}
	notEmpty := t.TempDir()
	os.WriteFile(filepath.Join(notEmpty, "salaula.db"), []byte("keep me"), 0o600)
	junk := filepath.Join(t.TempDir(), "junk.tar.gz")
	os.WriteFile(junk, []byte("not an archive"), 0o600)
	exists := filepath.Join(t.TempDir(), "there.tar.gz")
	os.WriteFile(exists, []byte("an older backup"), 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"admin", "backup", "--data", dataDir}, "--out FILE is required"},
		{[]string{"admin", "backup", "--out", exists, "--data", dataDir}, "exists; choose a new file name"},
		{[]string{"admin", "restore", "--from", junk}, "--from FILE and --data DIR are both required"},
		{[]string{"admin", "restore", "--from", junk, "--data", notEmpty}, "is not empty"},
		{[]string{"admin", "restore", "--from", junk, "--data", filepath.Join(t.TempDir(), "new")}, "not a Salaula backup"},
		{[]string{"admin", "restore", "--from", filepath.Join(t.TempDir(), "missing.tar.gz"), "--data", filepath.Join(t.TempDir(), "new")}, "no such file"},
	} {
		err := run(context.Background(), append([]string{"salaula"}, c.args...), envOf(env), io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error saying %q", c.args, err, c.want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(notEmpty, "salaula.db")); string(b) != "keep me" {
		t.Error("restore changed a non-empty folder")
	}
	if b, _ := os.ReadFile(exists); string(b) != "an older backup" {
		t.Error("backup overwrote an existing file")
	}
}

func TestScheduledBackupsKeepTheNewest(t *testing.T) {
	dataDir := t.TempDir()
	env := map[string]string{"SALAULA_BACKUP_EVERY": "150ms", "SALAULA_BACKUP_KEEP": "2"}
	_, cancel, done, logs := startServe(t, env, "--data", dataDir)
	deadline := time.Now().Add(20 * time.Second)
	for strings.Count(logs.String(), `"msg":"backup written"`) < 4 {
		if time.Now().After(deadline) {
			t.Fatalf("fewer than 4 scheduled backups in 20s:\n%s", logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	<-done
	names, _ := filepath.Glob(filepath.Join(dataDir, "backups", "salaula-*.tar.gz"))
	if len(names) != 2 {
		t.Fatalf("DATA/backups holds %v, want the newest 2", names)
	}
	restored := filepath.Join(t.TempDir(), "r")
	if err := run(context.Background(), []string{"salaula", "admin", "restore", "--from", names[1], "--data", restored}, envOf(env), io.Discard, io.Discard); err != nil {
		t.Fatalf("restore a scheduled backup: %v", err)
	}
	if _, err := os.Stat(filepath.Join(restored, "salaula.db")); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []map[string]string{{"SALAULA_BACKUP_KEEP": "0"}, {"SALAULA_BACKUP_EVERY": "daily"}} {
		err := run(context.Background(), []string{"salaula", "serve", "--data", t.TempDir()}, envOf(bad), io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "SALAULA_BACKUP_") {
			t.Errorf("serve with %v: %v, want an error naming the setting", bad, err)
		}
	}
}

// A server started when its newest backup is older than the interval takes
// one at once, on PostgreSQL as on SQLite, copies it off-site to S3 when
// asked, and /metrics says when the last one was written and how many failed.
func TestBackupAtStartWhenTheLastIsOld(t *testing.T) {
	if testing.Short() {
		t.Skip("needs PostgreSQL, S3 or caddy: runs without -short")
	}
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			dataDir := t.TempDir()
			backups := filepath.Join(t.TempDir(), "elsewhere")
			os.MkdirAll(backups, 0o700)
			old := time.Now().Add(-2 * time.Hour)
			os.WriteFile(filepath.Join(backups, backup.FileName(old)), []byte("an old archive"), 0o600)
			off := mediatest.NewS3(t)
			env := engineEnv(t, engine)
			env["SALAULA_BACKUP_EVERY"] = "1h"
			env["SALAULA_BACKUP_DIR"] = backups
			env["SALAULA_BACKUP_S3_BUCKET"] = off.Bucket
			env["SALAULA_BACKUP_S3_ENDPOINT"] = off.Endpoint
			env["SALAULA_BACKUP_S3_ACCESS_KEY"] = off.AccessKey
			env["SALAULA_BACKUP_S3_SECRET_KEY"] = off.SecretKey
			metricsAddr := freeAddr(t)
			env["SALAULA_METRICS_HTTP"] = metricsAddr
			_, cancel, done, logs := startServe(t, env, "--data", dataDir)
			defer func() { cancel(); <-done }()
			for deadline := time.Now().Add(20 * time.Second); !strings.Contains(logs.String(), `"msg":"backup written"`); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("no backup at start within 20 s although the last is 2 h old:\n%s", logs.String())
				}
			}
			names, _ := filepath.Glob(filepath.Join(backups, "salaula-*.tar.gz"))
			if len(names) != 2 {
				t.Fatalf("backup folder holds %v, want the old archive and a new one", names)
			}
			if keys := mediatest.Keys(t, off); len(keys) != 1 || keys[0] != "backups/"+filepath.Base(names[1]) {
				t.Errorf("off-site bucket holds %v, want backups/%s", keys, filepath.Base(names[1]))
			}
			res, err := http.Get("http://" + metricsAddr + "/metrics")
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			var last float64
			for _, line := range strings.Split(string(b), "\n") {
				fmt.Sscanf(line, "salaula_backup_last_success_timestamp_seconds %g", &last)
			}
			if time.Since(time.Unix(int64(last), 0)) > time.Minute || !strings.Contains(string(b), "salaula_backup_failures_total 0") {
				t.Errorf("backup metrics: last success %v, want within the minute, and no failure:\n%s", last, b)
			}
		})
	}
}

// SALAULA_JWT_SECRET set over a data folder whose jwt-secret sealed the
// stored secrets must be that secret (else two-step sign-in and the
// signing keys would silently stop opening); set to it, the server starts
// and says that tokens of the stored ES256 keys stop working.
func TestJWTSecretSetLaterMustMatchTheSealingSecret(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	_, cancel, done, _ := startServe(t, map[string]string{}, "--data", dataDir)
	cancel()
	<-done
	secret, err := os.ReadFile(filepath.Join(dataDir, "jwt-secret"))
	if err != nil {
		t.Fatal(err)
	}
	err = run(context.Background(), []string{"salaula", "serve", "--http", freeAddr(t), "--data", dataDir},
		envOf(map[string]string{"SALAULA_JWT_SECRET": "another-secret-another-secret-0123456789"}), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "SALAULA_JWT_SECRET differs from") {
		t.Fatalf("serve with a different SALAULA_JWT_SECRET: %v, want it refused", err)
	}
	_, cancel, done, logs := startServe(t, map[string]string{"SALAULA_JWT_SECRET": strings.TrimSpace(string(secret))}, "--data", dataDir)
	cancel()
	<-done
	if !strings.Contains(logs.String(), "SALAULA_JWT_SECRET is set: access tokens are signed with it") {
		t.Fatalf("no word in the log about the tokens of the ES256 keys:\n%s", logs)
	}
}
