package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

func TestAdminSettingsSetAndShow(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			ctx := context.Background()
			dataDir, env := t.TempDir(), engineEnv(t, engine)
			cmd := func(args ...string) (string, error) {
				var out bytes.Buffer
				err := run(ctx, append(append([]string{"salaula", "admin", "settings"}, args...), "--data", dataDir), envOf(env), &out, io.Discard)
				return out.String(), err
			}
			out, err := cmd("show")
			if err != nil || !strings.Contains(out, "phone = \n") || !strings.Contains(out, "team.1.name = Mwila Chanda\n") {
				t.Fatalf("show: %v\n%s", err, out)
			}
			out, err = cmd("set", "phone", "097 712 3456")
			if err != nil || out != "phone = +260977123456\n" {
				t.Fatalf("set: %v %q", err, out)
			}
			for _, bad := range [][]string{{"set", "phone", "+44 20 7946 0958"}, {"set", "colour", "green"}, {"set", "team.1.name", " "}, {"set", "phone"}} {
				if _, err := cmd(bad...); err == nil {
					t.Fatalf("%v accepted", bad)
				} else if !strings.Contains(err.Error(), "Zambian") && !strings.Contains(err.Error(), "Unknown setting") &&
					!strings.Contains(err.Error(), "cannot be empty") && !strings.Contains(err.Error(), "want `admin settings") {
					t.Fatalf("%v: unhelpful error %v", bad, err)
				}
			}
			out, _ = cmd("show")
			if !strings.Contains(out, "phone = +260977123456\n") {
				t.Fatalf("show after set:\n%s", out)
			}
			db, err := store.Open(ctx, env["DATABASE_URL"], dataDir)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			var n int
			var action, target, actor string
			db.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log`).Scan(&n)
			db.QueryRow(ctx, `SELECT action, target_id, actor_email FROM audit_log`).Scan(&action, &target, &actor)
			if n != 1 || action != "settings.update" || target != "phone" || actor != "command line" {
				t.Fatalf("audit: %d rows, %s %s %s", n, action, target, actor)
			}
		})
	}
}
