package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"salaula/internal/media/mediatest"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
	"salaula/internal/testproc"
)

// startProcess runs `salaula serve` as its own process (this test binary
// acting as the command, see TestMain) with env and waits until it listens
// (it migrates before listening).
func startProcess(t *testing.T, env map[string]string) (*testproc.Proc, error) {
	bin, err := os.Executable()
	if err != nil {
		return nil, err
	}
	port, err := testproc.FreePort()
	if err != nil {
		return nil, err
	}
	addr := testproc.Addr127(port)
	cmd := exec.Command(bin, "serve", "--http", addr, "--data", t.TempDir())
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "SALAULA_TEST_AS_MAIN=1"}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	return testproc.Start(cmd, addr, filepath.Join(t.TempDir(), "serve.log"))
}

// Two `salaula serve` processes on one PostgreSQL database and one S3 bucket
// with one signing secret act as one service.
func TestTwoInstancesShareOnePostgreSQLAndOneBucket(t *testing.T) {
	dbURL := storetest.NewPostgresDatabase(t) // empty: both instances migrate it at once
	s3 := mediatest.NewS3(t)
	env := map[string]string{
		"DATABASE_URL": dbURL, "SALAULA_JWT_SECRET": "one-secret-shared-by-every-instance-0123456789",
		"SALAULA_S3_BUCKET": s3.Bucket, "SALAULA_S3_ENDPOINT": s3.Endpoint, "SALAULA_S3_ACCESS_KEY": s3.AccessKey,
		"SALAULA_S3_SECRET_KEY": s3.SecretKey, "SALAULA_REFRESH_REUSE_INTERVAL": "0s",
		"SALAULA_TRUST_PROXY": "true", "SALAULA_RATE_AUTH": "4/5m",
		// One public address (the load balancer's): tokens name it as their issuer.
		"SALAULA_PUBLIC_URL": "https://salaula.example",
	}
	var procs [2]*testproc.Proc
	var errs [2]error
	var wg sync.WaitGroup
	for i := range procs {
		wg.Add(1)
		go func() { defer wg.Done(); procs[i], errs[i] = startProcess(t, env) }()
	}
	wg.Wait()
	for i, p := range procs {
		if errs[i] != nil {
			t.Fatalf("instance %c: %v", 'A'+i, errs[i])
		}
		t.Cleanup(p.Stop)
	}
	a, b := apiClient{base: "http://" + procs[0].Addr}, apiClient{base: "http://" + procs[1].Addr}

	// Both migrated at once: every migration is recorded exactly once.
	db, err := store.Open(context.Background(), dbURL, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var recorded, distinct int
	if err := db.QueryRow(context.Background(), `SELECT COUNT(*), COUNT(DISTINCT version_id) FROM goose_db_version WHERE version_id > 0`).Scan(&recorded, &distinct); err != nil {
		t.Fatal(err)
	}
	if list, _ := store.Migrations(); recorded != len(list) || distinct != len(list) {
		t.Fatalf("goose_db_version holds %d rows (%d versions), want each of %d migrations once", recorded, distinct, len(list))
	}

	// A session made on A works on B.
	code, s1, err := a.signUp("chipo@example.com", testPassword)
	mustOK(t, "sign-up on A", http.StatusOK, code, nil, err)
	code, body, err := b.call(http.MethodGet, "/auth/v1/user", s1.AccessToken, "", nil)
	mustOK(t, "user on B with A's token", http.StatusOK, code, body, err)
	if !strings.Contains(string(body), `"chipo@example.com"`) {
		t.Fatalf("B answered %s", body)
	}

	// A photo uploaded on A is served by B.
	p := photo(t, 42)
	code, body, err = a.upload(s1.AccessToken, s1.User.ID+"/photos/me.png", p)
	mustOK(t, "upload on A", http.StatusOK, code, body, err)
	code, body, err = b.call(http.MethodGet, "/storage/v1/object/public/user-media/"+s1.User.ID+"/photos/me.png", "", "", nil)
	if err != nil || code != http.StatusOK || !bytes.Equal(body, p) {
		t.Fatalf("photo from B: %d, %d bytes, %v", code, len(body), err)
	}

	// Signing out on B stops the token on A at once.
	code, body, err = b.call(http.MethodPost, "/auth/v1/logout?scope=local", s1.AccessToken, "", nil)
	mustOK(t, "sign-out on B", http.StatusNoContent, code, body, err)
	code, body, err = a.call(http.MethodGet, "/auth/v1/user", s1.AccessToken, "", nil)
	if err != nil || code != http.StatusForbidden || !strings.Contains(string(body), "session_not_found") {
		t.Fatalf("A after sign-out on B: %d %s %v, want 403 session_not_found", code, body, err)
	}

	// A refresh token rotated on A and reused on B revokes the session.
	code, s2, err := a.signIn("chipo@example.com", testPassword)
	mustOK(t, "sign-in on A", http.StatusOK, code, nil, err)
	code, s3tok, err := a.refresh(s2.RefreshToken)
	mustOK(t, "refresh on A", http.StatusOK, code, nil, err)
	code, _, err = b.refresh(s2.RefreshToken)
	if err != nil || code != http.StatusBadRequest {
		t.Fatalf("reuse on B: %d %v, want 400 refresh_token_already_used", code, err)
	}
	if code, _, _ := a.refresh(s3tok.RefreshToken); code != http.StatusBadRequest {
		t.Fatalf("the successor on A still refreshes (%d) after reuse was caught on B", code)
	}
	if code, _, _ := a.call(http.MethodGet, "/auth/v1/user", s3tok.AccessToken, "", nil); code != http.StatusForbidden {
		t.Fatalf("the revoked session's access token answered %d on A", code)
	}

	// The sign-in limit is counted once across both instances.
	var codes []int
	for i := range 6 {
		c := []apiClient{a, b}[i%2]
		req, _ := http.NewRequest(http.MethodPost, c.base+"/auth/v1/token?grant_type=password",
			strings.NewReader(`{"email":"chipo@example.com","password":"wrong-password-1"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", "203.0.113.9")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		codes = append(codes, res.StatusCode)
	}
	if want := "[400 400 400 400 429 429]"; fmt.Sprint(codes) != want {
		t.Fatalf("sign-ins from one client over A and B answered %v, want %s (4 per 5 minutes in all)", codes, want)
	}
}
