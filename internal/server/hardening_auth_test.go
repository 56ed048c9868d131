package server

import (
	"io"
	"strings"
	"testing"
	"time"
)

// The attack review's e-mail bombing: asking for reset links to one address
// again and again sends one e-mail, while every answer stays 200 {}.
func TestRecoverSendsAtMostOneEmailAMinutePerAddress(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		env.signUp(t, "bomb@example.com", goodPassword)
		for i := range 4 {
			res := env.authJSON(t, "POST", "/auth/v1/recover", map[string]any{"email": "Bomb@example.com"}, "")
			wantStatus(t, res, 200)
			if b, _ := io.ReadAll(res.Body); strings.TrimSpace(string(b)) != "{}" {
				t.Fatalf("answer %d = %s, want {} as usual", i+1, b)
			}
		}
		waitMail(t, env, "bomb@example.com", "recovery")
		time.Sleep(300 * time.Millisecond) // the sends run after the answers
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM outbox_emails WHERE to_address = ? AND kind = 'recovery'`, "bomb@example.com"); n != 1 {
			t.Fatalf("%d reset e-mails went to one address within a minute, want 1", n)
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM one_time_tokens`); n != 1 {
			t.Fatalf("%d reset tokens were made, want 1", n)
		}
	})
}
