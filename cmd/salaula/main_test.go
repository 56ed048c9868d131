package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"salaula/internal/mail"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// bigAsset is large enough that the server is still writing it when the
// shutdown starts.
var bigAsset = func() []byte {
	b := make([]byte, 8<<20)
	rand.Read(b)
	return b
}()

func init() {
	appFS = func() fs.FS {
		return fstest.MapFS{
			"index.html":     {Data: []byte(`<!doctype html><div id="root"></div>`)},
			"assets/big.bin": {Data: bigAsset},
		}
	}
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// startServe runs `salaula serve` in the background and waits for /healthz.
func startServe(t *testing.T, env map[string]string, args ...string) (addr string, cancel context.CancelFunc, done chan error, stdout *syncBuffer) {
	t.Helper()
	addr = freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done = make(chan error, 1)
	stdout = &syncBuffer{}
	go func() {
		done <- run(ctx, append([]string{"salaula", "serve", "--http", addr}, args...), envOf(env), stdout, io.Discard)
	}()
	deadline := time.Now().Add(15 * time.Second)
	for {
		res, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return
			}
		}
		select {
		case err := <-done:
			t.Fatalf("serve stopped early: %v\n%s", err, stdout.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not become healthy:\n%s", stdout.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestServeCreatesItsSecretAndShutsDownGracefully(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			dataDir, env := t.TempDir(), engineEnv(t, engine)
			procs := runtime.GOMAXPROCS(0)
			addr, cancel, done, stdout := startServe(t, env, "--data", dataDir)
			defer cancel()
			// The server runs as many goroutines at once as Go chose.
			if got := runtime.GOMAXPROCS(0); got != procs {
				t.Fatalf("serving with %d processors, want Go's %d", got, procs)
			}
			// Each log line is written out as it is logged: the server
			// answers only after it said it is serving.
			if !strings.Contains(stdout.String(), `"msg":"serving"`) {
				t.Fatalf("healthy, but no serving log line yet:\n%s", stdout.String())
			}

			st, err := os.Stat(filepath.Join(dataDir, "jwt-secret"))
			if err != nil {
				t.Fatalf("secret not created: %v", err)
			}
			if st.Mode().Perm() != 0o600 {
				t.Fatalf("secret mode = %v, want 0600", st.Mode().Perm())
			}

			// Start a large download, read a little, then ask the server to stop.
			res, err := http.Get("http://" + addr + "/assets/big.bin")
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			head := make([]byte, 1024)
			if _, err := io.ReadFull(res.Body, head); err != nil {
				t.Fatal(err)
			}
			cancel()
			// New connections are refused while the download goes on.
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				c, err := net.DialTimeout("tcp", addr, time.Second)
				if err != nil {
					break
				}
				c.Close()
				if time.Now().After(deadline) {
					t.Fatal("server still accepts connections 10 s after the stop signal")
				}
			}
			rest, err := io.ReadAll(res.Body)
			if err != nil {
				t.Fatalf("in-flight download cut off: %v", err)
			}
			if !bytes.Equal(append(head, rest...), bigAsset) {
				t.Fatalf("in-flight download got %d bytes, want %d", len(head)+len(rest), len(bigAsset))
			}
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("serve returned %v, want nil (exit 0)", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("serve did not return after shutdown")
			}
			if !strings.Contains(stdout.String(), `"msg":"stopped"`) {
				t.Fatalf("no stopped log line:\n%s", stdout.String())
			}
		})
	}
}

