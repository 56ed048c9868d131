package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"salaula/internal/media/mediatest"
	"salaula/internal/store/storetest"
)

// The documented move: a SQLite deployment's backup restored into
// PostgreSQL and S3 serves every account, sign-up and photo; a backup of
// that restored into a new SQLite folder does too. Each restore reports every
// table's row count, and a second restore into the same database is refused.
func TestMoveSQLiteToPostgresAndS3AndBack(t *testing.T) {
	if testing.Short() {
		t.Skip("needs PostgreSQL, S3 or caddy: runs without -short")
	}
	t.Parallel()
	type account struct {
		email, path string
		photo       []byte
	}
	var accounts []account
	sqliteDir := t.TempDir()
	addr, cancel, done, _ := startServe(t, map[string]string{}, "--data", sqliteDir)
	c := apiClient{base: "http://" + addr}
	for i := range 3 {
		email := fmt.Sprintf("mover%d@example.com", i)
		code, s, err := c.signUp(email, testPassword)
		mustOK(t, "sign-up", http.StatusOK, code, nil, err)
		a := account{email, s.User.ID + "/photos/1.png", photo(t, i)}
		code, body, err := c.upload(s.AccessToken, a.path, a.photo)
		mustOK(t, "upload", http.StatusOK, code, body, err)
		accounts = append(accounts, a)
		post(t, addr, "/functions/v1/waitlist-signup", fmt.Sprintf(`{"email":"wait%d@example.com","programName":"Upcycling Initiative"}`, i))
	}
	cancel()
	<-done

	archive1 := filepath.Join(t.TempDir(), "sqlite.tar.gz")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"salaula", "admin", "backup", "--out", archive1, "--data", sqliteDir}, envOf(nil), &out, io.Discard); err != nil {
		t.Fatalf("backup of SQLite: %v", err)
	}
	if !strings.Contains(out.String(), "3 media file(s)") {
		t.Fatalf("backup said: %s", out.String())
	}

	s3 := mediatest.NewS3(t)
	pgEnv := map[string]string{"DATABASE_URL": storetest.NewPostgresDatabase(t), "SALAULA_S3_ENDPOINT": s3.Endpoint,
		"SALAULA_S3_BUCKET": s3.Bucket, "SALAULA_S3_ACCESS_KEY": s3.AccessKey, "SALAULA_S3_SECRET_KEY": s3.SecretKey}
	out.Reset()
	// In place: the data folder keeps the secret and is marked as moved.
	if err := run(context.Background(), []string{"salaula", "admin", "restore", "--from", archive1, "--data", sqliteDir}, envOf(pgEnv), &out, io.Discard); err != nil {
		t.Fatalf("restore into PostgreSQL and S3: %v", err)
	}
	for _, want := range []string{"restored into PostgreSQL", "users ", "waitlist_signups ", "3 media file(s) into S3 bucket " + s3.Bucket} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("restore into PostgreSQL said %q, want it to say %q", out.String(), want)
		}
	}
	if keys := mediatest.Keys(t, s3); len(keys) != 3 {
		t.Errorf("the bucket holds %v, want the 3 photos", keys)
	}
	err := run(context.Background(), []string{"salaula", "admin", "restore", "--from", archive1, "--data", t.TempDir()}, envOf(pgEnv), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "already holds tables") {
		t.Errorf("a second restore into the same database: %v, want it refused", err)
	}
	err = run(context.Background(), []string{"salaula", "admin", "export", "waitlist", "--data", sqliteDir}, envOf(nil), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "moved to PostgreSQL") {
		t.Errorf("admin export on the moved folder without DATABASE_URL: %v, want it refused", err)
	}
	// The service's env file, read by the admin commands too.
	envFile := filepath.Join(t.TempDir(), "salaula.env")
	os.WriteFile(envFile, []byte(fmt.Sprintf("SALAULA_DATA='%s'\nDATABASE_URL='%s'\nSALAULA_MAIL_FROM='Salaula <no-reply@salaula.co.zm>'\n",
		sqliteDir, pgEnv["DATABASE_URL"])), 0o600)
	if rows := exportRows(t, nil, "waitlist", "--env-file", envFile); len(rows) != 4 {
		t.Errorf("waitlist on PostgreSQL through the env file: %d rows, want a header and 3", len(rows))
	}

	check := func(name string, env map[string]string, dir string) {
		t.Helper()
		addr, cancel, done, _ := startServe(t, env, "--data", dir)
		defer func() { cancel(); <-done }()
		c := apiClient{base: "http://" + addr}
		for _, a := range accounts {
			code, _, err := c.signIn(a.email, testPassword)
			mustOK(t, name+": sign-in of "+a.email, http.StatusOK, code, nil, err)
			code, body, err := c.call(http.MethodGet, "/storage/v1/object/public/user-media/"+a.path, "", "", nil)
			if err != nil || code != http.StatusOK || !bytes.Equal(body, a.photo) {
				t.Errorf("%s: photo %s = %d (%d bytes), %v; want the uploaded %d bytes", name, a.path, code, len(body), err, len(a.photo))
			}
		}
	}
	check("PostgreSQL and S3", pgEnv, sqliteDir)

	archive2 := filepath.Join(t.TempDir(), "postgres.tar.gz")
	if err := run(context.Background(), []string{"salaula", "admin", "backup", "--out", archive2, "--data", sqliteDir}, envOf(pgEnv), io.Discard, io.Discard); err != nil {
		t.Fatalf("backup of PostgreSQL and S3: %v", err)
	}
	back := filepath.Join(t.TempDir(), "back")
	out.Reset()
	if err := run(context.Background(), []string{"salaula", "admin", "restore", "--from", archive2, "--data", back}, envOf(nil), &out, io.Discard); err != nil {
		t.Fatalf("restore into SQLite: %v", err)
	}
	if !strings.Contains(out.String(), "3 media file(s) into "+filepath.Join(back, "media")) {
		t.Errorf("restore into SQLite said %q", out.String())
	}
	check("SQLite again", map[string]string{}, back)
	if rows := exportRows(t, map[string]string{}, "waitlist", "--data", back); len(rows) != 4 || !slices.ContainsFunc(rows, func(r []string) bool { return r[1] == "wait2@example.com" }) {
		t.Errorf("waitlist back on SQLite: %q", rows)
	}
}
