package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"salaula/internal/account"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

func TestAdminUserExportAndDelete(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			ctx := context.Background()
			dataDir, env := t.TempDir(), engineEnv(t, engine)
			if err := run(ctx, []string{"salaula", "migrate", "--data", dataDir}, envOf(env), io.Discard, io.Discard); err != nil {
				t.Fatal(err)
			}
			db, err := store.Open(ctx, env["DATABASE_URL"], dataDir)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			chipo := &store.User{Email: "chipo@example.com", PasswordHash: "x"}
			mwila := &store.User{Email: "mwila@example.com", PasswordHash: "x"}
			for _, u := range []*store.User{chipo, mwila} {
				if err := db.CreateUser(ctx, u); err != nil {
					t.Fatal(err)
				}
				if _, err := db.SaveBuyerProfile(ctx, u.ID, store.BuyerFields{FullName: "Name of " + u.Email, Age: 30}); err != nil {
					t.Fatal(err)
				}
			}
			photo := filepath.Join(dataDir, "media", "user-media", chipo.ID, "a.jpg")
			os.MkdirAll(filepath.Dir(photo), 0o750)
			os.WriteFile(photo, []byte("jpeg"), 0o640)
			db.RecordMediaObject(ctx, store.MediaObject{Key: "user-media/" + chipo.ID + "/a.jpg", ID: "1", OwnerID: chipo.ID, Size: 4, ContentType: "image/jpeg"})

			var out bytes.Buffer
			if err := run(ctx, []string{"salaula", "admin", "user", "export", " Chipo@Example.com", "--data", dataDir}, envOf(env), &out, io.Discard); err != nil {
				t.Fatal(err)
			}
			var x account.Export
			if err := json.Unmarshal(out.Bytes(), &x); err != nil {
				t.Fatalf("%v: %s", err, out.String())
			}
			if x.Account.Email != "chipo@example.com" || x.Profile == nil || x.Profile.FullName != "Name of chipo@example.com" ||
				len(x.Images) != 1 || strings.Contains(out.String(), "mwila") {
				t.Fatalf("export = %s", out.String())
			}

			out.Reset()
			if err := run(ctx, []string{"salaula", "admin", "user", "delete", "chipo@example.com", "--data", dataDir}, envOf(env), &out, io.Discard); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "chipo@example.com: account deleted, 1 file(s) removed") || !strings.Contains(out.String(), "profiles") {
				t.Errorf("output = %q", out.String())
			}
			if _, err := os.Stat(photo); !os.IsNotExist(err) {
				t.Errorf("photo still on disk: %v", err)
			}
			if _, err := db.UserByEmail(ctx, "chipo@example.com"); err != store.ErrNotFound {
				t.Errorf("account still there: %v", err)
			}
			if _, err := db.ProfileByUser(ctx, mwila.ID); err != nil {
				t.Errorf("the other profile: %v", err)
			}
			// Both actions are in the audit log the console shows, once each.
			rows, err := db.Query(ctx, `SELECT action, target_id, actor_email FROM audit_log ORDER BY created_at, action DESC`)
			if err != nil {
				t.Fatal(err)
			}
			var audited []string
			for rows.Next() {
				var action, target, actor string
				rows.Scan(&action, &target, &actor)
				audited = append(audited, action+" "+target+" by "+actor)
			}
			rows.Close()
			if got := strings.Join(audited, ", "); got != "user.export chipo@example.com by operator (command line), user.delete chipo@example.com by operator (command line)" {
				t.Errorf("audit log = %v", got)
			}

			// Unknown e-mail and missing arguments are clear errors.
			for args, want := range map[string]string{
				"admin user delete chipo@example.com":  "no account has the e-mail chipo@example.com",
				"admin user export nobody@example.com": "no account has the e-mail nobody@example.com",
				"admin user delete":                    "want `admin user export EMAIL` or `admin user delete EMAIL`",
				"admin user remove chipo@example.com":  "want `admin user export EMAIL`",
			} {
				err := run(ctx, append(append([]string{"salaula"}, strings.Fields(args)...), "--data", dataDir), envOf(env), io.Discard, io.Discard)
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("%s: err = %v, want %q", args, err, want)
				}
			}
		})
	}
}
