package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"testing"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

func TestAdminExportProfilesJoinsTheAccountEmail(t *testing.T) {
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
			buyer := &store.User{Email: "chipo@example.com", PasswordHash: "x"}
			both := &store.User{Email: "mwila@example.com", PasswordHash: "x"}
			noProfile := &store.User{Email: "lurker@example.com", PasswordHash: "x"}
			for _, u := range []*store.User{buyer, both, noProfile} {
				if err := db.CreateUser(ctx, u); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.SaveBuyerProfile(ctx, buyer.ID, store.BuyerFields{FullName: "=HYPERLINK(\"http://evil\")", Age: 24,
				ClothingAesthetics: []string{"STREET WEAR", "DENIM WEAR"}, BodyPhotoURLs: []string{"https://s.example/a.jpg"}}); err != nil {
				t.Fatal(err)
			}
			reg := "PACRA-1"
			if _, err := db.SaveSellerProfile(ctx, both.ID, store.SellerFields{FullName: "Mwila Banda", BusinessName: "Mwila Thrift",
				RegistrationNumber: &reg, BusinessMode: "Street Vendor", LogoURLs: []string{"https://s.example/l.png"}}); err != nil {
				t.Fatal(err)
			}
			if _, err := db.SaveBuyerProfile(ctx, both.ID, store.BuyerFields{FullName: "Mwila Banda", Height: "180 cm"}); err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := run(ctx, []string{"salaula", "admin", "export", "profiles", "--data", dataDir}, envOf(env), &out, io.Discard); err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(&out).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != 3 {
				t.Fatalf("rows = %v, want header and 2 profiles", rows)
			}
			col := map[string]int{}
			for i, h := range rows[0] {
				col[h] = i
			}
			first, second := rows[1], rows[2]
			checks := []struct{ got, want string }{
				{first[col["email"]], "chipo@example.com"}, {first[col["role"]], "buyer"},
				{first[col["full_name"]], "'=HYPERLINK(\"http://evil\")"}, {first[col["age"]], "24"},
				{first[col["clothing_aesthetics"]], "STREET WEAR | DENIM WEAR"},
				{first[col["body_photo_urls"]], "https://s.example/a.jpg"},
				{second[col["email"]], "mwila@example.com"}, {second[col["role"]], "buyer_and_seller"},
				{second[col["business_name"]], "Mwila Thrift"}, {second[col["registration_number"]], "PACRA-1"},
				{second[col["height"]], "180 cm"}, {second[col["logo_urls"]], "https://s.example/l.png"},
			}
			for _, c := range checks {
				if c.got != c.want {
					t.Errorf("cell %q, want %q", c.got, c.want)
				}
			}
		})
	}
}
