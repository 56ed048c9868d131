package server

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"salaula/internal/mail"
	"salaula/internal/media"
	"salaula/internal/media/mediatest"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// newS3Env is a server like newTestEnv's whose media live in a fresh bucket
// of the real S3 gateway the tests run (versitygw).
func newS3Env(t *testing.T, db *store.DB) *testEnv {
	t.Helper()
	base := newTestEnv(t, db, nil)
	s3cfg := mediatest.NewS3(t)
	base.Config.S3 = s3cfg
	m, err := media.Open(s3cfg, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	mailer, err := mail.New(db, base.Config.MailFrom, "", logger)
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(Deps{Config: base.Config, DB: db, Secret: testSecret, Mailer: mailer, Media: m, Logger: logger, App: testApp})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &testEnv{Server: srv, DB: db, Config: base.Config}
}

func TestStorageAndOnboardingOnS3(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		env := newS3Env(t, db)
		u := newUser(t, env, "s3@example.com")
		png := testPNG(t)
		path := u.ID + "/photos/1700000000-me.png"
		url := env.mustUpload(t, u, path, png)
		wantStatus(t, env.upload(t, u, path, png, false), http.StatusConflict)
		res, got := env.get(t, url[len(env.URL):], nil)
		wantStatus(t, res, http.StatusOK)
		if !bytes.Equal(got, png) || res.Header.Get("Content-Type") != "image/png" || res.Header.Get("ETag") == "" {
			t.Fatalf("read back %d bytes as %v", len(got), res.Header)
		}
		res, part := env.get(t, url[len(env.URL):], map[string]string{"Range": "bytes=1-3"})
		if res.StatusCode != http.StatusPartialContent || string(part) != "PNG" {
			t.Fatalf("range: %d %q", res.StatusCode, part)
		}
		res, _ = env.get(t, "/storage/v1/object/public/user-media/"+u.ID+"/photos/none.png", nil)
		wantStatus(t, res, http.StatusNotFound)

		// Onboarding checks the object exists in S3, and a replaced photo is deleted there.
		wantStatus(t, env.do(t, http.MethodPost, "/functions/v1/onboard-new-user", validProfile(u, url+"x"), u.auth(env)), http.StatusBadRequest)
		wantStatus(t, env.do(t, http.MethodPost, "/functions/v1/onboard-new-user", validProfile(u, url), u.auth(env)), http.StatusOK)
		second := env.mustUpload(t, u, u.ID+"/photos/2.png", png)
		wantStatus(t, env.do(t, http.MethodPost, "/functions/v1/onboard-new-user", validProfile(u, second), u.auth(env)), http.StatusOK)
		if keys := mediatest.Keys(t, env.Config.S3); len(keys) != 1 || keys[0] != "user-media/"+u.ID+"/photos/2.png" {
			t.Fatalf("S3 holds %v, want only the current photo", keys)
		}
	})
}
