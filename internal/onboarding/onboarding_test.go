package onboarding

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"salaula/internal/account"
	"salaula/internal/analytics"
	"salaula/internal/apierr"
	"salaula/internal/media"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
	"salaula/internal/validate"
)

// The profile rules answer typed errors and store nothing they refuse.
func TestProfileRulesScenarios(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		files, err := media.NewLocal(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		logger := slog.New(slog.DiscardHandler)
		lib := &media.Library{Files: files, DB: db, Logger: logger}
		s := &Service{DB: db, Library: lib, Account: &account.Rules{DB: db, Media: files, Logger: logger},
			Stats: analytics.New(db, time.Now), Logger: logger}
		ctx := context.Background()
		const me = "0192f2a4-5b6c-7d8e-9f00-112233445566"

		// Before onboarding: only the id, the e-mail and a null role.
		p, err := s.Profile(ctx, me, "me@example.com")
		if err != nil {
			t.Fatal(err)
		}
		if np, ok := p.(noProfile); !ok || np.UserID != me || np.Role != nil {
			t.Fatalf("Profile before onboarding = %#v", p)
		}

		missing := "http://x" + media.PublicURLPrefix + media.Bucket + "/" + me + "/photos/none.jpg"
		for _, c := range []struct {
			name  string
			in    validate.ProfileInput
			kind  apierr.Kind
			field string
		}{
			{"another account's userId", validate.ProfileInput{UserID: "someone-else"}, apierr.Forbidden, ""},
			{"an empty payload", validate.ProfileInput{}, apierr.Invalid, "full_name"},
			{"an image never uploaded", validate.ProfileInput{UserID: me, Role: "buyer", FullName: "Chipo Mwale", Location: "Kabulonga, Lusaka",
				Age: []byte("24"), PhoneNumber: "+260 97 123 4567", Gender: "Female", Height: "165 cm", WaistSize: "28",
				StyleDescription: "Bright colours and vintage denim", ClothingAesthetics: []string{"STREET WEAR", "DENIM WEAR"},
				Inspiration: "Historical eras e.g. 90s", BodyPhotoURLs: []string{missing}, Terms: true},
				apierr.Invalid, "body_photo_urls"},
		} {
			_, err := s.SaveBuyer(ctx, me, c.in)
			e := apierr.As(err)
			if e == nil || e.Kind != c.kind || c.field != "" && e.Fields[c.field] == "" {
				t.Fatalf("%s: error %#v", c.name, err)
			}
			if c.field == "body_photo_urls" && e.Message != "Image "+me+"/photos/none.jpg was not found: please upload it again" {
				t.Fatalf("%s: message %q", c.name, e.Message)
			}
		}
		if _, err := s.SaveBuyer(ctx, me, validate.ProfileInput{UserID: "x"}); !errors.Is(err, ErrNotYourAccount) {
			t.Fatalf("another account: %v", err)
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM profiles`); n != 0 {
			t.Fatalf("%d profiles stored from refused payloads", n)
		}
	})
}
