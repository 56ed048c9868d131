package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"salaula/internal/config"
	"salaula/internal/seal"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
	"salaula/internal/token"
)

func TestAdminKeysRotateResetMFAAndGrantNotice(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			dataDir, env := t.TempDir(), engineEnv(t, engine)
			ctx := context.Background()
			var out bytes.Buffer
			if err := run(ctx, []string{"salaula", "admin", "keys", "rotate", "--data", dataDir}, envOf(env), &out, io.Discard); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "new signing key") {
				t.Fatalf("rotate output: %s", out.String())
			}
			cfg, _ := config.Parse("t", []string{"--data", dataDir}, envOf(env), io.Discard)
			db, err := openStore(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			keys, _ := db.SigningKeys(ctx)
			if len(keys) != 2 || keys[0].RetiredAt != nil || keys[1].RetiredAt == nil {
				t.Fatalf("keys after first start and a rotation: %+v", keys)
			}
			secret, _ := cfg.Secret()
			box, _ := seal.New(secret, token.SealPurpose)
			if kr, err := token.LoadES256(ctx, db, box, time.Hour, time.Now()); err != nil || kr.Current().ID != keys[0].ID || !kr.Has(keys[1].ID) {
				t.Fatalf("keyring after rotation: %v", err)
			}

			u := &store.User{Email: "op@example.com", PasswordHash: "x"}
			if err := db.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			if err := db.AddFactor(ctx, &store.Factor{UserID: u.ID, Type: "totp", Status: store.FactorVerified, SecretSealed: "s"}); err != nil {
				t.Fatal(err)
			}
			out.Reset()
			if err := run(ctx, []string{"salaula", "admin", "grant", "op@example.com", "--data", dataDir}, envOf(env), &out, io.Discard); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "walks them through enrolling an authenticator app") {
				t.Fatalf("grant output: %s", out.String())
			}
			out.Reset()
			if err := run(ctx, []string{"salaula", "admin", "reset-mfa", "OP@example.com", "--data", dataDir}, envOf(env), &out, io.Discard); err != nil {
				t.Fatal(err)
			}
			if f, _ := db.Factors(ctx, u.ID); len(f) != 0 || !strings.Contains(out.String(), "1 second factor(s) removed") {
				t.Fatalf("reset-mfa: %d factors left, output %s", len(f), out.String())
			}
			for _, args := range [][]string{{"reset-mfa"}, {"reset-mfa", "nobody@example.com"}, {"keys"}, {"keys", "delete"},
				{"keys", "revoke"}, {"keys", "revoke", "0123456789abcdef0123456789abcdef"}, {"keys", "revoke", ""}} {
				err := run(ctx, append([]string{"salaula", "admin"}, append(args, "--data", dataDir)...), envOf(env), io.Discard, io.Discard)
				if err == nil {
					t.Errorf("admin %v: no error", args)
				}
			}
			if after, _ := db.SigningKeys(ctx); len(after) != 2 || after[0].ID != keys[0].ID || after[1].ID != keys[1].ID {
				t.Fatalf("keys changed by refused commands: %+v", after)
			}
			hs := map[string]string{"SALAULA_JWT_SECRET": strings.Repeat("s", 40)}
			for k, v := range env {
				hs[k] = v
			}
			for _, args := range [][]string{{"rotate"}, {"revoke", keys[1].ID}, {"list"}} {
				err := run(ctx, append([]string{"salaula", "admin", "keys"}, append(args, "--data", dataDir)...), envOf(hs), io.Discard, io.Discard)
				if err == nil || !strings.Contains(err.Error(), "SALAULA_JWT_SECRET") {
					t.Fatalf("keys %v with a shared secret: %v", args, err)
				}
			}
		})
	}
}
