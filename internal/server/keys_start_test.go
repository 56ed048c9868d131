package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"

	"salaula/internal/config"
	"salaula/internal/mail"
	"salaula/internal/media"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// Two instances starting at once on one database with no signing key yet
// store one key between them, and both hand out the same anon key from
// their first /config.json.
func TestInstancesStartingTogetherMakeOneSigningKey(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			var dbURL, dataDir string
			if engine == store.Postgres {
				dbURL = storetest.NewPostgresDatabase(t)
			} else {
				dataDir = t.TempDir()
			}
			ctx := context.Background()
			var dbs [2]*store.DB
			for i := range dbs {
				db, err := store.Open(ctx, dbURL, dataDir)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { db.Close() })
				if _, err := db.Migrate(ctx); err != nil {
					t.Fatal(err)
				}
				dbs[i] = db
			}
			var urls [2]string
			var errs [2]error
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i, db := range dbs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					cfg, err := config.Parse("serve", nil, func(string) string { return "" }, io.Discard)
					if err != nil {
						errs[i] = err
						return
					}
					cfg.DataDir = t.TempDir()
					st, err := media.NewLocal(filepath.Join(cfg.DataDir, "media"))
					if err != nil {
						errs[i] = err
						return
					}
					logger := slog.New(slog.DiscardHandler)
					mailer, err := mail.New(db, cfg.MailFrom, "", logger)
					if err != nil {
						errs[i] = err
						return
					}
					<-start
					h, err := New(Deps{Config: cfg, DB: db, Secret: testSecret, Mailer: mailer, Media: st, Logger: logger, App: testApp})
					if err != nil {
						errs[i] = err
						return
					}
					srv := httptest.NewServer(h)
					t.Cleanup(srv.Close)
					urls[i] = srv.URL
				}()
			}
			close(start)
			wg.Wait()
			var anon [2]string
			for i := range urls {
				if errs[i] != nil {
					t.Fatalf("instance %d: %v", i, errs[i])
				}
				res, err := http.Get(urls[i] + "/config.json")
				if err != nil {
					t.Fatal(err)
				}
				var c struct{ AnonKey string }
				err = json.NewDecoder(res.Body).Decode(&c)
				res.Body.Close()
				if err != nil || res.StatusCode != http.StatusOK {
					t.Fatalf("/config.json: %d %v", res.StatusCode, err)
				}
				anon[i] = c.AnonKey
			}
			if n := storetest.Count(t, dbs[0], `SELECT COUNT(*) FROM signing_keys`); n != 1 || anon[0] != anon[1] {
				t.Fatalf("%d signing keys stored; anon keys %q and %q", n, anon[0], anon[1])
			}
		})
	}
}
