package config

import (
	"io"
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

// The env file docs/deploy.md shows is one Salaula, sh and systemd read alike.
func TestDeployDocsEnvFileReads(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "deploy.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "### The service user and the env file")
	_, block, ok2 := strings.Cut(rest, "```sh\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 || !strings.Contains(block, "SALAULA_MAIL_FROM=") {
		t.Fatal("docs/deploy.md no longer shows the env file under \"The service user and the env file\"")
	}
	p := filepath.Join(t.TempDir(), "salaula.env")
	os.WriteFile(p, []byte(block), 0o600)
	got, err := ReadEnvFile(p)
	if err != nil {
		t.Fatalf("the documented env file: %v", err)
	}
	out, err := exec.Command("sh", "-c", `set -a; . "$0"; env`, p).Output()
	if err != nil {
		t.Fatalf("sh cannot source the documented env file: %v", err)
	}
	for k, v := range got {
		if !strings.Contains(string(out), "\n"+k+"="+v+"\n") {
			t.Errorf("%s: salaula reads %q, sh reads otherwise", k, v)
		}
	}
	if _, err := Parse("serve", nil, func(k string) string { return got[k] }, io.Discard); err != nil {
		t.Errorf("serve refuses the documented env file: %v", err)
	}
}
