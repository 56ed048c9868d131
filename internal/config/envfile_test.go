package config

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The documented env file reads the same in Salaula as in sh (and so
// systemd, which takes the same quotes); what sh would read otherwise is
// refused with the line and the fix.
func TestEnvFileReadsAsShDoes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "salaula.env")
	os.WriteFile(good, []byte(`# Salaula
SALAULA_DATA=/var/lib/salaula
SALAULA_MAIL_FROM='Salaula <no-reply@salaula.co.zm>'
export SALAULA_PUBLIC_URL="https://salaula.co.zm"
DATABASE_URL='postgres://salaula:p%40ss@127.0.0.1:5432/salaula?sslmode=disable'
SALAULA_SUPPORT_EMAIL="help \"desk\" <help@salaula.co.zm>"
`), 0o600)
	got, err := ReadEnvFile(good)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("sh", "-c", `set -a; . "$0"; for k in SALAULA_DATA SALAULA_MAIL_FROM SALAULA_PUBLIC_URL DATABASE_URL SALAULA_SUPPORT_EMAIL; do printf '%s=%s\n' "$k" "$(printenv $k)"; done`, good).Output()
	if err != nil {
		t.Fatalf("sh cannot source the file: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		if got[k] != v {
			t.Errorf("%s: salaula reads %q, sh reads %q", k, got[k], v)
		}
	}
	for _, bad := range []struct{ line, want string }{
		{"SALAULA_MAIL_FROM=Salaula <no-reply@salaula.co.zm>", "quote the value"},
		{"SALAULA_MAIL_FROM='unclosed", "closing '"},
		{`X="a $HOME"`, "expand"},
		{"not a setting", "want KEY=VALUE"},
	} {
		p := filepath.Join(dir, "bad.env")
		os.WriteFile(p, []byte(bad.line+"\n"), 0o600)
		if _, err := ReadEnvFile(p); err == nil || !strings.Contains(err.Error(), bad.want) || !strings.Contains(err.Error(), ":1:") {
			t.Errorf("%q: %v, want an error at line 1 saying %q", bad.line, err, bad.want)
		}
	}
	args, getenv, err := WithEnvFile([]string{"waitlist", "--env-file", good, "--program", "x"}, func(k string) string {
		if k == "SALAULA_DATA" {
			return "/from/the/environment"
		}
		return ""
	})
	if err != nil || strings.Join(args, " ") != "waitlist --program x" || getenv("SALAULA_DATA") != "/from/the/environment" ||
		getenv("SALAULA_MAIL_FROM") != "Salaula <no-reply@salaula.co.zm>" {
		t.Fatalf("WithEnvFile: %v %v", args, err)
	}
}
