package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"salaula/internal/testproc"
)

// The guide's own commands, taken from docs/deploy.md and run as written
// with their paths moved under a temporary root: the env file, the backup
// folder, a backup taken by the service user while the server runs, the
// restore drill (a folder made by root for the service user, the restore
// into it as that user, the move into place) and a start on the restored
// folder, where the service user reads its secret and an account made
// before the backup signs in. Run as root, the service user is nobody;
// run as anyone else, it is that user and "sudo -u salaula" falls away.
func TestGuideBackupAndRestoreDrillWorkAsTheServiceUser(t *testing.T) {
	testproc.SkipShort(t, "the guide's commands with processes of their own")
	root, err := testproc.Root()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "docs", "deploy.md"))
	if err != nil {
		t.Fatal(err)
	}
	guide := string(b)
	envBlock := guideBlock(t, guide, "SALAULA_DATA=/var/lib/salaula")
	backupDir := guideCode(t, guide, "install -d -o salaula -g salaula -m 0700 /var/backups/salaula")
	backupCmd := guideCode(t, guide, "sudo -u salaula salaula admin backup --env-file /etc/salaula/salaula.env --out FILE")
	drill := guideBlock(t, guide, "admin restore")
	moveIntoPlace := guideCode(t, guide, "mv /var/lib/salaula /var/lib/salaula.old;")

	// The machine: / is a folder of the test's, readable by everyone as
	// the real one is; the service user cannot create folders in var/lib.
	base, err := os.MkdirTemp("", "salaula-guide-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	for _, d := range []string{"", "etc/salaula", "var/lib", "var/backups", "usr/local/bin"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
		os.Chmod(filepath.Join(base, d), 0o755)
	}
	self, err := os.Executable() // the test binary is salaula with SALAULA_TEST_AS_MAIN=1
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "usr/local/bin/salaula")
	copyFile(t, self, bin, 0o755)

	svc := serviceUser(t)
	// What the guide writes, as this machine runs it.
	var runAs, owner string
	if svc.root {
		runAs = fmt.Sprintf("setpriv --reuid=%s --regid=%s --clear-groups ", svc.uid, svc.gid)
		owner = fmt.Sprintf("-o %s -g %s", svc.uid, svc.gid)
	}
	archive := filepath.Join(base, "var/backups/salaula/by-hand.tar.gz")
	local := strings.NewReplacer(
		"sudo -u salaula salaula ", runAs+bin+" ",
		"-o salaula -g salaula", owner,
		"/etc/salaula/", base+"/etc/salaula/",
		"/var/lib/", base+"/var/lib/",
		"/var/backups/", base+"/var/backups/",
		" FILE", " "+archive,
	)
	run := func(what, commands string) string {
		t.Helper()
		script := local.Replace(commands)
		cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "SALAULA_TEST_AS_MAIN=1"}
		cmd.Dir = base
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the guide's %s failed (%v):\n%s\n%s", what, err, script, out)
		}
		return string(out)
	}

	// The env file as the guide shows it, on this machine's addresses, no
	// mail server (sign-ups then need no confirmation), kept as the guide
	// says: root's, readable by the service's group.
	port, err := testproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := testproc.Addr127(port)
	env := regexp.MustCompile(`(?m)^(SALAULA_HTTP|SALAULA_METRICS_HTTP|SALAULA_SMTP_URL|SALAULA_PUBLIC_URL)=.*$`).ReplaceAllString(local.Replace(envBlock), "")
	env += "SALAULA_HTTP=" + addr + "\nSALAULA_PUBLIC_URL=http://" + addr + "\n"
	envFile := filepath.Join(base, "etc/salaula/salaula.env")
	if err := os.WriteFile(envFile, []byte(env), 0o640); err != nil {
		t.Fatal(err)
	}
	if svc.root {
		run("env file's owner", "chown root:"+svc.gid+" /etc/salaula/salaula.env") // chown root:salaula
	}
	// systemd's StateDirectory=salaula: the data folder, the service's.
	run("data folder", "install -d "+owner+" -m 0700 /var/lib/salaula")
	run("backup folder", backupDir)

	// ExecStart with EnvironmentFile: the server, as the service user.
	serve := func(logName string) *testproc.Proc {
		t.Helper()
		cmd := exec.Command("bash", "-c", "exec "+local.Replace("sudo -u salaula salaula serve --env-file /etc/salaula/salaula.env"))
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "SALAULA_TEST_AS_MAIN=1"}
		p, err := testproc.Start(cmd, addr, filepath.Join(base, logName))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	c := apiClient{base: "http://" + addr}
	p := serve("serve.log")
	code, _, err := c.signUp("mutale@example.com", testPassword)
	if err != nil || code != http.StatusOK {
		p.Stop()
		t.Fatalf("sign-up before the backup: %d %v", code, err)
	}
	run("backup while the server runs", backupCmd)
	p.Stop() // systemctl stop salaula

	out := run("restore drill", drill)
	if !strings.Contains(out, "users") {
		t.Errorf("the restore did not print its tables' row counts:\n%s", out)
	}
	restored := filepath.Join(base, "var/lib/salaula-restored")
	filepath.Walk(restored, func(path string, info os.FileInfo, err error) error {
		if err == nil && svc.root && fileOwner(info) != svc.uid {
			t.Errorf("%s belongs to uid %s, not the service user's %s", path, fileOwner(info), svc.uid)
		}
		return nil
	})
	run("move into place", strings.ReplaceAll(moveIntoPlace, "\n", " "))

	p = serve("serve-restored.log")
	defer p.Stop()
	code, s, err := c.signIn("mutale@example.com", testPassword)
	if err != nil || code != http.StatusOK || s.AccessToken == "" {
		log, _ := os.ReadFile(filepath.Join(base, "serve-restored.log"))
		t.Fatalf("signing in on the restored folder: %d %v\n%s", code, err, log)
	}
}

// guideBlock returns the fenced code block of the guide that holds marker.
func guideBlock(t *testing.T, guide, marker string) string {
	t.Helper()
	for _, part := range strings.Split(guide, "```")[1:] {
		if strings.Contains(part, marker) {
			_, body, _ := strings.Cut(part, "\n") // after the block's language
			return body
		}
	}
	t.Fatalf("docs/deploy.md has no code block with %q", marker)
	return ""
}

// guideCode returns the inline code span of the guide that starts with
// prefix (it may run over a line break).
func guideCode(t *testing.T, guide, prefix string) string {
	t.Helper()
	m := regexp.MustCompile("`(" + regexp.QuoteMeta(prefix) + "[^`]*)`").FindStringSubmatch(guide)
	if m == nil {
		t.Fatalf("docs/deploy.md no longer says `%s...`", prefix)
	}
	return m[1]
}

// svcUser is who the guide's service user is on this machine.
type svcUser struct {
	uid, gid string
	root     bool // the test runs as root: the service user is nobody
}

func serviceUser(t *testing.T) svcUser {
	t.Helper()
	if os.Geteuid() != 0 {
		return svcUser{uid: fmt.Sprint(os.Geteuid()), gid: fmt.Sprint(os.Getegid())}
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Fatalf("running as root, the test plays the service user as nobody: %v", err)
	}
	return svcUser{uid: u.Uid, gid: u.Gid, root: true}
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}

// fileOwner is the uid owning a file.
func fileOwner(info os.FileInfo) string {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprint(st.Uid)
	}
	return "?"
}