func TestServeUsesTheGivenSecretAndEnvironment(t *testing.T) {
	dataDir := t.TempDir()
	_, cancel, done, _ := startServe(t, map[string]string{
		"SALAULA_JWT_SECRET": strings.Repeat("k", 40),
		"SALAULA_DATA":       dataDir,
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dataDir, "jwt-secret")); !os.IsNotExist(err) {
		t.Fatalf("secret file written although SALAULA_JWT_SECRET was given: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dataDir, "salaula.db")); err != nil {
		t.Fatalf("SALAULA_DATA not used: %v", err)
	}
}

func TestBadCommandLinesFailClearly(t *testing.T) {
	cases := map[string]struct {
		args []string
		env  map[string]string
		want string
	}{
		"no command":                  {[]string{"salaula"}, nil, "missing command"},
		"unknown command":             {[]string{"salaula", "fly"}, nil, `unknown command "fly"`},
		"bad flag":                    {[]string{"salaula", "serve", "--nope"}, nil, "flag provided but not defined"},
		"short secret":                {[]string{"salaula", "serve", "--data", "DATA"}, map[string]string{"SALAULA_JWT_SECRET": "short"}, "at least 32"},
		"bad rate":                    {[]string{"salaula", "serve"}, map[string]string{"SALAULA_RATE_AUTH": "lots"}, "SALAULA_RATE_AUTH"},
		"bad database":                {[]string{"salaula", "migrate", "--data", "DATA"}, map[string]string{"DATABASE_URL": "postgres://nobody@127.0.0.1:1/none?connect_timeout=2"}, "connect to postgres"},
		"admin no email":              {[]string{"salaula", "admin", "grant"}, nil, "missing EMAIL"},
		"short metrics token":         {[]string{"salaula", "serve", "--data", "DATA"}, map[string]string{"SALAULA_METRICS_TOKEN": "secret"}, "SALAULA_METRICS_TOKEN must be at least 16"},
		"metrics on the main address": {[]string{"salaula", "serve", "--data", "DATA", "--http", "127.0.0.1:18999"}, map[string]string{"SALAULA_METRICS_HTTP": "127.0.0.1:18999"}, "must differ"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for i, a := range tc.args {
				if a == "DATA" {
					tc.args[i] = dir
				}
			}
			err := run(context.Background(), tc.args, envOf(tc.env), io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestMigrateAppliesOnceAndGrantMakesAnOperator(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			dataDir, env := t.TempDir(), engineEnv(t, engine)
			var out bytes.Buffer
			if err := run(context.Background(), []string{"salaula", "migrate", "--data", dataDir}, envOf(env), &out, io.Discard); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "0001_accounts.sql") {
				t.Fatalf("first migrate output: %s", out.String())
			}
			out.Reset()
			if err := run(context.Background(), []string{"salaula", "migrate", "--data", dataDir}, envOf(env), &out, io.Discard); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(out.String(), "0 migration(s) applied") {
				t.Fatalf("second migrate output: %s", out.String())
			}
			err := run(context.Background(), []string{"salaula", "admin", "grant", "nobody@example.com", "--data", dataDir}, envOf(env), &out, io.Discard)
			if err == nil || !strings.Contains(err.Error(), "no account") {
				t.Fatalf("grant to a missing account: err = %v", err)
			}
		})
	}
}

// syncBuffer is a bytes.Buffer safe for the server goroutine and the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// engineEnv is the environment that points the binary at a fresh database of engine.
func engineEnv(t *testing.T, engine store.Dialect) map[string]string {
	env := map[string]string{}
	if engine == store.Postgres {
		env["DATABASE_URL"] = storetest.NewPostgresDatabase(t)
	}
	return env
}

// openMigrated opens and migrates the database of env and dataDir for the
// test, closed when the test ends.
func openMigrated(t *testing.T, env map[string]string, dataDir string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), env["DATABASE_URL"], dataDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}

func TestAdminMailShowsTheNewestMailsToAnAddress(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			ctx := context.Background()
			dataDir, env := t.TempDir(), engineEnv(t, engine)
			db := openMigrated(t, env, dataDir)
			// Queued by an instance with SMTP set (never reached here), then
			// delivered by one without, which writes them to the log.
			queuer, err := mail.New(db, "Salaula <no-reply@salaula.co.zm>", "smtp://127.0.0.1:1", slog.New(slog.NewTextHandler(io.Discard, nil)))
			if err != nil {
				t.Fatal(err)
			}
			outbox, err := mail.New(db, "Salaula <no-reply@salaula.co.zm>", "", slog.New(slog.NewTextHandler(io.Discard, nil)))
			if err != nil {
				t.Fatal(err)
			}
			for _, subject := range []string{"First", "Reset your Salaula password"} {
				if err := queuer.Send(ctx, mail.Message{To: "chanda@example.com", Subject: subject, Body: "Open http://localhost:8080/reset_password?token_hash=abc&type=recovery\n", Kind: "recovery"}); err != nil {
					t.Fatal(err)
				}
				time.Sleep(2 * time.Millisecond)
			}
			var out bytes.Buffer
			args := []string{"salaula", "admin", "mail", "--to", " Chanda@Example.com ", "--limit", "1", "--data", dataDir}
			if err := run(ctx, args, envOf(env), &out, io.Discard); err != nil {
				t.Fatal(err)
			}
			got := out.String()
			if !strings.Contains(got, "Subject: Reset your Salaula password") || strings.Contains(got, "Subject: First") ||
				!strings.Contains(got, "/reset_password?token_hash=abc&type=recovery") {
				t.Fatalf("admin mail printed:\n%s", got)
			}
			if !strings.Contains(got, "State: queued\n") {
				t.Fatalf("admin mail does not say the e-mail is queued:\n%s", got)
			}
			// Once the sender has delivered it (to the log here), it says so.
			if n, err := outbox.DeliverDue(ctx); n != 2 || err != nil {
				t.Fatalf("delivered %d, %v", n, err)
			}
			out.Reset()
			if err := run(ctx, args, envOf(env), &out, io.Discard); err != nil {
				t.Fatal(err)
			}
			if !regexp.MustCompile(`State: sent \d{4}-\d\d-\d\dT\S+Z via log\n`).MatchString(out.String()) {
				t.Fatalf("admin mail after delivery:\n%s", out.String())
			}
			for _, bad := range [][]string{{"--limit", "1"}, {"--to", "a@b.co", "--limit", "0"}, {"--to", "a@b.co", "--nope"}} {
				err := run(ctx, append([]string{"salaula", "admin", "mail", "--data", dataDir}, bad...), envOf(env), io.Discard, io.Discard)
				if err == nil {
					t.Errorf("admin mail %v: no error", bad)
				}
			}
		})
	}
}
