package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"salaula/internal/media/mediatest"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
	"salaula/internal/testproc"
)

// startProcess runs `salaula serve` as its own process (this test binary
// acting as the command, see TestMain) with env and the data folder
// dataDir, and waits until it listens (it migrates before listening).
func startProcess(t *testing.T, env map[string]string, dataDir string) (*testproc.Proc, error) {
	port, err := testproc.FreePort()
	if err != nil {
		return nil, err
	}
	addr := testproc.Addr127(port)
	cmd, err := commandProcess(env, "serve", "--http", addr, "--data", dataDir)
	if err != nil {
		return nil, err
	}
	return testproc.Start(cmd, addr, filepath.Join(t.TempDir(), "serve.log"))
}

// commandProcess is `salaula ARGS...` to run as its own process (this test
// binary acting as the command) with env alone.
func commandProcess(env map[string]string, args ...string) (*exec.Cmd, error) {
	bin, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "SALAULA_TEST_AS_MAIN=1"}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	return cmd, nil
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
		go func() { defer wg.Done(); procs[i], errs[i] = startProcess(t, env, t.TempDir()) }()
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

// A key rotation and a revocation by `salaula admin keys` reach every
// instance within seconds: two instances on one PostgreSQL (one on SQLite,
// where the command writes the database file the server reads) sign with
// the new key and refuse the revoked key's tokens with 401 before a
// deadline of a few seconds. Sessions outlive the revocation of the key
// that signed their access token: a refresh answers a token of the new key.
func TestKeyRotationAndRevocationReachEveryInstanceWithinSeconds(t *testing.T) {
	const within = 3 * time.Second
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			env := engineEnv(t, engine)
			env["SALAULA_PUBLIC_URL"] = "https://salaula.example"
			dirs := []string{t.TempDir()}
			if engine == store.Postgres {
				dirs = append(dirs, t.TempDir())
			}
			var clients []apiClient
			for _, dir := range dirs {
				// One server secret for every instance: the stored keys are sealed with it.
				if err := os.WriteFile(filepath.Join(dir, "jwt-secret"), []byte(strings.Repeat("5a1a07a", 8)), 0o600); err != nil {
					t.Fatal(err)
				}
				p, err := startProcess(t, env, dir)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(p.Stop)
				clients = append(clients, apiClient{base: "http://" + p.Addr})
			}
			keys := func(args ...string) string {
				t.Helper()
				cmd, err := commandProcess(env, append(append([]string{"admin", "keys"}, args...), "--data", dirs[0])...)
				if err != nil {
					t.Fatal(err)
				}
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("admin keys %v: %v\n%s", args, err, out)
				}
				return string(out)
			}
			newKid := func(out string) string {
				t.Helper()
				m := regexp.MustCompile(`new signing key ([0-9a-f]+)`).FindStringSubmatch(out)
				if m == nil {
					t.Fatalf("no new signing key in %q", out)
				}
				return m[1]
			}
			profile := func(c apiClient, tok string) int {
				code, _, err := c.call(http.MethodPost, "/functions/v1/get-profile-me", tok, "application/json", []byte("{}"))
				if err != nil {
					t.Fatal(err)
				}
				return code
			}
			signer := func(c apiClient) string { // the kid of the anon key /config.json hands out
				code, body, err := c.call(http.MethodGet, "/config.json", "", "", nil)
				var cfg struct{ AnonKey string }
				if err != nil || code != http.StatusOK || json.Unmarshal(body, &cfg) != nil {
					t.Fatalf("config.json: %d %s %v", code, body, err)
				}
				return kidOf(t, cfg.AnonKey)
			}
			// eventually polls every instance until ok holds on it, and fails
			// when that takes longer than within after start.
			eventually := func(what string, start time.Time, ok func(c apiClient) bool) {
				t.Helper()
				for i, c := range clients {
					for !ok(c) {
						if time.Since(start) > within {
							t.Fatalf("instance %c: %s not within %s", 'A'+i, what, within)
						}
						time.Sleep(20 * time.Millisecond)
					}
				}
				t.Logf("%s on %d instance(s) after %s", what, len(clients), time.Since(start).Round(time.Millisecond))
			}

			// works checks that tok is signed with kid and answers 200 on every instance.
			works := func(what, tok, kid string) {
				t.Helper()
				if got := kidOf(t, tok); got != kid {
					t.Fatalf("%s: signed with %s, want %s", what, got, kid)
				}
				for i, c := range clients {
					if code := profile(c, tok); code != http.StatusOK {
						t.Fatalf("%s: instance %c answered %d, want 200", what, 'A'+i, code)
					}
				}
			}

			code, s1, err := clients[0].signUp("keys@example.com", testPassword)
			mustOK(t, "sign-up", http.StatusOK, code, nil, err)
			k1 := kidOf(t, s1.AccessToken)
			works("the first token", s1.AccessToken, k1)

			// A rotation: every instance signs with the new key.
			out := keys("rotate")
			start := time.Now()
			k2 := newKid(out)
			eventually("the rotated key signs", start, func(c apiClient) bool { return signer(c) == k2 })
			code, s2, err := clients[len(clients)-1].signIn("keys@example.com", testPassword)
			mustOK(t, "sign-in after the rotation", http.StatusOK, code, nil, err)
			works("sign-in after the rotation", s2.AccessToken, k2)
			works("a token of the retired key (it verifies until it expires)", s1.AccessToken, k1)
			if list := keys("list"); !strings.Contains(list, k2+"  ES256  made ") || !strings.Contains(list, "signs") || !strings.Contains(list, "retired, verifies until") {
				t.Fatalf("keys list after the rotation:\n%s", list)
			}

			// Revoking the retired key: its tokens are refused everywhere.
			out = keys("revoke", k1)
			start = time.Now()
			if strings.Contains(out, "new signing key") {
				t.Fatalf("revoking a retired key made a new key: %s", out)
			}
			eventually("a token of the revoked key answers 401", start, func(c apiClient) bool { return profile(c, s1.AccessToken) == http.StatusUnauthorized })
			works("a token of the signing key after another key was revoked", s2.AccessToken, k2)

			// Revoking the signing key: a new key replaces it at once.
			out = keys("revoke", k2)
			start = time.Now()
			k3 := newKid(out)
			eventually("the revoked signing key's token answers 401 and its replacement signs", start, func(c apiClient) bool {
				return profile(c, s2.AccessToken) == http.StatusUnauthorized && signer(c) == k3
			})
			code, s3, err := clients[0].refresh(s2.RefreshToken)
			mustOK(t, "refresh after the revocation", http.StatusOK, code, nil, err)
			works("refresh after the revocation", s3.AccessToken, k3)
		})
	}
}

// kidOf returns the kid in a JWT's header.
func kidOf(t *testing.T, tok string) string {
	t.Helper()
	head, _, _ := strings.Cut(tok, ".")
	raw, err := base64.RawURLEncoding.DecodeString(head)
	var h struct{ Kid string }
	if err != nil || json.Unmarshal(raw, &h) != nil || h.Kid == "" {
		t.Fatalf("no kid in the header of %q", tok)
	}
	return h.Kid
}
